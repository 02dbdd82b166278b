"""``DELETE FROM table WHERE ...`` on append tables with deletion vectors: positions marked, no data rewritten.

1. Plan the predicate with :func:`~paimon_codec.planning.plan.plan_scan` (partition values, manifest value
   stats and file indexes skip files; each remaining file's selection already leaves its deleted rows out).
2. Per remaining file, the positions whose rows match: a file whose index answer is exact
   (:attr:`FileTask.exact`) is not opened at all; the others read only the predicate's columns at the
   selected positions and apply the predicate exactly (:mod:`paimon_codec.reading.arrow_filter`, under
   ``semantics``: ``"paimon"`` = Paimon's ``Predicate.test``, ``"spark"`` = Spark SQL's filter).
3. OR them into each file's deletion vector and write the index files as Paimon's maintainers group them
   (:mod:`.dv_maintainer`), then commit one snapshot with ``commitKind`` ``OVERWRITE`` and only these index
   changes - what Paimon 1.4's ``FileStoreCommitImpl`` makes of a commit carrying DV index files
   (``ConflictDetection.shouldBeOverwriteCommit``); no data file is added or removed (Paimon keeps a fully
   deleted file until compaction).

Conflicts (another writer replaced one of the index files, or removed a data file this delete marks, or gave
it a vector first) are re-planned from the new snapshot up to ``conflict_retries`` times; the index files of a
lost attempt are deleted.  Primary-key tables go to :mod:`.pk_delete` (``-D`` records); tables without
``deletion-vectors.enabled`` (a data rewrite) and data-evolution tables are refused by name.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pyarrow as pa

from ..dv.deletion_vector import DeletionVector
from ..errors import InvalidOptionError
from ..evolution.file_evolution import arrow_schema
from ..expressions.semantics import SemanticsLike, SemanticsName
from ..planning.plan import ScanPlan, plan_scan
from ..planning.tasks import FileTask
from ..reading.arrow_filter import filter_table
from ..reading.read import read_file_rows
from ..table.manifest import FILE_KIND_ADD
from ..table.table import PaimonTable
from ..types import RowType
from .commit import FileChange, commit_changes
from .commit.replan import replan_on_conflict
from .delete_report import DeleteReport
from .discard import discard_data_files as _discard_files
from .dv_maintainer import bitmap64_of, dv_index_changes

__all__ = ["delete", "DeleteReport", "matching_positions", "check_deletable"]

_POS = "__paimon_codec_position"

#: rows added in the same commit as the deletes (UPDATE): ``(table, plan, [(task, positions)]) -> ADD changes``
Replacement = Callable[[PaimonTable, ScanPlan, list[tuple[FileTask, np.ndarray]]], list[FileChange]]

#: finds the matching positions of many tasks: ``(tasks, predicate, row_type, semantics) -> [positions]``
PositionFinder = Callable[[Sequence[FileTask], Any, RowType, SemanticsName], list[np.ndarray]]


def check_deletable(table: PaimonTable) -> None:
    """Refuse, in one line naming the reason, a table this DELETE cannot change as Paimon would."""
    schema = table.schema
    if schema.is_primary_key_table:
        raise InvalidOptionError("DELETE on a primary-key table (Paimon writes -D records through the "
                                      "upsert writer) is not supported yet", path=table.path)
    if not schema.option_bool("deletion-vectors.enabled"):
        raise InvalidOptionError("DELETE on an append table without 'deletion-vectors.enabled' = 'true' "
                                      "rewrites data files, which is not supported: set that option "
                                      "(ALTER TABLE ... SET) to delete by deletion vectors", path=table.path)
    for key in ("data-evolution.enabled", "row-tracking.enabled"):
        if schema.option_bool(key):
            raise InvalidOptionError(f"DELETE on a table with '{key}' is not supported", path=table.path)


def _columns(predicate: Any, row_type: RowType) -> list[str]:
    if predicate is None:
        return []
    wanted = {leaf.column for leaf in predicate.leaves() if leaf.column is not None}
    return [n for n in row_type.names if n in wanted]


def matching_positions(task: FileTask, predicate: Any, row_type: RowType, semantics: SemanticsName) -> np.ndarray:
    """Sorted positions of ``task``'s file whose rows match ``predicate`` and are not yet deleted."""
    selected = (np.arange(task.row_count, dtype=np.int64) if task.selection is None
                else np.asarray(task.selection.to_array(), dtype=np.int64))
    columns = _columns(predicate, row_type)
    if predicate is None or task.exact or not len(selected):
        return selected
    schema = arrow_schema(RowType(tuple(row_type.field(n) for n in columns)))
    rows = read_file_rows(task.path, task.file_format, schema, task.selection, evolution=task.evolution,
                          file_size=task.file_size)
    rows = rows.append_column(_POS, pa.array(selected))
    kept = filter_table(rows, predicate, row_type, semantics)
    return np.asarray(kept.column(_POS).to_numpy(), dtype=np.int64)


def _find_locally(tasks: Sequence[FileTask], predicate: Any, row_type: RowType,
                  semantics: SemanticsName) -> list[np.ndarray]:
    return [matching_positions(t, predicate, row_type, semantics) for t in tasks]


def delete(table: PaimonTable | str | os.PathLike, where: Any, *, semantics: SemanticsLike = "paimon",
           commit_user: str | None = None, conflict_retries: int = 3,
           find_positions: PositionFinder | None = None, replacement: Replacement | None = None) -> DeleteReport:
    """Delete the rows of ``table`` matching ``where`` (SQL-like text, a predicate or its JSON; ``None``:
    every row) by deletion vectors, in one commit; returns what it did (:class:`DeleteReport`).
    A primary-key table gets ``-D`` records instead (:func:`paimon_codec.writing.pk_delete.delete_primary_key`:
    the merged view read in this process, one APPEND commit).

    ``find_positions`` runs step 2 (default: in this process; :func:`paimon_codec.spark.delete` runs it in
    Spark tasks).  ``replacement`` writes rows to add in the same commit (how
    :func:`paimon_codec.writing.dv_update.update` writes the updated rows)."""
    started = time.perf_counter()
    path = table.path if isinstance(table, PaimonTable) else os.fspath(table)
    if replacement is None and PaimonTable(path).schema.is_primary_key_table:
        from .pk_delete import delete_primary_key  # -D records through the upsert writer

        return delete_primary_key(path, where, semantics=semantics, commit_user=commit_user,
                                  conflict_retries=conflict_retries)
    finder = find_positions or _find_locally

    def attempt(n: int) -> DeleteReport:
        t = PaimonTable(path)
        check_deletable(t)
        plan = plan_scan(t, where, semantics=semantics)
        return _delete_once(t, plan, finder, commit_user, n, started, replacement)
    return replan_on_conflict(attempt, retries=conflict_retries, what="DELETE", path=path)


def _delete_once(table: PaimonTable, plan: ScanPlan, finder: PositionFinder, commit_user: str | None,
                 attempt: int, started: float, replacement: Replacement | None = None) -> DeleteReport:
    snapshot = table.snapshot(plan.snapshot_id) if plan.snapshot_id is not None else None
    if plan.groups:
        raise InvalidOptionError("DELETE on a table read by merging files is not supported", path=table.path)
    by_path = {f.path: f for f in (table.live_files(snapshot) if snapshot is not None else [])}
    tasks = list(plan.tasks)
    positions = finder(tasks, plan.predicate, plan.row_type, plan.report.semantics)
    bitmap64 = bitmap64_of(table)
    new: dict[tuple[bytes, int], dict[str, DeletionVector]] = {}
    rows_deleted = 0
    for task, pos in zip(tasks, positions, strict=True):
        if not len(pos):
            continue
        rows_deleted += len(pos)  # selections leave deleted rows out: every position is new
        entry = by_path[task.path].entry
        new.setdefault((entry.partition, entry.bucket), {})[entry.file.file_name] = \
            DeletionVector.from_array(pos, bitmap64=bitmap64)
    report = plan.report
    opened = sum(1 for t in tasks if not t.exact and plan.predicate is not None
                 and t.selected_rows)
    base = DeleteReport(
        table=table.path, snapshot_id=None, read_snapshot_id=plan.snapshot_id, commit_kind=None,
        rows_deleted=rows_deleted, files_total=report.files_total,
        files_skipped_by_partition=report.files_skipped_by_partition,
        files_pruned_by_stats=report.files_pruned_by_stats, files_skipped_by_index=report.files_skipped_by_index,
        files_exact_by_index=sum(1 for t in tasks if t.exact), files_opened=opened,
        files_touched=sum(len(v) for v in new.values()), index_files_added=0, index_files_deleted=0,
        attempts=attempt, seconds=0.0)
    if not new:
        return replace(base, seconds=time.perf_counter() - started)
    update = dv_index_changes(table, snapshot, new)
    rows: list[FileChange] = []
    try:
        if replacement is not None:
            rows = replacement(table, plan, [(t, p) for t, p in zip(tasks, positions, strict=True) if len(p)])
        result = commit_changes(table.path, [*rows, *update.changes], kind="OVERWRITE", overwrite_partitions=(),
                                commit_user=commit_user)
    except BaseException:
        update.discard()
        _discard_files(table, rows)
        raise
    added = sum(1 for c in update.changes if c.kind == FILE_KIND_ADD)
    return replace(base, snapshot_id=result.snapshot_id, commit_kind=result.commit_kind, index_files_added=added,
                   index_files_deleted=len(update.changes) - added, seconds=time.perf_counter() - started,
                   rows_added=sum(c.file.row_count for c in rows))
