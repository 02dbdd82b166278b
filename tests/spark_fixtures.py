"""One SparkSession for every Spark test module (local[2], quiet, no UI).

Import the fixture into a test module with ``from spark_fixtures import spark  # noqa: F401``.
``get_spark`` returns the active session, so every module shares the same one.
"""

from __future__ import annotations

import os
import shutil
import sys

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
