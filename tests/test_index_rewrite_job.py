"""``rewrite_file_index`` end to end on tables Java wrote: options persisted, one commit, readers use it.

Each table is written by Paimon Java (1.4.2, or 0.9 for a 0.9-layout table) without file indexes, then
:func:`~paimon_codec.maintenance.index_rewrite_job.rewrite_file_index` sets the options and indexes every
live file in one COMPACT snapshot.  Afterwards Java 1.4.2 (Java 0.9 for its table) and pypaimon 2.1 read
the same rows as our scan for every predicate; Java's own filtered plan keeps exactly the files our
plan keeps (its file-index evaluation reads our containers); a second identical rewrite commits nothing
(apache/paimon#8596); switching a column from bitmap to range-bitmap writes new index files under new
names, drops the stale bitmap (apache/paimon#9085), leaves the old index files for snapshot expiry and
the new manifest entries name the new files (nothing hides them).
"""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.errors import InvalidOptionError, UnsupportedTypeError
from paimon_codec.fileindex.container import FileIndexContainerReader
from paimon_codec.maintenance.index_rewrite_job import rewrite_file_index
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable

SCHEMA = "id INT, s STRING, n BIGINT, p STRING"
OPTIONS = {"file-index.bitmap.columns": "s", "file-index.bloom-filter.columns": "n",
           "file-index.bloom-filter.n.items": "200"}
# each file holds s values "a", "m" (always) and one of "c" / "e" / "g" / "k" only in file k: min/max stats
# ("a".."m") cannot prune on s = 'e', the bitmap can; n: multiples of 7 shifted per file (bloom)
PREDICATES = ["s = 'e'", "s = 'c' OR s = 'k'", "s IN ('g', 'x')", "s = 'a'", "n = 14", "n = 301",
              "s = 'e' AND n > 3", "s IS NULL", "n IS NULL"]


def _rows(k: int, n: int = 90, start: int = 0) -> pa.Table:
    ids = list(range(start + k * 1000, start + k * 1000 + n))
    special = "cegk"[k % 4]
    return pa.table({"id": pa.array(ids, pa.int32()),
                     "s": [None if i % 31 == 0 else ("a", "m", special)[i % 3] for i in range(n)],
                     "n": pa.array([None if i % 13 == 0 else i * 7 + k for i in range(n)], pa.int64()),
                     "p": [f"p{k % 2}" for _ in range(n)]})


def _kept(plan) -> list[str]:
    return sorted(os.path.basename(t.path) for t in plan.tasks)


def _check_readers(java, path: str, pypaimon=None) -> None:
    for where in [None, *PREDICATES]:
        ours = read_table(path, where)
        assert_same_rows(ours, java.read(path, where=where), what=f"Java, {where}")
        if pypaimon is not None:
            assert_same_rows(ours, pypaimon.read(path, where=where), what=f"pypaimon, {where}")


def _java_plan_agrees(java, path: str) -> int:
    """Java's own file-index evaluation (``FileIndexPredicate`` on each file's container) skips exactly the
    files our plan skips by index, and with every container embedded in the manifest Java's filtered scan
    plan keeps exactly our files.  Returns how many files the indexes skipped."""
    files = PaimonTable(path).data_files()
    containers = {}
    for f in files:
        if f.embedded_index is not None:
            containers[f.file_name] = f.embedded_index
        else:
            with open(f.index_path, "rb") as fh:
                containers[f.file_name] = fh.read()
    skipped = 0
    for where in PREDICATES:
        plan = plan_scan(path, where, use_stats=False)  # every file's index decides, as Java's evaluation
        kept = _kept(plan)
        for f in files:
            theirs = java.evaluate_file_index(path, containers[f.file_name], where)
            assert (theirs not in ("SKIP", [])) == (f.file_name in kept), (where, f.file_name, theirs)
        if all(f.embedded_index is not None for f in files):
            assert java.plan_files(path, where=where) == kept, where
        skipped += plan.report.files_skipped_by_index
    return skipped


@pytest.fixture
def java_table(tmp_path, java_newest):
    def make(name: str, *, writes: int = 3, partitioned: bool = False, pk: bool = False, **options) -> str:
        kwargs = {"partition_keys": ["p"]} if partitioned else {}
        if pk:
            kwargs["primary_keys"] = ["id", "p"] if partitioned else ["id"]
        path = java_newest.create_table(str(tmp_path), f"db.{name}", SCHEMA,
                                        options={"bucket": "1" if pk else "-1", **options}, **kwargs)
        for k in range(writes):
            java_newest.write(path, _rows(k))
        if pk:  # updates after a compaction: deletion vectors on the compacted file
            java_newest.compact(path)
            java_newest.write(path, _rows(0, 30, start=10))
        return path
    return make


def test_rewrite_append_table(java_table, java_newest, pypaimon21):
    path = java_table("append", **{"file-index.in-manifest-threshold": "1 mb"})  # embedded: Java plans with them
    before = java_newest.snapshot_id(path)
    report = rewrite_file_index(path, OPTIONS)
    assert report.files_total == report.files_changed == 3 and report.attempts == 1
    assert report.snapshot_id == before + 1
    assert java_newest.snapshot(path)["commit_kind"] == "COMPACT"
    assert PaimonTable(path).schema.options["file-index.bitmap.columns"] == "s"  # persisted like ALTER
    _check_readers(java_newest, path, pypaimon21)
    assert _java_plan_agrees(java_newest, path) > 0


def test_noop_rewrite_commits_nothing(java_table, java_newest):
    path = java_table("noop", writes=2)
    rewrite_file_index(path, OPTIONS)
    sid = java_newest.snapshot_id(path)
    again = rewrite_file_index(path, OPTIONS)
    assert again.snapshot_id is None and again.files_changed == 0 and again.files_indexed == 2
    assert java_newest.snapshot_id(path) == sid


def test_bitmap_to_range_bitmap_switch(java_table, java_newest, pypaimon21):
    path = java_table("switch", **{"file-index.in-manifest-threshold": "64 b"})
    rewrite_file_index(path, OPTIONS)
    old = {f.file_name: f.index_path for f in PaimonTable(path).data_files()}
    assert all(p and p.endswith(".parquet.index") for p in old.values())
    report = rewrite_file_index(path, {"file-index.bitmap.columns": None, "file-index.range-bitmap.columns": "s"})
    assert report.files_changed == 3 and report.snapshot_id is not None
    for f in PaimonTable(path).data_files():
        assert f.index_path.endswith(".parquet-1.index")  # a new name: the old snapshot still reads the old one
        assert [x for x in f.meta.extra_files if x.endswith(".index")] == [os.path.basename(f.index_path)]
        assert os.path.exists(old[f.file_name])  # left for snapshot expiry, as Paimon does
        with open(f.index_path, "rb") as fh:
            container = FileIndexContainerReader(fh.read())
        assert container.index_types("s") == ["range-bitmap"]  # the stale bitmap is gone
        assert container.index_types("n") == ["bloom-filter"]
    _check_readers(java_newest, path, pypaimon21)
    assert _java_plan_agrees(java_newest, path) > 0
    # the previous snapshot keeps its own index files
    prev = PaimonTable(path).data_files(report.snapshot_id - 1)
    assert sorted(f.index_path for f in prev) == sorted(old.values())


def test_partitioned_and_partition_filter(java_table, java_newest):
    path = java_table("parted", writes=4, partitioned=True)
    report = rewrite_file_index(path, OPTIONS, partitions=["p=p1"])
    assert report.files_total == 2 and report.files_changed == 2
    files = PaimonTable(path).data_files()
    indexed = {f.partition for f in files if f.embedded_index or f.index_path}
    assert indexed == {("p1",)}
    rewrite_file_index(path, partitions={"p": "p0"})
    assert all(f.embedded_index or f.index_path for f in PaimonTable(path).data_files())
    _check_readers(java_newest, path)
    assert _java_plan_agrees(java_newest, path) > 0
    with pytest.raises(InvalidOptionError, match="not partition keys"):
        rewrite_file_index(path, partitions="q=1")


def test_primary_key_table_with_deletion_vectors(java_table, java_newest, pypaimon21):
    path = java_table("pkdv", pk=True, **{"deletion-vectors.enabled": "true"})
    assert any(f.deletion_file for f in PaimonTable(path).data_files())
    expected = java_newest.read(path)
    report = rewrite_file_index(path, OPTIONS)
    assert report.files_changed == len(PaimonTable(path).data_files())
    assert any(f.deletion_file for f in PaimonTable(path).data_files())  # deletion vectors kept
    assert_same_rows(java_newest.read(path), expected)
    _check_readers(java_newest, path, pypaimon21)
    java_newest.write(path, _rows(5, 20))  # Java keeps writing on top of our snapshot
    _check_readers(java_newest, path)


def test_bad_options_change_nothing(java_table, java_newest):
    path = java_table("bad", writes=1)
    schema_before = PaimonTable(path).schema.id
    with pytest.raises(InvalidOptionError):
        rewrite_file_index(path, {"file-index.bitmap.columns": "nope"})
    with pytest.raises(UnsupportedTypeError):
        rewrite_file_index(path, {"file-index.bloom-filter.columns": "p", "file-index.bsi.columns": "s"})
    assert PaimonTable(path).schema.id == schema_before and java_newest.snapshot_id(path) == 1


def test_java09_table(tmp_path, java09_tables):
    path = java09_tables.create_table(str(tmp_path), "db.v09", SCHEMA, options={"bucket": "-1"})
    for k in range(3):
        java09_tables.write(path, _rows(k))
    report = rewrite_file_index(path, OPTIONS)
    assert report.files_changed == 3
    container = FileIndexContainerReader(PaimonTable(path).data_files()[0].index_path and
                                         open(PaimonTable(path).data_files()[0].index_path, "rb").read()
                                         or PaimonTable(path).data_files()[0].embedded_index)
    assert container.index_types("s") == ["bitmap"]
    _check_readers(java09_tables, path)
    assert _java_plan_agrees(java09_tables, path) > 0
    with pytest.raises(UnsupportedTypeError, match="0.9"):
        rewrite_file_index(path, {"file-index.range-bitmap.columns": "n"})
