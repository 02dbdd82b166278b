"""DeletionVector operations, the legacy delete-map layout, apply helpers and the dv CLI."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pytest
from conftest import GOLDEN_LATEST, load_json
from pyroaring import BitMap, BitMap64

from paimon_codec.cli import main
from paimon_codec.dv.apply import combine, filter_arrow, selected_positions
from paimon_codec.dv.delete_map import delete_map_ranges, encode_delete_map, read_delete_map, write_delete_map
from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import encode_dv_files, read_dv_index
from paimon_codec.errors import InvalidOptionError, PaimonCodecError
from paimon_codec.fileindex.result import REMAIN, SKIP, BitmapResult
from paimon_codec.fileio import ByteSource
from paimon_codec.memory_size import parse_memory_size


def test_construction_and_queries():
    rng = np.random.default_rng(3)
    pos = rng.integers(0, 300_000, 5000)
    dv = DeletionVector.from_array(pos)
    uniq = np.unique(pos)
    assert dv.cardinality == len(dv) == uniq.size
    assert np.array_equal(dv.to_array(), uniq)
    assert DeletionVector(pos.tolist()) == dv == DeletionVector.from_ranges([[p, p + 1] for p in uniq.tolist()])
    assert DeletionVector.from_bitmap(BitMap(uniq.astype(np.uint32))) == dv
    probe = rng.integers(0, 300_000, 1000)
    assert dv.contains_many(probe).tolist() == [dv.is_deleted(int(p)) for p in probe]
    assert dv.contains_many(probe).tolist() == np.isin(probe, uniq).tolist()
    mask = dv.mask(300_000)
    assert np.array_equal(np.flatnonzero(mask), uniq)
    assert np.array_equal(dv.mask(1000, start=100_000), mask[100_000:101_000])
    assert np.array_equal(dv.keep_mask(50), ~mask[:50])
    assert np.array_equal(dv.filter(probe), probe[~np.isin(probe, uniq)])
    other = DeletionVector([1, 2, 299_999])
    merged = DeletionVector.from_array(pos).merge(other)
    assert merged.cardinality == np.union1d(uniq, [1, 2, 299_999]).size
    assert sum(b - a for a, b in dv.ranges()) == uniq.size
    assert DeletionVector.from_ranges(dv.ranges()) == dv


def test_64bit_vectors_and_limits():
    wide = DeletionVector.from_array(np.array([3, 2**32 + 7, 2**33], dtype=np.int64), bitmap64=True)
    assert wide.is_deleted(2**32 + 7) and not wide.is_deleted(7)
    assert wide.mask(10, start=2**32).tolist() == [False] * 7 + [True, False, False]
    assert isinstance(wide.to_bitmap(), BitMap64)
    assert DeletionVector.from_bitmap(BitMap64([3, 2**32 + 7, 2**33])) == wide
    with pytest.raises(PaimonCodecError):
        DeletionVector([2**31])  # 32-bit vectors stop at Integer.MAX_VALUE
    with pytest.raises(PaimonCodecError):
        DeletionVector([-1])
    with pytest.raises(PaimonCodecError):
        DeletionVector([(0x7FFFFFFF << 32)], bitmap64=True)
    narrow = DeletionVector([5, 6])
    assert DeletionVector.deserialize(narrow.serialize()) == narrow
    assert DeletionVector.deserialize(wide.serialize()) == wide


def test_sparse_64bit_keys_are_read():
    side = load_json(GOLDEN_LATEST / "dv" / "dv64_sparse_keys.json")
    raw = (GOLDEN_LATEST / "dv" / "dv64_sparse_keys.bin").read_bytes()
    dense = DeletionVector.deserialize(raw[4:-4])
    # rewrite with only the non-empty keys (sparse), as other writers may
    import struct

    from paimon_codec.roaring import serialize_optimized
    parts = dense.parts()
    body = [raw[4:8], struct.pack("<q", len(parts))]
    for k, bm in parts.items():
        body += [struct.pack("<i", k), serialize_optimized(BitMap(bm))]
    sparse = DeletionVector.deserialize(b"".join(body))
    assert sparse == dense and sparse.cardinality == side["cardinality"]


def test_memory_size():
    assert parse_memory_size("2 mb") == 2 * 1024 * 1024
    assert parse_memory_size("1kb") == 1024 and parse_memory_size("17") == 17
    assert parse_memory_size("1 GB") == 1 << 30 and parse_memory_size("3 bytes") == 3
    for bad in ("", "mb", "1 xb", "-1"):
        with pytest.raises(InvalidOptionError):
            parse_memory_size(bad)


def test_rolling_checks_after_each_vector():
    dvs = [(f"f{i}", DeletionVector(range(0, 2000 * (i + 1), 7))) for i in range(5)]
    sizes = [len(d.serialize()) + 8 for _, d in dvs]
    target = 1 + sizes[0] + sizes[1] - 1  # exceeded exactly after the second vector
    files = encode_dv_files(dvs, target_size=target)
    assert [len(r) for _, r in files][0] == 2
    assert len(encode_dv_files(dvs, target_size=None)) == 1
    assert len(encode_dv_files(dvs, target_size=1)) == 5
    assert encode_dv_files([], target_size="2 mb")[0][0] == b"\x01"


def test_delete_map_round_trip(tmp_path):
    dvs = {"data-a.parquet": DeletionVector([0, 5, 6]), "b.orc": DeletionVector(range(0, 200_000, 3)),
           "ü-nicode.parquet": DeletionVector()}
    ranges = write_delete_map(tmp_path / "dm", dvs)
    raw = (tmp_path / "dm").read_bytes()
    assert int.from_bytes(raw[:4], "big") == 3
    assert int.from_bytes(raw[4:8], "big") == max(len(n.encode()) for n in dvs)
    assert read_delete_map(raw) == dvs
    src = ByteSource(raw)
    assert delete_map_ranges(src) == ranges
    assert src.bytes_read == 8 + 3 * (int.from_bytes(raw[4:8], "big") + 8)  # only the header
    for name, (start, size) in ranges.items():
        assert DeletionVector.deserialize(raw[start:start + size]) == dvs[name]
    assert read_delete_map(encode_delete_map({})[0]) == {}
    bad = bytearray(raw)
    bad[8 + int.from_bytes(raw[4:8], "big") + 3] = 0xFF  # first entry's start far beyond the file
    with pytest.raises(PaimonCodecError):
        read_delete_map(bytes(bad))
    with pytest.raises(PaimonCodecError):
        read_delete_map(raw[:6])


def test_combine_selected_positions_and_arrow():
    """One combiner (FileIndexEvaluator, FORMATS.md 9.3): REMAIN stays REMAIN with a DV (the read applies
    the DV), a bitmap loses its deleted rows, equal to the DV selection => REMAIN, empty => SKIP; the rows
    to read are the bitmap's, or for REMAIN the rows the DV keeps."""
    dv = DeletionVector([1, 3, 5])
    assert combine(SKIP, dv, 10) is SKIP
    assert combine(REMAIN, dv, 10) is REMAIN
    assert combine(REMAIN, None, 4) is REMAIN
    r = combine(BitmapResult(BitMap([1, 2, 3])), dv, 10)
    assert isinstance(r, BitmapResult) and list(r.bitmap) == [2]
    assert combine(BitmapResult(BitMap([1, 3])), dv, 10) is SKIP
    assert combine(BitmapResult(BitMap([0, 2, 4, 6, 7, 8, 9])), dv, 10) is REMAIN
    assert combine(SKIP, DeletionVector([1], bitmap64=True), 10) is REMAIN
    assert selected_positions(REMAIN, dv, 7).tolist() == [0, 2, 4, 6]
    assert selected_positions(REMAIN, DeletionVector(range(4)), 4).tolist() == []
    assert selected_positions(BitmapResult(BitMap([1, 2, 3, 8])), dv, 7).tolist() == [2]
    assert selected_positions(SKIP, dv, 7).tolist() == []
    assert selected_positions(REMAIN, DeletionVector([1], bitmap64=True), 3).tolist() == [0, 2]
    table = pa.table({"id": list(range(10)), "v": [str(i) for i in range(10)]})
    assert filter_arrow(table, dv)["id"].to_pylist() == [0, 2, 4, 6, 7, 8, 9]
    batch = pa.record_batch([pa.array(range(5, 10))], names=["id"])
    assert filter_arrow(batch, dv, start=5)["id"].to_pylist() == [6, 7, 8, 9]
    assert filter_arrow(table, None) is table


def _run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def test_dv_cli_round_trip(tmp_path, capsys):
    spec = {"a.parquet": [[0, 5], [10, 12]], "b.parquet": [[7, 8]], "c.parquet": [[2**32 + 1, 2**32 + 3]]}
    inp = tmp_path / "pos.json"
    inp.write_text(json.dumps(spec))
    rc, out, _ = _run(capsys, "dv", "write", "--input", str(inp), "--output-dir", str(tmp_path / "out"),
                      "--bitmap64", "--target-size", "40b", "--json")
    assert rc == 0
    files = json.loads(out)["files"]
    assert [r[0] for f in files for r in f["ranges"]] == list(spec)
    assert len(files) == 3  # every 64-bit entry exceeds 40 bytes
    for f in files:
        rc, out, _ = _run(capsys, "dv", "read", str(tmp_path / "out" / f["file_name"]), "--json")
        got = json.loads(out)
        assert got["version"] == 1
        for entry, (name, offset, length, card) in zip(got["entries"], f["ranges"], strict=True):
            assert (entry["offset"], entry["length"], entry["cardinality"], entry["kind"]) == (offset, length, card, "64")
            assert entry["positions"] == {"cardinality": card, "ranges": spec[name]}
    rc, out, err = _run(capsys, "dv", "write", "--input", str(inp), "--output-dir", str(tmp_path / "o2"), "--json")
    assert rc == 2 and "32-bit" in err  # position >= 2**31 needs --bitmap64
    puffin = tmp_path / "x.puffin"
    rc, out, _ = _run(capsys, "dv", "to-puffin", str(inp), "--output", str(puffin), "--json")
    assert rc == 0 and len(json.loads(out)["blobs"]) == 3
    rc, out, _ = _run(capsys, "dv", "from-puffin", str(puffin), "--output-dir", str(tmp_path / "imp"), "--json")
    got = json.loads(out)
    assert {b["referenced_data_file"]: b["positions"]["ranges"] for b in got["blobs"]} == spec
    imported = read_dv_index(tmp_path / "imp" / got["files"][0]["file_name"])
    assert [e.kind for e in imported.entries] == ["64"] * 3


def test_dv_cli_entry_and_errors(tmp_path, capsys):
    case = GOLDEN_LATEST / "dv" / "dv32_small.bin"
    side = load_json(GOLDEN_LATEST / "dv" / "dv32_small.json")
    rc, out, _ = _run(capsys, "dv", "read", "--entry", str(case), "--json")
    entry = json.loads(out)["entries"][0]
    assert rc == 0 and entry["length"] == side["deletion_file_length"] and entry["kind"] == "32"
    assert entry["positions"]["cardinality"] == side["cardinality"]
    bad = bytearray(case.read_bytes())
    bad[10] ^= 0x01
    (tmp_path / "bad.bin").write_bytes(bytes(bad))
    rc, _, err = _run(capsys, "dv", "read", "--entry", str(tmp_path / "bad.bin"), "--json")
    assert rc == 2 and "checksum" in err and "bad.bin" in err
    rc, _, err = _run(capsys, "dv", "read", str(tmp_path / "missing"))
    assert rc == 2
