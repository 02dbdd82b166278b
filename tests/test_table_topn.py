"""Range predicates and top-N pushdown in the planner, checked against a full read of the sample table."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from paimon_codec.errors import InvalidPredicateError
from paimon_codec.planning.plan import SortKey, parse_order_by, plan_scan
from paimon_codec.reading.read import arrow_schema, read_tasks_locally
from paimon_codec.spark.sample import write_sample_table

TS0 = dt.datetime(2023, 11, 14, 22, 13, 20)  # ts of id 0 in the sample (1_700_000_000_000 ms)


@pytest.fixture(scope="module")
def latest(tmp_path_factory) -> str:
    return write_sample_table(tmp_path_factory.mktemp("wh"), files=4, rows_per_file=800, seed=5,
                              deleted_every=7, paimon_version="latest")


def _read(plan) -> pa.Table:
    return read_tasks_locally(plan.tasks, arrow_schema(plan.row_type))


@pytest.fixture(scope="module")
def everything(latest) -> pa.Table:
    """Every live row (deletion vectors applied), read without indexes."""
    return _read(plan_scan(latest, use_indexes=False))


def _sort_values(table: pa.Table, keys: list[tuple[str, bool, bool]], k: int) -> list[tuple]:
    """The sort-key tuples of ORDER BY keys LIMIT k, computed in Python (SQL null ordering)."""
    rows = table.to_pylist()
    for column, desc, nulls_first in reversed(keys):
        present = [r for r in rows if r[column] is not None]
        nulls = [r for r in rows if r[column] is None]
        present.sort(key=lambda r, c=column: r[c], reverse=desc)
        rows = nulls + present if nulls_first else present + nulls
    return [tuple(r[c] for c, _, _ in keys) for r in rows[:k]]


RANGE_CASES = [
    ("amount >= 99000", lambda t: pc.greater_equal(t["amount"], 99000)),
    ("amount < 150", lambda t: pc.less(t["amount"], 150)),
    ("amount BETWEEN 5000 AND 5200", lambda t: pc.and_(pc.greater_equal(t["amount"], 5000),
                                                       pc.less_equal(t["amount"], 5200))),
    ("amount > 99999", lambda t: pc.greater(t["amount"], 99999)),
    ("amount <= 30 OR amount IS NULL", lambda t: pc.or_kleene(pc.less_equal(t["amount"], 30),
                                                              pc.is_null(t["amount"]))),
    ("ts < TIMESTAMP '2023-11-14 22:20:00'", lambda t: pc.less(t["ts"], pa.scalar(dt.datetime(2023, 11, 14, 22, 20),
                                                                                   pa.timestamp("us")))),
]


@pytest.mark.parametrize("where,mask", RANGE_CASES, ids=[c[0] for c in RANGE_CASES])
def test_range_predicates_use_range_bitmaps_and_keep_every_matching_row(latest, everything, where, mask):
    plan = plan_scan(latest, where, use_stats=False)  # every file to its range bitmap, none dropped by stats
    got = _read(plan)
    want = everything.filter(mask(everything))
    # range-bitmap answers are exact for these columns: the selection IS the answer
    assert sorted(got.column("id").to_pylist()) == sorted(want.column("id").to_pylist())
    assert plan.report.rows_selected == want.num_rows == plan.report.rows_read
    assert any(f.get("index_result") in ("BITMAP", "SKIP") for f in plan.report.files)


def test_range_predicate_on_ts_prunes_whole_files(latest):
    plan = plan_scan(latest, "ts < TIMESTAMP '2023-11-14 22:20:00'")  # only ids < 400: the first file
    assert plan.report.files_skipped_by_index == plan.report.files_total - 1
    none = plan_scan(latest, "ts > TIMESTAMP '2030-01-01 00:00:00'")
    assert none.report.files_read == 0 and none.tasks == []


TOPN_CASES = [
    # (where, order_by, nulls_first, k)
    (None, [("amount", "desc")], None, 10),
    (None, [("amount", "asc")], None, 10),  # ascending: nulls first (every 97th row)
    (None, [("amount", "asc")], False, 25),
    (None, [("amount", "desc")], True, 3),
    (None, [("amount", "desc"), ("id", "asc")], None, 12),
    (None, [("amount", "asc"), ("id", "desc")], None, 5),  # ties among the null rows: a second key decides
    (None, [("ts", "desc")], None, 7),
    ("status = 'PAID'", [("amount", "desc")], None, 9),
    ("region IN ('EU', 'US') AND amount < 50000", [("amount", "desc")], None, 15),
    ("amount BETWEEN 1000 AND 2000", [("amount", "asc"), ("id", "desc")], False, 8),
    (None, [("amount", "desc")], None, 5000),  # more than the table holds
    (None, [("amount", "desc")], None, 0),
]


def _filter_where(t: pa.Table, where: str) -> pa.Table:
    amount = t["amount"]
    masks = {
        "status = 'PAID'": pc.equal(t["status"], "PAID"),
        "region IN ('EU', 'US') AND amount < 50000": pc.and_(pc.is_in(t["region"], pa.array(["EU", "US"])),
                                                             pc.less(amount, 50000)),
        "amount BETWEEN 1000 AND 2000": pc.and_(pc.greater_equal(amount, 1000), pc.less_equal(amount, 2000)),
        "id IN (3, 500, 900)": pc.is_in(t["id"], pa.array([3, 500, 900], pa.int32())),
    }
    return t.filter(pc.fill_null(masks[where], False))


@pytest.mark.parametrize("where,order_by,nulls_first,k", TOPN_CASES)
def test_topn_pushdown_gives_the_full_sorts_values(latest, everything, where, order_by, nulls_first, k):
    plan = plan_scan(latest, where, order_by=order_by, limit=k, nulls_first=nulls_first)
    assert plan.report.topn_pushed, plan.report.topn_note
    keys = [(c, d == "desc", nulls_first if nulls_first is not None else d == "asc") for c, d in order_by]
    candidates = _read(plan)
    if where is not None:
        candidates = _filter_where(candidates, where)
    truth = _filter_where(everything, where) if where is not None else everything
    assert _sort_values(candidates, keys, k) == _sort_values(truth, keys, k)
    # candidates are real rows of the table, and far fewer than a full read
    assert set(candidates.column("id").to_pylist()) <= set(truth.column("id").to_pylist())
    if len(order_by) == 1:  # strict per file: at most k candidates each
        assert plan.report.rows_read <= len(plan.tasks) * k
    if 0 < k < 100 and where is None:
        assert plan.report.rows_read < plan.report.rows_total // 10


def test_topn_single_key_is_strict_per_file(latest):
    plan = plan_scan(latest, order_by="amount DESC", limit=4)
    assert plan.report.topn_pushed
    assert all(len(t.selection) == 4 for t in plan.tasks)


@pytest.mark.parametrize("where,order_by,note", [
    (None, "id", "no range-bitmap index on id"),
    ("id IN (3, 500, 900)", "amount", "do not answer the predicate exactly"),
    ("status LIKE 'PA%'", "amount", "do not answer the predicate exactly"),
])
def test_topn_falls_back_without_full_index_coverage(latest, everything, where, order_by, note):
    plan = plan_scan(latest, where, order_by=order_by, limit=3)
    assert not plan.report.topn_pushed and note in plan.report.topn_note
    assert plan.report.rows_read == plan.report.rows_selected  # nothing cut: a plain read


def test_topn_without_range_bitmaps_is_not_pushed(tmp_path):
    path = write_sample_table(tmp_path, files=2, rows_per_file=300)  # the Paimon 0.9 variant
    plan = plan_scan(path, order_by=[("amount", "desc")], limit=5)
    assert not plan.report.topn_pushed and "range-bitmap" in plan.report.topn_note


def test_order_by_forms_and_errors(latest):
    from paimon_codec.spark.sample import SAMPLE_SCHEMA
    from paimon_codec.types import parse_row_type

    rt = parse_row_type(SAMPLE_SCHEMA)
    assert parse_order_by("amount", rt) == [SortKey("amount")]
    assert parse_order_by("amount DESC", rt) == [SortKey("amount", True)]
    assert parse_order_by(("amount", "desc"), rt) == [SortKey("amount", True)]
    assert parse_order_by([("amount", "desc"), "id"], rt, nulls_first=True) == \
        [SortKey("amount", True, True), SortKey("id", False, True)]
    assert SortKey("a").nulls_come_first and not SortKey("a", True).nulls_come_first
    for bad in ("nope", "amount sideways", [("amount", "up")], [42]):
        with pytest.raises(InvalidPredicateError):
            parse_order_by(bad, rt)
    with pytest.raises(InvalidPredicateError):
        plan_scan(latest, order_by="amount", limit=-1)
