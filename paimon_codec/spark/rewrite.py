"""``rewrite_file_index`` on Spark: one task per data file (small files grouped), one commit on the driver.

>>> from paimon_codec.spark import get_spark, rewrite_file_index
>>> report = rewrite_file_index(get_spark(), "wh/db.db/orders",
...                             options={"file-index.bitmap.columns": "status"}, partitions=["dt=2024-01-01"])

The driver plans (:func:`paimon_codec.maintenance.index_rewrite_job.plan_rewrite`), ships each group of
:class:`~paimon_codec.maintenance.file_index_rewrite.IndexTask` s to an executor, which reads the file's
indexed columns with pyarrow, builds the container and either returns it (embedded in the manifest) or
writes ``<data file>.index`` (crash-safe, create-if-absent) and returns its name.  Progress (files
indexed / total, bytes, rate) is logged on the driver while the job runs (a Spark accumulator polled
from the driver); the commit is the job's (:func:`~paimon_codec.maintenance.index_rewrite_job.rewrite_file_index`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..maintenance.file_index_rewrite import IndexOutcome, IndexTask
from ..maintenance.index_rewrite_job import PartitionsLike, Progress, RewriteReport
from ..maintenance.index_rewrite_job import rewrite_file_index as _rewrite_job
from .polled_job import Pair, pair_accumulator, run_polled

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from ..maintenance.index_rewrite_job import Runner
    from ..table import PaimonTable

__all__ = ["rewrite_file_index", "spark_runner", "group_tasks"]

log = logging.getLogger(__name__)

DEFAULT_GROUP_BYTES = 64 << 20  # small files are grouped into tasks of about this many data bytes


def group_tasks(tasks: Sequence[IndexTask], target_bytes: int = DEFAULT_GROUP_BYTES) -> list[list[IndexTask]]:
    """One group per file of ``target_bytes`` or more; smaller files packed together up to it, so a
    table of many small files does not pay one Spark task each."""
    groups: list[list[IndexTask]] = []
    current: list[IndexTask] = []
    size = 0
    for task in sorted(tasks, key=lambda t: -t.file_size):
        if task.file_size >= target_bytes:
            groups.append([task])
            continue
        if current and size + task.file_size > target_bytes:
            groups.append(current)
            current, size = [], 0
        current.append(task)
        size += task.file_size
    if current:
        groups.append(current)
    return groups


def _run_group(storage_state: Any, accumulator: Any) -> Callable[[list[IndexTask]], list[IndexOutcome]]:
    def run(group: list[IndexTask]) -> list[IndexOutcome]:
        from .. import storage
        from ..maintenance.file_index_rewrite import run_index_task

        if storage_state is not None:
            storage.restore_storage_state(storage_state)
        out = []
        for task in group:
            outcome = run_index_task(task)
            accumulator.add((1, outcome.data_bytes))
            out.append(outcome)
        return out
    return run


def spark_runner(spark: SparkSession, target_bytes: int = DEFAULT_GROUP_BYTES, poll_s: float = 2.0) -> Runner:
    """A :data:`~paimon_codec.maintenance.index_rewrite_job.Runner` running the tasks as one Spark job."""

    def run(tasks: Sequence[IndexTask], progress: Progress) -> list[IndexOutcome]:
        if not tasks:
            return []
        from .. import storage

        groups = group_tasks(tasks, target_bytes)
        sc = spark.sparkContext
        acc = pair_accumulator(sc)

        def collect() -> list[IndexOutcome]:
            rdd = sc.parallelize(groups, len(groups))
            return rdd.flatMap(_run_group(storage.storage_state(), acc)).collect()

        def advance(seen: Pair, now: Pair) -> None:
            progress.advance(now[0] - seen[0], now[1] - seen[1])

        outcomes, seen = run_polled(sc, collect, acc, advance, poll_s=poll_s,
                                    thread_name="paimon-codec-index-job",
                                    description=f"paimon-codec: index {len(tasks)} data files")
        final = (len(outcomes), sum(o.data_bytes for o in outcomes))
        progress.advance(final[0] - seen[0], final[1] - seen[1], force=True)
        return outcomes
    return run


def rewrite_file_index(spark: SparkSession, table: str | os.PathLike[str] | PaimonTable,
                       options: Mapping[str, str | None] | None = None, partitions: PartitionsLike = None,
                       *, target_bytes: int = DEFAULT_GROUP_BYTES, max_attempts: int = 5,
                       paimon_version: str | None = None) -> RewriteReport:
    """Persist ``options`` (if any) to the table's schema, rebuild the file indexes of every live data file
    (of ``partitions``: ``"k=v[,k2=v2]"``, a dict, or a list of those) on Spark and commit one snapshot.
    Returns the :class:`~paimon_codec.maintenance.index_rewrite_job.RewriteReport`."""
    return _rewrite_job(table, options, partitions, runner=spark_runner(spark, target_bytes),
                        max_attempts=max_attempts, paimon_version=paimon_version)
