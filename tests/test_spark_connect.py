"""``scan``, the ``paimon_codec`` DataFrame source and sink, and the streaming source and sink through a Spark
Connect server (``SparkSession.builder.remote``).

The server (tests/spark_cluster.py ``spark_connect``) runs its Python - the data source's planning and the
executors' tasks - in the packed virtualenv, without this process's import path; this process is only the
Connect client.  ``spark.dataSource.register`` of a Connect session pickles the data source class to the server
(``register_data_source``), which imports ``paimon_codec.spark.source`` from the packed env.  Rows are compared
with the golden answers (Paimon Java 0.9's own reads) and with Paimon Java 1.4.2's read of the same tables.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
import test_spark_scan
import test_spark_streaming
import test_spark_write
from golden_warehouse import WAREHOUSE_JSON, table_at, tables
from oracles.compare import assert_same_rows
from spark_cluster import ROOT
from spark_fixtures import read_via

from paimon_codec.errors import UnsupportedFeatureError
from paimon_codec.reading import read_table
from paimon_codec.spark import register
from paimon_codec.spark.write import write
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table

pytestmark = [pytest.mark.spark, pytest.mark.slow,
              pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")]
LOCAL = pytest.mark.parametrize("table_location", ["local"], indirect=True)


def test_connect_server_runs_the_packed_env(spark_connect):
    def where(_batches):  # nested: pickled by value (the server cannot import this test module)
        import pyarrow as pa

        import paimon_codec

        yield pa.RecordBatch.from_pydict({"module": [paimon_codec.__file__]})

    rows = spark_connect.range(0, 2, numPartitions=2).mapInArrow(where, "module string").collect()
    assert rows and all(".d/" in r.module and not r.module.startswith(str(ROOT)) for r in rows), rows


@LOCAL
@pytest.mark.parametrize("via", test_spark_scan.VIA)
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_scan_golden_queries_over_connect(spark_connect, spec, table_location, via):
    test_spark_scan.test_scan_answers_every_golden_query(spark_connect, spec, table_location, via)


@LOCAL
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_source_reads_what_java_reads_over_connect(spark_connect, java_newest, spec, table_location):
    """Every row of each golden table, and of one older snapshot, as Paimon Java 1.4.2 reads it (the source as a
    user loads it; the golden queries above run both with and without pushdown)."""
    path = table_at(table_location, spec["table"])
    via = "source"
    df, _ = read_via(spark_connect, via, path)
    assert_same_rows(df.toArrow(), java_newest.read(path),
                     what=f"source over Connect vs Java 1.4.2, {spec['table']}")
    old, _ = read_via(spark_connect, via, path, snapshot_id=1)
    assert_same_rows(old.toArrow(),
                     java_newest.read(path, snapshot_id=1), what="snapshot 1")


def test_sink_over_connect(spark_connect, tmp_path, java_newest):
    """The shared write test through the sink; ``write()`` (an RDD job polling a SparkContext accumulator) is
    refused over Connect by name, pointing at the sink."""
    test_spark_write.test_write_fixed_buckets_and_overwrite(spark_connect, tmp_path, java_newest, "sink")
    path = create_table(str(tmp_path / "db.db" / "w"), test_spark_write.SCHEMA, test_spark_write.OPTIONS)
    with pytest.raises(UnsupportedFeatureError, match="over Spark Connect.*format\\('paimon_codec'\\)"):
        write(test_spark_write._df(spark_connect, test_spark_write._data(0, 10, 0), 1), path)
    assert not PaimonTable(path).snapshot_ids()


def test_sink_over_connect_partitioned_and_sql(spark_connect, tmp_path, java_newest):
    """The sink through Connect on a partitioned table with file indexes, then ``INSERT`` through a temporary
    view ``USING paimon_codec``; Java 1.4.2 reads exactly the rows, and keeps writing to the table."""
    register(spark_connect)  # pickles the source to the server (its register_data_source)
    path = create_table(str(tmp_path / "db.db" / "t"), test_spark_write.SCHEMA, test_spark_write.OPTIONS,
                        partition_keys=["p"])
    first = test_spark_write._data(0, 400, 0)
    test_spark_write._df(spark_connect, first, 3).write.format("paimon_codec").mode("append").save(path)
    spark_connect.sql(f"CREATE OR REPLACE TEMPORARY VIEW connect_t USING paimon_codec OPTIONS (path '{path}')")
    spark_connect.sql("INSERT INTO connect_t VALUES (9001, 'k9', 5, 'a'), (9002, NULL, 6, 'c')")
    extra = pa.table({"id": pa.array([9001, 9002], pa.int32()), "s": ["k9", None],
                      "n": pa.array([5, 6], pa.int64()), "p": ["a", "c"]})
    want = pa.concat_tables([first, extra])
    assert_same_rows(java_newest.read(path), want, what="Java 1.4.2 reads the sink's two commits")
    test_spark_write._check(java_newest, path)
    java_newest.write(path, test_spark_write._data(5000, 20, 1))
    assert_same_rows(read_table(path), java_newest.read(path))


def test_stream_over_connect(spark_connect, tmp_path):
    test_spark_streaming.test_stream_through_spark(tmp_path, spark_connect)


def test_primary_key_changelog_stream_over_connect(spark_connect, tmp_path, java_newest):
    """``read.changelog`` of a primary-key table Java writes (``changelog-producer = input``), streamed on the
    server into its memory sink: the merged first snapshot as ``+I``, then Java's own streaming read."""
    register(spark_connect)
    columns = ["p", "id", "s"]
    path = java_newest.create_table(str(tmp_path), "db.pk", test_spark_streaming.PK_SCHEMA, primary_keys=["p", "id"],
                                    partition_keys=["p"], options={"bucket": "2", "changelog-producer": "input"})
    java_newest.write(path, test_spark_streaming._rows(0, 6).select(columns))
    first = PaimonTable(path).snapshot().id
    java_newest.write(path, test_spark_streaming._rows(0, 3).select(columns), row_kinds=["-D", "+I", "-D"])
    java_newest.write(path, test_spark_streaming._rows(4, 4).select(columns))  # two updates, two inserts
    name = f"pk_connect_{os.getpid()}"
    (spark_connect.readStream.format("paimon_codec").option("read.changelog", "true")
     .option("scan.mode", "from-snapshot-full").option("scan.snapshot-id", str(first)).load(path)
     .writeStream.format("memory").queryName(name).trigger(availableNow=True).start().awaitTermination())
    got = sorted(f"{r.rowkind} {[r.p, r.id, r.s]!r}" for r in spark_connect.sql(f"SELECT * FROM {name}").collect())
    merged = [f"+I {[r['p'], r['id'], r['s']]!r}" for r in test_spark_streaming._rows(0, 6).to_pylist()]
    want = sorted(merged + java_newest.read_changelog(path, first + 1, PaimonTable(path).snapshot().id))
    assert got == want and any(line.startswith("-D") for line in got)
