"""The hand-off of an Arrow table read on the driver to Spark (:mod:`paimon_codec.spark.handoff`)."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

pytestmark = pytest.mark.spark

_THRESHOLD = "spark.sql.execution.arrow.localRelationThreshold"
_BATCH = "spark.sql.execution.arrow.maxRecordsPerBatch"


def _table(chunks: int) -> pa.Table:
    parts = []
    for i in range(chunks):  # one chunk each
        parts.append(pa.table({
            "id": pa.array([i * 10 + j for j in range(3)], pa.int64()),
            "s": pa.array([f"v{i}", None, "x"], pa.string()),
            "ts": pa.array([1_700_000_000_000_000 + i, None, 0], pa.timestamp("us", tz="UTC"))}))
    return pa.concat_tables(parts)


def test_a_table_of_many_chunks_becomes_one_partition_per_core(spark):  # noqa: F811
    """A table concatenated from many files' reads (one chunk each) reaches Spark as at most one Arrow batch
    per core - not a task per chunk, not a LocalRelation whose rows would be serialized into tasks - with
    the same rows, and the session's settings are left as they were (unset, or the user's values)."""
    from pyspark.sql import types as T

    from paimon_codec.spark.handoff import arrow_dataframe

    table = _table(50)
    assert table.column("id").num_chunks == 50
    schema = T.StructType([T.StructField("id", T.LongType(), True), T.StructField("s", T.StringType(), True),
                           T.StructField("ts", T.TimestampType(), True)])
    expected = sorted(((i * 10 + j, [f"v{i}", None, "x"][j],
                        [dt.datetime(2023, 11, 14, 22, 13, 20, i), None, dt.datetime(1970, 1, 1)][j])
                       for i in range(50) for j in range(3)), key=lambda r: r[0])

    assert spark.conf.get(_THRESHOLD, None) is None and spark.conf.get(_BATCH, None) is None
    df = arrow_dataframe(spark, table, schema)
    assert spark.conf.get(_THRESHOLD, None) is None and spark.conf.get(_BATCH, None) is None
    assert "LocalTableScan" not in df._jdf.queryExecution().executedPlan().toString()
    assert 1 <= df.rdd.getNumPartitions() <= spark.sparkContext.defaultParallelism
    assert sorted(map(tuple, df.collect()), key=lambda r: r[0]) == expected
    assert df.toArrow().num_rows == 150

    spark.conf.set(_BATCH, "7")
    try:
        df = arrow_dataframe(spark, _table(3), schema)
        assert spark.conf.get(_BATCH) == "7" and spark.conf.get(_THRESHOLD, None) is None
        assert df.count() == 9
    finally:
        spark.conf.unset(_BATCH)

    empty = arrow_dataframe(spark, _table(1).slice(0, 0), schema)
    assert empty.collect() == [] and empty.toArrow().num_rows == 0
