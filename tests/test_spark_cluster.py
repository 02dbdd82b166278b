"""The Spark tests that matter on a real cluster, run on a standalone cluster on loopback (``spark_cluster``).

Executors are separate JVMs and Python processes on two workers; their Python is the packed virtualenv shipped
with ``spark.archives`` (tests/spark_cluster.py), so everything a task needs is pickled by the driver or
imported from the archive.  The test bodies are those of the local-mode modules (scan and the DataFrame
source, write and the sink, rewrite, audit, delete, upsert and compaction, streaming of append and primary-key
tables), called with the cluster's session; these tests run after every local-mode test (one SparkContext
per process: see ``spark_cluster``).
"""

from __future__ import annotations

import os

import pyspark
import pytest
import test_spark_audit
import test_spark_delete
import test_spark_primary_key
import test_spark_rewrite
import test_spark_scan
import test_spark_streaming
import test_spark_write
from golden_warehouse import WAREHOUSE_JSON, tables
from spark_cluster import ROOT
from test_spark_rewrite import java_table  # noqa: F401 - the rewrite test's fixture

pytestmark = [pytest.mark.spark, pytest.mark.slow,
              pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")]
LOCAL = pytest.mark.parametrize("table_location", ["local"], indirect=True)


def test_executors_import_the_packed_env_not_the_drivers_path(spark_cluster):
    def _where_imported(_batches):  # nested: pickled by value (executors cannot import this test module)
        import os
        import sys

        import pyarrow as pa

        import paimon_codec

        yield pa.RecordBatch.from_pydict({"module": [paimon_codec.__file__], "python": [sys.executable],
                                          "pythonpath": [os.environ.get("PYTHONPATH", "")],
                                          "pid": [os.getpid()]})

    rows = (spark_cluster.range(0, 4, numPartitions=4)
            .mapInArrow(_where_imported, "module string, python string, pythonpath string, pid long").collect())
    assert rows
    for r in rows:
        assert r.module.startswith(os.path.dirname(r.python).rsplit("/bin", 1)[0]), r  # the archive's venv
        assert "/env/" in r.module and not r.module.startswith(str(ROOT)), r
        # Spark's own python libraries (pyspark.zip, py4j) may live under a checkout's .venv; nothing else may
        spark_libs = os.path.dirname(pyspark.__file__)
        for entry in filter(None, r.pythonpath.split(os.pathsep)):
            assert entry.startswith(spark_libs) or not entry.startswith(str(ROOT)), r
            assert "/work/devsite" not in entry, r
    assert os.getpid() not in {r.pid for r in rows}


@LOCAL
@pytest.mark.parametrize("via", test_spark_scan.VIA)
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_scan_golden_queries_on_cluster(spark_cluster, spec, table_location, via):
    test_spark_scan.test_scan_answers_every_golden_query(spark_cluster, spec, table_location, via)


@pytest.mark.parametrize("via", test_spark_scan.VIA)
def test_scan_sample_table_on_cluster(spark_cluster, tmp_path, via):
    test_spark_scan.test_scan_of_the_sample_table_uses_indexes_and_dvs(spark_cluster, tmp_path, via)


@pytest.mark.parametrize("via", test_spark_write.VIA)
def test_write_on_cluster(spark_cluster, tmp_path, java_newest, via):
    test_spark_write.test_write_fixed_buckets_and_overwrite(spark_cluster, tmp_path, java_newest, via)


def test_rewrite_on_cluster(spark_cluster, java_table, java_newest, capsys):  # noqa: F811
    test_spark_rewrite.test_cli_index_rewrite(spark_cluster, java_table, java_newest, capsys)


@LOCAL
def test_audit_on_cluster(spark_cluster, table_location):
    test_spark_audit.test_golden_warehouse_audits_clean(spark_cluster, table_location)
    test_spark_audit.test_data_source_returns_golden_dv_positions(spark_cluster, table_location)


def test_delete_on_cluster(spark_cluster, tmp_path, java_newest):
    test_spark_delete.test_spark_delete_equals_local_delete(tmp_path, spark_cluster, java_newest)


def test_upsert_and_compact_on_cluster(spark_cluster, tmp_path, java_newest, capsys):
    test_spark_primary_key.test_spark_upsert_and_compact(tmp_path, spark_cluster, java_newest, capsys)


def test_stream_on_cluster(spark_cluster, tmp_path):
    test_spark_streaming.test_stream_through_spark(tmp_path, spark_cluster)


def test_primary_key_stream_on_cluster(spark_cluster, tmp_path, java_newest):
    test_spark_streaming.test_primary_key_stream_through_spark(tmp_path, spark_cluster, java_newest)
