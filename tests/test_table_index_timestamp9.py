"""File indexes on TIMESTAMP(9) columns written by Paimon Java 1.4.2.

Java keys TIMESTAMP(7..9) by micros (``Timestamp.toMicros``, floored) in the bitmap and BSI indexes,
hashes the same micros in the bloom filter, and refuses to build a range bitmap on them.  Values that
differ below a microsecond share a key, so the index answers must be widened (``>`` asks ``>=``,
``<>`` keeps the shared key's rows): every row the exact predicate selects must stay in the plan.
(Java's own BSI read drops them: ``ts > '...123456'`` misses a row holding ``...123456789``.)
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from paimon_semantics import filter_rows

from paimon_codec import storage
from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.values import Timestamp

T = Timestamp
BASE = 1_700_000_000_123
ROWS = [
    [1, T(BASE, 456_789)], [2, T(BASE, 456_000)], [3, T(BASE, 456_999)], [4, T(BASE, 457_001)],
    [5, T(-5, 999_999)], [6, T(-5, 0)], [7, None], [8, T(BASE + 10, 1)],
]
KINDS = {"bitmap": "file-index.bitmap.columns", "bsi": "file-index.bsi.columns",
         "bloom": "file-index.bloom-filter.columns"}


def L(op, *lits):  # noqa: N802
    return make_leaf(op, "ts", tuple(lits))


PREDICATES = [
    L("eq", T(BASE, 456_789)), L("eq", T(BASE, 456_500)), L("eq", T(BASE, 458_000)), L("neq", T(BASE, 456_000)),
    L("gt", T(BASE, 456_000)), L("gte", T(BASE, 456_999)), L("lt", T(BASE, 456_999)), L("lte", T(BASE, 456_000)),
    L("between", T(BASE, 456_001), T(BASE, 457_000)), L("in", T(-5, 999_999), T(BASE + 10, 0)),
    L("not_in", T(BASE, 456_789), T(-5, 0)), L("lt", T(0, 0)), L("is_null"), L("is_not_null"),
]


def _arrow(rows: list) -> pa.Table:
    return pa.table({"id": pa.array([r[0] for r in rows], pa.int32()),
                     "ts": pa.array([None if r[1] is None else r[1].to_nanos() for r in rows], pa.timestamp("ns"))})


def _java_rows(table: pa.Table) -> list[dict]:
    nanos = table.column("ts").cast(pa.int64()).to_pylist()
    return [{"id": i, "ts": None if n is None else Timestamp.from_nanos(n)}
            for i, n in zip(table.column("id").to_pylist(), nanos, strict=True)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory, java_newest):
    warehouse = tmp_path_factory.mktemp("java142_ts9")
    paths, every = {}, {}
    for kind, option in KINDS.items():
        path = java_newest.create_table(warehouse, f"db.{kind}", "id INT, ts TIMESTAMP(9)", options={option: "ts"})
        java_newest.write(path, _arrow(ROWS[:4]))
        java_newest.write(path, _arrow(ROWS[4:]))
        paths[kind] = path
        every[kind] = _java_rows(java_newest.read(path))
    return paths, every


def _kept_ids(plan) -> set[int]:
    out: set[int] = set()
    for task in plan.tasks:
        fs, key = storage.filesystem_for(task.path)  # local disk or the S3 server
        ids = pq.read_table(key, columns=["id"], filesystem=fs).column("id").to_pylist()
        out |= {ids[i] for i in (range(len(ids)) if task.selection is None else task.selection)}
    return out


@pytest.mark.parametrize("kind", list(KINDS))
def test_timestamp9_indexes_keep_every_matching_row(tables, kind, table_location):
    paths, every = tables
    paths = {k: table_location(p) for k, p in paths.items()}  # local disk, and a copy on the S3 server
    rows = every[kind]
    assert sorted((r["id"], r["ts"]) for r in rows if r["ts"] is not None) == \
        sorted((r[0], r[1]) for r in ROWS if r[1] is not None)  # nanoseconds written and read back
    pruned = 0
    for pred in PREDICATES:
        plan = plan_scan(paths[kind], pred)
        assert not plan.report.index_notes, plan.report.index_notes  # read, not refused
        want = {r["id"] for r in filter_rows(rows, plan.predicate)}
        kept = _kept_ids(plan)
        assert want <= kept, f"{kind}: {pred} dropped {sorted(want - kept)}"
        pruned += len(kept) < len(ROWS)
    assert pruned >= 4, f"{kind}: the TIMESTAMP(9) index pruned only {pruned} predicates"


def test_plan_keeps_what_java_returns(tables, java_newest):
    """Java's read (pruned by its own index, then every row tested) is a subset of what our plan keeps."""
    paths, _ = tables
    for kind in KINDS:
        for pred in PREDICATES:
            java_ids = {r["id"] for r in _java_rows(java_newest.read(paths[kind], where=pred))}
            assert java_ids <= _kept_ids(plan_scan(paths[kind], pred)), (kind, pred)
