"""paimon_codec.codec_runtime: the hand-written runtime every generated Construct codec imports."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from construct import Int32ub
from hypothesis import given, settings
from hypothesis import strategies as st
from pyroaring import BitMap

from paimon_codec import codec_runtime as rt


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_modified_utf8_round_trips(text):
    data = rt.mutf8_encode(text)
    assert b"\x00" not in data  # U+0000 is C0 80 in Java's modified UTF-8
    assert rt.mutf8_decode(data) == text


def test_modified_utf8_supplementary_is_two_surrogates():
    data = rt.mutf8_encode("\U0001F600")
    assert len(data) == 6 and data[0] == 0xED and data[3] == 0xED
    with pytest.raises(ValueError):
        rt.mutf8_decode(b"\xed\xa0")  # cut inside a 3-byte sequence


def test_java_utf_parses_and_builds():
    built = rt.JavaUtf().build("a\x00b")
    assert built == b"\x00\x04a\xc0\x80b"
    assert rt.JavaUtf().parse(built) == "a\x00b"
    with pytest.raises(rt.CodecError) as e:
        rt.JavaUtf().parse(b"\x00\x09abc")
    assert e.value.kind == "truncated"


@pytest.mark.parametrize("values", [[], [1, 2, 3], list(range(0, 200000, 3)), list(range(70000, 90000))])
def test_roaring32_size_finds_the_end_of_a_portable_bitmap(values):
    bm = BitMap(values)
    bm.run_optimize()
    data = bm.serialize()
    assert rt.roaring32_size(data + b"trailing junk") == len(data)
    assert rt.Roaring32Bytes().parse(data + b"xx") == data
    if len(data) > 8:
        with pytest.raises(rt.CodecError) as e:
            rt.roaring32_size(data[:-1])
        assert e.value.kind == "truncated"


def test_roaring32_size_rejects_a_bad_cookie():
    with pytest.raises(rt.CodecError) as e:
        rt.roaring32_size(b"\x01\x02\x03\x04\x00\x00\x00\x00")
    assert e.value.kind == "corrupt" and e.value.offset == 0


def test_crc32_signed_is_javas_int():
    for data in (b"", b"abc", bytes(range(256))):
        v = rt.crc32_signed(data)
        assert -(1 << 31) <= v < (1 << 31)
        assert v & 0xFFFFFFFF == zlib.crc32(data)


def test_sized_checks_remaining_bytes_before_reading():
    con = rt.Struct("n" / Int32ub, "body" / rt.SizedBytes(lambda this: this.n, "body"))
    assert con.parse(b"\x00\x00\x00\x02ab") == {"n": 2, "body": b"ab"}
    with pytest.raises(rt.CodecError) as e:
        con.parse(b"\x7f\xff\xff\xffab")
    assert e.value.kind == "truncated" and e.value.offset == 4


def test_numpy_array_counts_are_checked_and_build_is_one_copy():
    con = rt.Struct("n" / Int32ub, "xs" / rt.NumpyArray(">i4", lambda this: this.n, "xs"))
    xs = np.arange(5, dtype=">i4")
    data = con.build({"n": 5, "xs": xs})
    assert data == b"\x00\x00\x00\x05" + xs.tobytes()
    assert np.array_equal(con.parse(data).xs, xs)
    with pytest.raises(rt.CodecError) as e:
        con.parse(b"\x00\x10\x00\x00" + xs.tobytes())
    assert e.value.kind == "count"


def test_build_stream_spills_on_positioned_writes():
    s = rt.BuildStream()
    s.write(b"abcd")
    s.write(memoryview(np.arange(2, dtype="u1")))
    s.seek(1)
    s.write(b"X")
    assert s.getvalue() == b"aXcd\x00\x01"


def test_record_dtype_of_absent_and_unfixed_fields():
    assert rt.record_dtype([("a", ">i4"), ("b", None)]) is None
    assert rt.record_dtype([("a", ">i4"), ("b", "u1")]) == np.dtype([("a", ">i4"), ("b", "u1")])


# --------------------------------------------------------------------------------------------
# zero-copy parsing: bulk fields are read-only views of the input


def _dv_file(bitmaps: list[BitMap]) -> bytes:
    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    entries = [{"bin": {"magic": 0x5E43F2D0, "bitmap": {"roaring": bm.serialize()}}} for bm in bitmaps]
    return DeletionVectors.build({"version": 1, "entries": entries})


def _shares(view, data) -> bool:
    return np.shares_memory(np.frombuffer(view, np.uint8), np.frombuffer(data, np.uint8))


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview])
def test_fast_path_byte_fields_are_views_of_the_input(wrap):
    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    bitmaps = [BitMap(range(i, 5000 * (i + 1), i + 1)) for i in range(5)]
    data = wrap(_dv_file(bitmaps))
    obj = DeletionVectors.parse(data)
    for entry, bm in zip(obj["entries"], bitmaps, strict=True):
        roaring = entry["bin"]["bitmap"]["roaring"]
        assert isinstance(roaring, memoryview) and roaring.readonly
        assert _shares(roaring, data)
        assert roaring == bm.serialize()  # equal to the same bytes
        assert BitMap.deserialize(roaring) == bm  # pyroaring takes the view as it is
    assert DeletionVectors.build(obj) == bytes(data)


def test_construct_path_byte_fields_arrays_and_bitmaps_are_views():
    from paimon_codec.generated.construct.bloom_filter import BloomFilter
    from paimon_codec.generated.construct.bsi import Bsi
    from paimon_codec.generated.construct.hash_index import HashIndex

    bits = bytes(range(256)) * 4
    data = BloomFilter.build({"num_hash_functions": 7, "bit_set": bits})
    bf = BloomFilter.parse(data)
    assert isinstance(bf.bit_set, memoryview) and bf.bit_set == bits and _shares(bf.bit_set, data)
    assert BloomFilter.build(bf) == data

    hashes = np.arange(-50, 50, dtype=">i4")
    data = HashIndex.build({"hashes": hashes})
    arr = HashIndex.parse(data)["hashes"]
    assert np.array_equal(arr, hashes) and np.shares_memory(arr, np.frombuffer(data, np.uint8))
    assert not arr.flags.writeable

    slices = [BitMap(range(k, 3000, k + 2)) for k in range(3)]
    part = {"version": 1, "min": -3, "max": 99, "ebm": BitMap(range(3000)).serialize(),
            "slices": [s.serialize() for s in slices]}
    data = Bsi.build({"version": 1, "row_count": 3000, "has_positive": 1, "positive": part, "has_negative": 0})
    obj = Bsi.parse(data)
    for view, bm in zip(obj.positive.slices, slices, strict=True):  # embedded Roaring32: header scan in place
        assert isinstance(view, memoryview) and _shares(view, data) and view == bm.serialize()
    assert Bsi.build(obj) == data


def test_parsing_does_not_copy_the_input():
    """Allocations during a parse stay far below the input size (the old parse copied it twice)."""
    import tracemalloc

    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    data = _dv_file([BitMap(range(i, 400_000, 37 + i)) for i in range(100)])
    assert len(data) > 1_000_000
    DeletionVectors.parse(data)  # warm caches first
    tracemalloc.start()
    try:
        obj = DeletionVectors.parse(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(obj["entries"]) == 100
    assert peak < len(data) // 10


def test_view_stream_reads_bytes_and_views_and_bounds():
    s = rt.ViewStream(bytearray(b"0123456789"), base=100)
    assert s.read(3) == b"012" and isinstance(s.read(0), bytes)
    v = s.view(4)
    assert isinstance(v, memoryview) and v.readonly and v == b"3456"
    assert s.tell() == 7 and s.read() == b"789" and s.read(5) == b""
    s.seek(-2, 2)
    assert s.view(10) == b"89" and s.tell() == 10
    assert rt.abs_pos(s) == 110
    with pytest.raises(OSError):
        s.write(b"x")
    assert rt.ViewStream(np.arange(3, dtype="<u2")).read() == b"\x00\x00\x01\x00\x02\x00"  # any buffer, as bytes


def test_sized_regions_report_absolute_offsets_from_views():
    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    data = bytearray(_dv_file([BitMap([1, 2, 3]), BitMap(range(100))]))
    second = 1 + 4 + int.from_bytes(data[1:5], "big") + 4  # offset of the second entry's size field
    data[second:second + 4] = (10_000).to_bytes(4, "big")  # its bin now runs past the end
    with pytest.raises(rt.CodecError) as e:
        DeletionVectors.parse(bytes(data))
    assert e.value.kind == "truncated" and e.value.offset == second + 4


def test_streams_that_are_not_view_streams_still_get_bytes():
    import io

    from paimon_codec.generated.construct.bloom_filter import BloomFilter
    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    bio = io.BytesIO(BloomFilter.build({"num_hash_functions": 2, "bit_set": b"\x01\x02"}))
    assert BloomFilter.parse_stream(bio).bit_set == b"\x01\x02"
    data = _dv_file([BitMap([5, 6])])
    bio = io.BytesIO(data)
    obj = DeletionVectors.parse_stream(bio)
    bio.write(b"more")  # no view of the BytesIO's own buffer is held: it can still grow
    bio.close()
    assert obj["entries"][0]["bin"]["bitmap"]["roaring"] == BitMap([5, 6]).serialize()
