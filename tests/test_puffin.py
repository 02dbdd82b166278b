"""Iceberg Puffin export/import of 64-bit deletion vectors, read back by pyiceberg."""

from __future__ import annotations

import json
import struct

import numpy as np
import pyiceberg.table.puffin as pyiceberg_puffin  # a test dependency: missing means a broken set-up, not a skip
import pytest
from pyiceberg.table.deletion_vector import deletion_vectors_from_puffin_file

from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import encode_dv_files
from paimon_codec.dv.puffin import DV_BLOB_TYPE, encode_puffin, read_puffin, write_puffin
from paimon_codec.errors import ChecksumMismatchError, CorruptDataError, PaimonCodecError


def _sample() -> dict[str, DeletionVector]:
    rng = np.random.default_rng(11)
    return {
        "s3://bucket/t/data-0.parquet": DeletionVector.from_array(rng.integers(0, 5_000_000, 20_000), bitmap64=True),
        "s3://bucket/t/data-1.parquet": DeletionVector.from_ranges([[0, 70_000], [2**32 - 3, 2**32 + 5],
                                                                   [3 * 2**32 + 7, 3 * 2**32 + 9]], bitmap64=True),
        "data-2.parquet": DeletionVector([5, 9, 1000], bitmap64=False),  # widened on export
        "empty.parquet": DeletionVector(bitmap64=True),
    }


def test_pyiceberg_reads_our_puffin(tmp_path):
    dvs = _sample()
    path = tmp_path / "dvs.puffin"
    blobs = write_puffin(path, dvs)
    raw = path.read_bytes()
    pf = pyiceberg_puffin.PuffinFile(raw)
    assert [b.type for b in pf.footer.blobs] == [DV_BLOB_TYPE] * len(dvs)
    for meta, ours in zip(pf.footer.blobs, blobs, strict=True):
        assert meta.snapshot_id == -1 and meta.sequence_number == -1
        assert meta.compression_codec is None
        assert (meta.offset, meta.length) == (ours.offset, ours.length)
        assert meta.properties["referenced-data-file"] == ours.referenced_data_file
        assert int(meta.properties["cardinality"]) == dvs[ours.referenced_data_file].cardinality
    got = {}
    for dv in deletion_vectors_from_puffin_file(pf):
        # pyiceberg's own decoding: one 32-bit bitmap per high key, gaps filled with empty ones
        got[dv.referenced_data_file] = np.array(
            [(key << 32) + low for key, bm in enumerate(dv._bitmaps) for low in bm], dtype=np.int64)
        if all(len(bm) for bm in dv._bitmaps) and dv._bitmaps:
            # its Arrow export trips over empty intermediate bitmaps (a pyiceberg limitation)
            assert np.array_equal(np.array(dv.to_vector().to_pylist(), dtype=np.int64),
                                  got[dv.referenced_data_file])
    for name, dv in dvs.items():
        assert np.array_equal(got[name], dv.to_array())


def test_blob_is_a_paimon_64bit_entry_and_round_trips():
    dvs = _sample()
    raw, blobs = encode_puffin(dvs)
    for b in blobs:
        wide = DeletionVector.from_parts(dvs[b.referenced_data_file].parts(), bitmap64=True)
        entry = encode_dv_files([("x", wide)], target_size=None)[0][0][1:]
        assert raw[b.offset:b.offset + b.length] == entry
        # Iceberg's content_size_in_bytes equals Paimon's 64-bit DeletionFile length
        assert b.length == struct.unpack(">i", entry[:4])[0] + 8
    back = read_puffin(raw)
    assert {b.referenced_data_file: b.dv for b in back} == {
        n: DeletionVector.from_parts(d.parts(), bitmap64=True) for n, d in dvs.items()}
    for b in back:
        assert b.dv.bitmap64 and b.cardinality == b.dv.cardinality


def test_positions_above_2_32_round_trip():
    positions = np.array([0, 2**31, 2**32, 2**32 + 1, 5 * 2**32 + 123, (7 << 32) | 0xFFFFFFFF], dtype=np.int64)
    dv = DeletionVector.from_array(positions, bitmap64=True)
    back = DeletionVector.deserialize(dv.serialize())
    assert np.array_equal(back.to_array(), positions)
    # dense keys 0..max are written, empty ones included
    assert struct.unpack_from("<q", dv.serialize(), 4)[0] == 8
    raw, _ = encode_puffin({"f": DeletionVector.from_array(positions[:5], bitmap64=True)})
    assert np.array_equal(read_puffin(raw)[0].dv.to_array(), positions[:5])


def test_hostile_puffin_inputs():
    raw, blobs = encode_puffin(_sample())
    with pytest.raises(CorruptDataError):
        read_puffin(b"XXXX" + raw[4:])
    with pytest.raises(CorruptDataError):
        read_puffin(raw[:-1] + b"X")
    bad = bytearray(raw)
    bad[blobs[0].offset + 20] ^= 0x10
    with pytest.raises(ChecksumMismatchError):
        read_puffin(bytes(bad))
    # footer claims a size larger than the file
    bad = bytearray(raw)
    bad[-12:-8] = struct.pack("<i", len(raw) * 2)
    with pytest.raises(CorruptDataError):
        read_puffin(bytes(bad))
    # footer JSON pointing outside the blob area
    footer_len = struct.unpack("<i", raw[-12:-8])[0]
    start = len(raw) - 12 - footer_len
    meta = json.loads(raw[start:len(raw) - 12])
    meta["blobs"][0]["offset"] = len(raw)
    payload = json.dumps(meta).encode()
    forged = raw[:start] + payload + struct.pack("<i", len(payload)) + raw[-8:]
    with pytest.raises(CorruptDataError):
        read_puffin(forged)
    for cut in (0, 10, 19, len(raw) // 2):
        with pytest.raises(PaimonCodecError):
            read_puffin(raw[:cut])



def test_reading_a_puffin_path_closes_the_file(tmp_path, monkeypatch):
    import paimon_codec.storage as storage

    path = tmp_path / "dv.puffin"
    write_puffin(path, {"a.parquet": DeletionVector([1, 5], bitmap64=True)})
    opened = []
    real_open_input = storage.open_input

    def recording_open(*args, **kwargs):
        fh = real_open_input(*args, **kwargs)
        opened.append(fh)
        return fh

    # every path is opened through the storage layer (local files and object-store URIs alike)
    monkeypatch.setattr(storage, "open_input", recording_open)
    assert [b.dv.to_array().tolist() for b in read_puffin(str(path))] == [[1, 5]]
    assert opened and all(fh.closed for fh in opened)
