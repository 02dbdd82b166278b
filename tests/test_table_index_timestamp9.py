"""File indexes on TIMESTAMP(9) columns written by Paimon Java 1.4.2.

Java keys TIMESTAMP(7..9) by micros (``Timestamp.toMicros``, floored) in the bitmap and BSI indexes,
hashes the same micros in the bloom filter, and refuses to build a range bitmap on them.  Values that
differ below a microsecond share a key, so the index answers must be widened (``>`` asks ``>=``,
``<>`` keeps the shared key's rows): every row the exact predicate selects must stay in the plan.
(Java's own BSI read drops them: ``ts > '...123456'`` misses a row holding ``...123456789``.)
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest
from java142 import JavaTable, encode_predicate, run_java
from paimon_semantics import filter_rows, to_java

from paimon_codec.fileindex.predicate import Leaf
from paimon_codec.table.plan import plan_scan
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
    return Leaf(op, "ts", tuple(lits))


PREDICATES = [
    L("eq", T(BASE, 456_789)), L("eq", T(BASE, 456_500)), L("eq", T(BASE, 458_000)), L("neq", T(BASE, 456_000)),
    L("gt", T(BASE, 456_000)), L("gte", T(BASE, 456_999)), L("lt", T(BASE, 456_999)), L("lte", T(BASE, 456_000)),
    L("between", T(BASE, 456_001), T(BASE, 457_000)), L("in", T(-5, 999_999), T(BASE + 10, 0)),
    L("not_in", T(BASE, 456_789), T(-5, 0)), L("lt", T(0, 0)), L("is_null"), L("is_not_null"),
]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    jt = JavaTable(tmp_path_factory.mktemp("java142_ts9"))
    paths = {}
    for kind, option in KINDS.items():
        jt.name = f"db.{kind}"
        jt.create([("id", "INT"), ("ts", "TIMESTAMP(9)")], {option: "ts"})
        jt.write(ROWS[:4])
        jt.write(ROWS[4:])
        paths[kind] = jt.path
        jt.read()
    every = jt.run()
    return paths, dict(zip(KINDS, every, strict=True))


def _kept_ids(plan) -> set[int]:
    out: set[int] = set()
    for task in plan.tasks:
        ids = pq.read_table(task.path, columns=["id"]).column("id").to_pylist()
        out |= {ids[i] for i in (range(len(ids)) if task.selection is None else task.selection)}
    return out


@pytest.mark.parametrize("kind", list(KINDS))
def test_timestamp9_indexes_keep_every_matching_row(tables, kind):
    paths, every = tables
    rows = [{"id": r[0], "ts": r[1]} for r in every[kind]]
    assert sorted(r["id"] for r in rows) == [r[0] for r in ROWS]
    pruned = 0
    for pred in PREDICATES:
        plan = plan_scan(paths[kind], pred)
        assert not plan.report.index_notes, plan.report.index_notes  # read, not refused
        want = {r["id"] for r in filter_rows(rows, plan.predicate)}
        kept = _kept_ids(plan)
        assert want <= kept, f"{kind}: {pred} dropped {sorted(want - kept)}"
        pruned += len(kept) < len(ROWS)
    assert pruned >= 4, f"{kind}: the TIMESTAMP(9) index pruned only {pruned} predicates"


def test_java_bsi_read_is_not_the_reference_for_sub_micro_values(tables):
    """Java's BSI read of ``ts > x`` loses a row sharing x's micros; our plan keeps it."""
    paths, _ = tables
    pred = L("gt", T(BASE, 456_000))
    java = run_java([{"op": "read", "warehouse": str(paths["bsi"]).rsplit("/db.db/", 1)[0],
                      "table": "db.bsi", "where": encode_predicate(to_java(pred))}])[0]
    java_ids = {r[0] for r in java}
    assert 1 not in java_ids  # the row holding ...123456789 (> ...123456000): dropped by Java's BSI
    assert {1, 3, 4, 8} <= _kept_ids(plan_scan(paths["bsi"], pred))
