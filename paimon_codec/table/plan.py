"""Scan planning: which data files and which rows of them a predicate needs.

For every live data file of a snapshot the planner

1. drops the file when its partition values cannot satisfy the predicate;
2. for primary-key tables with deletion vectors, reads only files above level 0 (Paimon's rule:
   level-0 files are not yet merged and are invisible to batch reads of such tables); every other
   primary-key table (and one with ``deletion-vectors.merge-on-read``) is read by merging each bucket's
   sorted runs: :mod:`paimon_codec.table.merge` plans one :class:`GroupTask` per bucket (``plan.groups``);
3. evaluates the predicate on the file's index container (embedded in the manifest or the
   ``.index`` extra file) -> REMAIN / SKIP / a bitmap of candidate rows;
4. removes the rows of the file's deletion vector (``selection = index result AND NOT dv``).

The result is a list of :class:`FileTask` (path + row selection) and a :class:`PlanReport`.  Index
results are supersets, so a reader must still apply the predicate to the rows it reads.

Top-N (``order_by`` + ``limit``) is pushed down to range-bitmap indexes when every file to read
has one on the first sort column and the file's selection is exact (no predicate, or a predicate
every leaf of which the file's indexes answer exactly): each file's selection shrinks to its own
top-``limit`` candidate rows (:func:`paimon_codec.fileindex.topn.top_n_rows`, ties kept unless the
sort has a single key), whose union holds the global answer; the reader still sorts and limits.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from pyroaring import BitMap

from ..errors import InvalidPredicateError
from ..expressions.json_form import load_predicate_json, predicate_from_json
from ..expressions.leaves import (
    Between,
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNotNull,
    IsNull,
    LessThan,
    LessThanOrEqual,
    NotEqualTo,
    NotIn,
)
from ..expressions.predicate import Leaf
from ..expressions.sql import parse_where
from ..fileio import ByteSource
from ..types import RowType
from .data_evolution import is_data_evolution_table, plan_row_id_groups
from .evolution import evolution_for
from .judge import (
    FileJudge,
    FileProbe,
    FileVerdict,
    JudgeContext,
    _index_view,
    judge_file,
    judge_on_driver,
    needs_judging,
)
from .merge import declarations as _merge_declarations  # noqa: F401  (merge options the merge read honours)
from .read_options import check_read_options
from .schema import TableSchema
from .table import LiveDataFile, PaimonTable
from .tasks import FileTask, GroupTask, PlanReport, admit_file, read_group_task

__all__ = ["FileJudge", "FileProbe", "FileTask", "FileVerdict", "GroupTask", "JudgeContext", "PlanReport",
           "ScanPlan", "SortKey", "admit_file", "plan_scan", "as_predicate", "judge_file", "judge_on_driver",
           "parse_order_by", "read_group_task"]


@dataclass(frozen=True)
class SortKey:
    """One ``ORDER BY`` key; ``nulls_first`` defaults to Spark's rule (first ascending, last descending)."""

    column: str
    descending: bool = False
    nulls_first: bool | None = None

    @property
    def nulls_come_first(self) -> bool:
        return (not self.descending) if self.nulls_first is None else self.nulls_first

    def __str__(self) -> str:
        return (f"{self.column} {'DESC' if self.descending else 'ASC'} "
                f"NULLS {'FIRST' if self.nulls_come_first else 'LAST'}")


@dataclass
class ScanPlan:
    table: PaimonTable
    snapshot_id: int | None
    row_type: RowType
    predicate: Any
    tasks: list[FileTask]
    report: PlanReport
    order_by: list[SortKey] = field(default_factory=list)
    limit: int | None = None
    groups: list[GroupTask] = field(default_factory=list)


def parse_order_by(order_by: Any, row_type: RowType, nulls_first: bool | None = None) -> list[SortKey]:
    """Sort keys from ``"col"``, ``"col DESC"``, ``("col", "desc")``, a :class:`SortKey` or a list of them.

    ``nulls_first`` (when given) applies to every key without its own null ordering.
    """
    if order_by is None:
        return []
    items = [order_by] if isinstance(order_by, (str, SortKey)) or (
        isinstance(order_by, tuple) and len(order_by) == 2 and isinstance(order_by[1], str)
        and order_by[1].strip().lower() in ("asc", "desc")) else list(order_by)
    keys: list[SortKey] = []
    for item in items:
        if isinstance(item, SortKey):
            key = item
        elif isinstance(item, str):
            parts = item.split()
            if not parts or len(parts) > 2 or (len(parts) == 2 and parts[1].lower() not in ("asc", "desc")):
                raise InvalidPredicateError(f"bad ORDER BY item {item!r}", expected="'col' or 'col ASC|DESC'")
            key = SortKey(parts[0], len(parts) == 2 and parts[1].lower() == "desc")
        elif isinstance(item, (tuple, list)) and len(item) == 2 and str(item[1]).lower() in ("asc", "desc"):
            key = SortKey(str(item[0]), str(item[1]).lower() == "desc")
        else:
            raise InvalidPredicateError(f"bad ORDER BY item {item!r}", expected="'col' or ('col', 'asc'|'desc')")
        if key.column not in row_type.names:
            raise InvalidPredicateError(f"ORDER BY unknown column {key.column!r}",
                                        expected="one of " + ", ".join(row_type.names))
        if key.nulls_first is None and nulls_first is not None:
            key = SortKey(key.column, key.descending, bool(nulls_first))
        keys.append(key)
    return keys


def as_predicate(where: Any, row_type: RowType):
    """A bound predicate from SQL-like text, a predicate object, a JSON dict/list, or ``None``."""
    if where is None:
        return None
    if isinstance(where, str):
        text = where.strip()
        if not text:
            return None
        if text[0] in "{[":
            pred = predicate_from_json(load_predicate_json(text))
        else:
            pred = parse_where(text)
    elif isinstance(where, Mapping):
        pred = predicate_from_json(dict(where))
    else:
        pred = where
    if not hasattr(pred, "bind"):
        raise InvalidPredicateError(f"cannot use {type(where).__name__} as a predicate")
    return pred.bind(row_type)


# -- top-N pushdown -------------------------------------------------------------------------------------
#: leaves a range-bitmap / bitmap index answers with exactly the matching rows (others: a superset)
_RANGE_EXACT: tuple[type[Leaf], ...] = (EqualTo, NotEqualTo, LessThan, LessThanOrEqual, GreaterThan,
                                        GreaterThanOrEqual, Between, In, NotIn, IsNull, IsNotNull)
_BITMAP_EXACT: tuple[type[Leaf], ...] = (EqualTo, In, IsNull, IsNotNull)
_FLOATS = {"FLOAT", "DOUBLE"}


def _keys_exact(dtype) -> bool:
    """Index keys equal SQL values: no float (-0.0 vs 0.0) and no timestamp finer than micros."""
    if dtype.root in _FLOATS:
        return False
    return not (dtype.is_timestamp and (dtype.precision or 6) > 6)


def _answered_exactly(pred: Any, index_types_of, row_type: RowType) -> bool:
    """True when the file's indexes answer ``pred`` with exactly the matching rows (not a superset)."""
    children = getattr(pred, "children", None)
    if children is not None:  # an empty AND / OR stands for a leaf no index may answer (index_schema)
        return bool(children) and all(_answered_exactly(c, index_types_of, row_type) for c in children)
    column = getattr(pred, "column", None)
    if column is None or column not in row_type.names or any(v is None for v in pred.literals):
        return False
    if not _keys_exact(row_type.field(column).type):
        return False
    types = index_types_of(column)
    return ("range-bitmap" in types and isinstance(pred, _RANGE_EXACT)) or \
        ("bitmap" in types and isinstance(pred, _BITMAP_EXACT))


def _index_source(f: LiveDataFile) -> ByteSource | None:
    if f.embedded_index:
        return ByteSource(f.embedded_index, path=f"{f.path} (embedded index)")
    if f.index_path:
        try:  # opening is the existence check (one request less on an object store)
            return ByteSource(f.index_path)
        except FileNotFoundError:
            return None
    return None


def _push_topn(items: list[tuple[FileTask, LiveDataFile, bool]], pred: Any, keys: list[SortKey], limit: int,
               row_type: RowType, report: PlanReport, table: PaimonTable | None = None,
               schema: TableSchema | None = None) -> str | None:
    """Shrink every task's selection to its top-``limit`` candidates; a reason string when not pushed.

    ``items``: ``(task, file, whether the file's index answer was a bitmap)``.
    """
    from ..fileindex import registry
    from ..fileindex.container import FileIndexContainerReader
    from ..fileindex.topn import TopNReader, top_n_rows

    first = keys[0]
    dtype = row_type.field(first.column).type
    if dtype.root in _FLOATS and len(keys) > 1:
        return "FLOAT/DOUBLE indexes order -0.0 before 0.0, which a secondary sort key may tell apart"
    new: list[BitMap | None] = []
    index_bytes = 0
    for task, f, result in items:
        if task.primary_key_file:
            return "primary-key files may hold retraction rows"
        source = _index_source(f)
        if source is None:
            return f"{os.path.basename(f.path)} has no file index"
        file_type, view = _index_view(table, schema, f.meta.schema_id, row_type)
        column = first.column if view is None else view.file_column(first.column)
        if column is None:
            return (f"{os.path.basename(f.path)} was written under an older schema in which {first.column} "
                    "did not exist or had another type")
        file_pred = pred if view is None or pred is None else view.translate(pred)
        with source:
            container = FileIndexContainerReader(source, path=source.path)
            if "range-bitmap" not in container.index_types(column):
                return f"{os.path.basename(f.path)} has no range-bitmap index on {first.column}"
            if pred is not None and not (result
                                         and _answered_exactly(file_pred, container.index_types, file_type)):
                return f"the indexes of {os.path.basename(f.path)} do not answer the predicate exactly"
            payload = container.slice(column, "range-bitmap")
            if payload is None:  # empty index (no rows / no values): every selected row stays a candidate
                new.append(task.selection)
                continue
            # a range-bitmap reader answers top-N (the registry types its readers by the common base)
            reader = cast(TopNReader, registry.create_reader("range-bitmap", payload, dtype))
            rows = top_n_rows(reader, limit, first.descending, first.nulls_come_first, len(keys) == 1,
                              task.selection)
            index_bytes += source.bytes_read
        new.append(BitMap(rows))
    report.index_bytes_read += index_bytes
    for (task, _, _), selection in zip(items, new, strict=True):
        if selection is not None and len(selection) == task.row_count:
            selection = None
        task.selection = selection
    return None


def plan_scan(table: PaimonTable | str, where: Any = None, snapshot_id: int | None = None,
              *, use_indexes: bool = True, order_by: Any = None, limit: int | None = None,
              nulls_first: bool | None = None, branch: str | None = None, tag: str | None = None,
              timestamp_ms: int | None = None, judge: FileJudge | None = None) -> ScanPlan:
    """Plan a scan of ``table`` for predicate ``where``: its latest snapshot, or the one chosen by
    ``snapshot_id``, ``tag`` or ``timestamp_ms`` (time travel), of the table or of ``branch``.

    Options of the table that change what a read means and are not implemented are refused
    (:mod:`paimon_codec.table.read_options`).

    With ``order_by`` and ``limit`` the plan pushes top-N down to range-bitmap indexes where it can
    (``report.topn_pushed``; ``report.topn_note`` says why not); the reader must still sort and limit.

    ``judge`` evaluates file indexes and deletion vectors of the admitted files (default
    :func:`judge_on_driver`; :class:`paimon_codec.spark.distributed_plan.SparkFileJudge` runs them in
    Spark tasks); ``report.planning`` / ``planning_tasks`` / ``planning_ms`` say how it went.
    """
    started = time.perf_counter()
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidPredicateError(f"limit must be a non-negative integer, got {limit!r}")
    if not isinstance(table, PaimonTable):
        table = PaimonTable(table, branch=branch)
    elif branch is not None and branch != (table.branch or "main"):
        table = PaimonTable(table.path, branch=branch)
    snapshot = table.resolve_snapshot(snapshot_id, tag, timestamp_ms)
    # Paimon reads the latest snapshot with the table's current schema (an ALTER TABLE takes effect
    # before the next commit) and travels back in time with the schema the snapshot was written with
    time_travel = snapshot_id is not None or tag is not None or timestamp_ms is not None
    schema = table.schema_of(snapshot) if time_travel else table.schema
    check_read_options(schema, schema.options, table.meta_path)
    row_type = schema.fields
    pred = as_predicate(where, row_type)
    keys = parse_order_by(order_by, row_type, nulls_first)
    report = PlanReport(table.name, snapshot.id if snapshot else None, None if pred is None else str(pred))
    report.order_by = ", ".join(str(k) for k in keys) or None
    report.limit = limit
    tasks: list[FileTask] = []
    if snapshot is None:
        return ScanPlan(table, None, row_type, pred, tasks, report, keys, limit)
    topn_items: list[tuple[FileTask, LiveDataFile, bool]] = []
    pk = schema.is_primary_key_table
    dv_table = schema.deletion_vectors_enabled
    if pk and (not dv_table or schema.option_bool("deletion-vectors.merge-on-read")):
        # rows of such tables are only correct after a merge by key: one group task per bucket
        from .merge.plan import plan_merge_groups

        merge_groups = plan_merge_groups(table, snapshot, schema, pred, report)
        report.rows_read = sum(g.selected_rows for g in merge_groups)
        if keys and limit is not None:
            report.topn_note = "primary-key merge reads are not pushed down"
        report.planning_ms = round((time.perf_counter() - started) * 1000, 3)
        return ScanPlan(table, report.snapshot_id, row_type, pred, tasks, report, keys, limit, merge_groups)
    live = table.batch_files(snapshot)
    groups: list[GroupTask] = []
    if is_data_evolution_table(schema):  # rows merged by row id from several files: data_evolution.py
        live, groups = plan_row_id_groups(table, schema, live, pred, report)
    admitted_files: list[tuple[LiveDataFile, dict]] = []
    for f in live:
        admitted = admit_file(f, table, schema, pred, report,
                              "skipped: level 0 (not yet compacted)" if pk and dv_table else None, read_dv=False)
        if admitted is not None:
            admitted_files.append((f, admitted[0]))
    probes = [FileProbe.of(f) for f, _ in admitted_files]
    ctx = JudgeContext(pred, row_type, schema, use_indexes,
                       {sid: table.schema_by_id(sid) for sid in {p.schema_id for p in probes}
                        if sid is not None and sid != schema.id})
    to_judge = [i for i, p in enumerate(probes) if needs_judging(ctx, p)]
    verdicts: list[FileVerdict | None] = [None] * len(probes)
    if to_judge:
        judged, report.planning, report.planning_tasks = (judge or judge_on_driver)(
            ctx, [probes[i] for i in to_judge])
        for i, verdict in zip(to_judge, judged, strict=True):
            verdicts[i] = verdict
    report.files_judged = len(to_judge)
    for (f, detail), judged_verdict in zip(admitted_files, verdicts, strict=True):
        verdict = judged_verdict or FileVerdict()
        report.index_bytes_read += verdict.index_bytes_read
        report.index_notes.extend(verdict.index_notes)
        if verdict.deleted_rows is not None:
            detail["deleted_rows"] = verdict.deleted_rows
            report.rows_deleted += verdict.deleted_rows
        detail["index_result"] = verdict.index_result
        detail["decision"] = verdict.decision
        if verdict.decision == "skipped: index":
            report.files_skipped_by_index += 1
            continue
        if verdict.decision != "read":
            report.files_skipped_by_deletion_vectors += 1
            continue
        task = FileTask(f.path, f.file_format, f.row_count, f.meta.file_size, verdict.selection, pk,
                        f.meta.schema_id, evolution_for(table, schema, f.meta.schema_id), bool(verdict.deleted_rows))
        tasks.append(task)
        topn_items.append((task, f, verdict.bitmap_answer))
        report.files_read += 1
        report.rows_selected += task.selected_rows
        report.bytes_read += f.meta.file_size
        detail["rows_selected"] = task.selected_rows
        detail["_task"] = task
    if keys and limit is not None:
        if not use_indexes:
            report.topn_note = "indexes disabled"
        elif topn_items:
            report.topn_note = _push_topn(topn_items, pred, keys, limit, row_type, report, table, schema)
            report.topn_pushed = report.topn_note is None
            if report.topn_pushed:  # files without a candidate row need no read at all
                tasks = [t for t in tasks if t.selection is None or len(t.selection)]
    for detail in report.files:
        task = detail.pop("_task", None)
        if task is not None and report.topn_pushed:
            detail["rows_topn_candidates"] = task.selected_rows
    report.rows_read = sum(t.selected_rows for t in tasks) + sum(g.selected_rows for g in groups)
    report.planning_ms = round((time.perf_counter() - started) * 1000, 3)
    return ScanPlan(table, report.snapshot_id, row_type, pred, tasks, report, keys, limit, groups)

