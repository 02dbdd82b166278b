"""Scan planning: which data files and which rows of them a predicate needs.

For every live data file of a snapshot the planner

1. drops the file when its partition values cannot satisfy the predicate, or (append tables) when its
   manifest value stats (min / max / null counts) prove that no row of it does
   (:mod:`paimon_codec.planning.stats_prune`), before any index byte is read;
2. for primary-key tables with deletion vectors, reads only files above level 0 (Paimon's rule:
   level-0 files are not yet merged and are invisible to batch reads of such tables); every other
   primary-key table (and one with ``deletion-vectors.merge-on-read``) is read by merging each bucket's
   sorted runs: :mod:`paimon_codec.reading.merge` plans one :class:`GroupTask` per bucket (``plan.groups``),
   except buckets Paimon reads without a merge (:func:`~paimon_codec.planning.merge_plan.raw_convertible`:
   no level-0 file, no retraction row, first-row or a single level), whose files are plain tasks;
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

import copy
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import InvalidPredicateError
from ..evolution.casts_zone import check_time_zone
from ..evolution.file_evolution import evolution_for
from ..expressions.json_form import load_predicate_json, predicate_from_json
from ..expressions.predicate import Predicate, WhereLike
from ..expressions.semantics import SemanticsLike, check_semantics
from ..expressions.sql import parse_where
from ..table.table import LiveDataFile, PaimonTable
from ..types import RowType
from .data_evolution import is_data_evolution_table, plan_row_id_groups
from .fallback import fallback_with_own_schema, plan_with_fallback
from .judge import (
    FileJudge,
    FileProbe,
    FileVerdict,
    JudgeContext,
    judge_file,
    judge_on_driver,
    needs_judging,
)
from .orc_pruning import refuse_orc_pruning
from .read_options import check_read_options
from .stats_prune import StatsPruner, stats_prunable
from .tasks import FileTask, GroupTask, PlanReport, admit_file
from .topn.push import push_topn, topn_request

__all__ = ["FileJudge", "FileProbe", "FileTask", "FileVerdict", "GroupTask", "JudgeContext", "PlanReport",
           "ScanPlan", "SortKey", "admit_file", "plan_scan", "as_predicate", "judge_file", "judge_on_driver",
           "parse_order_by"]


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


#: one ``ORDER BY`` key: ``"col"``, ``"col DESC"``, ``("col", "desc")`` or a :class:`SortKey`
OrderByItem = str | tuple[str, str] | SortKey
#: what an ``order_by=`` argument may be: one key, a list of keys, or ``None``
OrderByLike = OrderByItem | Sequence[OrderByItem] | None


def parse_order_by(order_by: OrderByLike, row_type: RowType, nulls_first: bool | None = None) -> list[SortKey]:
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


def as_predicate(where: WhereLike, row_type: RowType) -> Predicate | None:
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


def _formats(tasks: list[FileTask], groups: list[GroupTask]) -> set[str]:
    """The formats of the data files a plan reads (its file tasks and its group tasks' files)."""
    return {t.file_format for t in tasks} | {t.file_format for g in groups for t in g.files}


def plan_scan(table: PaimonTable | str | os.PathLike[str], where: WhereLike = None, snapshot_id: int | None = None,
              *, use_indexes: bool = True, order_by: OrderByLike = None, limit: int | None = None,
              nulls_first: bool | None = None, branch: str | None = None, tag: str | None = None,
              timestamp_ms: int | None = None, judge: FileJudge | None = None,
              use_stats: bool = True, semantics: SemanticsLike = "paimon", time_zone: str | None = None) -> ScanPlan:
    """Plan a scan of ``table`` for predicate ``where``: its latest snapshot, or the one chosen by
    ``snapshot_id``, ``tag`` or ``timestamp_ms`` (time travel), of the table or of ``branch``.

    Options of the table that change what a read means and are not implemented are refused
    (:mod:`paimon_codec.planning.read_options`).

    With ``order_by`` and ``limit`` the plan pushes top-N down to range-bitmap indexes where it can
    (``report.topn_pushed``; ``report.topn_note`` says why not); the reader must still sort and limit.

    ``judge`` evaluates file indexes and deletion vectors of the admitted files (default
    :func:`judge_on_driver`; :class:`paimon_codec.spark.distributed_plan.SparkFileJudge` runs them in
    Spark tasks); ``report.planning`` / ``planning_tasks`` / ``planning_ms`` say how it went.

    Before any index is read, files of append tables whose manifest value stats prove that no row
    matches are dropped (:mod:`paimon_codec.planning.stats_prune`; ``report.files_pruned_by_stats``);
    ``use_stats=False`` turns that off.

    ``semantics`` says whose comparison of FLOAT / DOUBLE values every filter of the plan follows
    (:mod:`paimon_codec.expressions.semantics`; ``report.semantics`` names it): ``"paimon"`` (the default:
    Paimon's own read, ``Double.compare``, ``-0.0 < 0.0``) or ``"spark"`` (Spark SQL, ``-0.0 = 0.0``; the
    default of :func:`paimon_codec.spark.scan`).  Partition pruning, index evaluation (Java's answer under
    ``"paimon"``, float leaves widened under ``"spark"``) and the readers' residual filter and sort follow it;
    stats pruning never uses FLOAT / DOUBLE bounds, so it prunes alike under both.

    ``time_zone`` (an IANA zone name, e.g. ``"Asia/Shanghai"``; ``report.time_zone``) is the zone Paimon's JVM
    would run in: casts of evolved columns between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE convert in it
    (:mod:`paimon_codec.evolution.casts_zone`); without it such reads are refused.
    """
    semantics = check_semantics(semantics)
    time_zone = check_time_zone(time_zone)
    started = time.perf_counter()
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise InvalidPredicateError(f"limit must be a non-negative integer, got {limit!r}")
    if not isinstance(table, PaimonTable):
        table = PaimonTable(os.fspath(table), branch=branch)
    elif branch is not None and branch != (table.branch or "main"):
        table = PaimonTable(table.path, branch=branch)
    snapshot = table.resolve_snapshot(snapshot_id, tag, timestamp_ms)
    # Paimon reads the latest snapshot with the table's current schema (an ALTER TABLE takes effect
    # before the next commit) and travels back in time with the schema the snapshot was written with
    time_travel = snapshot_id is not None or tag is not None or timestamp_ms is not None
    if time_travel:  # the fallback branch's snapshot depends on how this one was chosen (table.fallback_snapshot)
        table = copy.copy(table)
        table.time_travel = ("snapshot_id", snapshot_id) if snapshot_id is not None else \
            ("tag", tag) if tag is not None else ("timestamp_ms", timestamp_ms)
    schema = table.schema_of(snapshot) if time_travel else table.current_schema(snapshot)
    if time_travel and schema is not None:
        # ... with the table's current options: Paimon copies the snapshot's schema with them
        # (AbstractFileStoreTable.tryTimeTravel), so an ALTER'd merge option applies to old snapshots too
        schema = replace(schema, options=dict(table.current_schema().options))
    check_read_options(schema, schema.options, table.meta_path)
    fallback = None if snapshot is None else fallback_with_own_schema(table, snapshot)
    if fallback is not None:  # a fallback branch with a schema / merge of its own: planned as its own table
        return plan_with_fallback(table, snapshot, fallback, plan_scan, where, use_indexes=use_indexes,
                                  order_by=order_by, limit=limit, nulls_first=nulls_first, judge=judge,
                                  use_stats=use_stats, semantics=semantics, time_zone=time_zone,
                                  snapshot_id=snapshot_id, tag=tag,
                                  timestamp_ms=timestamp_ms)
    row_type = schema.fields
    pred = as_predicate(where, row_type)
    keys = parse_order_by(order_by, row_type, nulls_first)
    report = PlanReport(table.name, snapshot.id if snapshot else None, None if pred is None else str(pred))
    report.semantics = semantics
    report.time_zone = time_zone
    report.order_by = ", ".join(str(k) for k in keys) or None
    report.limit = limit
    tasks: list[FileTask] = []
    if snapshot is None:
        return ScanPlan(table, None, row_type, pred, tasks, report, keys, limit)
    topn_items: list[tuple[FileTask, LiveDataFile, FileVerdict]] = []
    pk = schema.is_primary_key_table
    dv_table = schema.deletion_vectors_enabled
    if pk and (not dv_table or schema.option_bool("deletion-vectors.merge-on-read")):
        # rows of such tables are only correct after a merge by key: one group task per bucket
        from .merge_float_keys import refuse_float_primary_keys
        from .merge_plan import plan_merge_groups

        refuse_float_primary_keys(schema)
        tasks, merge_groups = plan_merge_groups(table, snapshot, schema, pred, report)
        report.rows_read = sum(t.selected_rows for t in tasks) + sum(g.selected_rows for g in merge_groups)
        if keys and limit is not None:
            report.topn_note = "primary-key merge reads are not pushed down"
        report.planning_ms = round((time.perf_counter() - started) * 1000, 3)
        refuse_orc_pruning(pred, row_type, _formats(tasks, merge_groups), report.semantics)
        return ScanPlan(table, report.snapshot_id, row_type, pred, tasks, report, keys, limit, merge_groups)
    live = table.batch_files(snapshot)
    groups: list[GroupTask] = []
    global_answer = None
    if is_data_evolution_table(schema):  # rows merged by row id from several files: data_evolution.py
        if use_indexes:  # candidate row ids from the global indexes (paimon_codec.globalindex.scan)
            from ..globalindex.scan import answer_predicate

            global_answer = answer_predicate(table, snapshot, schema, pred, live, semantics)
            if global_answer is not None:
                report.global_index = global_answer.report()
                report.index_bytes_read += global_answer.bytes_read
                if global_answer.candidates is None:  # consulted, no leaf answered (report: why)
                    global_answer = None
        live, groups = plan_row_id_groups(table, schema, live, pred, report, global_index=global_answer)
    global_rows: dict[str, Any] = {}
    admitted_files: list[tuple[LiveDataFile, dict]] = []
    pruner = StatsPruner(pred, schema, table.schema_by_id) \
        if use_stats and pred is not None and stats_prunable(schema) else None
    for f in live:
        admitted = admit_file(f, table, schema, pred, report,
                              "skipped: level 0 (not yet compacted)" if pk and dv_table else None, read_dv=False)
        if admitted is None:
            continue
        if pruner is not None and not pruner.may_match(f.meta):
            report.files_pruned_by_stats += 1
            admitted[0]["decision"] = "skipped: stats"
            continue
        if global_answer is not None and f.meta.first_row_id is not None:
            rows = global_answer.positions(f.meta.first_row_id, f.row_count)
            if rows is not None and not rows:
                report.files_skipped_by_index += 1
                admitted[0]["decision"] = "skipped: global index"
                continue
            if rows is not None:
                global_rows[f.path] = rows
        admitted_files.append((f, admitted[0]))
    probes = [FileProbe.of(f) for f, _ in admitted_files]
    ctx = JudgeContext(pred, row_type, schema, use_indexes,
                       {sid: table.schema_by_id(sid) for sid in {p.schema_id for p in probes}
                        if sid is not None and sid != schema.id}, topn_request(pred, keys, limit, row_type, pk),
                       semantics)
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
        selection = verdict.selection
        if f.path in global_rows:  # rows the global index cannot rule out
            selection = global_rows[f.path] if selection is None else selection & global_rows[f.path]
            detail["global_index_rows"] = len(global_rows[f.path])
        evolution = evolution_for(table, schema, f.meta.schema_id, report.time_zone)
        exact = verdict.exact or (global_answer is not None and evolution is None and f.meta.first_row_id is not None
                                  and global_answer.exact_for(f.meta.first_row_id, f.row_count))
        task = FileTask(f.path, f.file_format, f.row_count, f.meta.file_size, selection, pk,
                        f.meta.schema_id, evolution, bool(verdict.deleted_rows), exact)
        tasks.append(task)
        topn_items.append((task, f, verdict))
        report.files_read += 1
        report.files_exact += task.exact
        report.rows_selected += task.selected_rows
        report.bytes_read += f.meta.file_size
        detail["rows_selected"] = task.selected_rows
        detail["_task"] = task
    if keys and limit is not None:
        if not use_indexes:
            report.topn_note = "indexes disabled"
        elif topn_items:
            report.topn_note = push_topn(topn_items, pred, keys, limit, row_type, report, table, schema)
            report.topn_pushed = report.topn_note is None
            if report.topn_pushed:  # files without a candidate row need no read at all
                tasks = [t for t in tasks if t.selection is None or len(t.selection)]
                report.files_read = len(tasks)
                report.bytes_read = sum(t.file_size for t in tasks)
        else:
            report.topn_note = "no data file left to order"
    for detail in report.files:
        task = detail.pop("_task", None)
        if task is not None and report.topn_pushed:
            detail["rows_topn_candidates"] = task.selected_rows
            if task.selection is not None and not len(task.selection):  # dropped from the tasks above
                detail["decision"] = "skipped: no top-N candidate"
    report.rows_read = sum(t.selected_rows for t in tasks) + sum(g.selected_rows for g in groups)
    report.planning_ms = round((time.perf_counter() - started) * 1000, 3)
    refuse_orc_pruning(pred, row_type, _formats(tasks, groups), report.semantics)
    return ScanPlan(table, report.snapshot_id, row_type, pred, tasks, report, keys, limit, groups)

