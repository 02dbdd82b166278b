"""The generated fast-path functions equal the generated Construct codecs on every golden file:
whole-type parse/build (``fast_parse_*`` / ``fast_build_*``) of the file-index container head and
the bitmap fixed head, and the columnar walks (``columns_*``) of bitmap records."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from conftest import GOLDEN_09, GOLDEN_LATEST, latest_cases
from hypothesis import given, settings
from hypothesis import strategies as st

from paimon_codec import formats as F
from paimon_codec.codec_runtime import CodecError
from paimon_codec.errors import TruncatedDataError
from paimon_codec.generated.construct import bitmap_index as B
from paimon_codec.generated.construct import file_index as FI

# No module-wide skip: the golden cases parametrise from the files (none when absent), the hypothesis tests
# need no golden file and always run.


def _containers() -> list:
    out = []
    if GOLDEN_LATEST.is_dir():
        out += [pytest.param(c["file"], id=c["case"]) for c in latest_cases("file-index-container")]
    d = GOLDEN_09 / "file_index"
    if d.is_dir():
        out += [pytest.param(p, id=p.name) for p in sorted(d.glob("*.index"))]
    return out


def _head_fields(obj) -> dict:
    return {"version": obj["version"], "head_length": obj["head_length"], "column_count": obj["column_count"],
            "redundant": bytes(obj["redundant"]),
            "columns": [(c["column_name"], c["index_count"],
                         [(i["index_type"], i["start"], i["length"]) for i in c["indexes"]]) for c in obj["columns"]]}


@pytest.mark.parametrize("path", _containers())
def test_file_index_fast_equals_construct(path):
    data = path.read_bytes()
    ref = FI.FileIndex.parse(data)
    head, end = FI.fast_parse_file_index(data)
    assert _head_fields(head) == _head_fields(ref) and end == ref["head_length"]
    assert not any("payload" in i for c in head["columns"] for i in c["indexes"])  # the body is not read
    prefix, end16 = FI.fast_parse_file_index_prefix(data[:16])
    assert end16 == 16 and prefix["head_length"] == ref["head_length"]
    # build: the Construct result (payloads included) rebuilds the exact bytes both ways
    assert FI.fast_build_file_index(ref) == data == FI.FileIndex.build(ref)


@given(st.lists(st.tuples(st.text(max_size=6), st.lists(st.tuples(st.text(max_size=5),
                                                                  st.one_of(st.none(), st.binary(max_size=9))),
                                                        max_size=3)), max_size=4))
@settings(max_examples=100, deadline=None)
def test_file_index_fast_build_equals_construct_random(columns):
    obj = {"magic": None, "version": 1, "redundant": b"",
           "columns": [{"column_name": c, "indexes": [{"index_type": t, "payload": p} for t, p in idx]}
                       for c, idx in columns]}
    data = FI.FileIndex.build(obj)
    assert FI.fast_build_file_index(obj) == data
    head, end = FI.fast_parse_file_index(data)
    assert _head_fields(head) == _head_fields(FI.FileIndex.parse(data))


@pytest.mark.parametrize("cut", [0, 7, 8, 15, 20])
def test_file_index_fast_errors_match_construct(cut):
    data = FI.FileIndex.build({"version": 1, "redundant": b"",
                               "columns": [{"column_name": "a", "indexes": [{"index_type": "bitmap", "payload": b"x"}]}]})
    with pytest.raises(Exception) as ref:  # noqa: PT011 - Construct raises its own StreamError here
        FI.FileIndex.parse(data[:cut])
    with pytest.raises(CodecError) as fast:
        FI.fast_parse_file_index(data[:cut])
    got, want = type(F.translate_error(fast.value, None, "x")), type(F.translate_error(ref.value, None, "x"))
    assert got is want and (cut > 16 or got is TruncatedDataError)
    bad = b"\x01" + data[1:]
    with pytest.raises(CodecError) as fast:
        FI.fast_parse_file_index(bad)
    assert fast.value.kind == "corrupt" and fast.value.offset == 0
    bad = data[:8] + struct.pack(">i", 2) + data[12:]
    with pytest.raises(CodecError) as fast:
        FI.fast_parse_file_index(bad)
    assert fast.value.kind == "version" and fast.value.offset == 8


def _bitmaps() -> list:
    if not GOLDEN_LATEST.is_dir():
        return []
    return [pytest.param(c, id=c["case"]) for c in latest_cases("bitmap")]


def _as_list(col) -> list:
    return col.tolist() if hasattr(col, "tolist") else list(col)


def _key(k):
    return k.encode() if isinstance(k, str) else k


@pytest.mark.parametrize("case", _bitmaps())
def test_bitmap_fast_equals_construct(case):
    from conftest import load_json

    side = load_json(case["json"])
    kind = F.key_kind_for(side["type_root"] if "type_root" in side else side["type"])
    data = case["file"].read_bytes()
    ref = B.BitmapIndex.parse(data, key_kind=kind)
    head, end = B.fast_parse_bitmap_index_head(data, key_kind=kind)
    names = ["version", "row_count", "non_null_bitmap_number", "has_null_value", "null_value_offset",
             "null_bitmap_length"]
    assert {n: head[n] for n in names} == {n: ref[n] for n in names}
    assert B.fast_build_bitmap_index_head(ref, key_kind=kind) == data[:end]
    if ref.version == 1:
        cols, stop = B.columns_bitmap_index_entries(data, end, len(data), ref.non_null_bitmap_number, kind)
        ents = ref.entries
        assert stop == len(data) - len(ref.body)
        assert _as_list(cols["offset"]) == [int(e["offset"]) for e in ents]
        got = _as_list(cols["key"])
        want = [_key(e["key"]) for e in ents]
        if kind.startswith("float"):
            assert np.array_equal(np.array(got, dtype=float), np.array(want, dtype=float), equal_nan=True)
        else:
            assert [_key(k) for k in got] == want
        return
    v2 = ref.v2_head
    pos = end + 4
    cols, stop = B.columns_bitmap_index_v2_head_block_heads(data, pos, len(data), v2.index_block_count, kind)
    assert _as_list(cols["block_offset"]) == [h.block_offset for h in v2.block_heads]
    if kind == "string":
        assert list(cols["key"]) == [_key(h.key) for h in v2.block_heads]
    blocks_at = stop + 4
    for h, blk in zip(v2.block_heads, ref.index_blocks.blocks, strict=True):
        at = blocks_at + h.block_offset
        cols, _ = B.columns_index_block_entries(data, at + 4, len(data), blk.entry_count, kind)
        assert _as_list(cols["offset"]) == [int(e["offset"]) for e in blk.entries]
        assert _as_list(cols["length"]) == [int(e["length"]) for e in blk.entries]
        if kind == "string":
            assert list(cols["key"]) == [_key(e["key"]) for e in blk.entries]


@given(st.lists(st.tuples(st.binary(max_size=12), st.integers(-2**31, 2**31 - 1)), max_size=40),
       st.integers(0, 60))
@settings(max_examples=150, deadline=None)
def test_string_walk_equals_checked_parse(records, cut):
    """The blind walk and the checked straight-line parser agree, on whole and on cut input."""
    data = b"".join(struct.pack(">i", len(k)) + k + struct.pack(">i", o) for k, o in records)
    n = len(records)
    for buf in (data, data[:max(0, len(data) - cut)]):
        try:
            want = B._fc_bitmap_index_entries_string_checked(buf, 0, len(buf), n)
        except CodecError as exc:
            with pytest.raises(CodecError) as got:
                B.columns_bitmap_index_entries(buf, 0, len(buf), n, "string")
            assert (got.value.kind, got.value.offset) == (exc.kind, exc.offset)
            continue
        cols, end = B.columns_bitmap_index_entries(buf, 0, len(buf), n, "string")
        assert end == want[1]
        assert list(cols["key"]) == want[0]["key"] and _as_list(cols["offset"]) == want[0]["offset"]
