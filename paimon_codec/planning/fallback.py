"""``scan.fallback-branch`` whose branch has a schema of its own: its partitions read as Paimon reads them.

Paimon's ``FallbackReadFileStoreTable`` reads the partitions the main branch holds from the main branch
and every other partition from the fallback branch, each through its own table: the fallback's files
are planned and merged with the fallback's own schema, keys, bucket and merge options.  Before it
plans, Paimon checks that the two row types are "the same ignoring nullability": the same number of
columns and, position by position, the same type apart from NOT NULL; names (and field ids) may differ.
A fallback row is handed out position by position as a row of the main table.

Here (:func:`plan_with_fallback`): the main branch is planned without its fallback, the fallback branch
as a table of its own restricted to the partitions the main branch does not hold (its own merge groups,
data-evolution groups, deletion vectors ...), with no predicate pushed into it (the read filters the
merged rows, so only pruning is lost); each fallback task is wrapped in a group task whose reader reads
it under the fallback's column names and renames the columns to the main table's, by position.

A fallback whose row type differs otherwise is refused in one line (Paimon refuses it too); so is one
whose partition keys sit elsewhere (Paimon hands the main table's partition rows to the fallback's scan).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from ..errors import UnsupportedTypeError
from ..table.fallback_snapshot import fallback_snapshot
from ..table.manifest import POSTPONE_BUCKET
from ..table.table import PaimonTable
from ..types import DataType, RowType
from .tasks import FileTask, GroupTask

__all__ = ["plan_with_fallback", "same_row_type_ignoring_nullability", "READER"]

log = logging.getLogger(__name__)

# the reader of the wrapped tasks (named, not imported: planning sits below reading)
READER = "paimon_codec.reading.fallback_read:read_fallback_task"


def _nullable(t: DataType) -> DataType:
    return replace(t, nullable=True, children=tuple(_nullable(c) for c in t.children))


def same_row_type_ignoring_nullability(a: RowType, b: RowType) -> bool:
    """Paimon's check of a fallback branch: as many columns, the same types position by position
    (apart from NOT NULL, nested ones included); names are not compared."""
    return len(a) == len(b) and all(_nullable(x.type) == _nullable(y.type) for x, y in zip(a, b, strict=True))


def _partition_positions(row_type: RowType, keys: tuple | list) -> list[int]:
    names = [f.name for f in row_type]
    return [names.index(k) for k in keys]


def fallback_with_own_schema(table: PaimonTable, snapshot: Any) -> str | None:
    """The ``scan.fallback-branch`` of a read of the latest ``snapshot`` when its partitions cannot be read as
    files of ``table`` (another schema, keys or merge): :func:`plan_with_fallback` plans it as a table of its
    own."""
    fallback = table.schema.options.get("scan.fallback-branch")
    if table.skip_fallback or not fallback or fallback == (table.branch or "main"):
        return None
    present = {f.partition for f in table.live_files(snapshot) if f.bucket != POSTPONE_BUCKET}
    try:
        table._fallback_files(fallback, present, snapshot, table.time_travel)
    except UnsupportedTypeError:
        return fallback
    return None


def plan_with_fallback(table: PaimonTable, snapshot: Any, branch: str, plan_scan, where: Any, **options: Any):
    """The main branch's plan for ``where``, with the fallback branch's partitions added as group tasks.

    ``plan_scan`` is :func:`paimon_codec.planning.plan.plan_scan` (passed in: that module calls this one);
    ``options`` are its keyword options.  A time travel (``table.time_travel``) reads the fallback branch's
    snapshot Paimon picks for it (:mod:`paimon_codec.table.fallback_snapshot`), also as a time travel.
    """
    travel = table.time_travel
    main = PaimonTable(table.path, branch=table.branch)
    main.skip_fallback = True
    other = PaimonTable(table.path, branch=branch)
    other.skip_fallback = True
    other_snapshot = fallback_snapshot(other.meta_path, branch, snapshot, travel, table.meta_path)
    if other_snapshot is None:
        return plan_scan(main, where, **options)
    if travel is None:
        mine, theirs = main.current_schema(snapshot), other.current_schema(other_snapshot)
    else:  # a time travel reads each snapshot with the schema it was written with
        mine, theirs = main.schema_of(snapshot), other.schema_of(other_snapshot)
    if not same_row_type_ignoring_nullability(mine.fields, theirs.fields):
        raise UnsupportedTypeError(
            f"scan.fallback-branch {branch!r} has the row type {theirs.fields}, the table {mine.fields}",
            path=other.meta_path, expected="the same column types position by position (Paimon refuses this too)")
    if (_partition_positions(mine.fields, mine.partition_keys)
            != _partition_positions(theirs.fields, theirs.partition_keys)):
        raise UnsupportedTypeError(f"scan.fallback-branch {branch!r} is partitioned by {list(theirs.partition_keys)}, "
                                   f"the table by {list(mine.partition_keys)}", path=other.meta_path,
                                   expected="partition keys at the same positions")
    plan = plan_scan(main, where, **options)
    present = frozenset(f.partition for f in main.batch_files(snapshot))
    other.exclude_partitions = present
    fallback_options = {k: v for k, v in options.items()
                        if k not in ("order_by", "limit", "nulls_first", "snapshot_id", "tag", "timestamp_ms")}
    fallback = plan_scan(other, None, snapshot_id=None if travel is None else other_snapshot.id, **fallback_options)
    rename = {m.name: o.name for m, o in zip(mine.fields, theirs.fields, strict=True)}
    types = {o.name: o.type for o in theirs.fields}
    wrapped = [GroupTask(READER, [t] if isinstance(t, FileTask) else list(t.files),
                         {"inner": t, "rename": rename, "nullable": {n: t_.nullable for n, t_ in types.items()}},
                         label=f"fallback branch {branch}: " + (t.label if isinstance(t, GroupTask) else t.path))
               for t in [*fallback.tasks, *fallback.groups]]
    report, extra = plan.report, fallback.report
    for name in ("files_total", "files_read", "rows_total", "rows_selected", "rows_read", "bytes_total",
                 "bytes_read", "rows_deleted", "index_bytes_read"):
        setattr(report, name, getattr(report, name) + getattr(extra, name))
    for detail in extra.files:
        report.files.append(dict(detail, branch=branch))
    report.index_notes.append(f"{len(wrapped)} task(s) of partitions only branch {branch!r} holds, read with its "
                              "own schema and merge (scan.fallback-branch)")
    log.debug("fallback branch %s: %d task(s), main partitions %d", branch, len(wrapped), len(present))
    plan.groups = [*plan.groups, *wrapped]
    return plan
