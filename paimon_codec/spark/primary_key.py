"""Upserts into and full compaction of primary-key tables on Spark.

``write(df, table)`` on a primary-key table lands here (:func:`upsert`): the DataFrame is repartitioned by
the table's partition columns (one task when unpartitioned), so every partition - and so every bucket and
every dynamic-bucket hash index - is written by one task, as one Paimon assigner / writer would; each task
runs :func:`paimon_codec.writing.write_primary_key_files` and the driver commits all tasks' level-0
files and HASH index files in one APPEND snapshot, checked against concurrent writers to the same buckets.
Rows of one key within one DataFrame are written in the order the task receives them (Spark's order
after the shuffle, as for any Spark sink).

:func:`compact` plans the buckets to rewrite on the driver, compacts each in its own task
(:func:`paimon_codec.writing.compact.compact_bucket`) and commits one COMPACT snapshot.
"""

from __future__ import annotations

import pickle
import time
import uuid
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pyarrow as pa
    from pyspark.sql import DataFrame

__all__ = ["upsert", "compact"]


def _upsert_task(table_path: str, storage_state: Any, commit_user: str) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow as pa

        from .. import storage
        from ..writing.primary_key import write_primary_key_files

        if storage_state is not None:
            storage.restore_storage_state(storage_state)
        received = [b for b in batches if b.num_rows]
        if not received:
            return
        written = write_primary_key_files(table_path, pa.Table.from_batches(received), commit_user=commit_user)
        yield pa.RecordBatch.from_pydict({"written": [pickle.dumps(written)]})
    return run


def upsert(df: DataFrame, table_path: str, *, commit_user: str | None = None):
    """Upsert ``df`` (every row ``+I``) into the primary-key table at ``table_path``; returns what the tasks
    wrote (:class:`~paimon_codec.writing.primary_key.PrimaryKeyWrite`) and the commit's result (``None``:
    nothing to commit).  :func:`paimon_codec.spark.write` turns them into its report."""
    from .. import storage
    from ..table import PaimonTable
    from ..writing.commit import commit_changes
    from ..writing.primary_key import PrimaryKeyWrite, check_primary_key_table

    check_primary_key_table(PaimonTable(table_path))
    commit_user = commit_user or str(uuid.uuid4())  # postpone-bucket files carry it in their names
    keys = list(PaimonTable(table_path).schema.partition_keys)
    shuffled = df.repartition(*keys) if keys else df.coalesce(1)
    rows = shuffled.mapInArrow(_upsert_task(table_path, storage.storage_state(), commit_user), "written binary").collect()
    written = PrimaryKeyWrite.merge([pickle.loads(r["written"]) for r in rows])
    commit = None
    if written.files:
        commit = commit_changes(table_path, written.changes(), commit_user=commit_user,
                                precondition=written.precondition())
    return written, commit


def compact(spark: Any, table: Any, *, commit_user: str | None = None) -> dict:
    """Fully compact the primary-key table ``table`` (path or ``PaimonTable``), one bucket per task, one
    COMPACT snapshot; returns ``{"snapshot_id", "buckets", "files_deleted", "files_added", "seconds"}``."""
    from .. import storage
    from ..table import PaimonTable
    from ..writing.commit import commit_changes
    from ..writing.compact import compact_bucket, plan_compaction

    started = time.monotonic()
    path = table.path if isinstance(table, PaimonTable) else str(table)
    jobs = plan_compaction(path)
    state = storage.storage_state()

    def run(job):
        if state is not None:
            storage.restore_storage_state(state)
        files, indexes = compact_bucket(job)
        return pickle.dumps([*files, *indexes])

    changes = []
    if jobs:
        results = spark.sparkContext.parallelize(jobs, len(jobs)).map(run).collect()
        changes = [c for r in results for c in pickle.loads(r)]
    commit = commit_changes(path, changes, commit_user=commit_user, kind="COMPACT")
    from ..writing.commit import FileChange

    files = [c for c in changes if isinstance(c, FileChange)]
    return {"snapshot_id": commit.snapshot_id, "buckets": len(jobs),
            "files_deleted": sum(1 for c in files if c.kind == 1), "files_added": sum(1 for c in files if c.kind == 0),
            "seconds": time.monotonic() - started}
