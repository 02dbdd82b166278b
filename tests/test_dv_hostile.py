"""Hostile inputs: truncations, bit flips, huge counts - only our errors, never a crash or a hang; and an input
that decodes gives the answer of a reference decoding (the generated Construct codec for the framing, CRoaring
through pyroaring for the bitmaps), so a reader returning garbage fails."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pyroaring import BitMap, BitMap64

from paimon_codec import formats as F
from paimon_codec.bucket.hash_index import read_hash_index
from paimon_codec.dv.delete_map import encode_delete_map, read_delete_map
from paimon_codec.dv.deletion_vector import MAGIC_64, DeletionVector
from paimon_codec.dv.index_file import (
    encode_dv_files,
    encode_entry,
    read_deletion_vector,
    read_dv_index,
    read_entry,
)
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
SEEDS = [SAMPLE, DeletionVector([3, 4, 70_000]).serialize(), DeletionVector(range(0, 9000, 3)).serialize(),
         DeletionVector([2**32 + 5, 3, 9], bitmap64=True).serialize(), encode_entry(DeletionVector([7, 8, 1000]))]


@st.composite
def hostile(draw) -> bytes:
    """Random bytes, or a valid seed truncated / with bytes flipped / spliced: inputs that often still decode."""
    if draw(st.booleans()):
        return draw(st.binary(max_size=400))
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 3))):
        data[draw(st.integers(0, len(data) - 1))] ^= draw(st.integers(1, 255))
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]
    return bytes(data)


def reference_positions(data: bytes) -> list[int]:
    """The positions of a serialized vector (magic + portable roaring) decoded by CRoaring (pyroaring)."""
    magic = struct.unpack("<i", data[:4])[0]
    return list((BitMap64 if magic == MAGIC_64 else BitMap).deserialize(data[4:]))


def reference_bin_positions(bin_obj: dict) -> list[int]:
    """Positions of a ``bin`` of the generated codec's plain form (``F.plain(..., full_bytes=True)``)."""
    bitmap = bin_obj["bitmap"]
    if "roaring" in bitmap:
        return list(BitMap.deserialize(bytes.fromhex(bitmap["roaring"]["hex"])))
    return [(b["key"] << 32) | v for b in bitmap["bitmaps"]
            for v in BitMap.deserialize(bytes.fromhex(b["roaring"]["hex"]))]


def assert_dv_matches_reference(dv: DeletionVector, data: bytes) -> None:
    assert dv.to_array().tolist() == reference_positions(data), "decoded positions differ from CRoaring's"


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


def _bin_positions(entry_bytes: bytes, crc: bool) -> list[int]:
    obj = F.get("deletion-vector").decode(entry_bytes, validate=crc)  # validate: CRCs, as our reader's flag
    return reference_bin_positions(F.plain(obj, full_bytes=True)["bin"])


def _index_reference(b: bytes, crc: bool) -> list[list[int]]:
    ref = F.plain(F.get("deletion-vectors").decode(b"\x01" + b, validate=crc), full_bytes=True)
    return [reference_bin_positions(e["bin"]) for e in ref["entries"]]


def _delete_map_reference(b: bytes) -> dict[str, list[int]]:
    ref = F.plain(F.get("delete-map").decode(b), full_bytes=True)
    return {e["name"]: reference_positions(b[e["start"]:e["start"] + e["size"]]) for e in ref["entries"]}


def _positions(dv: DeletionVector) -> list[int]:
    return dv.to_array().tolist()


# (our reader, its answer in plain form, the reference answer); the reference runs outside the ``except``
# of our reader, so a reference refusing what we accepted fails the test too
DECODERS = [
    (lambda b, crc: read_dv_index(b"\x01" + b, verify_crc=crc),
     lambda got: [_positions(e.dv) for e in got.entries], lambda b, got, crc: _index_reference(b, crc)),
    (lambda b, crc: read_entry(b, verify_crc=crc), lambda got: _positions(got.dv),
     lambda b, got, crc: _bin_positions(b, crc)),
    (lambda b, crc: read_deletion_vector(b"\x01" + b, 1, max(len(b) - 8, 4), verify_crc=crc), _positions,
     lambda b, got, crc: _bin_positions(b[:4 + struct.unpack(">i", b[:4])[0] + 4], crc)),
    (lambda b, crc: read_puffin(b), lambda got: [_positions(x.dv) for x in got],
     lambda b, got, crc: [reference_positions(b[x.offset:x.offset + x.length]) for x in got]),
    (lambda b, crc: read_delete_map(b), lambda got: {k: _positions(v) for k, v in got.items()},
     lambda b, got, crc: _delete_map_reference(b)),
    (lambda b, crc: DeletionVector.deserialize(b), _positions, lambda b, got, crc: reference_positions(b)),
]


@SETTINGS
@given(hostile())
def test_garbage_never_escapes(blob):
    """Only our errors escape; what our reader accepts decodes to the reference's positions."""
    for decode, answer, reference in DECODERS:
        for crc in (True, False):
            try:
                got = decode(blob, crc)
            except PaimonCodecError:
                continue
            assert answer(got) == reference(blob, got, crc), decode


@SETTINGS
@given(st.binary(min_size=4, max_size=200) | hostile().map(lambda b: b[4:]),
       st.sampled_from([b"\x5e\x43\xf2\xd0", struct.pack("<i", MAGIC_64)]))
def test_garbage_after_magic(body, magic):
    try:
        dv = DeletionVector.deserialize(magic + body)
    except PaimonCodecError:
        return
    assert_dv_matches_reference(dv, magic + body)


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
    """A truncation is refused, or gives (some of) the vectors that were written; a cut past the end is the
    whole file, which gives exactly the vectors written."""
    written = {"a": DeletionVector([1, 2, 2**32], bitmap64=True), "b": DeletionVector([3, 70_000, 2**31 - 1])}
    raw, _ = encode_puffin(written)
    in_map = {"x.parquet": DeletionVector([4, 5]), "yy.parquet": DeletionVector([9, 12, 100_000])}
    dm, _ = encode_delete_map(in_map)
    for read, data, want in ((lambda d: {b.referenced_data_file: b.dv for b in read_puffin(d)}, raw, written),
                             (read_delete_map, dm, in_map)):
        try:
            got = read(data[:cut])
        except PaimonCodecError:
            assert cut < len(data), "the whole file was refused"
            continue
        assert got == want if cut >= len(data) else got.items() <= want.items(), got


def test_hash_index_lengths():
    for n in range(1, 4):
        try:
            read_hash_index(bytes(8 + n))
        except PaimonCodecError:
            pass
        else:
            raise AssertionError("accepted")
    assert read_hash_index(b"").size == 0
