"""Registering this library's Spark data sources with a session: ``paimon_codec`` (a table's rows) and
``paimon_index`` (its index contents)."""

from __future__ import annotations

from typing import Any

__all__ = ["register"]


def register(spark: Any) -> None:
    """Register the ``paimon_codec`` (:mod:`.source`, :mod:`.sink`) and ``paimon_index`` (:mod:`.datasource`)
    data sources with ``spark`` - a session of your own; ``get_spark()`` registers them itself.  Storage options
    registered in this process by now travel with the sources (register again after registering more)."""
    from .datasource import register as register_index
    from .source import register as register_source

    register_source(spark)
    register_index(spark)
