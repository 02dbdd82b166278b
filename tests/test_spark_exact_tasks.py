"""Exact index answers through every route of the Spark scan, large answers included (``mapInArrow`` tasks).

``FileTask.exact`` (:func:`paimon_codec.planning.topn.exact.exact_answer`, asked reader by reader): every leaf
answered by a bitmap index (=, IN, IS [NOT] NULL) or a range bitmap (also <, <=, >, >=, BETWEEN, <>, NOT IN) with
a bitmap, on a key that equals the SQL value (no float, no timestamp finer than micros), no NULL literal; AND / OR
of such leaves.  Those files' selected rows are the answer, so the scan reads them by pyarrow with their
selections - on the driver, or in tasks where Spark's whole-file read (which needs the filter) took them before -
without the columns only the predicate needs; every other file is read and filtered as before.

A wrong "exact" would return rows that do not match, so each case is checked against Java 1.4.2's filtered
read and a brute-force filter of Java's whole read, through every route (driver, Spark tasks, pyarrow only),
on a table whose first file has no index (plans mixing exact and filtered files) and columns holding NULLs;
``report.files_exact`` counts the files read so.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions import parse_where
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.spark import scan
from paimon_codec.table import PaimonTable

ARROW = pa.schema([("id", pa.int32()), ("s", pa.string()), ("n", pa.int64()), ("f", pa.float64()),
                   ("b", pa.string())])
INDEXES = {"file-index.bitmap.columns": "s", "file-index.range-bitmap.columns": "n,f",
           "file-index.bloom-filter.columns": "b"}

# (where, whether every indexed file answers it exactly)
CASES = [
    ("s = 'a'", True), ("s IN ('b', 'c')", True), ("s IS NULL", True), ("s IS NOT NULL", True),
    ("n < 10", True), ("n <= 10", True), ("n > 30", True), ("n >= 30", True), ("n BETWEEN 5 AND 12", True),
    ("n <> 7", True), ("n NOT IN (7, 8)", True), ("n = 7", True), ("n IS NULL", True),
    ("s = 'a' AND n < 20", True), ("s = 'b' OR n > 35", True), ("s = 'zz'", True),
    ("s <> 'a'", False),  # a bitmap's <> keeps the NULLs
    ("f = 1.5", False), ("f < 3.0", False),  # float keys
    ("b = 'x3'", False),  # a bloom filter
    ("id = 3", False),  # no index on id
    ("s = 'a' OR b = 'x3'", False), ("s = 'a' AND id > 3", False),
]


def _rows(k: int, start: int) -> pa.Table:
    ids = list(range(start, start + 40))
    return pa.table({
        "id": ids,
        "s": [None if i % 7 == 0 else "abc"[(i + k) % 3] for i in ids],
        "n": [None if i % 11 == 0 else (i * 7 + k) % 41 for i in ids],
        "f": [None if i % 13 == 0 else ((i + k) % 9) * 0.5 for i in ids],
        "b": [f"x{i % 17}" for i in ids],
    }, schema=ARROW)


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("exact_tasks"), "db.t",
                                    "id INT, s STRING, n BIGINT, f DOUBLE, b STRING", options={"bucket": "-1"})
    java_newest.write(path, _rows(0, 0))  # written before the indexes were declared: no index file
    java_newest.alter(path, [{"op": "set", "key": k, "value": v} for k, v in INDEXES.items()])
    for k in range(1, 4):
        java_newest.write(path, _rows(k, 40 * k))
    return path


@pytest.fixture(scope="module")
def everything(table, java_newest) -> pa.Table:
    return java_newest.read(table)


def test_the_indexed_files_answer_exactly_as_expected(table):
    for where, exact in CASES:
        plan = plan_scan(PaimonTable(table), where)
        kinds = {os.path.basename(d["path"]): d.get("index_result") for d in plan.report.files}
        read = [(kinds[os.path.basename(t.path)], t.exact) for t in plan.tasks]
        assert plan.report.files_exact == sum(e for _, e in read), where
        assert not any(e for kind, e in read if kind == "NO_INDEX"), where
        if exact:
            assert all(e for kind, e in read if kind == "BITMAP"), where
        else:
            assert plan.report.files_exact == 0, where
    assert plan_scan(PaimonTable(table), "n < 10").report.files_exact == 3


@pytest.mark.parametrize("where,exact", CASES)
@pytest.mark.parametrize("route", ["driver", "tasks", "pyarrow"])
def test_exact_files_give_the_matching_rows(spark, table, java_newest, everything, where, exact, route):  # noqa: F811
    pred = parse_where(where)
    plan = plan_scan(PaimonTable(table), where)
    brute = filter_table(everything, pred, plan.row_type).column("id").to_pylist()
    java = java_newest.read(table, where=where).column("id").to_pylist()
    assert sorted(java) == sorted(brute), where
    kwargs = {"driver": {}, "tasks": {"driver_rows": 0}, "pyarrow": {"native": False, "driver_rows": 0}}[route]
    df, report = scan(spark, table, where, columns=["id"], **kwargs)
    assert sorted(df.toArrow().column("id").to_pylist()) == sorted(brute), (where, route, report.read_paths)
    assert report.files_exact == plan.report.files_exact
    full, _ = scan(spark, table, where, **kwargs)  # every column: the exact part keeps the predicate's columns
    got = full.toArrow()
    assert got.column_names == ARROW.names
    assert sorted(got.to_pylist(), key=lambda r: r["id"]) == sorted(
        filter_table(everything, pred, plan.row_type).to_pylist(), key=lambda r: r["id"]), (where, route)


@pytest.mark.parametrize("where", ["n < 20", "s = 'a' OR n > 35", "n <> 7"])
def test_exact_files_under_top_n(spark, table, everything, where):  # noqa: F811
    pred = parse_where(where)
    plan = plan_scan(PaimonTable(table), where)
    hits = filter_table(everything, pred, plan.row_type).to_pylist()
    first = sorted((r for r in hits), key=lambda r: (r["n"] is not None, r["n"] or 0))[:5]  # NULLs first
    df, report = scan(spark, table, where, order_by="n", limit=5, columns=["id", "n"], driver_rows=0)
    got = df.toArrow().to_pylist()
    assert [r["n"] for r in got] == [r["n"] for r in first], where  # ties may pick other ids
    assert all((r["n"], r["id"]) in {(h["n"], h["id"]) for h in hits} for r in got), where
