"""One quiet SparkSession per process.

Local mode by default (``local[*]``), with ``PYSPARK_PYTHON`` pointing at the running interpreter
so Python workers import the same environment; a ``master`` URL selects a cluster instead.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from .connect_mode import is_spark_connect

__all__ = ["get_spark", "is_spark_connect"]


if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def get_spark(master: str | None = None, app_name: str = "paimon-codec", *, shuffle_partitions: int = 4,
              extra_conf: dict[str, str] | None = None) -> SparkSession:
    """Create (or return the active) SparkSession with small, quiet defaults."""
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
    builder = (SparkSession.builder.appName(app_name)
               .master(master or os.environ.get("PAIMON_CODEC_SPARK_MASTER", "local[*]"))
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
               .config("spark.sql.execution.arrow.pyspark.enabled", "true")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.driver.extraJavaOptions", "-Dlog4j2.rootLogger.level=ERROR")
               )
    for key, value in (extra_conf or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    from .registration import register
    register(spark)
    return spark

