"""Decoded metadata is remembered by content: a plan re-reads every manifest, and a file that changes (in
place, or a same-named file of another table) is never served from what an earlier read decoded."""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import fastavro
import pytest

from paimon_codec.errors import CorruptDataError
from paimon_codec.table import PaimonTable
from paimon_codec.table import metadata_records as mr
from paimon_codec.table.manifest import _manifest, read_manifest, read_manifest_list

GOLDEN = Path(os.environ.get("PAIMON_GOLDEN", Path(__file__).resolve().parents[2] / "shared" / "golden"))
WAREHOUSE = GOLDEN / "paimon-0.9" / "warehouse" / "warehouse" / "golden.db"


def _a_manifest(tmp_path: Path) -> tuple[PaimonTable, str, Path]:
    """A copy of a golden table (written by Paimon Java 0.9) and one of its manifests with 2+ entries."""
    for src in sorted(p for p in WAREHOUSE.iterdir() if p.is_dir()):
        table = PaimonTable(str(shutil.copytree(src, tmp_path / src.name)))
        snap = table.snapshot()
        for name in table.manifest_file_names(snap) if snap else []:
            if len(read_manifest(table.manifest_dir, name)) >= 2:
                return table, name, Path(table.manifest_dir) / name
        shutil.rmtree(tmp_path / src.name)
    pytest.fail(f"no golden table with a manifest of 2+ entries under {WAREHOUSE}")


def test_repeated_reads_share_decoded_entries(tmp_path):
    table, name, path = _a_manifest(tmp_path)
    first, second = read_manifest(table.manifest_dir, name), read_manifest(table.manifest_dir, name)
    assert first == second and first is not second  # a new list each time ...
    assert all(a is b for a, b in zip(first, second, strict=True))  # ... of the same (frozen) entries
    assert first == _manifest(mr.read_metadata_records(str(path), "manifest"), str(path))  # = a fresh decode


def test_a_file_rewritten_in_place_is_decoded_again(tmp_path):
    table, name, path = _a_manifest(tmp_path)
    before = read_manifest(table.manifest_dir, name)
    reader = fastavro.reader(io.BytesIO(path.read_bytes()))
    schema, records = reader.writer_schema, list(reader)
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records[:-1])  # one entry fewer, same name
    path.write_bytes(buf.getvalue())
    after = read_manifest(table.manifest_dir, name)
    assert after == before[:-1]
    path.write_bytes(buf.getvalue()[:-7])  # truncated: refused every time, never a remembered answer
    for _ in range(2):
        with pytest.raises(CorruptDataError):
            read_manifest(table.manifest_dir, name)
    snap = table.snapshot()
    lst = snap.base_manifest_list
    assert read_manifest_list(table.manifest_dir, lst) == read_manifest_list(table.manifest_dir, lst)


def test_the_cache_is_bounded(tmp_path, monkeypatch):
    table, name, path = _a_manifest(tmp_path)
    monkeypatch.setattr(mr, "_CACHE_ENTRIES", 3)
    reader = fastavro.reader(io.BytesIO(path.read_bytes()))
    schema, records = reader.writer_schema, list(reader)
    for i in range(6):  # six distinct contents (a different codec block size each)
        buf = io.BytesIO()
        fastavro.writer(buf, fastavro.parse_schema(schema), records, sync_interval=1000 + i)
        path.write_bytes(buf.getvalue())
        assert read_manifest(table.manifest_dir, name)
    assert len(mr._CACHE) <= 3
    assert mr._cached_bytes[0] == sum(size for _what, _digest, size in mr._CACHE)
