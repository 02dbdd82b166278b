"""Paimon tables on Spark: index-aware scans, a warehouse audit and the ``paimon_index`` data source.

>>> from paimon_codec.spark import get_spark, scan, audit
>>> spark = get_spark()                       # local Spark, quiet, one session per process
>>> df, report = scan(spark, "wh/db.db/orders", where="status = 'PENDING'")
>>> findings_df, summary = audit(spark, "wh")
>>> spark.read.format("paimon_index").option("table", "wh/db.db/orders").option("kind", "hash").load()
"""

from __future__ import annotations

from typing import Any

__all__ = ["scan", "audit", "register", "get_spark"]


def scan(*args: Any, **kwargs: Any):
    from .scan import scan as _scan

    return _scan(*args, **kwargs)


def audit(*args: Any, **kwargs: Any):
    from .audit import audit as _audit

    return _audit(*args, **kwargs)


def register(spark) -> None:
    """Register the ``paimon_index`` data source with ``spark``."""
    from .datasource import register as _register

    _register(spark)


def get_spark(*args: Any, **kwargs: Any):
    from .session import get_spark as _get_spark

    return _get_spark(*args, **kwargs)
