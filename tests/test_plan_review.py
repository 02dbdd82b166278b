"""Adversarial review of today's planning shortcuts: they may keep extra rows, never drop a matching one.

Stats pruning (:mod:`paimon_codec.table.stats_prune`) and threshold-first top-N
(:mod:`paimon_codec.table.topn_push`) are checked where a slip would drop rows: files of older schemas
whose column changed type (a BinaryRow slot read with the new type gives other numbers), a column dropped
and added again under the same name (new field id: the old file's values are NULL, not its stats'), a
sort column renamed or added later (old files have no index on it, and NULLs), ``_VALUE_STATS_COLS``
layouts, and top-N over string / double / decimal / date keys with ties at the bound across files and a
second sort key.  References: Java Paimon 1.4.2's own read, and a brute-force sort of the whole table.
"""

from __future__ import annotations

import functools
import math
from decimal import Decimal

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paimon_codec.expressions import make_leaf
from paimon_codec.table.arrow_filter import filter_table
from paimon_codec.table.plan import plan_scan
from paimon_codec.table.read import read_plan_locally
from paimon_codec.table.write import append_arrow, create_table


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


def _ours(path: str, pred) -> list[int]:
    plan = plan_scan(path, pred)
    return sorted(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type).column("id").to_pylist())


# -- stats pruning across schema changes (Java 1.4.2 writes and reads) -------------------------------------
OLD = pa.schema([("id", pa.int32()), ("i", pa.int32()), ("dec", pa.decimal128(5, 2)), ("s", pa.string()),
                 ("x", pa.int32()), ("j", pa.int64()), ("r", pa.decimal128(5, 2))])
NEW = pa.schema([("id", pa.int32()), ("i", pa.int64()), ("dec", pa.decimal128(10, 4)), ("x", pa.int32()),
                 ("j", pa.int32()), ("r", pa.decimal128(5, 1)), ("s", pa.int32())])


@pytest.fixture(scope="module")
def evolved(tmp_path_factory, java_newest) -> str:
    """Two files of schema 0 (i INT with negatives, dec DECIMAL(5, 2), s STRING, x without stats:
    ``_VALUE_STATS_COLS``), then i -> BIGINT, dec -> DECIMAL(10, 4), s dropped and added again as INT
    (a new field id), and two files of the last schema."""
    wh = tmp_path_factory.mktemp("review_stats")
    path = java_newest.create_table(wh, "db.evolved", "id INT, i INT, dec DECIMAL(5, 2), s STRING, x INT, j BIGINT, r DECIMAL(5, 2)",
                                    options={"bucket": "-1", "fields.x.stats-mode": "none"})
    java_newest.write(path, pa.table({"id": [0, 1, 2], "i": [-3, -2, -1], "dec": [Decimal("1.25"), Decimal("2.50"),
                                     Decimal("-7.00")], "s": ["a", "b", "c"], "x": [1, 2, 3],
                                     "j": [2**32 + 5, 2**32 + 6, 2**32 + 7], "r": [Decimal("1.25")] * 3}, schema=OLD))
    java_newest.write(path, pa.table({"id": [3, 4], "i": [-2000000000, 5], "dec": [Decimal("100.00"), None],
                                      "s": [None, "q"], "x": [None, 9],
                                      "j": [1, 2], "r": [Decimal("2.34"), Decimal("2.36")]}, schema=OLD))
    java_newest.alter(path, [{"op": "type", "name": "i", "type": "BIGINT"}])
    java_newest.alter(path, [{"op": "type", "name": "dec", "type": "DECIMAL(10, 4)"}])
    java_newest.alter(path, [{"op": "type", "name": "j", "type": "INT"}])
    java_newest.alter(path, [{"op": "type", "name": "r", "type": "DECIMAL(5, 1)"}])
    java_newest.alter(path, [{"op": "drop", "name": "s"}])
    java_newest.alter(path, [{"op": "add", "name": "s", "type": "INT"}])
    java_newest.write(path, pa.table({"id": [10, 11], "i": [2**40, -1], "dec": [Decimal("1.2500"), Decimal("0.0001")],
                                      "x": [4, 5], "j": [0, 1], "r": [Decimal("0.1"), None], "s": [1, 2]}, schema=NEW))
    java_newest.write(path, pa.table({"id": [12], "i": [7], "dec": [Decimal("-7.0000")], "x": [6], "j": [9], "r": [Decimal("9.9")], "s": [None]},
                                     schema=NEW))
    return path


EVOLVED_PREDICATES = [
    L("lt", "i", 0), L("lt", "i", -5), L("eq", "i", -2), L("gt", "i", 100), L("between", "i", -2000000001, -1999999999),
    L("lte", "i", -2000000000), L("in", "i", -3, 2**40), L("not_in", "i", -2, 5), L("eq", "dec", Decimal("1.25")),
    L("gt", "dec", Decimal("50")), L("lt", "dec", Decimal("0")), L("eq", "dec", Decimal("-7")),
    L("between", "dec", Decimal("1"), Decimal("3")), L("eq", "s", 1), L("is_null", "s"), L("is_not_null", "s"),
    L("gt", "s", 0), L("eq", "x", 9), L("gt", "x", 3), L("is_null", "x"), L("is_not_null", "dec"),
    L("eq", "j", 5), L("lt", "j", 8), L("eq", "r", Decimal("1.3")), L("eq", "r", Decimal("1.2")),
    L("eq", "r", Decimal("2.3")), L("gte", "r", Decimal("2.4")),
]


@pytest.mark.parametrize("pred", EVOLVED_PREDICATES, ids=str)
def test_stats_pruning_keeps_rows_of_files_of_older_column_types(evolved, java_newest, pred):
    """Java's rows for every predicate (files of schema 0 hold ``i`` as INT, ``dec`` at scale 2, and an ``s``
    whose field id the table no longer has)."""
    java = sorted(java_newest.read(evolved, where=pred).column("id").to_pylist())
    assert _ours(evolved, pred) == java, str(pred)


# -- top-N over several key types: brute force ---------------------------------------------------------------
def _cmp(a, b):
    """Spark's order of non-null values: NaN above every number, -0.0 == 0.0."""
    if isinstance(a, float):
        an, bn = math.isnan(a), math.isnan(b)
        if an or bn:
            return an - bn
    return (a > b) - (a < b)


def _top(rows: list[tuple], desc: bool, nulls_first: bool, k: int, keys: int) -> list[tuple]:
    """The first ``k`` rows of a sort by the first ``keys`` fields (then ``id`` ascending when keys == 2)."""
    def cmp(r1, r2):
        a, b = r1[0], r2[0]
        if a is None or b is None:
            c = (b is None) - (a is None) if nulls_first else (a is None) - (b is None)
        else:
            c = -_cmp(a, b) if desc else _cmp(a, b)
        if c or keys == 1:
            return c
        return (r1[1] > r2[1]) - (r1[1] < r2[1])
    return sorted(rows, key=functools.cmp_to_key(cmp))[:k]


def _norm(rows: list[tuple], keys: int) -> list:
    def one(v):
        if isinstance(v, float):
            return "nan" if math.isnan(v) else v + 0.0  # -0.0 == 0.0
        return v
    return [tuple(one(x) for x in r[:keys]) for r in rows]


KEY_TYPES = {
    "s": (pa.string(), st.sampled_from(["", "a", "ab", "abc", "b", "\u00e9", "\U0001F600", "zz", "a\u00e9", "A"])),
    "f": (pa.float64(), st.sampled_from([0.0, -0.0, 1.5, -1.5, math.nan, math.inf, -math.inf, 2.0, 1e300])),
    "dec": (pa.decimal128(12, 3), st.sampled_from([Decimal(x) for x in ("0", "-1.5", "1.5", "999999999.999",
                                                                           "-999999999.999", "0.001", "2")])),
    "d": (pa.date32(), st.integers(-30, 30).map(lambda n: __import__("datetime").date(2024, 1, 1)
                                                + __import__("datetime").timedelta(days=n))),
}


@st.composite
def topn_tables(draw):
    column = draw(st.sampled_from(sorted(KEY_TYPES)))
    _, values = KEY_TYPES[column]
    files = [draw(st.lists(st.one_of(st.none(), values, values, values), min_size=1, max_size=25))
             for _ in range(draw(st.integers(1, 5)))]
    return column, files


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(spec=topn_tables(), desc=st.booleans(), nulls_first=st.booleans(), k=st.integers(0, 60),
       keys=st.sampled_from([1, 1, 2]))
def test_topn_candidates_hold_a_valid_top_n(tmp_path_factory, spec, desc, nulls_first, k, keys):
    """The plan's candidates sorted and limited equal the whole table's top ``k`` (both keys compared when the
    sort has two: then ties at the bound must all be candidates)."""
    column, files = spec
    arrow_type, _ = KEY_TYPES[column]
    schema = pa.schema([("id", pa.int32()), (column, arrow_type)])
    path = create_table(tmp_path_factory.mktemp("t") / "t", schema,
                        {"bucket": "-1", "file-index.range-bitmap.columns": column,
                         f"file-index.range-bitmap.{column}.chunk-size": "64b"})
    start = 0
    for values in files:
        append_arrow(path, pa.table({"id": pa.array(range(start, start + len(values)), pa.int32()),
                                     column: pa.array(values, arrow_type)}, schema=schema))
        start += len(values)
    order = [(column, "desc" if desc else "asc")] + ([("id", "asc")] if keys == 2 else [])
    plan = plan_scan(path, order_by=order, limit=k, nulls_first=nulls_first)
    got = read_plan_locally(plan)
    everything = read_plan_locally(plan_scan(path))

    def rows(t):
        return list(zip(t.column(column).to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(_top(rows(got), desc, nulls_first, k, keys), keys) == \
        _norm(_top(rows(everything), desc, nulls_first, k, keys), keys), plan.report.topn_note


# -- top-N when the sort column was renamed or added later (Java 1.4.2 files) -----------------------------
@pytest.fixture(scope="module")
def sort_evolved(tmp_path_factory, java_newest) -> str:
    """Files with ``v`` indexed; then ``v`` renamed to ``w`` and ``n`` added (indexed from then on): the old
    files' ``n`` is NULL and has no index."""
    wh = tmp_path_factory.mktemp("review_topn")
    path = java_newest.create_table(wh, "db.sort_evolved", "id INT, v BIGINT", options={
        "bucket": "-1", "file-index.range-bitmap.columns": "v"})
    schema0 = pa.schema([("id", pa.int32()), ("v", pa.int64())])
    java_newest.write(path, pa.table({"id": [0, 1, 2], "v": [100, 5, None]}, schema=schema0))
    java_newest.write(path, pa.table({"id": [3, 4], "v": [7, 100]}, schema=schema0))
    java_newest.alter(path, [{"op": "rename", "from": "v", "to": "w"}])
    java_newest.alter(path, [{"op": "add", "name": "n", "type": "BIGINT"}])
    java_newest.alter(path, [{"op": "set", "key": "file-index.range-bitmap.columns", "value": "w,n"}])
    schema1 = pa.schema([("id", pa.int32()), ("w", pa.int64()), ("n", pa.int64())])
    java_newest.write(path, pa.table({"id": [10, 11, 12], "w": [1, 2, 200], "n": [-5, 3, None]}, schema=schema1))
    java_newest.write(path, pa.table({"id": [13, 14], "w": [100, -1], "n": [8, 1]}, schema=schema1))
    return path


@pytest.mark.parametrize("column", ["w", "n"])
@pytest.mark.parametrize("desc,nulls_first", [(True, False), (True, True), (False, True), (False, False)])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 6, 20])
def test_topn_on_a_renamed_or_added_sort_column(sort_evolved, java_newest, column, desc, nulls_first, k):
    java = java_newest.read(sort_evolved)
    plan = plan_scan(sort_evolved, order_by=[(column, "desc" if desc else "asc")], limit=k, nulls_first=nulls_first)
    got = read_plan_locally(plan)

    def rows(t):
        return list(zip(t.column(column).to_pylist(), t.column("id").to_pylist(), strict=True))
    assert _norm(_top(rows(got), desc, nulls_first, k, 1), 1) == _norm(_top(rows(java), desc, nulls_first, k, 1), 1), \
        plan.report.topn_note
