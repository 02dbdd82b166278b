"""A table under a URI gets the paths it gets on local disk.

Every path the table layer builds - the manifest directory, branch directories, bucket directories under
escaped ``k=v`` partition directories and ``data-file.path-directory``, data files, their ``.index`` files,
index files and the deletion-vector files they hold - is the table's location followed by the same
``/``-separated parts, on S3 (a real server), on an fsspec store and under a ``file:`` URI (the local table
itself).  The parts after a URI are joined with ``/`` whatever the host's separator is.
"""

from __future__ import annotations

import ntpath
import os
from pathlib import Path

import pyarrow as pa
import pytest
from golden_warehouse import table_dir

from paimon_codec.table import PaimonTable, Snapshot
from paimon_codec.table.table import branch_dir
from paimon_codec.writing import append_arrow, create_table

GOLDEN_DV = "golden.pk_dv_fixed"  # unpartitioned: DELETION_VECTORS index files in <table>/index


def _partitioned_table(root: Path) -> str:
    """Two partition levels (a value needing escaping, one with a space, the default partition), data under
    ``data-file.path-directory`` and every data file with a ``.index`` file beside it."""
    path = create_table(root / "db.db" / "parts", "id INT, p STRING, q INT, v BIGINT",
                        {"file.format": "parquet", "data-file.path-directory": "data",
                         "file-index.bloom-filter.columns": "v", "file-index.in-manifest-threshold": "1 b"},
                        partition_keys=["p", "q"])
    append_arrow(path, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "p": ["a/b", "x y", None],
                                 "q": pa.array([1, 2, 3], pa.int32()), "v": pa.array([1, 2, 3], pa.int64())}))
    return path


def _paths(t: PaimonTable, snap: Snapshot | None = None) -> list[str]:
    """Every path the table builds for ``snap`` (default: its latest snapshot), in a fixed order."""
    snap = snap or t.snapshot()
    assert snap is not None
    out = [t.manifest_dir, branch_dir(t.path, "b1")]
    for f in t.live_files(snap):
        out += [f.path, f.index_path or "-", f.deletion_file.path if f.deletion_file else "-",
                t.bucket_dir(f.entry.partition, f.bucket)]
    out += [f.path for f in t.index_files(snap)]
    return out


def _check_same_paths(local: str, location: str) -> PaimonTable:
    """The table at ``location`` (a copy of ``local``) builds ``local``'s paths with its own location first."""
    ours, theirs = PaimonTable(location), PaimonTable(local)
    want = [p.replace(theirs.path, ours.path, 1) if p != "-" else p for p in _paths(theirs)]
    assert _paths(ours) == want
    return ours


def _tables(tmp_path: Path) -> list[str]:
    return [table_dir(GOLDEN_DV), _partitioned_table(tmp_path)]


def test_paths_of_the_table_on_s3_are_its_local_paths(tmp_path, table_location):
    for local in _tables(tmp_path):
        _check_same_paths(local, table_location(local))


@pytest.mark.parametrize("prefix", ["file:", "file://", "FILE://localhost"])
def test_a_file_uri_is_the_local_table(tmp_path, prefix):
    for local in _tables(tmp_path):
        t = _check_same_paths(local, prefix + local)
        assert t.path == local


def test_parts_after_a_uri_are_joined_with_slash_on_any_host(tmp_path, monkeypatch):
    """With ``os.path`` swapped for Windows' (after the metadata is read and cached, so only path building
    runs under it), a table on an object store still builds ``/``-separated paths: a join of ``os.path`` would
    put ``\\`` into an object key."""
    import fsspec

    mem = fsspec.filesystem("memory")
    root = "/uri-paths-" + os.urandom(4).hex()
    try:
        for local in _tables(tmp_path):
            for dirpath, _dirs, files in os.walk(local):
                for name in files:
                    full = os.path.join(dirpath, name)
                    with open(full, "rb") as fh:
                        mem.pipe(root + "/" + os.path.basename(local) + "/" + os.path.relpath(full, local),
                                 fh.read())
            t = _check_same_paths(local, f"memory:/{root}/{os.path.basename(local)}")
            snap = t.snapshot()
            want = _paths(t, snap)  # also reads and caches every manifest, index manifest and partition
            with monkeypatch.context() as m:
                m.setattr(os, "path", ntpath)
                got = _paths(t, snap)
            assert got == want and not any("\\" in p for p in got)
    finally:
        mem.rm(root, recursive=True)
