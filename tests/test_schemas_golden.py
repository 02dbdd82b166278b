"""Every golden binary decodes with the generated Construct codec AND the Kaitai parser; the two
agree field by field, agree with the sidecar, and the codec rebuilds the exact bytes."""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import pytest
from conftest import GOLDEN, GOLDEN_09, GOLDEN_LATEST, latest_cases, load_json
from pyroaring import BitMap

from paimon_codec import formats as F

pytestmark = pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden vectors not found at {GOLDEN}")

KIND_TO_FORMAT = {
    "bitmap": "bitmap",
    "range-bitmap": "range-bitmap",
    "bsi": "bsi",
    "bloom-filter": "bloom-filter",
    "dv-bin": "deletion-vector",
    "dv-file": "deletion-vectors",
    "hash-index": "hash-index",
    "file-index-container": "file-index",
}


def _cases():
    if not GOLDEN_LATEST.is_dir():
        return []
    return [pytest.param(c, id=c["case"]) for c in latest_cases()]


def decode_both(fmt: str, data: bytes, key_kind: str | None = None):
    """Construct and Kaitai decodings in plain form; asserts agreement and exact rebuild."""
    spec = F.get(fmt)
    obj = spec.decode(data, key_kind=key_kind)
    assert spec.build(obj, key_kind=key_kind) == data, "build(parse(b)) != b"
    c = F.plain(obj, full_bytes=True)
    k = F.plain(spec.parse_kaitai(data, key_kind=key_kind), full_bytes=True)
    assert_same(c, k)
    return obj, c


def assert_same(a, b, path="$", json_numbers=False):
    """Field for field.  ``json_numbers``: ``b`` came through JSON, where a float may arrive as an int
    (``1.0`` as ``1``): numbers are compared as values, the sign of zero and NaN included."""
    if json_numbers and (isinstance(a, float) or isinstance(b, float)):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), f"{path}: {a!r} != {b!r}"
        fa, fb = float(a), float(b)
        same = (math.isnan(fa) and math.isnan(fb)) or (fa == fb and math.copysign(1, fa) == math.copysign(1, fb))
        assert same, f"{path}: {a!r} != {b!r}"
        return
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert a.keys() == b.keys(), f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            assert_same(a[k], b[k], f"{path}.{k}", json_numbers)
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            assert_same(x, y, f"{path}[{i}]", json_numbers)
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def key_eq(ours, theirs) -> bool:
    if isinstance(theirs, str) and theirs in ("NaN", "Infinity", "-Infinity"):
        return isinstance(ours, str) or (isinstance(ours, float) and (math.isnan(ours) or math.isinf(ours)))
    if isinstance(ours, float) or isinstance(theirs, float):
        return float(ours) == float(theirs) or math.isclose(float(ours), float(theirs), rel_tol=1e-6)
    if isinstance(theirs, bool):
        return bool(ours) == theirs
    return ours == theirs


def positions_of(pset: dict) -> list[int]:
    if "ranges" in pset:
        return [p for s, e in pset["ranges"] for p in range(s, e)]
    bits = bytes.fromhex(pset["bitset_hex"])
    return [i for i in range(len(bits) * 8) if bits[i >> 3] >> (i & 7) & 1]


def dv_positions(bin_obj) -> list[int]:
    if bin_obj["magic"] == 0x5E43F2D0:
        return list(BitMap.deserialize(bytes(bin_obj["bitmap"]["roaring"])))
    out: list[int] = []
    for b in bin_obj["bitmap"]["bitmaps"]:
        out += [(b["key"] << 32) | v for v in BitMap.deserialize(bytes(b["roaring"]))]
    return out


# ---------------------------------------------------------------------------------------------
# paimon-latest


@pytest.mark.parametrize("case", _cases())
def test_latest_golden(case):
    side = load_json(case["json"])
    data = Path(case["file"]).read_bytes()
    fmt = KIND_TO_FORMAT[case["kind"]]
    assert F.get(fmt).needs_key_kind == (fmt in ("bitmap", "range-bitmap"))
    kk = F.key_kind_for(side["type_root"]) if F.get(fmt).needs_key_kind else None
    obj, p = decode_both(fmt, data, kk)
    check = globals()["_check_" + fmt.replace("-", "_")]
    check(obj, p, side, data)


def _check_bitmap(obj, p, side, data):
    m = side["expected_meta"]
    for k in ("version", "row_count", "non_null_bitmap_number"):
        assert p[k] == m[k], k
    assert bool(p["has_null_value"]) == m["has_null_value"]
    if m["has_null_value"]:
        assert p["null_value_offset"] == m["null_value_offset"]
    assert len(data) - p["body"]["length"] == m["body_start"]
    if m["version"] == 1:
        got = [[e["key"], e["offset"]] for e in p["entries"]]
        want = m["entries_in_file_order"]
        assert len(got) == len(want)
        assert all(key_eq(g[0], w[0]) and g[1] == w[1] for g, w in zip(got, want, strict=True))
    else:
        if m["has_null_value"]:
            assert p["null_bitmap_length"] == m["null_bitmap_length"]
        heads = p["v2_head"]["block_heads"]
        blocks = p["index_blocks"]["blocks"]
        assert len(heads) == len(blocks) == len(m["index_blocks"])
        assert m["body_start"] - m["index_block_start"] == p["v2_head"]["bitmap_body_offset"]
        for h, b, w in zip(heads, blocks, m["index_blocks"], strict=True):
            assert key_eq(h["key"], w["first_key"]) and h["block_offset"] == w["offset"]
            assert len(b["entries"]) == b["entry_count"] == len(w["entries"])
            for e, we in zip(b["entries"], w["entries"], strict=True):
                assert key_eq(e["key"], we[0]) and [e["offset"], e["length"]] == we[1:]
            # each block is loadable on its own from its positioned offset
            from paimon_codec.generated.construct.bitmap_index import IndexBlock

            start = m["index_block_start"] + h["block_offset"]
            alone = IndexBlock.parse(data[start:], key_kind=F.key_kind_for(side["type_root"]))
            assert F.plain(alone) == F.plain(obj["index_blocks"]["blocks"][blocks.index(b)])


def _check_range_bitmap(obj, p, side, data):
    m = side["expected_meta"]
    h = p["header"]
    assert p["header_length"] == m["header_length"]
    for k in ("version", "row_count", "cardinality", "dictionary_length"):
        assert h[k] == m[k], k
    if m["cardinality"]:
        assert key_eq(h["min"], m["min"]) and key_eq(h["max"], m["max"])
    d = p["dictionary"]
    assert d["dict_header"]["chunk_count"] == len(d["chunks"]["chunks"]) == len(d["offsets"])
    if "dictionary" not in m:  # no keys at all: an empty dictionary, and a BSI with 64 empty slices
        assert d["dict_header"]["chunk_count"] == 0
        assert p["bsi"]["bsi_header"]["slice_count"] == 64
        return
    md = m["dictionary"]
    assert d["dict_header"]["chunk_count"] == md["chunks"]
    assert d["dict_header"]["offsets_length"] == md["offsets_length"]
    assert d["dict_header"]["chunks_length"] == md["chunks_length"]
    for c, w in zip(d["chunks"]["chunks"], md["chunk_headers"], strict=True):
        assert key_eq(c["key"], w["key"])
        for k in ("code", "keys_offset", "size", "keys_length"):
            assert c[k] == w[k], k
        if w["class"] == "FixedLengthChunk":
            assert c["fixed_length"] == w["fixed_length"] and c["offsets_length"] is None
        else:
            assert c["offsets_length"] == w["offsets_length"] and c["fixed_length"] is None
    b, mb = p["bsi"], m["bsi"]
    assert b["bsi_header"]["slice_count"] == mb["slices"]
    assert b["bsi_header"]["ebm_length"] == mb["ebm_length"] == b["ebm"]["length"]
    assert [[s["offset"], s["length"]] for s in b["bsi_header"]["slice_refs"]] == mb["slice_offset_length"]
    assert len(data) - b["slices"]["length"] - b["ebm"]["length"] == mb["body_offset"]


def _check_bloom_filter(obj, p, side, data):
    m = side["expected_meta"]
    assert p["num_hash_functions"] == m["num_hash_functions"]
    assert 8 * len(obj["bit_set"]) == m["num_bits"]


def _check_bsi(obj, p, side, data):
    assert p["row_count"] == side["row_count"]
    assert p["version"] == 1
    for part in ("positive", "negative"):
        if p[part] is not None:
            assert p[part]["slice_count"] == len(p[part]["slices"])
            assert p[part]["min"] == 0


def _check_file_index(obj, p, side, data):
    m = side["expected_head"]
    assert p["head_length"] == m["head_length"] and p["version"] == m["version"]
    assert int.from_bytes(bytes.fromhex(p["magic"]["hex"]), "big") == m["magic"]
    got = {c["column_name"]: {i["index_type"]: (i["start"], i["length"]) for i in c["indexes"]} for c in p["columns"]}
    want = {c["column"]: {i["index_type"]: (i["start"], i["length"]) for i in c["indexes"]}
            for c in m["columns_unordered"]}
    assert got == want
    for c in obj["columns"]:
        for i in c["indexes"]:
            if i["start"] >= 0:
                assert i["payload"] == data[i["start"]:i["start"] + i["length"]]
            else:
                assert i["payload"] is None and i["length"] == 0


def _check_deletion_vector(obj, p, side, data):
    assert p["size"] == side["size_field"] == len(data) - 8
    assert data[4:8].hex() == side["magic_bytes_hex"]
    assert p["crc"] & 0xFFFFFFFF == side["crc32"] == zlib.crc32(data[4:-4])
    assert (p["bin"]["magic"] == 0xD1D33964) == side["bitmap64"]
    assert sorted(dv_positions(obj["bin"])) == positions_of(side["positions"])


def _check_deletion_vectors(obj, p, side, data):
    assert p["version"] == side["version_byte"] == 1
    ranges = side["dv_ranges"]
    assert len(p["entries"]) == len(ranges) == side["row_count"]
    offset = 1
    for e, r in zip(obj["entries"], ranges, strict=True):
        assert offset == r["offset"]
        is64 = e["bin"]["magic"] == 0xD1D33964
        assert r["length"] == (e["size"] + 8 if is64 else e["size"])
        pos = sorted(dv_positions(e["bin"]))
        assert len(pos) == r["cardinality"]
        assert pos == positions_of(r["positions"])
        offset += e["size"] + 8


def _check_hash_index(obj, p, side, data):
    # the file holds the distinct hashes in first-appearance order
    assert obj["hashes"].tolist() == list(dict.fromkeys(side["hashes"]))


# ---------------------------------------------------------------------------------------------
# paimon-0.9


def _files_09(sub: str, pattern: str) -> list:
    d = GOLDEN_09 / sub
    return [pytest.param(p, id=p.name) for p in sorted(d.glob(pattern))] if d.is_dir() else []


@pytest.mark.parametrize("path", _files_09("file_index", "*.index"))
def test_09_file_index(path):
    data = path.read_bytes()
    side_path = path.with_suffix(".json")
    side = load_json(side_path if side_path.exists() else path.with_suffix(".json.gz"))
    assert F.detect(data) == "file-index"
    obj, p = decode_both("file-index", data)
    assert p["head_length"] == side["java_head_length"]
    got = {c["column_name"]: {i["index_type"]: [i["start"], i["length"]] for i in c["indexes"]} for c in p["columns"]}
    assert got == side["java_header"]
    types = {c["name"]: c["type"] for c in side["columns"]}
    internals = side.get("java_index_internals", {})
    for c in obj["columns"]:
        for i in c["indexes"]:
            if i["payload"] is None:
                continue
            name = f"{c['column_name']}/{i['index_type']}"
            if i["index_type"] == "bitmap":
                kk = F.key_kind_for(types[c["column_name"]])
                _, bp = decode_both("bitmap", i["payload"], kk)
                ji = internals.get(name)
                if ji:
                    for k in ("version", "row_count", "non_null_bitmap_number"):
                        assert bp[k] == ji[k]
                    assert bool(bp["has_null_value"]) == ji["has_null_value"]
                    if ji.get("dictionary_in_file_order"):  # omitted above 2000 entries
                        assert len(bp["entries"]) == len(ji["dictionary_in_file_order"])
                        for e, w in zip(bp["entries"], ji["dictionary_in_file_order"], strict=True):
                            assert e["offset"] == w[1]
                            if not isinstance(w[0], list):  # timestamps are [millis, nanos] there
                                assert key_eq(e["key"], w[0])
                    assert i["start"] + len(i["payload"]) - bp["body"]["length"] == ji["body_start_in_file"]
            elif i["index_type"] == "bloom-filter":
                _, bp = decode_both("bloom-filter", i["payload"])
                ji = internals.get(name)
                if ji:
                    assert bp["num_hash_functions"] == ji["num_hash_functions"]
                    assert bp["bit_set"]["length"] * 8 == ji["num_bits"]


@pytest.mark.parametrize("path", _files_09("deletion_vectors", "index-*"))
def test_09_deletion_vectors(path):
    data = path.read_bytes()
    case = path.name[len("index-"):].rsplit("-", 1)[0]
    side = load_json(path.parent / f"{case}.json")
    assert F.detect(data) == "deletion-vectors"
    obj, p = decode_both("deletion-vectors", data)
    want = side.get("deletion_vectors")
    if want is not None and side.get("files") is None and len(list(path.parent.glob(f"index-{case}-*"))) == 1:
        assert len(obj["entries"]) == len(want)
        for e, w in zip(obj["entries"], want, strict=True):
            pos = sorted(dv_positions(e["bin"]))
            assert len(pos) == w["cardinality"]
            if "arith" in w:
                assert pos == list(range(*w["arith"]))
            else:
                assert pos == [x for s, t in w["ranges"] for x in range(s, t)]
    for e in obj["entries"]:
        assert e["crc"] & 0xFFFFFFFF == zlib.crc32(F.get("deletion-vector").build(
            {"size": e["size"], "bin": e["bin"], "crc": e["crc"]})[4:-4])


@pytest.mark.parametrize("path", _files_09("hash_index", "index-*"))
def test_09_hash_index(path):
    data = path.read_bytes()
    case = path.name[len("index-"):].rsplit("-", 1)[0]
    side = load_json(path.parent / f"{case}.json")
    obj, _ = decode_both("hash-index", data)
    assert obj["hashes"].tolist() == side["hashes"]


def _warehouse_files() -> list:
    root = GOLDEN_09 / "warehouse" / "warehouse" / "golden.db"
    if not root.is_dir():
        return []
    files = sorted(root.glob("*/index/index-*")) + sorted(root.glob("*/bucket-*/*.index"))
    return [pytest.param(p, id=f"{p.parent.parent.name}/{p.name}") for p in files]


@pytest.mark.parametrize("path", _warehouse_files())
def test_09_warehouse_index_files(path):
    data = path.read_bytes()
    fmt = F.detect(data)
    if path.suffix == ".index":
        assert fmt == "file-index"
    elif fmt is None:
        fmt = "hash-index"
    else:
        assert fmt == "deletion-vectors"
    decode_both(fmt, data)
