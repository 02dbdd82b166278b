"""DELETE by deletion vectors on append tables (paimon_codec.writing.delete): the same positions as Paimon Java
1.4.2's DELETE, rows read exactly by Java, pypaimon 2.1 and us in both orders of writers, conflicts and crashes.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from oracles.compare import assert_same_rows
from oracles.pypaimon21 import OracleError

from paimon_codec.dv.index_file import read_deletion_vector
from paimon_codec.errors import CommitConflictError, InvalidOptionError, UnsupportedFeatureError
from paimon_codec.maintenance.orphans import find_orphans
from paimon_codec.reading import read_table
from paimon_codec.table import DELETION_VECTORS_INDEX, PaimonTable
from paimon_codec.writing import append_arrow, create_table, delete, update

SCHEMA = "id BIGINT, v STRING, x DOUBLE, p INT"
LAYOUTS = {
    "unaware-partitioned": ({"deletion-vectors.enabled": "true", "file-index.bitmap.columns": "v"}, ["p"]),
    "fixed-buckets": ({"deletion-vectors.enabled": "true", "bucket": "2", "bucket-key": "id"}, []),
    "index-in-data-dir": ({"deletion-vectors.enabled": "true", "index-file-in-data-file-dir": "true"}, ["p"]),
    "bitmap64-small-target": ({"deletion-vectors.enabled": "true", "deletion-vectors.bitmap64": "true",
                               "deletion-vector.index-file.target-size": "40b"}, []),
}


def _batch(start: int, n: int) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()), "v": [f"v{i % 5}" for i in ids],
                     "x": pa.array([None if i % 7 == 0 else i / 4 for i in ids], pa.float64()),
                     "p": pa.array([i % 2 for i in ids], pa.int32())})


def _table(root, name: str, layout: str, batches: int = 4, n: int = 40) -> str:
    options, parts = LAYOUTS[layout]
    path = create_table(root / "wh" / "db.db" / name, SCHEMA, dict(options, **{"file.format": "parquet"}),
                        partition_keys=parts)
    for k in range(batches):
        append_arrow(path, _batch(k * n, n))
    return path


def _all_rows(batches: int = 4, n: int = 40) -> pa.Table:
    return pa.concat_tables([_batch(k * n, n) for k in range(batches)])


def _positions(path: str) -> dict[str, list[int]]:
    """data file -> deleted positions of the table's live deletion vectors (CRC checked)."""
    table = PaimonTable(path)
    out = {}
    for f in table.index_files():
        meta = f.entry.index_file
        if meta.index_type == DELETION_VECTORS_INDEX:
            for r in meta.dv_ranges or ():
                assert r.data_file not in out, f"{r.data_file} has two deletion vectors"
                out[r.data_file] = read_deletion_vector(f.path, r.offset, r.length).to_array().tolist()
    return out


def _positions_by_content(path: str) -> dict[tuple, list[int]]:
    """Deleted positions keyed by where a data file sits and which rows it holds (twin tables written alike
    by Java have different file names)."""
    import pyarrow.parquet as pq

    names = {f.entry.file.file_name: (f.entry.partition, f.entry.bucket, f.entry.file.row_count,
                                      tuple(pq.read_table(f.path, columns=["id"]).column(0).to_pylist()))
             for f in PaimonTable(path).data_files()}
    positions = _positions(path)
    out = {names[n]: p for n, p in positions.items()}
    assert len(out) == len(positions) > 0, "two data files hold the same ids"
    return out


def _keep(rows: pa.Table, *deleted) -> pa.Table:
    mask = pa.array([True] * rows.num_rows)
    for d in deleted:
        mask = pc.and_(mask, pc.invert(pc.fill_null(d(rows), False)))
    return rows.filter(mask)


ROUNDS = [("id < 10 OR v = 'v1'", lambda t: pc.or_(pc.less(t["id"], 10), pc.equal(t["v"], "v1"))),
          ("x > 30 AND p = 0", lambda t: pc.and_(pc.greater(t["x"], 30), pc.equal(t["p"], 0)))]


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_delete_positions_and_reads_match_java(tmp_path, layout, java_newest, pypaimon21):
    ours = _table(tmp_path / "a", "t", layout)
    theirs = str(tmp_path / "b" / "wh" / "db.db" / "t")
    shutil.copytree(ours, theirs)  # the same data files: positions compare file by file
    expected = _all_rows()
    for k, (where, fn) in enumerate(ROUNDS):
        report = delete(ours, where)
        java = java_newest.delete_dv(theirs, where)
        before, expected = expected, _keep(expected, fn)
        assert report.rows_deleted == before.num_rows - expected.num_rows
        assert report.snapshot_id == java["snapshot_id"] == 5 + k
        assert PaimonTable(ours).snapshot().commit_kind == java_newest.snapshot(theirs)["commit_kind"]
        assert _positions(ours) == _positions(theirs)
        for reader, path in (("ours", ours), ("java", theirs)):
            assert_same_rows(read_table(path), expected, what=f"we read {reader}")
            assert_same_rows(java_newest.read(path), expected, what=f"java reads {reader}")
        if "bitmap64" in layout:  # pypaimon 2.1 reads 32-bit bins only: Java's own 64-bit table fails alike
            for path in (ours, theirs):
                with pytest.raises(OracleError, match="Invalid magic number"):
                    pypaimon21.read(path)
        else:
            assert_same_rows(pypaimon21.read(ours), expected, what="pypaimon reads ours")
    if layout == "bitmap64-small-target":  # one vector per file at a 40-byte target: rolled into many files
        assert len(PaimonTable(ours).index_files()) > 1
    # Java writes, deletes and compacts on top of ours; we delete on top of Java's; every reader agrees
    java_newest.write(ours, _batch(1000, 20))
    java_newest.delete_dv(ours, "id >= 1015")
    delete(theirs, "v = 'v3'")
    expected_ours = _keep(pa.concat_tables([expected, _batch(1000, 20)]), lambda t: pc.greater_equal(t["id"], 1015))
    assert_same_rows(read_table(ours), expected_ours, what="we read java on ours")
    expected_theirs = _keep(expected, lambda t: pc.equal(t["v"], "v3"))
    assert_same_rows(java_newest.read(theirs), expected_theirs, what="java reads ours on java's")
    java_newest.compact(ours)
    assert_same_rows(read_table(ours), expected_ours, what="we read java's compaction of ours")
    delete(ours, "id < 100")
    assert_same_rows(java_newest.read(ours), _keep(expected_ours, lambda t: pc.less(t["id"], 100)),
                     what="java reads our delete after its compaction")


def test_bitmap_index_answers_exactly_without_opening_files(tmp_path):
    path = _table(tmp_path, "t", "unaware-partitioned")
    report = delete(path, "v = 'v2'")
    assert report.rows_deleted == 32
    assert report.files_opened == 0 and report.files_exact_by_index == report.files_touched > 0
    assert_same_rows(read_table(path), _keep(_all_rows(), lambda t: pc.equal(t["v"], "v2")))
    again = delete(path, "v = 'v2'")  # nothing left to delete: no commit
    assert again.rows_deleted == 0 and again.snapshot_id is None
    every = delete(path, "v IN ('v0', 'v1', 'v3', 'v4')")  # every remaining row: exact, whole files
    assert every.rows_deleted == 128 and every.files_opened == 0
    assert read_table(path).num_rows == 0


def test_stats_skip_files(tmp_path):
    path = _table(tmp_path, "t", "fixed-buckets")
    report = delete(path, "id >= 150")
    assert report.files_pruned_by_stats > 0
    assert report.files_opened == report.files_total - report.files_pruned_by_stats
    assert_same_rows(read_table(path), _keep(_all_rows(), lambda t: pc.greater_equal(t["id"], 150)))


def test_refusals_name_the_reason(tmp_path):
    plain = create_table(tmp_path / "wh" / "db.db" / "plain", SCHEMA, {"file.format": "parquet"})
    append_arrow(plain, _batch(0, 5))
    with pytest.raises(InvalidOptionError, match="deletion-vectors.enabled"):
        delete(plain, "id = 1")
    pk = create_table(tmp_path / "wh" / "db.db" / "pk", SCHEMA, {"deletion-vectors.enabled": "true", "bucket": "1",
                                                                 "merge-engine": "first-row"}, primary_keys=["id"])
    with pytest.raises(UnsupportedFeatureError, match="first-row"):  # -D records elsewhere: tests/test_pk_delete.py
        delete(pk, "id = 1")
    assert PaimonTable(plain).snapshot().id == 1


def _racing(path: str, action):
    """A position finder that lets ``action`` commit first (once), then finds as usual."""
    from paimon_codec.writing.dv_delete import _find_locally

    state = {"done": False}

    def finder(tasks, predicate, row_type, semantics):
        if not state["done"]:
            state["done"] = True
            action()
        return _find_locally(tasks, predicate, row_type, semantics)
    return finder


@pytest.mark.parametrize("layout", ["unaware-partitioned", "fixed-buckets"])
def test_delete_racing_delete_conflicts_then_retries(tmp_path, layout):
    path = _table(tmp_path, "t", layout)
    expected = _keep(_all_rows(), lambda t: pc.less(t["id"], 20), lambda t: pc.equal(t["v"], "v0"))
    with pytest.raises(CommitConflictError, match="deletion vector"):
        delete(path, "v = 'v0'", conflict_retries=0, find_positions=_racing(path, lambda: delete(path, "id < 20")))
    assert not find_orphans(path, None).orphans  # the lost attempt's index files are gone
    assert_same_rows(read_table(path), _keep(_all_rows(), lambda t: pc.less(t["id"], 20)))
    path2 = _table(tmp_path / "2", "t", layout)
    report = delete(path2, "v = 'v0'", find_positions=_racing(path2, lambda: delete(path2, "id < 20")))
    assert report.attempts == 2 and report.snapshot_id == 6
    assert_same_rows(read_table(path2), expected)
    assert not find_orphans(path2, None).orphans


def test_delete_racing_append_both_win(tmp_path):
    path = _table(tmp_path, "t", "unaware-partitioned")
    report = delete(path, "id < 30", find_positions=_racing(path, lambda: append_arrow(path, _batch(500, 10))))
    assert report.attempts == 1 and report.snapshot_id == 6
    assert_same_rows(read_table(path), _keep(pa.concat_tables([_all_rows(), _batch(500, 10)]),
                                             lambda t: pc.less(t["id"], 30)))


def test_delete_racing_java_compaction(tmp_path, java_newest):
    path = _table(tmp_path, "t", "fixed-buckets")
    delete(path, "id < 5")  # old vectors, which Java's compaction folds into new files
    expected = _keep(_all_rows(), lambda t: pc.less(t["id"], 5), lambda t: pc.equal(t["v"], "v4"))
    with pytest.raises(CommitConflictError):
        delete(path, "v = 'v4'", conflict_retries=0, find_positions=_racing(path, lambda: java_newest.compact(path)))
    report = delete(path, "v = 'v4'")
    assert report.attempts == 1
    assert_same_rows(read_table(path), expected)
    assert_same_rows(java_newest.read(path), expected)


def _killed_delete(path: str) -> None:
    import paimon_codec.writing.dv_delete as mod

    def die(*_a, **_k):
        os.kill(os.getpid(), signal.SIGKILL)
    mod.commit_changes = die  # killed after the index files are written, before the snapshot
    mod.delete(path, "id < 50")


def test_killed_delete_leaves_previous_snapshot_and_named_orphans(tmp_path):
    path = _table(tmp_path, "t", "unaware-partitioned")
    proc = multiprocessing.get_context("spawn").Process(target=_killed_delete, args=(path,))
    proc.start()
    proc.join(120)
    assert proc.exitcode == -signal.SIGKILL
    assert PaimonTable(path).snapshot().id == 4
    assert_same_rows(read_table(path), _all_rows())
    orphans = [os.path.basename(o.path) for o in find_orphans(path, None).orphans]
    assert orphans and all(n.startswith("index-") for n in orphans)
    delete(path, "id < 50")
    assert_same_rows(read_table(path), _keep(_all_rows(), lambda t: pc.less(t["id"], 50)))


@pytest.mark.parametrize("layout", ["unaware-partitioned", "fixed-buckets"])
def test_update_sets_literals_in_one_commit(tmp_path, layout, java_newest):
    path = _table(tmp_path, "t", layout)
    report = update(path, {"v": "changed", "x": None}, "id >= 30 AND id < 50")
    assert report.rows_deleted == report.rows_added == 20 and report.commit_kind == "OVERWRITE"
    assert PaimonTable(path).snapshot().id == 5  # deletes and new rows: one snapshot
    rows = _all_rows()
    hit = pc.and_(pc.greater_equal(rows["id"], 30), pc.less(rows["id"], 50))
    expected = rows.set_column(1, "v", pc.if_else(hit, "changed", rows["v"]))
    expected = expected.set_column(2, "x", pc.if_else(hit, pa.scalar(None, pa.float64()), rows["x"]))
    assert_same_rows(read_table(path), expected)
    assert_same_rows(java_newest.read(path), expected)
    java_newest.compact(path)
    assert_same_rows(read_table(path), expected, what="we read Java's compaction of our update")
    with pytest.raises(InvalidOptionError, match="not a"):
        update(path, {"id": "not a number"}, "id = 1")
    with pytest.raises(InvalidOptionError, match="columns of the table"):
        update(path, {"nope": 1}, "id = 1")


def test_delete_on_s3(tmp_path, s3_server, java_newest):
    from test_storage_write import _download

    s3_server.create_bucket("dv-deletes")
    uri = "s3://dv-deletes/wh/db.db/t"
    options, parts = LAYOUTS["unaware-partitioned"]
    create_table(uri, SCHEMA, dict(options, **{"file.format": "parquet"}), partition_keys=parts)
    for k in range(2):
        append_arrow(uri, _batch(k * 40, 40))
    expected = pa.concat_tables([_batch(0, 40), _batch(40, 40)])
    for where, fn in ROUNDS:
        delete(uri, where)
        expected = _keep(expected, fn)
    assert_same_rows(read_table(uri), expected)
    copy = _download(s3_server, uri, str(tmp_path / "dl" / "db.db" / "t"))
    assert_same_rows(java_newest.read(copy), expected)
    assert not find_orphans(copy, None).orphans


@pytest.mark.parametrize("layout", ["unaware-partitioned", "fixed-buckets"])
def test_delete_on_a_table_java_wrote(tmp_path, layout, java_newest, pypaimon21):
    """Java creates, writes and deletes; we delete on top; both again: same vectors as Java's on a twin."""
    options, parts = LAYOUTS[layout]
    tables = [java_newest.create_table(tmp_path / side, "db.t", SCHEMA, partition_keys=parts, options=options)
              for side in ("ours", "java")]
    expected = pa.concat_tables([_batch(0, 40), _batch(40, 40)])
    for path in tables:
        java_newest.write(path, _batch(0, 40))
    java_newest.delete_dv(tables[0], "id < 3")
    for path in tables:
        java_newest.write(path, _batch(40, 40))
    java_newest.delete_dv(tables[1], "id < 3")
    expected = _keep(expected, lambda t: pc.less(t["id"], 3))
    for where, fn in ROUNDS:
        delete(tables[0], where)
        java_newest.delete_dv(tables[1], where)
        expected = _keep(expected, fn)
        assert _positions_by_content(tables[0]) == _positions_by_content(tables[1])
        assert_same_rows(java_newest.read(tables[0]), expected, what="java reads our delete on its table")
        assert_same_rows(read_table(tables[0]), expected)
        assert_same_rows(pypaimon21.read(tables[0]), expected, what="pypaimon reads it")
    java_newest.compact(tables[0])
    assert_same_rows(read_table(tables[0]), expected, what="we read Java's compaction")


def test_delete_on_a_0_9_layout_table_reads_in_java_0_9(tmp_path, java09_tables):
    """A table in Paimon 0.9's metadata layout keeps it: Java 0.9 reads our deletes (32-bit bins)."""
    options, parts = LAYOUTS["unaware-partitioned"]
    options = {k: v for k, v in options.items() if "file-index" not in k}  # bitmap V2: not in 0.9
    path = create_table(tmp_path / "wh" / "db.db" / "t", SCHEMA, dict(options, **{"file.format": "parquet"}),
                        partition_keys=parts)
    for k in range(3):
        append_arrow(path, _batch(k * 40, 40), layout="0.9")
    expected = _all_rows(3)
    for where, fn in ROUNDS:
        delete(path, where)
        expected = _keep(expected, fn)
        assert_same_rows(java09_tables.read(path), expected)
    assert_same_rows(read_table(path), expected)


def _racer(path: str, job: str, barrier, results) -> None:
    barrier.wait()
    if job.startswith("append"):
        results.put(append_arrow(path, _batch(1000, 30)).snapshot_id)
    else:
        results.put(delete(path, job, conflict_retries=20).snapshot_id)


@pytest.mark.parametrize("layout", ["unaware-partitioned", "fixed-buckets"])
def test_processes_racing_deletes_and_an_append_all_land(tmp_path, layout):
    """Real processes: three deletes on the same files and an append, started together; every one commits
    (conflicting deletes re-plan on the winner's snapshot), the rows are exactly what all of them make."""
    path = _table(tmp_path, "t", layout)
    jobs = ["v = 'v0'", "v = 'v1'", "id < 30 OR id >= 150", "append"]
    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(len(jobs)), ctx.Queue()
    procs = [ctx.Process(target=_racer, args=(path, job, barrier, results)) for job in jobs]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(300)
    assert [proc.exitcode for proc in procs] == [0] * len(jobs)
    assert sorted(results.get(timeout=5) for _ in jobs) == list(range(5, 5 + len(jobs)))
    assert PaimonTable(path).snapshot().id == 4 + len(jobs)
    rows = pa.concat_tables([_all_rows(), _batch(1000, 30)])
    expected = _keep(rows, lambda t: pc.and_(pc.equal(t["v"], "v0"), pc.less(t["id"], 1000)),
                     lambda t: pc.and_(pc.equal(t["v"], "v1"), pc.less(t["id"], 1000)),
                     lambda t: pc.or_(pc.less(t["id"], 30), pc.and_(pc.greater_equal(t["id"], 150),
                                                                    pc.less(t["id"], 1000))))
    got = read_table(path)
    # the appended rows are deleted too when their commit came before a delete's: only old rows are certain
    assert_same_rows(got.filter(pc.less(got["id"], 1000)), expected.filter(pc.less(expected["id"], 1000)))
    assert not find_orphans(path, None).orphans
    _positions(path)  # one vector per data file
