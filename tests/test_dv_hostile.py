"""Hostile inputs: truncations, bit flips, huge counts - only our errors, never a crash or a hang."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paimon_codec.bucket.hash_index import read_hash_index
from paimon_codec.dv.delete_map import encode_delete_map, read_delete_map
from paimon_codec.dv.deletion_vector import MAGIC_64, DeletionVector
from paimon_codec.dv.index_file import encode_dv_files, read_deletion_vector, read_dv_index, read_entry
from paimon_codec.dv.puffin import encode_puffin, read_puffin
from paimon_codec.errors import PaimonCodecError
from paimon_codec.roaring import portable_size

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
positions = st.lists(st.integers(0, 2**31 - 1), max_size=300) | st.lists(st.integers(0, 200_000), max_size=3000)
wide_positions = st.lists(st.integers(0, 6 * 2**32), max_size=200)


def _sample_file() -> bytes:
    dvs = [("a", DeletionVector(range(0, 70_000, 2))), ("b", DeletionVector([1, 5, 9])),
           ("c", DeletionVector([2**32 + 5, 3], bitmap64=True)), ("d", DeletionVector(range(100, 9000)))]
    return encode_dv_files(dvs, target_size=None)[0][0]


SAMPLE = _sample_file()


@SETTINGS
@given(positions, st.booleans())
def test_round_trip_and_exact_size(pos, wide):
    dv = DeletionVector(pos, bitmap64=wide)
    data = dv.serialize()
    back = DeletionVector.deserialize(data)
    assert back == dv and np.array_equal(back.to_array(), np.unique(np.array(pos, dtype=np.int64)))
    if not wide:
        assert portable_size(data, 4) == len(data) - 4


@SETTINGS
@given(wide_positions)
def test_wide_round_trip(pos):
    dv = DeletionVector(pos, bitmap64=True)
    assert DeletionVector.deserialize(dv.serialize()) == dv


@SETTINGS
@given(st.integers(0, len(SAMPLE) - 1))
def test_truncation_raises_our_error(cut):
    try:
        got = read_dv_index(SAMPLE[:cut])
    except PaimonCodecError:
        return
    # only a cut exactly between entries leaves a well-formed (shorter) file: the prefix of entries
    full = read_dv_index(SAMPLE).entries
    assert cut in {1} | {e.offset + e.size + 8 for e in full}, f"truncation at {cut} was accepted"
    assert [e.dv for e in got.entries] == [e.dv for e in full[:len(got.entries)]]


@SETTINGS
@given(st.integers(0, len(SAMPLE) * 8 - 1))
def test_any_bit_flip_is_detected(bit):
    bad = bytearray(SAMPLE)
    bad[bit // 8] ^= 1 << (bit % 8)
    try:
        read_dv_index(bytes(bad))
    except PaimonCodecError:
        return
    raise AssertionError(f"flip of bit {bit} went unnoticed")


@SETTINGS
@given(st.binary(max_size=400))
def test_garbage_never_escapes(blob):
    for fn in (lambda b: read_dv_index(b"\x01" + b), read_entry, DeletionVector.deserialize, read_puffin,
               read_delete_map, lambda b: read_deletion_vector(b"\x01" + b, 1, max(len(b) - 8, 4))):
        try:
            fn(blob)
        except PaimonCodecError:
            pass


@SETTINGS
@given(st.binary(min_size=4, max_size=200), st.sampled_from([b"\x5e\x43\xf2\xd0", struct.pack("<i", MAGIC_64)]))
def test_garbage_after_magic(body, magic):
    try:
        DeletionVector.deserialize(magic + body)
    except PaimonCodecError:
        pass


def test_huge_counts_are_refused_before_allocating():
    huge64 = struct.pack("<i", MAGIC_64) + struct.pack("<q", 2**40) + bytes(20)
    for data in (huge64, struct.pack("<i", MAGIC_64) + struct.pack("<q", -1)):
        try:
            DeletionVector.deserialize(data)
        except PaimonCodecError as exc:
            assert "bitmaps" in str(exc) or "header" in str(exc)
        else:
            raise AssertionError("accepted")
    # an entry size far beyond the file
    forged = b"\x01" + struct.pack(">i", 2**31 - 1) + b"\x5e\x43\xf2\xd0" + bytes(8)
    try:
        read_dv_index(forged)
    except PaimonCodecError:
        pass
    # a delete map claiming 2**31 - 1 entries of 2**31 - 9 bytes each
    try:
        read_delete_map(struct.pack(">ii", 2**31 - 1, 2**31 - 9) + bytes(16))
    except PaimonCodecError:
        pass
    else:
        raise AssertionError("accepted")
    # roaring with an absurd container count
    try:
        portable_size(struct.pack("<II", 12346, 2**31) + bytes(8))
    except PaimonCodecError:
        pass
    else:
        raise AssertionError("accepted")


@SETTINGS
@given(st.integers(0, 200))
def test_puffin_and_delete_map_truncations(cut):
    raw, _ = encode_puffin({"a": DeletionVector([1, 2, 2**32], bitmap64=True)})
    dm, _ = encode_delete_map({"x.parquet": DeletionVector([4, 5]), "yy.parquet": DeletionVector([9])})
    for fn, data in ((read_puffin, raw), (read_delete_map, dm)):
        if cut < len(data):
            try:
                fn(data[:cut])
            except PaimonCodecError:
                pass


def test_hash_index_lengths():
    for n in range(1, 4):
        try:
            read_hash_index(bytes(8 + n))
        except PaimonCodecError:
            pass
        else:
            raise AssertionError("accepted")
    assert read_hash_index(b"").size == 0
