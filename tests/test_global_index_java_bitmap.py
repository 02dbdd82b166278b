"""Java 1.4.2's own bitmap global index (a bare bitmap file-index payload, ``BitmapGlobalIndex``) in scans.

Java 1.4.2 has a ``bitmap`` ``GlobalIndexerFactory`` and its ``DataEvolutionBatchScan`` answers predicates
from every global index of a column, but ships no builder committing bitmap ones: the oracle writes the
file with Java's ``createIndexWriter(table, "bitmap", ...)`` and commits it as ``BTreeGlobalIndexBuilder``
commits its files (``toIndexFileMetas`` + ``DataIncrement.indexIncrement``).  Scans answered from it ==
Java 1.4.2's own read (which uses the index) == an index-free read; equality reads only candidate rows."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table

BATCH, BATCHES = 500, 4


def _v(i: int) -> int | None:
    return None if i % 13 == 0 else (i * 37) % 1000


@pytest.fixture(scope="module")
def java_table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_bitmap_gi"), "db.t",
                                    "id INT, name STRING, v BIGINT",
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    for b in range(BATCHES):
        ids = list(range(b * BATCH, (b + 1) * BATCH))
        java_newest.write(path, pa.table({"id": pa.array(ids, pa.int32()), "name": [f"n{i % 7}" for i in ids],
                                          "v": pa.array([_v(i) for i in ids], pa.int64())}))
    values = [_v(i) for i in range(BATCH * BATCHES)]
    assert java_newest.commit_global_index(path, "v", "bitmap", values) is not None
    return path


QUERIES = ["v = 999", "v = 74", "v IN (1, 2, 3)", "v IS NULL", "v = 5000", "v = 74 AND name = 'n2'",
           "v <> 74", "v NOT IN (1, 2)", "v IS NOT NULL", "v > 990", "v = 37 OR v = 74"]
#: answered from the index (the others: most rows, or a range the bitmap file index does not order)
ANSWERED = {"v = 999", "v = 74", "v IN (1, 2, 3)", "v IS NULL", "v = 5000", "v = 74 AND name = 'n2'",
            "v = 37 OR v = 74"}


@pytest.mark.parametrize("where", QUERIES)
def test_java_bitmap_global_index_scan_equals_java(java_table, java_newest, where):
    plan = plan_scan(java_table, where)
    gi = plan.report.global_index
    assert gi["used"] == (where in ANSWERED), gi
    key = [("id", "ascending")]
    ours = read_table(java_table, where)
    java = java_newest.read(java_table, where=where)
    free = read_table(java_table, where, use_indexes=False)
    ids = ours.take(pc.sort_indices(ours, key))["id"].to_pylist()
    assert ids == java.take(pc.sort_indices(java, key))["id"].to_pylist(), where
    assert ids == free.take(pc.sort_indices(free, key))["id"].to_pylist(), where
    if where in ANSWERED:
        assert plan.report.rows_selected <= gi["candidate_rows"] < BATCH * BATCHES, gi
    if where == "v > 990":
        assert "does not answer greater_than" in gi["decisions"][0], gi


def test_equality_skips_files_without_candidates(java_table):
    plan = plan_scan(java_table, "v = 5000")
    assert plan.report.files_skipped_by_index == BATCHES and plan.report.rows_selected == 0, plan.report.summary()
