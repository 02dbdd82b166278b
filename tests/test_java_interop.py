"""Paimon 0.9's own Java code (JPype, one JVM per session) reads what we write, and agrees with us.

Part A checks the bridge itself against the 0.9 golden files (Java rebuilds them byte-for-byte and
reads them to the sidecar answers), so a disagreement in part B is ours, not the bridge's.
Part B: our writers' output is read by Java (file-index containers, DV index files, hash index
files), Java's writers and ours give identical bytes on random inputs, and BinaryRow hashes /
buckets agree.  Skips only when Java or the Paimon jar cannot be obtained.
"""

from __future__ import annotations

import decimal
import importlib
import math
import os
import random
import struct

import numpy as np
import pyarrow as pa
import pytest
from conftest import GOLDEN_09, load_json
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracles.java09 import JavaUnavailable, paimon_java
from pyroaring import BitMap

from paimon_codec.fileindex.result import BitmapResult
from paimon_codec.positions import bitmap_from_ranges
from paimon_codec.types import Field, RowType, parse_row_type, parse_type
from paimon_codec.values import Timestamp, from_json

pytestmark = pytest.mark.java

FI = GOLDEN_09 / "file_index"
DV = GOLDEN_09 / "deletion_vectors"
HASH = GOLDEN_09 / "hash_index"
BINROW = GOLDEN_09 / "binary_row"


@pytest.fixture(scope="module")
def java():
    try:
        return paimon_java()
    except JavaUnavailable as exc:
        pytest.fail(f"Paimon 0.9 Java unavailable: {exc}", pytrace=False)


def _ours(module: str):
    """Import one of our modules (a missing one is an error, never a skip)."""
    return importlib.import_module(module)


# ============================================================================ A. the bridge vs goldens


def _sidecar(case: str) -> dict:
    for suffix in (".json", ".json.gz"):
        p = FI / (case + suffix)
        if p.exists():
            return load_json(p)
    raise FileNotFoundError(case)


def _rows(sc: dict, row_type: RowType) -> dict[str, list]:
    raw = sc["rows"] if "rows" in sc else load_json(FI / sc["rows_file"])
    return {f.name: [from_json(f.type, v) for v in raw[f.name]] for f in row_type.fields}


def _row_type(sc: dict) -> RowType:
    return parse_row_type(sc["columns"])


def _literals_to_python(tree: dict, row_type: RowType) -> dict:
    """A sidecar ``pred`` with its JSON literals decoded to our Python values."""
    if tree["op"] in ("and", "or"):
        return dict(tree, children=[_literals_to_python(c, row_type) for c in tree["children"]])
    dt = row_type.field(tree["col"]).type
    out = dict(tree)
    if "literal" in tree:
        out["literal"] = from_json(dt, tree["literal"])
    if "literals" in tree:
        out["literals"] = [from_json(dt, v) for v in tree["literals"]]
    return out


JAVA_REBUILD_CASES = ["fi_int_bigint_bitmap", "fi_string_bitmap", "fi_tinyint_smallint_bitmap",
                      "fi_date_timestamp_bitmap", "fi_bloom_many_types", "fi_single_row", "fi_all_null",
                      "fi_empty_index_flag", "fi_multi_column_combos"]


@pytest.mark.parametrize("case", JAVA_REBUILD_CASES)
def test_bridge_rebuilds_golden_container(java, case):
    """Java, fed the sidecar rows through our value conversion, writes the golden file byte-for-byte."""
    sc = _sidecar(case)
    rt = _row_type(sc)
    rows = _rows(sc, rt)
    blobs: dict[str, dict[str, bytes | None]] = {}
    for req in sc["indexes_requested"]:
        col, kind = req["column"], req["type"]
        payload = None
        if not req.get("force_empty"):
            payload = java.build_index(kind, rt.field(col).type, rows[col], req.get("options"))
        blobs.setdefault(col, {})[kind] = payload
    data = java.write_container(blobs)
    assert data == (FI / sc["file"]).read_bytes()


@pytest.mark.parametrize("case", JAVA_REBUILD_CASES)
def test_bridge_reads_golden_container(java, case):
    """Java's header parse and predicate results on the golden file equal the sidecar's."""
    sc = _sidecar(case)
    rt = _row_type(sc)
    data = (FI / sc["file"]).read_bytes()
    header = java.container_header(data, rt)
    assert header == {c: {t: tuple(v) for t, v in per.items()} for c, per in sc["java_header"].items()}
    for p in sc["predicates"]:
        tree = _literals_to_python(p["pred"], rt)
        assert java.test_predicate(data, rt, tree) == p.get("java_test_predicate",
                                                            p.get("java_test_predicate_by_reader_order"))
        got = java.evaluate(data, rt, tree).to_dict()
        if "java_result" in p:
            want = [p["java_result"]]
        else:
            want = list(p["java_result_by_reader_order"].values())
        want = [{k: v for k, v in w.items() if k != "remain"} for w in want]
        assert got in want, (p["id"], p["pred"])


def _dv_positions(d: dict) -> BitMap:
    if "arith" in d:
        return BitMap(range(*d["arith"]))
    return bitmap_from_ranges(d["ranges"])


def test_bridge_rebuilds_golden_dv_files(java, tmp_path):
    for case in ("dv_basic", "dv_rollover", "dv_million"):
        sc = load_json(DV / f"{case}.json")
        dvs = {d["name"]: _dv_positions(d) for d in sc["deletion_vectors"]}
        out = tmp_path / case
        metas = java.write_deletion_vectors(out, dvs, target_size=sc["target_size_per_index_file"])
        assert len(metas) == len(sc["java_index_files"])
        for meta, want in zip(metas, sc["java_index_files"], strict=True):
            assert (out / meta["file_name"]).read_bytes() == (DV / want["file_name"]).read_bytes()
            assert [[k, *v] for k, v in meta["ranges"].items()] == want["deletion_vectors_ranges"]
            back = java.read_all_deletion_vectors(DV, want["file_name"], meta["ranges"])
            for name, bm in back.items():
                assert bm == dvs[name]


def test_bridge_hash_index_and_binary_rows(java, tmp_path):
    sc = load_json(HASH / "hash_small.json")
    name = java.write_hash_index(tmp_path, sc["hashes"])
    assert (tmp_path / name).read_bytes() == (HASH / sc["file"]).read_bytes()
    assert java.read_hash_index(HASH, sc["file"]).tolist() == sc["hashes"]
    for path in sorted(BINROW.glob("*.json")):
        sc = load_json(path)
        types = [parse_type(t) for t in sc["key_types"]]
        for row in sc["rows"]:
            key = [from_json(t, v) for t, v in zip(types, row["key"], strict=True)]
            data, h = java.binary_row(types, key)
            assert data.hex() == row["binary_row_hex"]
            assert h == row["hash_code"]
            for n, b in row["fixed_bucket"].items():
                assert java.bucket(h, int(n)) == b


# ============================================================================ B. Java reads what we write

# ---------------------------------------------------------------------------- deletion vectors

_MAX_POS_32 = 2**31 - 1


def _random_positions(rng: np.random.Generator) -> np.ndarray:
    """One data file's deleted positions, drawn to hit every Roaring container kind and edge."""
    kind = int(rng.integers(0, 7))
    if kind == 0:
        return np.zeros(0, np.int64)
    if kind == 1:  # a single position, possibly the largest allowed
        return np.array([rng.choice([0, 65535, 65536, _MAX_POS_32, int(rng.integers(0, _MAX_POS_32))])])
    if kind == 2:  # sparse (array containers)
        return rng.integers(0, 10**6, size=int(rng.integers(1, 3000)))
    if kind == 3:  # long runs (run containers), crossing 64k chunk boundaries
        start = int(rng.integers(0, 2**20))
        return np.arange(start, start + int(rng.integers(1, 150_000)))
    if kind == 4:  # > 4096 values in one chunk (bitmap container)
        chunk = int(rng.integers(0, 2**15))
        return chunk * 65536 + rng.choice(65536, size=int(rng.integers(4097, 30000)), replace=False)
    if kind == 5:  # every k-th row (bitmap containers that are not runs)
        k = int(rng.integers(2, 9))
        return np.arange(int(rng.integers(0, 1000)), 200_000, k)
    # a mix near the top of the 32-bit range
    return np.concatenate([_MAX_POS_32 - np.arange(int(rng.integers(1, 5000))),
                           rng.integers(2**30, _MAX_POS_32, size=int(rng.integers(1, 500)))])


def _random_dv_input(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {f"data-{seed}-{i:02d}.parquet": np.unique(_random_positions(rng))
            for i in range(int(rng.integers(1, 9)))}


def _bm(arr: np.ndarray) -> BitMap:
    return BitMap(arr.astype(np.uint32))


@pytest.mark.parametrize("seed,target_size", [(1, "2 mb"), (2, "1 kb"), (3, "16 kb"), (4, "1 b"), (5, "64 kb")])
def test_dv_index_files_we_write_are_read_by_java(java, tmp_path, seed, target_size):
    index_file = _ours("paimon_codec.dv.index_file")
    from paimon_codec.dv import DeletionVector

    inputs = _random_dv_input(seed)
    ours = index_file.write_dv_index(tmp_path / "ours", {n: DeletionVector.from_array(a) for n, a in inputs.items()},
                                     target_size=target_size, name_factory=lambda n: f"index-ours-{n}")
    seen = {}
    for meta in ours:
        ranges = {r.data_file: (r.offset, r.length) for r in meta.ranges}
        back = java.read_all_deletion_vectors(tmp_path / "ours", meta.file_name, ranges, meta.file_size)
        assert set(back) == set(ranges)
        for name, (off, length) in ranges.items():
            assert back[name] == _bm(inputs[name]), name
            one = java.read_deletion_vector(tmp_path / "ours" / meta.file_name, off, length)
            assert one == back[name]
        seen.update(back)
    assert set(seen) == set(inputs)

    # Java's writer on the same input: the same files, byte for byte, and the same ranges
    theirs = java.write_deletion_vectors(tmp_path / "java", inputs, target_size=target_size)
    assert len(theirs) == len(ours)
    for mine, jmeta in zip(ours, theirs, strict=True):
        assert (tmp_path / "ours" / mine.file_name).read_bytes() == (tmp_path / "java" / jmeta["file_name"]).read_bytes()
        assert {r.data_file: (r.offset, r.length) for r in mine.ranges} == jmeta["ranges"]
        assert (mine.file_size, mine.row_count) == (jmeta["file_size"], jmeta["row_count"])
        for r in mine.ranges:
            assert r.cardinality == len(inputs[r.data_file])


def test_empty_dv_input_matches_java(java, tmp_path):
    index_file = _ours("paimon_codec.dv.index_file")
    ours = index_file.write_dv_index(tmp_path / "ours", {}, name_factory=lambda n: f"index-ours-{n}")
    theirs = java.write_deletion_vectors(tmp_path / "java", {})
    assert len(ours) == len(theirs) == 1
    assert (tmp_path / "ours" / ours[0].file_name).read_bytes() == (tmp_path / "java" / theirs[0]["file_name"]).read_bytes()
    assert java.read_all_deletion_vectors(tmp_path / "ours", ours[0].file_name, {}) == {}


# ---------------------------------------------------------------------------- hash index


@pytest.mark.parametrize("size", [0, 1, 7, 1000, 100_000])
def test_hash_index_files_we_write_are_read_by_java(java, tmp_path, size):
    hash_index = _ours("paimon_codec.bucket.hash_index")
    rng = np.random.default_rng(size)
    ints = rng.integers(-(2**31), 2**31, size=size, dtype=np.int64).astype(np.int32)
    if size >= 7:
        ints[:4] = [0, -1, 2**31 - 1, -(2**31)]
    (tmp_path / "ours").mkdir()
    assert hash_index.write_hash_index(tmp_path / "ours" / "index-ours-0", ints) == size
    back = java.read_hash_index(tmp_path / "ours", "index-ours-0")
    assert np.array_equal(back, ints)
    name = java.write_hash_index(tmp_path / "java", ints)
    assert (tmp_path / "java" / name).read_bytes() == hash_index.encode_hash_index(ints)
    assert np.array_equal(hash_index.read_hash_index(tmp_path / "java" / name), ints)


# ---------------------------------------------------------------------------- BinaryRow hash, bucket


def _random_key_value(rng: random.Random, t: str):
    """A random Python value (our conventions) of Paimon type ``t``; ~8% nulls."""
    if rng.random() < 0.08:
        return None
    if t == "INT":
        return rng.choice([0, -1, 2**31 - 1, -(2**31), rng.randint(-(2**31), 2**31 - 1), rng.randint(-99, 99)])
    if t == "BIGINT":
        return rng.choice([0, -1, 2**63 - 1, -(2**63), rng.randint(-(2**63), 2**63 - 1), rng.randint(-9, 9)])
    if t == "TINYINT":
        return rng.randint(-128, 127)
    if t == "SMALLINT":
        return rng.randint(-(2**15), 2**15 - 1)
    if t == "BOOLEAN":
        return rng.random() < 0.5
    if t == "DATE":
        return rng.randint(-100_000, 100_000)
    if t in ("FLOAT", "DOUBLE"):
        v = rng.choice([0.0, -0.0, 1.5, -2.25, float("inf"), rng.uniform(-1e6, 1e6)])
        return struct.unpack("<f", struct.pack("<f", v))[0] if t == "FLOAT" else v
    if t.startswith("TIMESTAMP"):
        return Timestamp(rng.randint(-(2**40), 2**41), rng.randint(0, 999) * 1000 if t == "TIMESTAMP(6)" else 0)
    if t.startswith("DECIMAL"):
        scale = int(t.split(",")[1].strip(" )"))
        digits = int(t.split("(")[1].split(",")[0]) - scale
        return decimal.Decimal(rng.randint(-(10 ** (digits + scale)) + 1, 10 ** (digits + scale) - 1)).scaleb(-scale)
    if t == "STRING":  # 0..7 bytes inline, longer in the variable part, multi-byte UTF-8 too
        alphabet = rng.choice(["abcxyz0189", "äöüß€", "日本語", "\U0001f600a"])
        return "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 3, 7, 8, 9, 15, 16, 17, 40])))
    raise AssertionError(t)


KEY_TYPE_MIXES = [
    ["INT"], ["BIGINT"], ["STRING"], ["INT", "STRING"], ["STRING", "BIGINT", "INT"],
    ["TINYINT", "SMALLINT", "BOOLEAN", "DATE", "FLOAT", "DOUBLE"],
    ["TIMESTAMP(3)", "DECIMAL(10, 2)", "STRING"],
    ["TIMESTAMP(6)", "DECIMAL(20, 3)", "INT"],
    ["INT" for _ in range(70)],  # more than 56 fields: a second null-bit word
]


@pytest.mark.parametrize("types", KEY_TYPE_MIXES, ids=lambda ts: f"{ts[0]}x{len(ts)}" if len(ts) > 8 else "-".join(ts))
def test_binary_row_hash_matches_java(java, types):
    binary_row = _ours("paimon_codec.bucket.binary_row")
    rng = random.Random(hash(tuple(types)) & 0xFFFF)
    rows = [[_random_key_value(rng, t) for t in types] for _ in range(60 if len(types) > 8 else 250)]
    encoder = binary_row.KeyEncoder(types)
    ours_bytes = encoder.encode_many(rows)
    ours_hash = encoder.hash_many(rows)
    java_hashes = []
    for row, data, h in zip(rows, ours_bytes, ours_hash, strict=True):
        jdata, jhash = java.binary_row(types, row)
        assert data.hex() == jdata.hex(), row
        assert int(h) == jhash, row
        java_hashes.append(jhash)
    if encoder.fixed_width_only:  # the vectorised column path too
        columns = [np.array([0 if r[i] is None else r[i] for r in rows]) for i in range(len(types))]
        nulls = [np.array([r[i] is None for r in rows]) for i in range(len(types))]
        assert encoder.hash_columns(columns, nulls).tolist() == java_hashes


def test_fixed_bucket_matches_java(java):
    assign = _ours("paimon_codec.bucket.assign")
    rng = np.random.default_rng(7)
    hashes = np.concatenate([[0, -1, 1, 2**31 - 1, -(2**31), -(2**31) + 1],
                             rng.integers(-(2**31), 2**31, size=300)]).astype(np.int64)
    for n in (1, 2, 3, 5, 7, 16, 100, 128, 1000, 32767):
        for h in hashes.tolist():
            assert assign.fixed_bucket(h, n) == java.bucket(h, n), (h, n)
        assert assign.fixed_buckets(hashes, n).tolist() == [java.bucket(h, n) for h in hashes.tolist()]


# ---------------------------------------------------------------------------- index payloads: same bytes

INDEX_TYPES_09 = ["INT", "BIGINT", "STRING", "DATE", "TIMESTAMP(3)", "TIMESTAMP(6)", "TINYINT", "SMALLINT",
                  "FLOAT", "DOUBLE"]


def _value_strategy(t: str):
    """Hypothesis strategy of one non-null value (our conventions) of type ``t``."""
    if t == "INT":
        return st.integers(-(2**31), 2**31 - 1)
    if t == "BIGINT":
        return st.integers(-(2**63), 2**63 - 1)
    if t == "TINYINT":
        return st.integers(-128, 127)
    if t == "SMALLINT":
        return st.integers(-(2**15), 2**15 - 1)
    if t == "DATE":
        return st.integers(-800_000, 800_000)
    if t == "FLOAT":
        return st.floats(width=32)  # NaN (any payload), -0.0, infinities included
    if t == "DOUBLE":
        return st.floats()
    if t == "STRING":
        return st.text(max_size=12)
    if t == "TIMESTAMP(3)":
        return st.builds(Timestamp, st.integers(-(2**44), 2**44), st.just(0))
    if t == "TIMESTAMP(6)":
        return st.builds(Timestamp, st.integers(-(2**44), 2**44), st.integers(0, 999).map(lambda u: u * 1000))
    if t in ("TIMESTAMP(9)", "TIMESTAMP_LTZ(9)"):  # nanos below a microsecond collapse in the key
        return st.builds(Timestamp, st.integers(-(2**44), 2**44), st.sampled_from([0, 1, 999, 1000, 999_999]))
    if t in ("TIMESTAMP(0)", "TIMESTAMP_LTZ(3)"):
        return st.builds(Timestamp, st.integers(-(2**44), 2**44), st.just(0))
    if t == "TIME":
        return st.integers(0, 86_399_999)
    if t in ("CHAR(3)", "VARCHAR(8)"):
        return st.text(max_size=3 if t == "CHAR(3)" else 8)
    raise AssertionError(t)


MORE_TYPES_09 = ["TIME", "TIMESTAMP(0)", "TIMESTAMP(9)", "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(9)", "CHAR(3)", "VARCHAR(8)"]


@pytest.mark.parametrize("index_type", ["bitmap", "bloom-filter"])
@pytest.mark.parametrize("t", MORE_TYPES_09)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_more_types_payload_identical_to_java(java, index_type, t, data):
    values = data.draw(_column(t, max_rows=150))
    options = {"version": "1"} if index_type == "bitmap" else {"items": "300", "fpp": "0.02"}
    java_opts = {} if index_type == "bitmap" else options
    assert _our_payload(index_type, t, values, options) == java.build_index(index_type, t, values, java_opts)


@st.composite
def _column(draw, t: str, max_rows: int = 300):
    """A column drawn from a small pool, so values repeat, occur once, or not at all; some nulls."""
    pool = draw(st.lists(_value_strategy(t), min_size=1, max_size=40))
    null_rate = draw(st.sampled_from([0.0, 0.0, 0.05, 0.3, 1.0]))
    picks = st.one_of(st.none(), st.sampled_from(pool)) if null_rate else st.sampled_from(pool)
    rows = draw(st.lists(picks, max_size=max_rows))
    return rows


def _our_payload(index_type: str, t: str, values, options=None) -> bytes:
    registry = _ours("paimon_codec.fileindex.registry")
    writer = registry.create_writer(index_type, t, options or {})
    for v in values:
        writer.write(v)
    return writer.serialize()


@pytest.mark.parametrize("t", INDEX_TYPES_09)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bitmap_v1_payload_identical_to_java(java, t, data):
    """Random data: our V1 bitmap payload == Java 0.9's (HashMap order emulated on keys nobody chose)."""
    values = data.draw(_column(t))
    ours = _our_payload("bitmap", t, values, {"version": "1"})
    assert ours == java.build_index("bitmap", t, values)


@pytest.mark.parametrize("t", INDEX_TYPES_09)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_bloom_filter_payload_identical_to_java(java, t, data):
    values = data.draw(_column(t, max_rows=200))
    items = data.draw(st.integers(1, 5000))
    fpp = data.draw(st.sampled_from([0.001, 0.01, 0.03, 0.05, 0.1, 0.25, 0.5]))
    options = {"items": str(items), "fpp": str(fpp)}
    assert _our_payload("bloom-filter", t, values, options) == java.build_index("bloom-filter", t, values, options)


def _big_column(t: str, rows: int, distinct: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    if t == "INT":
        pool = np.unique(rng.integers(-(2**31), 2**31, size=distinct)).tolist()
    elif t == "BIGINT":
        pool = np.unique(rng.integers(-(2**63), 2**63 - 1, size=distinct, dtype=np.int64)).tolist()
    elif t == "STRING":
        pool = [f"k{int(x):x}-{'é' * int(x % 4)}" for x in rng.integers(0, 2**40, size=distinct)]
    else:
        raise AssertionError(t)
    idx = rng.integers(0, len(pool), size=rows)
    out = [pool[i] for i in idx.tolist()]
    for i in rng.choice(rows, size=rows // 50, replace=False).tolist():
        out[i] = None
    return out


@pytest.mark.parametrize("t,rows,distinct", [("INT", 40_000, 15_000), ("BIGINT", 20_000, 19_000),
                                             ("STRING", 30_000, 3_000)])
def test_bitmap_v1_payload_identical_to_java_many_keys(java, t, rows, distinct):
    """Thousands of distinct keys: the emulated HashMap resizes many times; bitmaps of every container kind."""
    values = _big_column(t, rows, distinct, seed=rows + distinct)
    assert _our_payload("bitmap", t, values, {"version": "1"}) == java.build_index("bitmap", t, values)


def _colliding_int_column() -> tuple[list[int], list]:
    """INT keys k << 28 all land in bucket 0 of a HashMap up to capacity 4096; with ~200 other keys the
    map reaches capacity >= 64 and Java turns that bucket into a tree bin (>= 8 keys)."""
    colliding = [k << 28 for k in range(-8, 8)]
    others = list(range(1, 200))
    values = [v for pair in zip(others, others, strict=True) for v in pair] + colliding * 2 + [colliding[0]]
    return colliding, values


def test_java_reads_our_bitmap_with_colliding_keys(java):
    colliding, values = _colliding_int_column()
    payload = _our_payload("bitmap", "INT", values, {"version": "1"})
    for key in colliding + [1, 199, 200]:
        got = java.index_result("bitmap", "INT", payload, {"op": "equal", "literal": key})
        want = BitMap(i for i, v in enumerate(values) if v == key)
        assert got.to_dict() == BitmapResult(want).to_dict(), key


def test_bitmap_v1_payload_identical_to_java_colliding_keys(java):
    _, values = _colliding_int_column()
    assert _our_payload("bitmap", "INT", values, {"version": "1"}) == java.build_index("bitmap", "INT", values)


# ---------------------------------------------------------------------------- containers + predicates


def _random_value(rng: random.Random, t: str):
    """A random non-null value of an indexable type (no NaN / -0.0: SQL and Java equality differ there)."""
    while True:
        v = _random_key_value(rng, t)
        if v is not None and not (isinstance(v, float) and (math.isnan(v) or (v == 0 and math.copysign(1, v) < 0))):
            return v


def _random_table(seed: int) -> tuple[RowType, dict, list[list]]:
    """A random data file: schema, table options (bitmap / bloom-filter / both / none per column), rows."""
    rng = random.Random(seed)
    types = INDEX_TYPES_09 + rng.sample(INDEX_TYPES_09, 3)
    rt = parse_row_type(", ".join(f"c{i}_{t.split('(')[0].lower()} {t}" for i, t in enumerate(types)))
    n_rows = rng.choice([0, 1, 2, 17, 300, 2000])
    bitmap_cols, bloom_cols, options = [], [], {}
    columns = []
    for f in rt.fields:
        t = str(f.type)
        which = rng.choice(["bitmap", "bloom", "both", "none", "bitmap"])
        if which in ("bitmap", "both"):
            bitmap_cols.append(f.name)
        if which in ("bloom", "both"):
            bloom_cols.append(f.name)
            options[f"file-index.bloom-filter.{f.name}.items"] = str(rng.choice([10, 100, 1000, 5000]))
            options[f"file-index.bloom-filter.{f.name}.fpp"] = str(rng.choice([0.01, 0.05, 0.1]))
        pool = [_random_value(rng, t) for _ in range(rng.choice([1, 3, 30, 200]))]
        null_rate = rng.choice([0.0, 0.1, 0.5, 1.0])
        col = [None if rng.random() < null_rate else rng.choice(pool) for _ in range(n_rows)]
        for _ in range(rng.randint(0, 3)):  # values occurring exactly once
            if n_rows and null_rate < 1:
                col[rng.randrange(n_rows)] = _random_value(rng, t)
        columns.append(col)
    if bitmap_cols:
        options["file-index.bitmap.columns"] = ",".join(bitmap_cols)
    if bloom_cols:
        options["file-index.bloom-filter.columns"] = ",".join(bloom_cols)
    rows = [list(r) for r in zip(*columns, strict=True)] if n_rows else []
    return rt, options, rows


def _random_predicates(rng: random.Random, rt: RowType, rows: list[list], column: str) -> list[dict]:
    i = rt.index_of(column)
    t = str(rt.fields[i].type)
    present = [r[i] for r in rows if r[i] is not None]
    absent = _random_value(rng, t)
    pick = (lambda: rng.choice(present)) if present else (lambda: absent)
    many = [pick() for _ in range(25)] + [absent]
    return [
        {"op": "equal", "col": column, "literal": pick()},
        {"op": "equal", "col": column, "literal": absent},
        {"op": "not_equal", "col": column, "literal": pick()},
        {"op": "not_equal", "col": column, "literal": absent},
        {"op": "in", "col": column, "literals": [pick(), absent, pick()]},
        {"op": "not_in", "col": column, "literals": [pick(), absent]},
        {"op": "in_leaf", "col": column, "literals": many},
        {"op": "not_in_leaf", "col": column, "literals": many[:3]},
        {"op": "is_null", "col": column},
        {"op": "is_not_null", "col": column},
    ]


def _truth(tree: dict, rt: RowType, rows: list[list]) -> BitMap:
    """Rows that satisfy ``tree`` (SQL: a null never matches (not) equal / (not) in)."""
    op = tree["op"]
    if op in ("and", "or"):
        parts = [_truth(c, rt, rows) for c in tree["children"]]
        out = parts[0]
        for p in parts[1:]:
            out = out & p if op == "and" else out | p
        return out
    i = rt.index_of(tree["col"])
    lits = tree.get("literals", [tree.get("literal")])
    tests = {
        "equal": lambda v: v is not None and v == lits[0],
        "not_equal": lambda v: v is not None and v != lits[0],
        "in": lambda v: v is not None and v in lits, "in_leaf": lambda v: v is not None and v in lits,
        "not_in": lambda v: v is not None and v not in lits, "not_in_leaf": lambda v: v is not None and v not in lits,
        "is_null": lambda v: v is None, "is_not_null": lambda v: v is not None,
    }
    return BitMap(n for n, r in enumerate(rows) if tests[op](r[i]))


def _norm(result) -> dict:
    """REMAIN / SKIP / BITMAP, an empty bitmap counted as SKIP (equivalent for pruning, FORMATS §9.1)."""
    return result.to_dict() if result.remain() else {"kind": "SKIP"}


def _assert_sound(result, truth: BitMap, what) -> None:
    if not result.remain():
        assert not truth, ("drops matching rows", what)
    elif isinstance(result, BitmapResult):
        assert truth <= result.bitmap, ("bitmap misses matching rows", what)


@pytest.mark.parametrize("seed", range(8))
def test_containers_we_write_are_read_by_java(java, seed):
    """Our FileIndexWriter's container (0.9 flavour: bitmap V1 + bloom filter) read by Java 0.9:
    same header, same slices, same bytes as Java's own writers; every predicate answered alike."""
    writer_mod = _ours("paimon_codec.fileindex.writer")
    container = _ours("paimon_codec.fileindex.container")
    evaluate = _ours("paimon_codec.fileindex.evaluate")
    predicate_json = _ours("paimon_codec.expressions.json_form")

    rt, options, rows = _random_table(seed)
    w = writer_mod.FileIndexWriter(rt, options, paimon_version="0.9")
    w.write_rows(rows)
    data = w.serialize()

    ours = container.FileIndexContainerReader(data)
    assert java.container_header(data, rt) == {c: dict(v) for c, v in ours.columns.items()}
    payloads = java.container_payloads(data, rt)
    assert payloads == {c: {t: ours.read_payload(c, t) for t in v} for c, v in ours.columns.items()}

    # Java's own writers on the same rows, put in a HashMap as Paimon's DataFileIndexWriter does
    java_blobs: dict[str, dict[str, bytes]] = {}
    for spec in w.specs:
        i = rt.index_of(spec.column)
        java_opts = {k: v for k, v in spec.options.items() if k != "version"}
        java_blobs.setdefault(spec.column, {})[spec.index_type] = java.build_index(
            spec.index_type, rt.fields[i].type, [r[i] for r in rows], java_opts)
    assert java.write_container(java_blobs, hash_map=True) == data

    rng = random.Random(seed)
    for column in ours.columns:
        dtype = rt.field(column).type
        readers = dict(zip(ours.index_types(column), ours.readers_for(column, dtype), strict=True))
        for tree in _random_predicates(rng, rt, rows, column):
            pred = predicate_json.predicate_from_json(tree, rt)
            truth = _truth(tree, rt, rows)
            # each index alone: exactly Java's answer
            java_alone = java.column_results(data, rt, tree)
            for itype, reader in readers.items():
                mine = evaluate.evaluate_single(pred, reader, dtype)
                assert mine.to_dict() == java_alone[itype].to_dict(), (itype, tree)
            # the whole container: sound, and Java's answer (either reader order) for a single leaf
            mine = evaluate.evaluate(pred, ours, rt)
            _assert_sound(mine, truth, tree)
            assert mine.remain() == java.test_predicate(data, rt, tree) or tree["op"] in ("in", "not_in"), tree
            if tree["op"] not in ("in", "not_in"):
                javas = [_norm(java.evaluate(data, rt, tree, order)) for order in
                         (("bitmap", "bloom-filter"), ("bloom-filter", "bitmap"))]
                assert _norm(mine) in javas, (tree, _norm(mine), javas)


def test_float_edge_values_answered_like_java(java):
    """NaN (several payloads), -0.0 / 0.0 and infinities: Java's Float/Double.equals semantics per index
    (exactly Java 0.9's answer for every literal)."""
    writer_mod = _ours("paimon_codec.fileindex.writer")
    container = _ours("paimon_codec.fileindex.container")
    evaluate = _ours("paimon_codec.fileindex.evaluate")
    predicate_json = _ours("paimon_codec.expressions.json_form")
    nan2 = struct.unpack(">d", struct.pack(">Q", 0x7FF8000000000123))[0]
    f32 = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, None, 1.5, -0.0, math.nan]
    f64 = [nan2, 0.0, -0.0, math.inf, None, -math.inf, 2.5, 2.5, math.nan, -0.0]
    rt = parse_row_type("f FLOAT, d DOUBLE")
    options = {"file-index.bitmap.columns": "f,d", "file-index.bloom-filter.columns": "f,d",
               "file-index.bloom-filter.f.items": "50", "file-index.bloom-filter.d.items": "50"}
    w = writer_mod.FileIndexWriter(rt, options, paimon_version="0.9")
    w.write_rows(list(zip(f32, f64, strict=True)))
    data = w.serialize()
    ours = container.FileIndexContainerReader(data)
    for column, lits in (("f", [0.0, -0.0, math.nan, math.inf, 1.5, 7.0]),
                         ("d", [math.nan, nan2, 0.0, -0.0, -math.inf, 2.5, 8.0])):
        dtype = rt.field(column).type
        readers = dict(zip(ours.index_types(column), ours.readers_for(column, dtype), strict=True))
        trees = [{"op": op, "col": column, "literal": v} for v in lits for op in ("equal", "not_equal")]
        trees += [{"op": "in_leaf", "col": column, "literals": lits[:2]},
                  {"op": "not_in_leaf", "col": column, "literals": lits[1:3]}]
        for tree in trees:
            pred = predicate_json.predicate_from_json(tree, rt)
            java_alone = java.column_results(data, rt, tree)
            for itype, reader in readers.items():
                # the index layer gives Java's answer, ±0.0 / NaN literals too (no widening: Paimon's semantics)
                mine = evaluate.evaluate_single(pred, reader, dtype).to_dict()
                assert mine == java_alone[itype].to_dict(), (itype, tree)


def test_unusual_column_names_parsed_alike(java):
    """Column names in Java's modified UTF-8 (NUL as C0 80, supplementary characters as surrogate pairs)."""
    writer_mod = _ours("paimon_codec.fileindex.writer")
    container = _ours("paimon_codec.fileindex.container")
    names = ["c_smällint", "nul\x00inside", "emoji\U0001f600", "日本語", "x" * 300]
    rt = RowType(tuple(Field(n, parse_type("INT")) for n in names))
    options = {"file-index.bitmap.columns": ",".join(names[:4]), "file-index.bloom-filter.columns": names[4]}
    w = writer_mod.FileIndexWriter(rt, options, paimon_version="0.9")
    w.write_rows([[i % 3, i, None, 5, i] for i in range(50)])
    data = w.serialize()
    assert java.container_header(data, rt) == {c: dict(v) for c, v in container.FileIndexContainerReader(data).columns.items()}
    for name in names[:4]:
        got = java.evaluate(data, rt, {"op": "equal", "col": name, "literal": 1})
        want = BitMap(i for i, r in enumerate([[i % 3, i, None, 5, i] for i in range(50)]) if r[names.index(name)] == 1)
        assert _norm(got) == _norm(BitmapResult(want)), name


def test_locate_jar_reports_why_it_cannot(tmp_path, monkeypatch):
    """No network needed: a wrong PAIMON_JAR and a cache without the jar (fetching off) give clear reasons,
    and a cached jar with the wrong checksum is not used."""
    from oracles import java09_jar as bridge

    monkeypatch.setenv("PAIMON_JAR", str(tmp_path / "missing.jar"))
    with pytest.raises(JavaUnavailable, match="not a file"):
        bridge.locate_jar(fetch=False)
    monkeypatch.delenv("PAIMON_JAR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bad = tmp_path / "cache" / "paimon-codec" / "jars" / bridge.JAR_NAME
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"not the jar")
    with pytest.raises(JavaUnavailable, match="fetching is disabled"):
        bridge.locate_jar(fetch=False)


@pytest.mark.parametrize("seed", range(4))
def test_dynamic_bucket_assigner_matches_java(java, seed):
    """Random key-hash streams (repeats included) over two partitions: our dynamic-bucket assigner with
    nothing loaded == Java's SimpleHashBucketAssigner, decision by decision."""
    assign_mod = _ours("paimon_codec.bucket.assign")
    binary_row = _ours("paimon_codec.bucket.binary_row")
    rng = random.Random(seed)
    num_assigners = rng.choice([1, 1, 2, 3])
    assign_id = rng.randrange(num_assigners)
    target = rng.choice([1, 2, 5, 17, 100])
    java_assign = java.simple_hash_bucket_assigner(num_assigners, assign_id, target)
    ours = assign_mod.DynamicBucketAssigner(target, num_assigners=num_assigners, assign_id=assign_id)
    partitions = [None, (["STRING", "INT"], ["2024-01-01", 7])]
    pool = [rng.randint(-(2**31), 2**31 - 1) for _ in range(300)]
    for step in range(1500):
        part = rng.choice(partitions)
        h = rng.choice(pool)
        part_bytes = binary_row.EMPTY_ROW if part is None else binary_row.binary_row(*part)
        assert ours.assign(h, part_bytes) == java_assign(h, part), (step, h, part)


# ---------------------------------------------------------------------------- a whole table we wrote


def _our_table_rows(path: str, where: str | None = None) -> tuple[list[tuple], list[str]]:
    plan_mod = _ours("paimon_codec.planning.plan")
    read_mod = _ours("paimon_codec.reading.read")
    plan = plan_mod.plan_scan(path, where)
    table = read_mod.read_tasks_locally(plan.tasks, read_mod.arrow_schema(plan.row_type))
    cols = [table.column(i).cast(pa.timestamp("ms")).cast(pa.int64()).to_pylist()  # epoch millis
            if pa.types.is_timestamp(table.schema.types[i]) else table.column(i).to_pylist()
            for i in range(table.num_columns)]
    return sorted(zip(*cols, strict=True)), [os.path.basename(t.path) for t in plan.tasks]


def _java_rows(rows: list[tuple]) -> list[tuple]:
    return sorted(tuple(v.millis if isinstance(v, Timestamp) else v for v in r) for r in rows)


def _write_sample(tmp_path, monkeypatch, bitmap_version: str | None) -> str:
    sample = _ours("paimon_codec.spark.sample")
    if bitmap_version is not None:
        for c in sample.SAMPLE_OPTIONS["file-index.bitmap.columns"].split(","):
            monkeypatch.setitem(sample.SAMPLE_OPTIONS, f"file-index.bitmap.{c}.version", bitmap_version)
    return sample.write_sample_table(tmp_path, files=5, rows_per_file=700, seed=11)


def _read_with_java(java, tmp_path, where=None):
    try:
        return java.read_table(tmp_path, "demo", "orders", where)
    except JavaUnavailable as exc:
        pytest.fail(f"Paimon 0.9 Java unavailable: {exc}", pytrace=False)


def test_java_reads_a_table_we_wrote(java, tmp_path, monkeypatch):
    """Paimon 0.9's catalog, scan and reader open our schema, snapshot, manifest list, Avro manifests,
    Parquet files and DV index file (via the index manifest): same rows as our reader, DVs applied."""
    path = _write_sample(tmp_path, monkeypatch, None)
    _, rows, kept = _read_with_java(java, tmp_path)
    ours, _ = _our_table_rows(path)
    assert _java_rows(rows) == ours
    assert len(kept) == 5


def test_java_filters_a_table_we_wrote_with_v1_bitmaps(java, tmp_path, monkeypatch):
    """With bitmap V1 indexes (all 0.9 knows) Java's filtered read uses our file indexes and DVs and
    returns exactly the matching rows; our planner keeps no file Java would skip."""
    path = _write_sample(tmp_path, monkeypatch, "1")
    for where, sql in (({"op": "equal", "col": "status", "literal": "REFUNDED"}, "status = 'REFUNDED'"),
                       ({"op": "equal", "col": "region", "literal": "APAC"}, "region = 'APAC'"),
                       ({"op": "in", "col": "id", "literals": [3, 700, 1399, 10**6]}, "id IN (3, 700, 1399, 1000000)")):
        _, rows, kept = _read_with_java(java, tmp_path, where)
        ours, our_files = _our_table_rows(path, sql)
        i = ["id", "status", "region"].index(where["col"])
        lits = where.get("literals", [where.get("literal")])
        assert _java_rows(rows) == [r for r in ours if r[i] in lits], sql
        assert set(our_files) <= set(kept), sql


def test_java_filters_the_sample_table_as_written(java, tmp_path, monkeypatch):
    """The default sample claims Paimon 0.9 and writes bitmap V1 explicitly: Java 0.9's filtered read
    uses its indexes and returns exactly the matching rows, keeping every file our planner reads."""
    path = _write_sample(tmp_path, monkeypatch, None)
    _, rows, kept = _read_with_java(java, tmp_path, {"op": "equal", "col": "status", "literal": "REFUNDED"})
    ours, our_files = _our_table_rows(path, "status = 'REFUNDED'")
    assert _java_rows(rows) == [r for r in ours if r[1] == "REFUNDED"] and rows
    assert set(our_files) <= set(kept)
