"""File indexes written under an older schema (Java 1.4.2): used by field id, or ignored - never wrong.

A bitmap-indexed table goes through a rename, an INT -> BIGINT widening and a drop + re-add of two
columns (one re-added with the same type, one with another), with a commit after each change.  Every
plan must keep every row Java's own filtered read returns (the rows a plan keeps are read by position
from each data file's ``id`` column, so the check does not depend on the schema-evolving reader), the
renamed column's old index must still prune, and no index may be decoded as another type.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from paimon_semantics import filter_rows

from paimon_codec import storage
from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

BITMAP = "file-index.bitmap.columns"


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


PREDICATES = [
    L("eq", "d2", "v1"), L("neq", "d2", "v1"), L("is_null", "d2"), L("in", "d2", "v2", "v4"),
    L("eq", "a", 10), L("in", "a", 20, 40), L("is_null", "a"),
    L("is_null", "b"), L("eq", "b", "x"), L("is_not_null", "b"),
    L("is_null", "c"), L("eq", "c", 1), L("is_not_null", "c"),
]


def _batch(**columns) -> pa.Table:
    return pa.table(columns)


@pytest.fixture(scope="module")
def evolved(tmp_path_factory, java_newest):
    java = java_newest
    path = java.create_table(tmp_path_factory.mktemp("java142_evolution"), "db.t",
                             "id INT, a INT, b STRING, c STRING, d STRING", options={BITMAP: "a,b,c,d"})
    i32 = pa.int32()
    # schema 0
    java.write(path, _batch(id=pa.array([1, 2], i32), a=pa.array([10, 20], i32), b=["x", "y"], c=["p", "q"],
                            d=["v1", "v2"]))
    java.alter(path, [{"op": "rename", "from": "d", "to": "d2"}, {"op": "set", "key": BITMAP, "value": "a,b,c,d2"}])
    java.write(path, _batch(id=pa.array([3, 4], i32), a=pa.array([10, 30], i32), b=["x", "z"], c=["p", "q"],
                            d2=["v3", "v1"]))                                      # schema 1: d -> d2
    java.alter(path, [{"op": "type", "name": "a", "type": "BIGINT"}])
    java.write(path, _batch(id=pa.array([5, 6], i32), a=[10, 40], b=["x", "w"], c=["p", "q"],
                            d2=["v4", None]))                                      # schema 2: a BIGINT
    java.alter(path, [{"op": "drop", "name": "b"}, {"op": "drop", "name": "c"}])
    java.alter(path, [{"op": "add", "name": "b", "type": "STRING"}, {"op": "add", "name": "c", "type": "INT"}])
    java.write(path, _batch(id=pa.array([7, 8], i32), a=[10, 50], d2=["d2v", None], b=["x", None],
                            c=pa.array([1, 2], i32)))                              # schema 4: new b, c
    return path, {str(p): java.read(path, where=p).to_pylist() for p in PREDICATES}


def _kept_ids(plan) -> set[int]:
    out: set[int] = set()
    for task in plan.tasks:
        fs, key = storage.filesystem_for(task.path)  # local disk or the S3 server
        ids = pq.read_table(key, columns=["id"], filesystem=fs).column("id").to_pylist()
        out |= {ids[i] for i in (range(len(ids)) if task.selection is None else task.selection)}
    return out


@pytest.mark.parametrize("pred", PREDICATES, ids=str)
def test_plan_keeps_every_row_java_returns(evolved, pred, table_location):
    path, reads = evolved
    path = table_location(path)  # local disk, and a copy on the S3 server
    plan = plan_scan(path, pred)
    java_rows = reads[str(pred)]
    missing = {r["id"] for r in java_rows} - _kept_ids(plan)
    assert not missing, f"{pred}: the plan dropped rows {sorted(missing)} (decisions {plan.report.files})"
    # and the rows read (by field id) and filtered exactly are Java's
    ours = filter_rows(read_plan_locally(plan).to_pylist(), plan.predicate)
    assert sorted(ours, key=lambda r: r["id"]) == sorted(java_rows, key=lambda r: r["id"]), pred


def test_renamed_column_still_prunes_with_its_old_index(evolved):
    path, _ = evolved
    plan = plan_scan(path, L("eq", "d2", "v1"), use_stats=False)  # the indexes decide, not the value stats
    # file 1 (column named d) and file 2 hold v1; files 3 and 4 do not: their indexes skip them
    decisions = [d["decision"] for d in plan.report.files]
    assert decisions.count("skipped: index") == 2, plan.report.files
    assert _kept_ids(plan) == {1, 4}


def test_readded_column_does_not_use_the_dropped_columns_index(evolved):
    """``b IS NULL``: rows 1-6 had the dropped b (non-null) but are NULL in the re-added b."""
    path, _ = evolved
    plan = plan_scan(path, L("is_null", "b"))
    assert _kept_ids(plan) >= {1, 2, 3, 4, 5, 6, 8}
    assert not plan.report.index_notes


def test_widened_column_index_is_not_decoded_as_the_new_type(evolved):
    """``a`` is BIGINT now; files written while it was INT keep their INT bitmaps unread (REMAIN)."""
    path, _ = evolved
    plan = plan_scan(path, L("eq", "a", 10))
    kinds = [d["index_result"] for d in plan.report.files]
    assert kinds.count("REMAIN") >= 2 and "BITMAP" in kinds, plan.report.files
    assert _kept_ids(plan) >= {1, 3, 5, 7}
