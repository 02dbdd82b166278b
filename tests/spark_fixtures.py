"""One SparkSession for every Spark test module (local[2], quiet, no UI).

Import the fixture into a test module with ``from spark_fixtures import spark  # noqa: F401``.
``get_spark`` returns the active session, so every module shares the same one.

:func:`read_via` and :func:`write_via` run one read / write through ``scan()`` / ``write()`` or through the
``paimon_codec`` DataFrame source and sink, so a test compares the same rows both ways.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import pytest


@pytest.fixture(scope="session")
def spark():
    from oracles.quick_guard import refuse_in_quick_run

    refuse_in_quick_run("spark", "a SparkSession")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.fail("Spark needs Java (java on PATH or JAVA_HOME)", pytrace=False)
    import pyspark  # noqa: F401 - a test dependency: missing is a broken set-up, never a skip
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from paimon_codec.spark.session import get_spark

    session = get_spark("local[2]", shuffle_partitions=2)
    yield session


def read_via(spark, via: str, path: str, where: Any = None, **selectors: Any) -> tuple[Any, Any]:
    """``(DataFrame, PlanReport or None)`` of ``path`` filtered by ``where`` (SQL text / predicate / JSON), read by
    ``scan()`` (``via="scan"``) or the source (``"source"``: Spark filters, the rows read in Spark tasks;
    ``"source-pushdown"``: the filters pushed, each read from a fresh ``load()``, a small answer read while
    planning).  ``selectors``: ``snapshot_id`` / ``tag`` / ``branch``."""
    from paimon_codec.spark import register, scan

    if via == "scan":
        return scan(spark, path, where, **selectors)
    from paimon_codec.planning.plan import as_predicate
    from paimon_codec.spark.filters import to_spark_column
    from paimon_codec.table import PaimonTable

    register(spark)  # storage options registered since the session started (the s3 table_location) travel along
    reader = spark.read.format("paimon_codec").option("pushdown", str(via == "source-pushdown").lower())
    if via == "source":  # read in Spark tasks; with pushdown, small answers are read while planning
        reader = reader.option("source.driver-read-rows", "0")
    names = {"snapshot_id": "snapshot-id", "tag": "tag", "branch": "branch", "timestamp_ms": "as-of"}
    for key, value in selectors.items():
        reader = reader.option(names[key], str(value))
    df = reader.load(path)
    if where is not None:
        row_type = PaimonTable(path).schema.fields
        df = df.filter(to_spark_column(as_predicate(where, row_type), row_type))
    return df, None


def write_via(via: str, df, path: str, mode: str = "append") -> Any:
    """Write ``df`` by ``write()`` (its report) or by the sink (``via="sink"``; None)."""
    from paimon_codec.spark import register
    from paimon_codec.spark.write import write

    if via == "write":
        return write(df, path, mode=mode)
    register(df.sparkSession)  # a Connect session has no get_spark(): register as a user does
    df.write.format("paimon_codec").mode(mode).save(path)
    return None
