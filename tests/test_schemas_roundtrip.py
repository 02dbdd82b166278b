"""Hypothesis round trips of the generated codecs and their behaviour on hostile input.

* ``parse(build(x)) == x`` for generated structures of every format (V1 and V2 bitmaps with every
  key kind, 32- and 64-bit DV bins, containers with odd names, range bitmaps, BSI, ...);
* ``build(parse(b)) == b`` for bytes written by independent encoders (pyroaring, struct);
* random / mutated bytes either decode or raise a :class:`PaimonCodecError` - nothing else, no
  hang, no allocation driven by a count field larger than the input.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyroaring import BitMap

from paimon_codec import formats as F
from paimon_codec.errors import (
    CorruptDataError,
    PaimonCodecError,
    TruncatedDataError,
    UnsupportedVersionError,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

I32 = st.integers(-(2**31), 2**31 - 1)
KEYS = {
    "int8": st.integers(-128, 127),
    "int16": st.integers(-(2**15), 2**15 - 1),
    "int32": I32,
    "int64": st.integers(-(2**63), 2**63 - 1),
    "float32": st.floats(width=32, allow_nan=False),
    "float64": st.floats(allow_nan=False),
    "bool": st.integers(0, 1),
    "string": st.text(max_size=12),
}


@st.composite
def roaring(draw, max_value: int = 2**32 - 1) -> bytes:
    values = draw(st.one_of(
        st.lists(st.integers(0, max_value), max_size=40),
        st.builds(lambda s, n: list(range(s, s + n)), st.integers(0, 2**20), st.integers(1, 9000)),
    ))
    bm = BitMap(values)
    if draw(st.booleans()):
        bm.run_optimize()
    return bm.serialize()


def roundtrip(fmt: str, x: dict, key_kind: str | None = None) -> bytes:
    """Build ``x``, parse it back, compare every field ``x`` gave; returns the bytes."""
    spec = F.get(fmt)
    data = spec.build(x, key_kind=key_kind)
    back = spec.decode(data, key_kind=key_kind, validate=False)  # random extents / CRC-free layout only
    assert_subset(F.plain(x, full_bytes=True), F.plain(back, full_bytes=True))
    assert spec.build(back, key_kind=key_kind) == data
    # the Kaitai parser reads the same structure
    assert F.plain(spec.parse_kaitai(data, key_kind=key_kind), full_bytes=True) == F.plain(back, full_bytes=True)
    return data


def assert_subset(want, got, path="$"):
    if isinstance(want, dict):
        for k, v in want.items():
            assert k in got, f"{path}.{k} missing"
            assert_subset(v, got[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert len(want) == len(got), f"{path}: {len(want)} != {len(got)}"
        for i, (a, b) in enumerate(zip(want, got, strict=True)):
            assert_subset(a, b, f"{path}[{i}]")
    else:
        assert want == got, f"{path}: {want!r} != {got!r}"


# ---------------------------------------------------------------------------------------------
# parse(build(x)) == x


@SETTINGS
@given(st.lists(I32, max_size=200))
def test_hash_index(hashes):
    data = roundtrip("hash-index", {"hashes": hashes})
    assert data == struct.pack(f">{len(hashes)}i", *hashes)


@SETTINGS
@given(I32, st.binary(max_size=300))
def test_bloom_filter(k, bits):
    assert roundtrip("bloom-filter", {"num_hash_functions": k, "bit_set": bits}) == struct.pack(">i", k) + bits


@st.composite
def dv_entry(draw):
    if draw(st.booleans()):
        b = {"magic": 0x5E43F2D0, "bitmap": {"roaring": draw(roaring(2**31 - 1))}}
    else:
        n = draw(st.integers(0, 3))
        b = {"magic": 0xD1D33964, "bitmap": {"bitmaps": [{"key": k, "roaring": draw(roaring())} for k in range(n)]}}
    return {"bin": b}


@SETTINGS
@given(dv_entry())
def test_deletion_vector(entry):
    data = roundtrip("deletion-vector", entry)
    (size,) = struct.unpack_from(">i", data)
    assert size == len(data) - 8
    assert struct.unpack_from(">I", data, len(data) - 4)[0] == zlib.crc32(data[4:-4])
    if entry["bin"]["magic"] == 0xD1D33964:
        assert data[4:8] == struct.pack("<i", 1681511377)  # the 64-bit magic is little-endian


@SETTINGS
@given(st.lists(dv_entry(), max_size=6))
def test_deletion_vectors(entries):
    data = roundtrip("deletion-vectors", {"version": 1, "entries": entries})
    assert data[0] == 1 and F.detect(data) == "deletion-vectors"


@st.composite
def file_index(draw):
    names = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=8)
    cols = []
    for name in draw(st.lists(names, max_size=4, unique=True)):
        idx = [{"index_type": t, "payload": draw(st.one_of(st.none(), st.binary(max_size=40)))}
               for t in draw(st.lists(st.sampled_from(["bitmap", "bloom-filter", "range-bitmap", "bsi"]),
                                      max_size=3, unique=True))]
        cols.append({"column_name": name, "indexes": idx})
    return {"version": 1, "columns": cols, "redundant": b""}


@SETTINGS
@given(file_index())
def test_file_index(x):
    data = roundtrip("file-index", x)
    back = F.get("file-index").decode(data)
    assert F.detect(data) == "file-index"
    body = b"".join(i["payload"] or b"" for c in x["columns"] for i in c["indexes"])
    assert data.endswith(body) and len(data) == back["head_length"] + len(body)
    if not x["columns"]:
        assert len(data) == 24


@st.composite
def bitmap_index(draw):
    kind = draw(st.sampled_from(sorted(KEYS)))
    version = draw(st.sampled_from([1, 2]))
    has_null = draw(st.integers(0, 1))
    x: dict = {"version": version, "row_count": draw(st.integers(0, 10**6)), "has_null_value": has_null,
               "body": draw(st.binary(max_size=50))}
    if has_null:
        x["null_value_offset"] = draw(I32)
    if version == 1:
        x["entries"] = [{"key": draw(KEYS[kind]), "offset": draw(I32)} for _ in range(draw(st.integers(0, 12)))]
        x["null_bitmap_length"] = None
        x["v2_head"] = x["index_blocks"] = None
    else:
        if has_null:
            x["null_bitmap_length"] = draw(I32)
        blocks = [{"entries": [{"key": draw(KEYS[kind]), "offset": draw(I32), "length": draw(I32)}
                               for _ in range(draw(st.integers(0, 5)))]} for _ in range(draw(st.integers(0, 4)))]
        x["v2_head"] = {"block_heads": [{"key": draw(KEYS[kind])} for _ in blocks]}
        x["index_blocks"] = {"blocks": blocks}
        x["entries"] = None
    return kind, x


@SETTINGS
@given(bitmap_index())
def test_bitmap_index(kx):
    kind, x = kx
    data = roundtrip("bitmap", x, kind)
    back = F.get("bitmap").decode(data, key_kind=kind, validate=False)
    if x["version"] == 2:
        # derived block offsets: each block parses on its own at its offset
        from paimon_codec.generated.construct.bitmap_index import IndexBlock

        start = len(data) - len(x["body"]) - back["v2_head"]["bitmap_body_offset"]
        for h, b in zip(back["v2_head"]["block_heads"], back["index_blocks"]["blocks"], strict=True):
            alone = IndexBlock.parse(data[start + h["block_offset"]:], key_kind=kind)
            assert F.plain(alone) == F.plain(b)
        assert back["non_null_bitmap_number"] == sum(len(b["entries"]) for b in x["index_blocks"]["blocks"])


@st.composite
def range_bitmap(draw):
    kind = draw(st.sampled_from(sorted(KEYS)))
    card = draw(st.integers(0, 50))
    header = {"version": 1, "row_count": draw(st.integers(0, 1000)), "cardinality": card,
              "min": draw(KEYS[kind]) if card else None, "max": draw(KEYS[kind]) if card else None}
    chunks = []
    for _ in range(draw(st.integers(0, 3))):
        c = {"version": 1, "key": draw(KEYS[kind]), "code": draw(I32), "keys_offset": draw(I32),
             "size": draw(I32), "keys_length": draw(I32)}
        if kind == "string":
            c.update(offsets_length=draw(I32), fixed_length=None)
        else:
            c.update(offsets_length=None, fixed_length=draw(I32))
        chunks.append(c)
    dictionary = {"dict_header": {"version": 1}, "offsets": [draw(I32) for _ in chunks],
                  "chunks": {"chunks": chunks}, "keys": draw(st.binary(max_size=30))}
    n = draw(st.integers(0, 5))
    bsi = {"bsi_header": {"version": 1, "slice_refs": [{"offset": draw(I32), "length": draw(I32)} for _ in range(n)]},
           "ebm": draw(roaring()), "slices": draw(st.binary(max_size=30))}
    return kind, {"header": header, "dictionary": dictionary, "bsi": bsi}


@SETTINGS
@given(range_bitmap())
def test_range_bitmap(kx):
    kind, x = kx
    data = roundtrip("range-bitmap", x, kind)
    back = F.get("range-bitmap").decode(data, key_kind=kind, validate=False)
    assert back["header"]["dictionary_length"] == len(data) - 4 - back["header_length"] - (
        4 + back["bsi"]["bsi_header_length"] + len(x["bsi"]["ebm"]) + len(x["bsi"]["slices"]))
    assert back["bsi"]["bsi_header"]["slice_count"] == len(x["bsi"]["bsi_header"]["slice_refs"])


@st.composite
def bsi_part(draw):
    return {"version": 1, "min": 0, "max": draw(st.integers(0, 2**63 - 1)), "ebm": draw(roaring()),
            "slices": [draw(roaring()) for _ in range(draw(st.integers(0, 4)))]}


@SETTINGS
@given(st.one_of(st.none(), bsi_part()), st.one_of(st.none(), bsi_part()), st.integers(0, 10**6))
def test_bsi(pos, neg, rows):
    x = {"version": 1, "row_count": rows, "has_positive": int(pos is not None), "positive": pos,
         "has_negative": int(neg is not None), "negative": neg}
    roundtrip("bsi", x)


@SETTINGS
@given(st.lists(st.tuples(st.text(alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="\x00"),
                                  min_size=1, max_size=20), I32, I32), max_size=5),
       st.binary(max_size=40))
def test_delete_map(entries, bitmaps):
    x = {"entries": [{"name": n, "start": s, "size": z} for n, s, z in entries], "bitmaps": bitmaps}
    data = roundtrip("delete-map", x)
    width = max((len(n.encode()) for n, _, _ in entries), default=0)
    assert struct.unpack_from(">ii", data) == (len(entries), width)
    assert len(data) == 8 + len(entries) * (width + 8) + len(bitmaps)


@SETTINGS
@given(roaring())
def test_roaring32_bytes_from_pyroaring(b):
    # build(parse(b)) == b on bytes written by CRoaring, and the full structure round-trips
    data = roundtrip("roaring32", F.get("roaring32").decode(b))
    assert data == b
    from paimon_codec import codec_runtime

    assert codec_runtime.roaring32_size(b + b"junk") == len(b)


@SETTINGS
@given(st.lists(roaring(), max_size=4))
def test_roaring64(bitmaps):
    x = {"buckets": [{"key": k * 3, "bitmap": b} for k, b in enumerate(bitmaps)]}
    data = roundtrip("roaring64", x)
    assert struct.unpack_from("<Q", data)[0] == len(bitmaps)


# ---------------------------------------------------------------------------------------------
# hostile input


def test_count_larger_than_input_fails_before_allocating():
    # V1 dictionary claiming 2^31-1 entries of 8 bytes in a 30-byte payload
    data = bytes([1]) + struct.pack(">iib", 5, 2**31 - 1, 0) + b"\x00" * 20
    for kind in ("int32", "string"):
        with pytest.raises(CorruptDataError, match="do not fit"):
            F.get("bitmap").decode(data, key_kind=kind)
    # a 64-bit DV bin claiming 2^62 buckets
    bin64 = struct.pack("<iq", 1681511377, 2**62)
    entry = struct.pack(">i", len(bin64)) + bin64 + struct.pack(">i", 0)
    with pytest.raises(CorruptDataError, match="do not fit"):
        F.get("deletion-vector").decode(entry)
    # a container claiming 2^31-1 columns
    head = bytes.fromhex("00054e4ed01a35ae") + struct.pack(">iii", 1, 24, 2**31 - 1)
    with pytest.raises(CorruptDataError, match="do not fit"):
        F.get("file-index").decode(head + b"\x00" * 8)
    # a roaring bitmap claiming 65536 containers
    with pytest.raises(PaimonCodecError):
        F.get("roaring32").decode(struct.pack("<II", 12346, 65536) + b"\x00" * 16)


def test_errors_carry_path_offset_and_expectation():
    with pytest.raises(TruncatedDataError) as e:
        F.get("deletion-vectors").decode(b"\x01" + struct.pack(">i", 100) + b"\x5e\x43\xf2\xd0", path="x.dv")
    assert e.value.path == "x.dv" and e.value.offset == 5 and e.value.expected
    with pytest.raises(UnsupportedVersionError) as e:
        F.get("bitmap").decode(b"\x03" + b"\x00" * 20, key_kind="int32")
    assert e.value.offset == 0 and "1 or 2" in str(e.value)
    with pytest.raises(CorruptDataError) as e:
        F.get("file-index").decode(b"\x00\x05\x4e\x4e\xd0\x1a\x35\xaf" + b"\x00" * 16)
    assert e.value.offset == 0 and "00054e4ed01a35ae" in str(e.value)
    with pytest.raises(TruncatedDataError):
        F.get("hash-index").decode(b"\x00\x00\x00\x01\x00")


FUZZ_FORMATS = [("file-index", None), ("bitmap", "int32"), ("bitmap", "string"), ("bloom-filter", None),
                ("range-bitmap", "int64"), ("range-bitmap", "string"), ("bsi", None), ("deletion-vectors", None),
                ("deletion-vector", None), ("delete-map", None), ("hash-index", None), ("roaring32", None),
                ("roaring64", None)]


@pytest.mark.parametrize(("fmt", "kind"), FUZZ_FORMATS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_random_and_mutated_bytes_never_escape_the_error_family(fmt, kind, data):
    seeds = {
        "file-index": bytes.fromhex("00054e4ed01a35ae") + struct.pack(">iii", 1, 30, 1),
        "bitmap": bytes([2]) + struct.pack(">iib", 10, 1, 0) + struct.pack(">i", 1),
        "deletion-vectors": b"\x01" + struct.pack(">i", 12) + bytes.fromhex("5e43f2d0") + bytes(8),
        "deletion-vector": struct.pack(">i", 12) + bytes.fromhex("d1d33964") + bytes(8),
        "roaring32": BitMap(range(0, 100000, 3)).serialize(),
        "roaring64": struct.pack("<Q", 2) + bytes(4),
    }
    prefix = seeds.get(fmt, b"")
    cut = data.draw(st.integers(0, len(prefix)))
    blob = prefix[:cut] + data.draw(st.binary(max_size=64))
    try:
        F.get(fmt).decode(blob, key_kind=kind)
    except PaimonCodecError as e:
        assert "\n" not in str(e)


def test_numpy_arrays_are_bulk():
    data = struct.pack(">5i", 1, -2, 3, -4, 5)
    obj = F.get("hash-index").decode(data)
    assert isinstance(obj["hashes"], np.ndarray) and obj["hashes"].dtype == np.dtype(">i4")
    from paimon_codec.generated.construct import bitmap_index, hash_index

    assert hash_index.HASHES_DTYPE == np.dtype(">i4")
    assert bitmap_index.ENTRIES_DTYPES["int32"] == np.dtype([("key", ">i4"), ("offset", ">i4")])
    assert bitmap_index.ENTRIES_DTYPES["string"] is None
    assert bitmap_index.INDEX_BLOCK_ENTRIES_DTYPES["int64"].names == ("key", "offset", "length")


@pytest.mark.parametrize("kind", ["int8", "int16", "int32", "int64", "float32", "float64", "bool", "string"])
def test_range_bitmap_chunk_dtype_matches_the_chunk_codec(kind):
    """CHUNK_DTYPES[kind] reads the bytes the Chunk codec writes (fixed-length kinds; None for strings)."""
    from paimon_codec.generated.construct import range_bitmap

    dt = range_bitmap.CHUNK_DTYPES[kind]
    key = {"string": "abc", "float32": 1.5, "float64": -2.25, "bool": 1}.get(kind, -7)
    fixed = kind != "string"
    head = {"version": 1, "key": key, "code": 11, "keys_offset": 24, "size": 3,
            "offsets_length": None if fixed else 12, "keys_length": 40, "fixed_length": 8 if fixed else None}
    data = range_bitmap.Chunk.build(head, key_kind=kind)
    if not fixed:
        assert dt is None
        return
    assert dt.itemsize == len(data)
    rec = np.frombuffer(data * 2, dtype=dt)
    assert "offsets_length" not in dt.names
    for name in dt.names:
        assert rec[name].tolist() == [head[name]] * 2, name
