"""Whether a SparkSession is a Spark Connect client (its own module: :mod:`.write` asks it, and
:mod:`.session`, which registers the data sources that write through :mod:`.write`, re-exports it)."""

from __future__ import annotations

from typing import Any

__all__ = ["is_spark_connect"]


def is_spark_connect(spark: Any) -> bool:
    """True for a Spark Connect session (no SparkContext, no RDDs).  Asked up front, so the RDD paths
    never hide a real failure behind an ``except Exception`` fallback."""
    return type(spark).__module__.startswith("pyspark.sql.connect")
