"""Which reader takes each file of a scan, and the fixed costs of the whole-file route (Spark's reader)."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from golden_warehouse import WAREHOUSE_JSON, expected_all_rows, normalize_rows, table_dir, tables
from spark_fixtures import spark  # noqa: F401

from paimon_codec.types import parse_row_type

pytestmark = pytest.mark.spark

_CONF = "spark.sql.sources.parallelPartitionDiscovery.threshold"


def _jobs_while(spark, fn, group: str):  # noqa: F811
    sc = spark.sparkContext
    sc.setJobGroup(group, group)
    try:
        out = fn()
    finally:
        sc.setLocalProperty("spark.jobGroup.id", None)
    return out, list(sc.statusTracker().getJobIdsForGroup(group))


def test_whole_files_above_the_listing_threshold_are_listed_on_the_driver(spark, tmp_path):  # noqa: F811
    """Above 32 explicit paths Spark lists them in a Spark job when the DataFrame is created; the whole-file
    route lists them on the driver instead (no job), reads the same rows, and leaves the session's setting
    as it found it (unset, or the user's value)."""
    from paimon_codec.spark.native import native_dataframe

    paths = []
    for i in range(40):
        p = tmp_path / f"f{i:02d}.parquet"
        pq.write_table(pa.table({"a": pa.array([i * 10 + j for j in range(3)], pa.int32()),
                                 "s": pa.array([f"v{i}", None, "x"], pa.string())}), p)
        paths.append(str(p))
    row_type = parse_row_type("a INT, s STRING")
    expected = sorted((i * 10 + j, [f"v{i}", None, "x"][j]) for i in range(40) for j in range(3))

    plain, jobs = _jobs_while(spark, lambda: spark.read.parquet(*paths), "plain-listing")
    assert jobs, "Spark no longer lists >32 paths in a job: this test no longer shows anything"
    assert sorted(map(tuple, plain.collect())) == expected

    assert spark.conf.get(_CONF, None) is None
    df, jobs = _jobs_while(spark, lambda: native_dataframe(spark, row_type, paths, "parquet"), "ours-listing")
    assert jobs == []
    assert spark.conf.get(_CONF, None) is None
    assert sorted(map(tuple, df.collect())) == expected

    spark.conf.set(_CONF, "7")
    try:
        df, jobs = _jobs_while(spark, lambda: native_dataframe(spark, row_type, paths[:20], "parquet"), "ours-7")
        assert jobs == [] and spark.conf.get(_CONF) == "7"
        assert sorted(map(tuple, df.collect())) == [r for r in expected if r[0] < 200]
    finally:
        spark.conf.unset(_CONF)


@pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")
def test_few_rows_of_whole_files_are_read_on_the_driver(spark):  # noqa: F811
    """Whole files (every row kept) holding few rows in all go to pyarrow on the driver - no Spark job for the
    read - and give the rows Spark's own reader gives; ``driver_rows=0`` keeps them on Spark's reader."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.spark import scan

    spec = next(s for s in tables() if s["kind"] == "append")
    path = table_dir(spec["table"])
    plan = plan_scan(path)
    assert plan.tasks and all(t.selection is None for t in plan.tasks)
    driver, report = scan(spark, path)
    assert report.read_paths == {"driver_pyarrow": len(plan.tasks)}
    native, report = scan(spark, path, driver_rows=0)
    assert "spark_whole_files" in report.read_paths and "driver_pyarrow" not in report.read_paths
    assert normalize_rows(driver.collect()) == normalize_rows(native.collect()) == normalize_rows(expected_all_rows(spec))
