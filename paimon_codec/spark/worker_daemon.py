"""A Spark Python worker daemon that imports this library's read path before it forks any worker.

Spark runs a Python data source's ``schema()``, its planning (``pushFilters`` / ``partitions``) and its
``read()`` in Python workers, each forked by a daemon (``python -m pyspark.daemon``, one daemon per kind of
worker), and a worker imports what it runs after the fork: each new worker - the first of each kind, one more
per core reading, and every one after Spark drops its idle workers (a minute without work) - spends about a
second importing pyarrow, numpy and the planner before it answers.  With Spark's
``spark.python.daemon.module`` set to this module the daemon imports them once, and every worker forked from
it starts with them imported (``tests/test_spark_worker_daemon.py``).  The daemon itself is PySpark's: this
module only imports, then hands over to ``pyspark.daemon.manager``.

:func:`~paimon_codec.spark.session.get_spark` sets it for a local master whose Python workers run the driver's
interpreter (which imports this library).  For a session of your own::

    SparkSession.builder.config("spark.python.daemon.module", "paimon_codec.spark.worker_daemon")

only where every executor's Python has ``paimon_codec`` installed: the daemon runs every Python worker of the
application (UDFs too), and an executor that cannot import this module starts none.  Spark Connect: a server
setting (``--conf`` of the server), never the client's.

Forking after these imports: pyarrow's jemalloc and numpy's OpenBLAS start threads when imported, and both
register fork handlers (the daemon forks with their locks consistent; the child restarts the threads it needs).
"""

from __future__ import annotations

import importlib
import logging
import sys

__all__ = ["PRELOADED", "preload", "preloaded", "main"]

_log = logging.getLogger(__name__)

#: what a worker of the ``paimon_codec`` source imports to plan and read (and ``scan()``'s tasks to read)
PRELOADED = (
    "pyarrow",
    "pyarrow.parquet",
    "pyarrow.compute",
    "pyspark.sql.datasource",
    "pyspark.sql.worker.plan_data_source_read",
    "pyspark.sql.worker.data_source_pushdown_filters",
    "pyspark.sql.worker.create_data_source",
    "pyspark.worker",
    "paimon_codec.spark.source",
    "paimon_codec.spark.source_read",
    "paimon_codec.spark.pushdown",
    "paimon_codec.spark.types",
    "paimon_codec.spark.scan",
    "paimon_codec.planning.plan",
    "paimon_codec.reading.read",
    "paimon_codec.reading.arrow_filter",
    "paimon_codec.reading.merge.read",
)


def preload(names: tuple[str, ...] = PRELOADED) -> list[str]:
    """Import ``names``; the ones that fail are logged and skipped (a worker then imports what it needs
    itself, and reports its own error if it cannot)."""
    failed = []
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a missing optional module must not stop the daemon
            _log.warning("paimon_codec worker daemon: could not import %s", name, exc_info=True)
            failed.append(name)
    return failed


def preloaded(_: object = None) -> list[str]:
    """The :data:`PRELOADED` modules this process has imported (what a worker forked from this daemon starts
    with; a probe for tests, run in a worker)."""
    return [name for name in PRELOADED if name in sys.modules]


def main() -> None:
    """Import :data:`PRELOADED`, then run PySpark's daemon (which reads the worker module from ``sys.argv``)."""
    preload()
    from pyspark import daemon

    daemon.manager()


if __name__ == "__main__":
    main()
