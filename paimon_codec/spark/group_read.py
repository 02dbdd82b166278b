"""Group tasks on Spark: primary-key buckets merged by key (and data-evolution row ranges), few tasks each.

A group task (:class:`~paimon_codec.planning.tasks.GroupTask`) is read by one function in one process.  One
Spark task per group cost the merge read most of its time: every Spark task pays a Python worker round trip,
the function's shipping and its scheduling (measured in ``local[2]`` at load ~20: an empty ``mapInArrow`` over
``spark.range`` took 1.4 s in 2 partitions, 3.5 s in 4 and 5.8 s in 8), and a task DataFrame built by
``parallelize`` adds a Python worker of its own per task to unpickle its rows.  So the groups are dealt to at
most :func:`group_slots` slots - largest first, each to the slot with the fewest bytes so far (balanced for a
single wave of tasks) - and the slots become the partitions of ``spark.range`` (made in the JVM, no Python
worker); each task runs its slot's groups one after the other (memory bounded by one group) and hands every
merged group to Spark as Arrow batches.  The slots travel in the function's closure, each pickled apart, so a
task unpickles only its own (PySpark broadcasts a large closure once).
"""

from __future__ import annotations

import heapq
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ..planning.tasks import GroupTask
from ..storage import storage_state
from .session import is_spark_connect
from .types import spark_schema

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from ..planning.plan import ScanPlan

__all__ = ["deal_groups", "group_slots", "read_groups", "group_dataframe", "BATCH_ROWS", "CONNECT_SLOTS"]

#: rows per Arrow batch handed to Spark
BATCH_ROWS = 1 << 16
#: slots of a Spark Connect session (no SparkContext to ask for its parallelism)
CONNECT_SLOTS = 8


def _weight(group: GroupTask) -> float:
    """Bytes a group reads (its files' sizes, scaled by the share of rows selected)."""
    return sum(f.file_size * f.selected_rows / max(f.row_count, 1) for f in group.files)


def deal_groups(groups: Sequence[GroupTask], slots: int) -> list[list[GroupTask]]:
    """``groups`` dealt to at most ``slots`` lists: largest first, each to the lightest list so far (the
    longest-processing-time rule); empty lists are left out."""
    slots = max(1, min(slots, len(groups)))
    heap = [(0.0, i) for i in range(slots)]
    dealt: list[list[GroupTask]] = [[] for _ in range(slots)]
    for g in sorted(groups, key=_weight, reverse=True):
        load, i = heapq.heappop(heap)
        dealt[i].append(g)
        heapq.heappush(heap, (load + _weight(g), i))
    return [d for d in dealt if d]


def group_slots(spark: SparkSession) -> int:
    """How many tasks the groups of one read go to: the session's default parallelism (one wave)."""
    if is_spark_connect(spark):
        return CONNECT_SLOTS
    return max(1, int(spark.sparkContext.defaultParallelism))


def read_groups(groups: Sequence[GroupTask], schema: pa.Schema) -> Iterator[pa.RecordBatch]:
    """The merged rows of ``groups``, one after the other, as Arrow batches of ``schema`` (nanosecond
    timestamps cut to Spark's microseconds, as every other read path does)."""
    from ..reading.read import read_group_task
    from .types import to_spark_micros

    for group in groups:
        yield from to_spark_micros(read_group_task(group, schema)).to_batches(max_chunksize=BATCH_ROWS)


def read_slots(slots: list[bytes], schema_bytes: bytes, storage: dict | None
               ) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The ``mapInArrow`` function over ``spark.range`` ids: id ``i`` reads the groups pickled in
    ``slots[i]`` (runs on executors; ``storage``: the driver's :func:`paimon_codec.storage.storage_state`)."""

    def read(ids: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pickle

        import pyarrow as pa

        from paimon_codec.spark.group_read import read_groups
        from paimon_codec.storage import restore_storage_state

        restore_storage_state(storage)
        schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))
        for batch in ids:
            for i in batch.column(0).to_pylist():
                yield from read_groups(pickle.loads(slots[i]), schema)

    return read


def group_dataframe(spark: SparkSession, plan: ScanPlan, schema: pa.Schema) -> DataFrame:
    """The rows of ``plan.groups`` (``schema``: their Arrow schema, in the session's time zone), merged in
    at most :func:`group_slots` Spark tasks."""
    dealt = deal_groups(plan.groups, group_slots(spark))
    slots = [pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL) for d in dealt]
    ids: Any = spark.range(0, len(slots), 1, len(slots))
    return ids.mapInArrow(read_slots(slots, schema.serialize().to_pybytes(), storage_state()),
                          spark_schema(plan.row_type))
