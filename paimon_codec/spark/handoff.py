"""Handing an Arrow table read on the driver to Spark as a DataFrame.

``spark.createDataFrame(arrow_table)`` in classic PySpark 4 makes a ``LocalRelation`` of the rows when
they fit ``spark.sql.execution.arrow.localRelationThreshold`` (48 MB), else an RDD of the Arrow batches,
one partition per batch of at most ``spark.sql.execution.arrow.maxRecordsPerBatch`` (10,000) rows.  Both
defaults cost a driver route most of its time:

* a ``LocalRelation`` is collected (``toArrow``, ``collect``) through a ``LocalTableScanExec`` that
  parallelizes its rows into the job's tasks - every row Java-serialized into a task and back (measured on
  the scale table, ``region = 'r7'``, 100k rows of 2 files, interleaved runs at load ~10: 0.48-0.88 s for
  the scan + ``toArrow`` against 0.14-0.20 s through Arrow batches);
* the batch RDD gets a partition - a task - per chunk of the table: a table concatenated from 200 files'
  reads has 200 chunks, so 200 tasks for 939 rows (2.1 s against 1.0 s).

So the table goes as Arrow batches, one per core (``defaultParallelism``), its chunks combined first;
both settings are raised only around the (eager) creation of the relation, under a lock.  Spark Connect
sessions send the table to the server as a local relation of Arrow batches anyway: created as they are.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pyarrow as pa

from .session import is_spark_connect

__all__ = ["arrow_dataframe", "session_conf"]

_THRESHOLD = "spark.sql.execution.arrow.localRelationThreshold"
_BATCH = "spark.sql.execution.arrow.maxRecordsPerBatch"
_CONF_LOCK = threading.Lock()


@contextmanager
def session_conf(spark, values: dict[str, str]) -> Iterator[None]:
    """The session's SQL settings ``values`` for the block, restored after it (unset where they were unset);
    a lock keeps concurrent callers from restoring each other's values."""
    conf = spark.conf
    with _CONF_LOCK:
        old = {k: conf.get(k, None) for k in values}
        try:
            for k, v in values.items():
                conf.set(k, v)
            yield
        finally:
            for k, v in old.items():
                if v is None:
                    conf.unset(k)
                else:
                    conf.set(k, v)


def arrow_dataframe(spark, table: pa.Table, schema: Any) -> Any:
    """A DataFrame of ``table`` (Spark ``schema``) as an RDD of Arrow batches, one per core at most."""
    if is_spark_connect(spark):
        return spark.createDataFrame(table, schema=schema)
    parts = max(1, int(spark.sparkContext.defaultParallelism))
    batch = max(1, -(-table.num_rows // parts))  # ceil: at most `parts` batches
    with session_conf(spark, {_THRESHOLD: "0", _BATCH: str(batch)}):
        return spark.createDataFrame(table.combine_chunks(), schema=schema)
