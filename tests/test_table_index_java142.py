"""File indexes written by newest Paimon Java (1.4.2) drive ``plan_scan``: exactly Java's rows.

One table per index type (bitmap V2 - Java's default since 1.1 -, bitmap V1, bloom filter, range
bitmap, BSI), each written in three commits (three data files) with -0.0, 0.0, NaN, infinities and
nulls in FLOAT / DOUBLE columns.  For every predicate (eq, in, ranges, null, not-eq, on indexed and
plain columns) our rows - ``plan_scan`` + ``read_plan_locally`` + Paimon's own predicate semantics -
must equal Java's ``executeFilter`` read, and the indexes must have pruned something.  Spark's scan
must return the same rows with and without indexes.  Top-N (``order_by`` + ``limit``) is pushed to
the range bitmaps and must give Java's top rows.
"""

from __future__ import annotations

import math

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from paimon_semantics import filter_rows, spark_compare
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions import And, Or, make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

NAN, INF = math.nan, math.inf
COLUMNS = [("id", "INT"), ("f", "DOUBLE"), ("g", "FLOAT"), ("s", "STRING"), ("n", "BIGINT"), ("p", "INT")]
NAMES = [c for c, _ in COLUMNS]
ARROW = pa.schema([("id", pa.int32()), ("f", pa.float64()), ("g", pa.float32()), ("s", pa.string()),
                   ("n", pa.int64()), ("p", pa.int32())])
INDEXED = {
    "bitmap": {"file-index.bitmap.columns": "f,g,s,n"},
    "bitmap_v1": {"file-index.bitmap.columns": "f,g,s,n", **{f"file-index.bitmap.{c}.version": "1"
                                                             for c in "fgsn"}},
    "bloom": {"file-index.bloom-filter.columns": "f,g,s,n"},
    "range": {"file-index.range-bitmap.columns": "f,g,s,n"},
    "bsi": {"file-index.bsi.columns": "n,p"},
}
BATCHES = [
    # file 1: zeros and NaN only in f / g
    [[1, 0.0, 0.0, "a0", 1, 1], [2, -0.0, -0.0, "a1", 2, 2], [3, NAN, NAN, "a0", 3, 3],
     [4, -0.0, 0.0, None, None, 4]],
    # file 2: no zeros, no NaN
    [[11, 1.5, 1.5, "b1", 11, 5], [12, -2.0, -2.0, "b2", 12, 6], [13, INF, INF, "b1", 13, 7],
     [14, None, None, "b3", 14, 8], [15, -INF, -INF, "b2", 25, 9]],
    # file 3: -0.0 only, and larger values
    [[21, -0.0, -0.0, "c1", 21, 10], [22, 7.0, 7.0, "c2", 22, 11], [23, None, None, None, 23, 12]],
]


def L(op, col, *lits):  # noqa: N802 - reads like the SQL it stands for
    return make_leaf(op, col, tuple(lits))


PREDICATES = [
    L("eq", "f", 0.0), L("eq", "f", -0.0), L("in", "f", 0.0, 7.0), L("neq", "f", 0.0), L("eq", "f", NAN),
    L("neq", "f", NAN), L("lt", "f", 0.0), L("lte", "f", -0.0), L("gte", "f", 0.0), L("gt", "f", -0.0),
    L("between", "f", 0.0, 5.0), L("gt", "f", INF), L("is_null", "f"), L("is_not_null", "f"),
    L("not_in", "f", -0.0, NAN), L("eq", "g", 0.0), L("eq", "g", -0.0), L("gte", "g", 0.0),
    L("lte", "g", -0.0), L("eq", "g", 1.5),
    L("eq", "s", "b1"), L("in", "s", "a1", "c2"), L("neq", "s", "a0"), L("lt", "s", "b"), L("is_null", "s"),
    L("eq", "n", 12), L("between", "n", 2, 12), L("gt", "n", 20), L("is_null", "n"), L("not_in", "n", 1, 2),
    L("eq", "p", 3), L("gt", "p", 9),
    And((L("gt", "p", 4), L("eq", "s", "b1"))), Or((L("eq", "f", 0.0), L("eq", "n", 25))),
]


def _table(rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=ARROW)


def _same_rows(ours: pa.Table, java: pa.Table, what: str) -> None:
    """Bit-exact: -0.0 is not 0.0 (NaN equals NaN)."""
    assert_same_rows(ours.select(NAMES), java, exact_floats=True, what=what)


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    warehouse = tmp_path_factory.mktemp("java142_index")
    tables, reads = {}, {}
    schema = ", ".join(f"{c} {t}" for c, t in COLUMNS)
    for kind, options in INDEXED.items():
        path = java_newest.create_table(warehouse, f"db.{kind}", schema, options={"bucket": "-1", **options})
        for batch in BATCHES:
            java_newest.write(path, pa.Table.from_pylist([dict(zip(NAMES, r, strict=True)) for r in batch],
                                                         schema=ARROW))
        tables[kind] = path
        reads[kind] = {"all": java_newest.read(path),
                       **{str(p): java_newest.read(path, where=p) for p in PREDICATES}}
    return tables, reads


@pytest.mark.parametrize("kind", list(INDEXED))
def test_index_scan_gives_java_rows(java_tables, kind, table_location):
    tables, reads = java_tables
    path = table_location(tables[kind])  # local disk, and a copy on the S3 server
    _same_rows(read_plan_locally(plan_scan(path)), reads[kind]["all"], f"{kind} all rows")
    pruned = 0
    for pred in PREDICATES:
        plan = plan_scan(path, pred)
        assert not plan.report.index_notes, plan.report.index_notes
        ours = filter_rows(read_plan_locally(plan).to_pylist(), plan.predicate)
        _same_rows(_table(ours), reads[kind][str(pred)], f"{kind}: {pred}")
        pruned += plan.report.rows_read < plan.report.rows_total
    # the Java-written indexes were read and used (not ignored as unreadable)
    assert pruned >= 5, f"{kind}: indexes pruned only {pruned} predicates"


def test_bloom_filter_file_of_negative_zeros(java_tables, java_newest):
    """File 3 holds f = -0.0 but no 0.0: under Spark's semantics (-0.0 = 0.0) a bloom filter probed with 0.0's
    bits alone would skip it; under Paimon's (the default, ``Double.compare``) it is skipped."""
    tables, _ = java_tables
    pred = L("eq", "f", 0.0)
    plan = plan_scan(tables["bloom"], pred, semantics="spark")
    decisions = [d["decision"] for d in plan.report.files]
    assert decisions == ["read", "skipped: index", "read"], decisions
    assert {r["id"] for r in read_plan_locally(plan).to_pylist()} >= {1, 2, 4, 21}
    paimon = plan_scan(tables["bloom"], pred)
    assert [d["decision"] for d in paimon.report.files] == ["read", "skipped: index", "skipped: index"]
    # Java's read skips it too (its reader evaluates the index): the same rows
    _same_rows(_table(filter_rows(read_plan_locally(paimon).to_pylist(), paimon.predicate)),
               java_newest.read(tables["bloom"], where=pred), "bloom: f = 0.0")


@pytest.mark.parametrize("order_by, descending", [("n", True), ("n", False), ("s", False), ("f", True),
                                                  ("g", False)])
def test_topn_on_range_bitmap_gives_java_top_rows(java_tables, order_by, descending):
    tables, reads = java_tables
    limit = 3
    plan = plan_scan(tables["range"], order_by=f"{order_by} {'DESC' if descending else 'ASC'}", limit=limit)
    assert plan.report.topn_pushed, plan.report.topn_note
    assert plan.report.rows_read < plan.report.rows_total

    def spark_sorted(values):  # Spark: NULLS FIRST ascending, NULLS LAST descending; -0.0 = 0.0
        import functools

        def cmp(a, b):
            if a is None or b is None:
                return (a is None) - (b is None) if descending else (b is None) - (a is None)
            c = spark_compare(a, b)
            return -c if descending else c
        return sorted(values, key=functools.cmp_to_key(cmp))

    ours = spark_sorted([r[order_by] for r in read_plan_locally(plan).to_pylist()])[:limit]
    java = spark_sorted(reads["range"]["all"].column(order_by).to_pylist())[:limit]
    assert [("nan" if isinstance(v, float) and math.isnan(v) else v) for v in ours] == \
        [("nan" if isinstance(v, float) and math.isnan(v) else v) for v in java]


SPARK_PREDICATES = {
    "bitmap": [L("eq", "f", 0.0), L("eq", "g", -0.0), L("in", "f", -0.0, 7.0), L("eq", "f", NAN)],
    "bloom": [L("eq", "f", 0.0), L("in", "g", -0.0, 7.0)],
    "range": [L("lte", "f", -0.0), L("gte", "g", 0.0), L("between", "f", 0.0, 5.0)],
}


@pytest.mark.parametrize("kind", list(SPARK_PREDICATES))
def test_spark_scan_keeps_spark_rows(java_tables, spark, kind):  # noqa: F811
    """Spark's semantics (-0.0 = 0.0, NaN = NaN): the index-pruned Spark scan returns exactly the rows of
    an unpruned read that Spark's comparison selects (a bit-keyed lookup of 0.0 alone would lose -0.0)."""
    from paimon_codec.spark import scan

    tables, _ = java_tables
    every_row, _ = scan(spark, tables[kind], None, use_indexes=False)
    rows = [r.asDict() for r in every_row.collect()]
    for pred in SPARK_PREDICATES[kind]:
        with_index, report = scan(spark, tables[kind], pred)
        got = _table([r.asDict() for r in with_index.collect()])
        _same_rows(got, _table(filter_rows(rows, pred, spark_compare)), f"{kind}: {pred}")
        assert report.rows_read < report.rows_total  # the index did prune
