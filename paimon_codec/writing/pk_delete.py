"""``DELETE FROM table WHERE ...`` on primary-key tables: one ``-D`` record per matching key, one APPEND commit.

What Paimon 1.4's Spark ``DeleteFromPaimonTableCommand`` does when ``PrimaryKeyTableUtils.validatePKUpsertDeletable``
accepts the table: it reads the rows of the merged view that match the condition and writes each of them back,
whole, with row kind ``DELETE`` through the table's ordinary (upsert) writer, then commits.  Here:

1. plan and read the table's merged view with the predicate pushed down (:func:`~paimon_codec.planning.plan.
   plan_scan`, :func:`~paimon_codec.reading.read.read_plan_locally`, the predicate applied exactly) - every column,
   because Paimon's -D carries the row as read (a ``sequence.field`` value, the value stats of the file);
2. write those rows as ``-D`` level-0 records (:func:`~paimon_codec.writing.primary_key.write_primary_key_files`:
   the bucket of each key by the bucket hash or the dynamic-bucket hash index, sequence numbers continuing the
   bucket's highest);
3. commit them in one ``APPEND`` snapshot whose precondition is that no other writer added to those buckets
   since (else :class:`~paimon_codec.errors.CommitConflictError`: the written files are removed and the delete
   re-planned from the new snapshot, up to ``conflict_retries`` times).

Merge engines as ``validatePKUpsertDeletable`` accepts them: ``deduplicate``; ``partial-update`` with
``partial-update.remove-record-on-delete``; ``aggregation`` with ``aggregation.remove-record-on-delete``.  Where
Paimon would not write -D records (``first-row``, the other partial-update / aggregation tables: Paimon falls
back to rewriting files or deletion vectors there) or where the -D would not delete
(``partial-update.remove-record-on-sequence-group``, whose -D only retracts a sequence group, and the
``ignore-delete`` options, which drop the -D records) the delete is refused by name.

On a table with ``deletion-vectors.enabled`` the -D files are level-0 files: as in Paimon, batch reads do not see
them (the rows stay visible) until a compaction (:func:`~paimon_codec.writing.compact.compact_table`) merges them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa

from .. import storage
from ..errors import CommitConflictError, InvalidOptionError, UnsupportedFeatureError
from ..expressions.semantics import SemanticsLike
from ..planning.plan import ScanPlan, plan_scan
from ..reading.arrow_filter import filter_table
from ..reading.read import read_plan_locally
from ..table.manifest import FILE_KIND_ADD
from ..table.snapshot import Snapshot
from ..table.table import PaimonTable
from .commit import commit_changes
from .commit.replan import replan_on_conflict
from .delete_report import DeleteReport
from .discard import discard_data_files as _discard_files
from .discard import discard_files
from .primary_key import PrimaryKeyWrite, check_primary_key_table, refuse_postpone, write_primary_key_files

__all__ = ["delete_primary_key", "check_pk_deletable"]


_IGNORE_DELETE = ("ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete",
                  "partial-update.ignore-delete")


def check_pk_deletable(table: PaimonTable) -> None:
    """Refuse, in one line naming the option, a primary-key table whose DELETE Paimon does not write as -D
    records, or whose -D records would not delete the rows."""
    schema = table.schema
    check_primary_key_table(table, "DELETE on")
    refuse_postpone(table, "DELETE on")
    engine = schema.options.get("merge-engine", "deduplicate").strip().lower()
    if engine == "partial-update":
        if schema.options.get("partial-update.remove-record-on-sequence-group"):
            raise UnsupportedFeatureError("DELETE on a partial-update table with "
                                          "'partial-update.remove-record-on-sequence-group' (a -D retracts only its "
                                          "sequence group) is not supported", path=table.path)
        if not schema.option_bool("partial-update.remove-record-on-delete"):
            raise InvalidOptionError("DELETE on a partial-update table needs "
                                     "'partial-update.remove-record-on-delete' = 'true' (as in Paimon)",
                                     path=table.path)
    elif engine == "aggregation":
        if not schema.option_bool("aggregation.remove-record-on-delete"):
            raise InvalidOptionError("DELETE on an aggregation table needs 'aggregation.remove-record-on-delete' = "
                                     "'true' (as in Paimon)", path=table.path)
    elif engine != "deduplicate":
        raise UnsupportedFeatureError(f"DELETE on a primary-key table with merge-engine = {engine} (Paimon rewrites "
                                      "files or marks deletion vectors there, no -D records) is not supported",
                                      path=table.path)
    for key in _IGNORE_DELETE:
        if schema.option_bool(key):
            raise InvalidOptionError(f"DELETE on a table with '{key}' = 'true' (its writer drops -D records, so "
                                     "nothing would be deleted) is not supported", path=table.path)


def _files_read(plan: ScanPlan) -> int:
    return len(plan.tasks) + sum(len(g.files) for g in plan.groups)


def matching_rows(plan: ScanPlan) -> pa.Table:
    """The rows of the merged view ``plan`` selects for which its predicate holds (every column)."""
    return filter_table(read_plan_locally(plan), plan.predicate, plan.row_type, plan.report.semantics)


def delete_primary_key(table: PaimonTable | str | os.PathLike, where: Any, *, semantics: SemanticsLike = "paimon",
                       commit_user: str | None = None, conflict_retries: int = 3) -> DeleteReport:
    """Delete the rows of primary-key ``table`` matching ``where`` as ``-D`` records, one APPEND commit."""
    started = time.perf_counter()
    path = table.path if isinstance(table, PaimonTable) else os.fspath(table)
    def attempt(n: int) -> DeleteReport:
        t = PaimonTable(path)
        check_pk_deletable(t)
        plan = plan_scan(t, where, semantics=semantics)
        rows = matching_rows(plan)
        report = plan.report
        base = DeleteReport(
            table=t.path, snapshot_id=None, read_snapshot_id=plan.snapshot_id, commit_kind=None,
            rows_deleted=rows.num_rows, files_total=report.files_total,
            files_skipped_by_partition=report.files_skipped_by_partition,
            files_pruned_by_stats=report.files_pruned_by_stats,
            files_skipped_by_index=report.files_skipped_by_index, files_exact_by_index=0,
            files_opened=_files_read(plan), files_touched=0, index_files_added=0, index_files_deleted=0,
            attempts=n, seconds=0.0)
        if rows.num_rows == 0:
            base.seconds = time.perf_counter() - started
            return base
        written = write_primary_key_files(path, rows, row_kinds=np.full(rows.num_rows, 3, dtype=np.int8))
        try:
            result = commit_changes(path, written.changes(), commit_user=commit_user,
                                    precondition=_unchanged_since(plan.snapshot_id, written.precondition()))
        except BaseException:  # a conflict too: the next attempt writes its own files
            _discard_files(t, written.files)
            _discard_index_files(t, written)
            raise
        base.snapshot_id = result.snapshot_id
        base.commit_kind = result.commit_kind
        base.files_touched = len(written.files)
        base.index_files_added = sum(1 for c in written.indexes if c.kind == FILE_KIND_ADD)
        base.index_files_deleted = len(written.indexes) - base.index_files_added
        base.seconds = time.perf_counter() - started
        return base
    return replan_on_conflict(attempt, retries=conflict_retries, what="DELETE", path=path)


def _unchanged_since(snapshot_id: int | None, then: Callable[[PaimonTable, Snapshot | None], None]
                     ) -> Callable[[PaimonTable, Snapshot | None], None]:
    """A commit precondition: the table is still at the snapshot the rows were read from (another commit may
    have added or changed matching rows: the delete is re-planned), then ``then``."""

    def check(table: PaimonTable, latest: Snapshot | None) -> None:
        now = latest.id if latest is not None else None
        if now != snapshot_id:
            raise CommitConflictError(f"snapshot {now} was committed after the DELETE read snapshot {snapshot_id}",
                                      path=table.path)
        then(table, latest)
    return check


def _discard_index_files(table: PaimonTable, written: PrimaryKeyWrite) -> None:
    """Remove the HASH index files a write added for a commit that did not happen."""
    discard_files(storage.join(table.path, "index", change.index_file.file_name)
                  for change in written.indexes if change.kind == FILE_KIND_ADD)
