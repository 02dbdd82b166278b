"""``DELETE FROM table WHERE ...`` on Spark for append tables with deletion vectors.

>>> from paimon_codec.spark import get_spark, delete
>>> report = delete(get_spark(), "wh/db.db/orders", "status = 'CANCELLED'")
>>> report.rows_deleted, report.files_opened

The driver plans (file indexes and value stats skip files, exact index answers open none); each candidate
data file's matching positions are found in a Spark task (small files grouped, as the index rewrite does:
the predicate's columns read with pyarrow and filtered exactly); the driver merges them into the deletion
vectors, writes the index files and commits once (:func:`paimon_codec.writing.dv_delete.delete`).
``semantics`` defaults to Spark SQL's comparison of FLOAT / DOUBLE (``-0.0 = 0.0``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..expressions.semantics import SemanticsLike, SemanticsName
from ..planning.tasks import FileTask
from ..types import RowType
from ..writing.dv_delete import DeleteReport
from ..writing.dv_delete import delete as _delete

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["delete"]

_GROUP_BYTES = 64 << 20


def _groups(tasks: Sequence[FileTask], target: int) -> list[list[int]]:
    """Indexes of ``tasks`` grouped into Spark tasks of about ``target`` data bytes."""
    groups: list[list[int]] = []
    current: list[int] = []
    size = 0
    for i in sorted(range(len(tasks)), key=lambda k: -tasks[k].file_size):
        if current and size + tasks[i].file_size > target:
            groups.append(current)
            current, size = [], 0
        current.append(i)
        size += tasks[i].file_size
    if current:
        groups.append(current)
    return groups


def _run(storage_state: Any, predicate: Any, row_type: RowType, semantics: SemanticsName
         ) -> Callable[[list[tuple[int, FileTask]]], list[tuple[int, bytes]]]:
    def run(group: list[tuple[int, FileTask]]) -> list[tuple[int, bytes]]:
        from .. import storage
        from ..writing.dv_delete import matching_positions

        if storage_state is not None:
            storage.restore_storage_state(storage_state)
        return [(i, matching_positions(t, predicate, row_type, semantics).tobytes()) for i, t in group]
    return run


def _spark_finder(spark: SparkSession, target_bytes: int):
    def find(tasks: Sequence[FileTask], predicate: Any, row_type: RowType, semantics: SemanticsName) -> list[np.ndarray]:
        from .. import storage
        from ..writing.dv_delete import matching_positions

        out: list[np.ndarray] = [np.empty(0, np.int64)] * len(tasks)
        remote = [i for i, t in enumerate(tasks) if predicate is not None and not t.exact]
        for i in set(range(len(tasks))) - set(remote):  # nothing to read: answered by the plan alone
            out[i] = matching_positions(tasks[i], predicate, row_type, semantics)
        if remote:
            picked = [tasks[i] for i in remote]
            groups = [[(remote[k], picked[k]) for k in g] for g in _groups(picked, target_bytes)]
            rdd = spark.sparkContext.parallelize(groups, len(groups))
            for i, data in rdd.flatMap(_run(storage.storage_state(), predicate, row_type, semantics)).collect():
                out[i] = np.frombuffer(data, dtype=np.int64)
        return out
    return find


def delete(spark: SparkSession, table: Any, where: Any, *, semantics: SemanticsLike = "spark",
           commit_user: str | None = None, conflict_retries: int = 3,
           target_bytes: int = _GROUP_BYTES) -> DeleteReport:
    """Delete the rows of ``table`` matching ``where`` by deletion vectors, the files read on Spark;
    one commit.  Refusals and the report are those of :func:`paimon_codec.writing.delete`; a primary-key
    table's matching rows are read on the driver and written back as ``-D`` records
    (:mod:`paimon_codec.writing.pk_delete`)."""
    return _delete(table, where, semantics=semantics, commit_user=commit_user, conflict_retries=conflict_retries,
                   find_positions=_spark_finder(spark, target_bytes))
