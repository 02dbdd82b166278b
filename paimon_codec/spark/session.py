"""One quiet SparkSession per process.

Local mode by default (``local[*]``), with ``PYSPARK_PYTHON`` pointing at the running interpreter
so Python workers import the same environment (and fork from :mod:`.worker_daemon`, which has imported the
read path already); a ``master`` URL selects a cluster instead.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import TYPE_CHECKING

from .connect_mode import is_spark_connect

__all__ = ["get_spark", "is_spark_connect"]


if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def _workers_import_this_library(master: str, conf: dict[str, str] | None = None) -> bool:
    """Whether Spark's Python workers run this interpreter - a local master (``local`` / ``local[N]``, not
    ``local-cluster``), ``PYSPARK_PYTHON`` (and ``spark.pyspark.python`` of ``conf``) this executable, no Spark
    Connect - so they import this library and may fork from :mod:`~paimon_codec.spark.worker_daemon` (which
    imports the read path once, before the forks)."""
    if not (master == "local" or master.startswith("local[")):
        return False
    if os.environ.get("SPARK_REMOTE") or os.environ.get("SPARK_CONNECT_MODE_ENABLED"):
        return False
    here = os.path.realpath(sys.executable)
    pythons = [os.environ.get("PYSPARK_PYTHON", sys.executable), (conf or {}).get("spark.pyspark.python", here)]
    return all(os.path.realpath(shutil.which(p) or p) == here for p in pythons)


def get_spark(master: str | None = None, app_name: str = "paimon-codec", *, shuffle_partitions: int = 4,
              extra_conf: dict[str, str] | None = None) -> SparkSession:
    """Create (or return the active) SparkSession with small, quiet defaults; on a local master whose Python
    workers run this interpreter, they fork from :mod:`~paimon_codec.spark.worker_daemon` (the read path
    imported once; ``extra_conf={"spark.python.daemon.module": "pyspark.daemon"}`` turns it off)."""
    if os.environ.get("PAIMON_CODEC_QUICK") == "1":  # the test suite's quick run: tests/oracles/quick_guard.py
        raise RuntimeError("a SparkSession started under PAIMON_CODEC_QUICK=1 (./run.sh test --quick): "
                           "the test needs @pytest.mark.spark (or the spark fixture)")
    if master is None or master.startswith("local"):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    url = master or os.environ.get("PAIMON_CODEC_SPARK_MASTER", "local[*]")
    builder = (SparkSession.builder.appName(app_name)
               .master(url)
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.driver.extraJavaOptions", "-Dlog4j2.rootLogger.level=ERROR")
               )
    if _workers_import_this_library(url, extra_conf):
        builder = builder.config("spark.python.daemon.module", "paimon_codec.spark.worker_daemon")
    for key, value in (extra_conf or {}).items():  # a daemon module given here wins
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    from .registration import register
    register(spark)
    return spark

