"""Deletion vectors against the golden files written by Paimon's Java code (0.9 and newest)."""

from __future__ import annotations

import hashlib
import struct
import zlib

import numpy as np
import pytest
from conftest import GOLDEN_09, latest_cases, load_json

from paimon_codec.bucket.hash_index import encode_hash_index, read_hash_index
from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import (
    encode_dv_files,
    read_deletion_vector,
    read_deletion_vectors,
    read_dv_index,
    read_entry,
    write_dv_index,
)
from paimon_codec.errors import ChecksumMismatchError, CorruptDataError, UnsupportedVersionError
from paimon_codec.fileio import ByteSource
from paimon_codec.positions import positions_from_json

DV09 = GOLDEN_09 / "deletion_vectors"
CASES_09 = sorted(p.stem for p in DV09.glob("*.json"))
BINS = latest_cases("dv-bin")
FILES = latest_cases("dv-file")


def _ids(cases):
    return [c["case"] for c in cases]


def _dvs_09(sidecar: dict) -> dict[str, DeletionVector]:
    out = {}
    for e in sidecar["deletion_vectors"]:
        if "arith" in e:
            out[e["name"]] = DeletionVector.from_array(np.arange(*e["arith"], dtype=np.int64))
        else:
            out[e["name"]] = DeletionVector.from_ranges(e["ranges"])
        assert out[e["name"]].cardinality == e["cardinality"]
    return out


def _expected_array(positions: dict, wide: bool) -> np.ndarray:
    bm = positions_from_json(positions, wide=wide)
    return np.array(sorted(bm), dtype=np.int64)


@pytest.mark.parametrize("case", CASES_09)
def test_09_write_is_byte_identical(case, tmp_path):
    side = load_json(DV09 / f"{case}.json")
    dvs = _dvs_09(side)
    names = iter(j["file_name"] for j in side["java_index_files"])
    metas = write_dv_index(tmp_path, dvs, target_size=side["target_size_per_index_file"],
                           name_factory=lambda _n: next(names))
    assert len(metas) == len(side["java_index_files"])
    for meta, java in zip(metas, side["java_index_files"], strict=True):
        data = (tmp_path / meta.file_name).read_bytes()
        assert hashlib.sha256(data).hexdigest() == java["file_sha256"]
        assert data == (DV09 / java["file_name"]).read_bytes()
        assert meta.file_size == java["file_size"]
        assert meta.row_count == java["row_count"]
        assert [r.to_dict()[:3] for r in meta.ranges] == java["deletion_vectors_ranges"]
        for r in meta.ranges:
            assert r.cardinality == java["deletion_files"][r.data_file]["cardinality"]


@pytest.mark.parametrize("case", CASES_09)
def test_09_read_matches_sidecar(case):
    side = load_json(DV09 / f"{case}.json")
    dvs = _dvs_09(side)
    for java in side["java_index_files"]:
        path = DV09 / java["file_name"]
        whole = read_dv_index(path)
        assert whole.version == 1
        assert [(e.offset, e.length) for e in whole.entries] == [tuple(r[1:]) for r in java["deletion_vectors_ranges"]]
        for (name, _, _), entry in zip(java["deletion_vectors_ranges"], whole.entries, strict=True):
            assert entry.dv == dvs[name]
            assert entry.cardinality == java["read_back_cardinality"][name]
        by_name = read_deletion_vectors(path, [tuple(r) for r in java["deletion_vectors_ranges"]])
        assert by_name == {n: dvs[n] for n, _, _ in java["deletion_vectors_ranges"]}
        for name, offset, length in java["deletion_vectors_ranges"]:
            src = ByteSource(path)
            assert read_deletion_vector(src, offset, length) == dvs[name]
            assert src.bytes_read == length + 8  # only the entry: size + bin + crc


def test_09_rollover_makes_three_files():
    side = load_json(DV09 / "dv_rollover.json")
    files = encode_dv_files(_dvs_09(side), target_size=side["target_size_per_index_file"])
    assert len(files) == 3


def test_09_serialized_crc_and_length():
    for case in CASES_09:
        side = load_json(DV09 / f"{case}.json")
        dvs = _dvs_09(side)
        for name, info in side["java_serialized"].items():
            data = dvs[name].serialize()
            assert len(data) == info["serialized_length"]
            assert struct.unpack(">i", struct.pack(">I", zlib.crc32(data)))[0] == info["crc32_as_int"]
            if "serialized_hex" in info:
                assert data.hex() == info["serialized_hex"]


@pytest.mark.parametrize("case", BINS, ids=_ids(BINS))
def test_latest_bins(case):
    side = load_json(case["json"])
    raw = case["file"].read_bytes()
    entry = read_entry(raw)
    wide = side["bitmap64"]
    assert entry.kind == ("64" if wide else "32")
    assert entry.size == side["size_field"]
    assert entry.length == side["deletion_file_length"]
    assert entry.crc == side["crc32"]
    assert raw[4:8].hex() == side["magic_bytes_hex"]
    assert entry.cardinality == side["cardinality"]
    expected = _expected_array(side["positions"], wide)
    assert np.array_equal(entry.dv.to_array(), expected)
    for pos, deleted in side["is_deleted_probes"]:
        assert entry.dv.is_deleted(pos) is deleted
    probes = np.array([p for p, _ in side["is_deleted_probes"]], dtype=np.int64)
    assert entry.dv.contains_many(probes).tolist() == [d for _, d in side["is_deleted_probes"]]
    # rebuild from the positions alone: byte-identical entry
    rebuilt = DeletionVector.from_array(expected, bitmap64=wide)
    files = encode_dv_files([("f", rebuilt)], target_size=None)
    assert files[0][0][1:] == raw


@pytest.mark.parametrize("case", FILES, ids=_ids(FILES))
def test_latest_files(case, tmp_path):
    side = load_json(case["json"])
    raw = case["file"].read_bytes()
    wide = side["bitmap64"]
    dvs = {r["data_file"]: DeletionVector.from_array(_expected_array(r["positions"], wide), bitmap64=wide)
           for r in side["dv_ranges"]}
    parsed = read_dv_index(raw)
    assert parsed.version == side["version_byte"]
    assert len(parsed.entries) == side["row_count"]
    for r, e in zip(side["dv_ranges"], parsed.entries, strict=True):
        assert (e.offset, e.length, e.cardinality) == (r["offset"], r["length"], r["cardinality"])
        assert e.dv == dvs[r["data_file"]]
        src = ByteSource(raw)
        assert read_deletion_vector(src, r["offset"], r["length"]) == dvs[r["data_file"]]
        assert src.bytes_read == e.size + 8  # just this entry, whatever the flavour
    metas = write_dv_index(tmp_path, dvs, target_size=None, name_factory=lambda n: f"out-{n}")
    assert len(metas) == 1
    assert (tmp_path / "out-0").read_bytes() == raw
    assert [(r.data_file, r.offset, r.length, r.cardinality) for r in metas[0].ranges] == [
        (r["data_file"], r["offset"], r["length"], r["cardinality"]) for r in side["dv_ranges"]]


def _all_dv_files():
    out = [DV09 / j["file_name"] for c in CASES_09 for j in load_json(DV09 / f"{c}.json")["java_index_files"]]
    out += [c["file"] for c in FILES]
    return [p for p in out if p.stat().st_size > 1]


@pytest.mark.parametrize("path", _all_dv_files(), ids=lambda p: p.name)
def test_flipped_bit_in_any_bin_is_a_crc_error(path):
    raw = path.read_bytes()
    entries = read_dv_index(raw).entries
    rng = np.random.default_rng(len(raw))
    for e in entries:
        # flip one bit somewhere inside the bin (magic excluded: that is a "bad magic" error)
        for _ in range(3):
            at = e.offset + 8 + int(rng.integers(0, max(e.size - 4, 1)))
            if at >= e.offset + 4 + e.size:
                at = e.offset + 4 + e.size - 1
            bad = bytearray(raw)
            bad[at] ^= 1 << int(rng.integers(0, 8))
            with pytest.raises(ChecksumMismatchError) as info:
                read_dv_index(bytes(bad), path=str(path))
            assert info.value.offset == e.offset and info.value.path == str(path)
            with pytest.raises(ChecksumMismatchError):
                read_deletion_vector(bytes(bad), e.offset, e.length)


@pytest.mark.parametrize("path", _all_dv_files()[:3], ids=lambda p: p.name)
def test_bad_magic_and_version(path):
    raw = bytearray(path.read_bytes())
    e = read_dv_index(bytes(raw)).entries[0]
    bad = bytearray(raw)
    bad[e.offset + 4] ^= 0xFF
    with pytest.raises(CorruptDataError, match="magic"):
        read_dv_index(bytes(bad))
    bad = bytearray(raw)
    bad[0] = 2
    with pytest.raises(UnsupportedVersionError, match="version"):
        read_dv_index(bytes(bad))


def test_warehouse_index_files_decode():
    """The DV and HASH index files of the real 0.9 warehouse read to what its index manifest says."""
    desc = load_json(GOLDEN_09 / "warehouse" / "warehouse.json")
    root = GOLDEN_09 / "warehouse" / "warehouse" / "golden.db"
    checked = {"DELETION_VECTORS": 0, "HASH": 0}
    for table in desc["tables"]:
        for e in table["index_manifest"].get("entries", []):
            path = root / table["table"].split(".")[-1] / "index" / e["file_name"]
            assert path.stat().st_size == e["file_size"]
            if e["index_type"] == "DELETION_VECTORS":
                parsed = read_dv_index(path)
                assert len(parsed.entries) == e["row_count"]
                assert [[r[0], ent.offset, ent.length] for r, ent in zip(e["deletion_vectors_ranges"], parsed.entries, strict=True)] \
                    == [r[:3] for r in e["deletion_vectors_ranges"]]
                for _name, offset, length, *_ in e["deletion_vectors_ranges"]:
                    assert read_deletion_vector(path, offset, length).cardinality > 0
            else:
                hashes = read_hash_index(path)
                assert hashes.tolist() == e["hashes_in_file_order"]
                assert encode_hash_index(hashes) == path.read_bytes()
            checked[e["index_type"]] += 1
    assert checked["DELETION_VECTORS"] > 0 and checked["HASH"] > 0


@pytest.mark.parametrize("path", _all_dv_files(), ids=lambda p: p.name)
def test_agrees_with_generated_codec(path):
    """Our hot-path framing (struct) and the schema-generated Construct codec see the same entries."""
    from paimon_codec.generated.construct.deletion_vectors import DeletionVectors

    raw = path.read_bytes()
    generated = DeletionVectors.parse(raw)
    ours = read_dv_index(raw)
    assert generated["version"] == ours.version
    assert [(e["size"], e["crc"] & 0xFFFFFFFF) for e in generated["entries"]] == [(e.size, e.crc) for e in ours.entries]
    assert DeletionVectors.build(generated) == raw
