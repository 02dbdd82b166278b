"""Planning in Spark tasks (``SparkFileJudge``) plans exactly what the driver plans, and reads Paimon's rows.

Tables: the golden warehouse (written by Java Paimon: an indexed append table, primary-key tables with
deletion vectors), the sample table (file indexes and deletion vectors on an append table), and tables
written here by Java Paimon 1.4.2 (a partitioned append table with bitmap, bloom-filter and range-bitmap
indexes over several commits; a partitioned primary-key table with deletion vectors and a bitmap index).
For every predicate: the plan from Spark tasks equals the driver's plan file by file (decision, row
selection, index bytes read), and ``scan`` gives the same rows on both paths - Java's rows where Java wrote
the table.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from golden_warehouse import WAREHOUSE_JSON, expected_query_rows, normalize_rows, table_at, tables
from oracles.compare import assert_same_rows
from plan_compare import JAVA_ARROW, assert_same_plans, write_java_tables
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidOptionError
from paimon_codec.planning.plan import plan_scan

pytestmark = pytest.mark.spark

PLANNING_FIELDS = {"planning", "planning_tasks", "planning_ms"}


def _same_plan(path, where, judge) -> tuple:
    """Plan on the driver and through ``judge``; assert they agree; return both reports."""
    driver = plan_scan(path, where, use_stats=False)  # every file with an index is judged
    spread = plan_scan(path, where, judge=judge, use_stats=False)
    assert driver.report.planning == "driver" and driver.report.planning_tasks == 0
    assert_same_plans(driver, spread, where, ignore=PLANNING_FIELDS)
    return driver.report, spread.report


def _rows(df) -> pa.Table:
    return pa.Table.from_pylist([r.asDict() for r in df.collect()], schema=JAVA_ARROW)


@pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_golden_tables_plan_the_same_in_tasks(spark, spec, table_location):  # noqa: F811
    from paimon_codec.spark import scan
    from paimon_codec.spark.distributed_plan import SparkFileJudge

    path = table_at(table_location, spec["table"])  # local disk, and a copy on the S3 server
    judge = SparkFileJudge(spark, "always", files_per_task=1)
    distributed = 0
    for q in spec["queries"]:
        _, report = _same_plan(path, q["pred"], judge)
        distributed += report.planning == "distributed"
        assert report.planning != "distributed" or report.planning_tasks == report.files_judged
        df, rep = scan(spark, path, q["pred"], distributed_planning="always", files_per_task=2)
        want = expected_query_rows(spec, q["id"])
        if spec["kind"] == "append":
            assert sorted(r[0] for r in df.collect()) == sorted(want), q
        else:
            assert normalize_rows(df.collect()) == normalize_rows(want), q
    # the indexed append table and the DV tables have files to judge
    assert distributed == len(spec["queries"]) or spec["kind"].startswith("primary_key") and \
        "dv" not in spec["kind"]


def test_sample_table_with_indexes_and_deletion_vectors(spark, tmp_path, table_location):  # noqa: F811
    """On local disk and on the S3 server: Spark tasks reach the store with the options registered here."""
    from paimon_codec.spark import scan
    from paimon_codec.spark.distributed_plan import SparkFileJudge
    from paimon_codec.spark.sample import write_sample_table

    path = table_location(write_sample_table(tmp_path, files=9, rows_per_file=400, paimon_version="latest"))
    for files_per_task in (1, 4, None):
        judge = SparkFileJudge(spark, "always", files_per_task=files_per_task)
        for where in (None, "status = 'REFUNDED' AND region = 'EU'", "amount > 900", "id = 17",
                      "region IN ('EU', 'APAC') OR status = 'PAID'"):
            driver, spread = _same_plan(path, where, judge)
            # without a predicate only the 3 files with a deletion vector need judging
            assert spread.planning == "distributed" and spread.files_judged == (9 if where else 3)
            assert spread.rows_deleted > 0
    where = "status = 'REFUNDED' AND region = 'EU'"
    df1, r1 = scan(spark, path, where, distributed_planning="never")
    df2, r2 = scan(spark, path, where, distributed_planning=3)
    assert (r1.planning, r2.planning) == ("driver", "distributed")
    assert sorted(map(tuple, df1.collect())) == sorted(map(tuple, df2.collect())) and df1.count()
    # below the threshold the driver judges
    _, r3 = scan(spark, path, where, distributed_planning=100, use_stats=False)
    assert r3.planning == "driver" and r3.files_judged == 9


def test_bad_planning_options_are_refused(spark):  # noqa: F811
    from paimon_codec.spark.distributed_plan import SparkFileJudge

    for bad in ("sometimes", -1, True, 2.5):
        with pytest.raises(InvalidOptionError):
            SparkFileJudge(spark, bad)
    with pytest.raises(InvalidOptionError):
        SparkFileJudge(spark, 4, files_per_task=0)


JAVA_PREDICATES = [None, "cat = 'c3'", "code = 17", "code > 90", "name = 'n42'", "cat IN ('c1', 'c5') AND p = 'x'",
                   "code BETWEEN 10 AND 12 OR cat = 'c0'", "name = 'absent'", "p = 'y' AND code < 5"]


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    tables = write_java_tables(java_newest, tmp_path_factory.mktemp("distributed_plan"), commits=4,
                               rows_per_commit=60)
    reads = {name: {str(w): java_newest.read(path, where=w) for w in JAVA_PREDICATES}
             for name, path in tables.items()}
    return tables, reads


@pytest.mark.parametrize("name", ["append", "pk_dv"])
def test_java_written_tables_plan_the_same_in_tasks(spark, java_tables, name):  # noqa: F811
    from paimon_codec.spark import scan
    from paimon_codec.spark.distributed_plan import SparkFileJudge

    tables, reads = java_tables
    path = tables[name]
    judge = SparkFileJudge(spark, 1, files_per_task=3)
    skipped = deleted = 0
    for where in JAVA_PREDICATES:
        driver, spread = _same_plan(path, where, judge)
        assert spread.planning == "distributed" or spread.files_judged == 0, where
        skipped += driver.files_skipped_by_index
        deleted = max(deleted, driver.rows_deleted)
        for planning in ("never", "always"):
            df, report = scan(spark, path, where, distributed_planning=planning)
            assert_same_rows(_rows(df), reads[name][str(where)],
                             what=f"{name} {planning}: {where}")
    assert skipped > 0, "the Java-written indexes pruned nothing"
    if name == "pk_dv":
        assert deleted > 0, "the primary-key table has no deletion vector"
