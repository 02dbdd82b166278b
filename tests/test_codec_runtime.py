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
