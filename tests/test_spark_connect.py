"""``scan`` and the streaming source and sink through a Spark Connect server (``SparkSession.builder.remote``).

The server (tests/spark_cluster.py ``spark_connect``) runs its Python - the data source's planning and the
executors' tasks - in the packed virtualenv, without this process's import path; this process is only the
Connect client.
"""

from __future__ import annotations

import pytest
import test_spark_scan
import test_spark_streaming
from golden_warehouse import WAREHOUSE_JSON, tables
from spark_cluster import ROOT

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
@pytest.mark.parametrize("spec", tables(), ids=lambda t: t["table"])
def test_scan_golden_queries_over_connect(spark_connect, spec, table_location):
    # scan() only: the DataFrame source over Connect is not covered yet (issue 25)
    test_spark_scan.test_scan_answers_every_golden_query(spark_connect, spec, table_location, "scan")


def test_stream_over_connect(spark_connect, tmp_path):
    test_spark_streaming.test_stream_through_spark(tmp_path, spark_connect)
