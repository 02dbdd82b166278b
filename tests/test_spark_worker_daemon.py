"""Spark's Python workers fork from :mod:`paimon_codec.spark.worker_daemon` (the read path imported before the
fork) in ``get_spark()``'s local sessions; the source reads the same rows with PySpark's own daemon; the daemon is
set only where the workers run this interpreter."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from golden_warehouse import WAREHOUSE_JSON, expected_query_rows, table_dir, tables
from spark_fixtures import spark  # noqa: F401

from paimon_codec.spark import worker_daemon
from paimon_codec.spark.session import _workers_import_this_library

golden = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")


def test_the_daemon_is_set_only_where_workers_run_this_interpreter(monkeypatch):
    monkeypatch.delenv("SPARK_REMOTE", raising=False)
    monkeypatch.delenv("SPARK_CONNECT_MODE_ENABLED", raising=False)
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    assert _workers_import_this_library("local[2]")
    assert not _workers_import_this_library("spark://host:7077")  # executors may not have the library
    assert not _workers_import_this_library("local-cluster[2,1,1024]")  # executors: processes of their own
    assert not _workers_import_this_library("local[2]", {"spark.pyspark.python": "/usr/bin/false"})
    monkeypatch.setenv("SPARK_REMOTE", "sc://localhost")
    assert not _workers_import_this_library("local[2]")  # Spark Connect: the server's setting
    monkeypatch.delenv("SPARK_REMOTE")
    monkeypatch.setenv("PYSPARK_PYTHON", "/usr/bin/false")  # another interpreter
    assert not _workers_import_this_library("local[2]")


def test_preload_skips_what_it_cannot_import():
    assert worker_daemon.preload(("json", "paimon_codec.no_such_module")) == ["paimon_codec.no_such_module"]


def test_a_worker_forked_from_the_daemon_has_the_read_path_imported(spark):  # noqa: F811
    assert spark.sparkContext.getConf().get("spark.python.daemon.module") == "paimon_codec.spark.worker_daemon"
    # one fresh worker per task (8 partitions on 2 cores: at least one worker that has run nothing before)
    got = spark.sparkContext.parallelize(range(8), 8).map(worker_daemon.preloaded).collect()
    assert got == [list(worker_daemon.PRELOADED)] * 8


_DAEMON_OFF = textwrap.dedent("""
    import json, sys
    from paimon_codec.spark import get_spark
    from paimon_codec.spark import worker_daemon
    spark = get_spark("local[1]", extra_conf={"spark.python.daemon.module": "pyspark.daemon"})
    probe = spark.sparkContext.parallelize([0], 1).map(worker_daemon.preloaded).collect()[0]
    path, where = sys.argv[1], sys.argv[2]
    rows = {}
    for knob in ("0", "131072"):  # read in tasks; read while planning
        df = (spark.read.format("paimon_codec").option("pushdown", "true")
              .option("source.driver-read-rows", knob).load(path).filter(where))
        rows[knob] = sorted(r.id for r in df.select("id").collect())
    print(json.dumps({"conf": spark.sparkContext.getConf().get("spark.python.daemon.module"), "probe": probe,
                      "rows": rows}))
""")


@golden
@pytest.mark.spark
def test_the_source_reads_with_pysparks_own_daemon(tmp_path):
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    script = tmp_path / "daemon_off.py"
    script.write_text(_DAEMON_OFF)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    done = subprocess.run([sys.executable, str(script), table_dir(spec["table"]), "cat = 'B' AND code = 20"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["conf"] == "pyspark.daemon"
    assert "paimon_codec.spark.source" not in out["probe"]  # a plain PySpark worker: nothing preloaded
    want = sorted(expected_query_rows(spec, "q8"))
    assert out["rows"] == {"0": want, "131072": want}
