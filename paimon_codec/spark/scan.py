"""Index-aware scans of Paimon tables on Spark.

``scan(spark, table_path, where=...)`` plans on the driver (metadata, file indexes, deletion
vectors: :func:`paimon_codec.planning.plan.plan_scan`), then Spark reads only the surviving files:

* files read whole (the index kept every row and no deletion vector applies) go to Spark's own
  Parquet/ORC reader in one ``spark.read`` (vectorised, in the JVM, row groups pruned by the
  residual filter's statistics; see :mod:`.native` for when a file qualifies);
* files with a row selection are read by pyarrow, just those rows (and just the Parquet row groups
  holding them): on the driver into a local Arrow relation when few rows are selected in total
  (top-N candidates, selective index answers), otherwise one task per file in ``mapInArrow``, each
  task getting the file path and its serialized selection.

Group tasks (``plan.groups``: a primary-key bucket whose sorted runs are merged by key) are dealt to a few
``mapInArrow`` tasks, one wave of the session's parallelism (:mod:`.group_read`).

The parts are unioned and the predicate is applied again in Spark because index answers are
supersets - except to the rows read on the driver: files whose index answer is exact (``FileTask.exact``:
every leaf answered by a bitmap / range bitmap on exact keys) need neither the filter nor the columns
only the predicate reads, and the others are filtered by pyarrow right after their read
(:func:`paimon_codec.reading.arrow_filter.filter_table`, which selects the rows Spark's filter selects).  ``order_by`` + ``limit`` push top-N down to range-bitmap indexes (see
:func:`paimon_codec.planning.plan.plan_scan`); Spark then sorts and limits the candidate rows.  Tasks
carry only paths and bytes, so the same code runs on a cluster whose executors see the table's
file system.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from ..expressions.predicate import WhereLike
from ..expressions.semantics import SemanticsLike
from ..modes import DistributedPlanningLike
from ..planning.plan import OrderByLike, ScanPlan, SortKey, plan_scan
from ..planning.tasks import FileTask, PlanReport
from ..reading.read import arrow_schema
from ..storage import storage_state
from ..table import PaimonTable
from ..types import RowType
from .deletions import selection_dataframe
from .distributed_plan import DEFAULT_THRESHOLD, SparkFileJudge
from .filters import negative_sign, to_spark_column
from .group_read import group_dataframe
from .handoff import arrow_dataframe
from .native import native_dataframe
from .routes import DRIVER_READ_ROWS, route_plan
from .session import is_spark_connect
from .types import spark_schema, to_spark_micros

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["scan", "plan_dataframe", "read_plan_tasks"]

_TASK_COLUMNS = ("path string, file_format string, selection binary, primary_key_file boolean, evolution binary, "
                 "file_size long")


def _with_timezone(schema: pa.Schema, tz: str) -> pa.Schema:
    fields = []
    for f in schema:
        t = f.type
        if pa.types.is_timestamp(t) and t.tz is not None:
            t = pa.timestamp(t.unit, tz=tz)
        fields.append(f.with_type(t))  # keeps the field's metadata (a CHAR column's type)
    return pa.schema(fields)


def _task_row(t: FileTask) -> tuple:
    evolution = getattr(t, "evolution", None)
    return (t.path, t.file_format, t.selection_bytes(), t.primary_key_file,
            None if evolution is None else pickle.dumps(evolution), t.file_size)


def read_plan_tasks(schema_bytes: bytes, storage: dict | None = None):
    """The ``mapInArrow`` function reading task rows -> data rows (runs on executors).

    ``storage`` is the driver's :func:`paimon_codec.storage.storage_state` (plain options, never a
    filesystem object): the executor rebuilds its filesystems from each task's URI and these options.
    The files of a task are read several at once when they are on an object store
    (:func:`paimon_codec.reading.read.read_threads`; bounded memory in flight): one after the other, each
    file's footer and column-chunk GETs would leave the task waiting on the network (measured with
    ``benchmarks/scale.py --store s3``, 200 files, 1M of 10M rows: 23 -> 10 s).  Local files are read one
    after the other, as Spark already runs one task per core.
    """

    def read(batches):
        import pickle

        import pyarrow as pa

        from paimon_codec.reading.read import map_bounded, read_file_rows, read_threads
        from paimon_codec.spark.types import to_spark_micros
        from paimon_codec.storage import is_local, restore_storage_state

        restore_storage_state(storage)
        schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))

        def one(task: dict) -> pa.Table:
            evolution = pickle.loads(task["evolution"]) if task["evolution"] is not None else None
            return to_spark_micros(read_file_rows(task["path"], task["file_format"], schema, task["selection"],
                                                  bool(task["primary_key_file"]), evolution, task["file_size"]))

        tasks = [task for batch in batches for task in batch.to_pylist()]  # paths and selections: small
        paths = [t["path"] for t in tasks]
        # local files: one after the other (Spark already runs a task per core; decoding is the cost)
        threads = read_threads(paths) if any(not is_local(p) for p in paths) else 1
        for table in map_bounded(one, tasks, threads):
            yield from table.to_batches(max_chunksize=65536)

    return read


def _arrow_dataframe(spark, plan: ScanPlan, tasks: list[FileTask], row_type: RowType | None = None):
    """The selected rows of ``tasks`` read by pyarrow in ``mapInArrow``: files spread over at most twice the
    default parallelism of Spark partitions (each Python task reads several files: one Python worker round
    trip per file would dominate on tables of many small files); ``row_type``: the columns to read (default
    the plan's)."""
    row_type = plan.row_type if row_type is None else row_type
    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    aschema = _with_timezone(arrow_schema(row_type), tz)
    # biggest first, dealt round-robin: partitions of similar size
    rows = [_task_row(t) for t in sorted(tasks, key=lambda t: -t.file_size * t.selected_rows / max(t.row_count, 1))]
    if is_spark_connect(spark):  # no SparkContext: a round-robin repartition instead
        task_df = spark.createDataFrame(rows, _TASK_COLUMNS).repartition(min(len(rows), 8))
    else:
        slices = min(len(rows), 2 * max(1, int(spark.sparkContext.defaultParallelism)))
        dealt = [rows[i::slices] for i in range(slices)]
        rdd = spark.sparkContext.parallelize([r for part in dealt for r in part], slices)
        task_df = spark.createDataFrame(rdd, _TASK_COLUMNS)
    return task_df.mapInArrow(read_plan_tasks(aschema.serialize().to_pybytes(), storage_state()),
                              spark_schema(row_type))


def _driver_dataframe(spark, plan: ScanPlan, tasks: list[FileTask], out: RowType | None = None):
    """Few selected rows (top-N candidates, selective index answers): read them right here with
    pyarrow (files in parallel threads: pyarrow decodes without the GIL) and hand Spark the Arrow batches
    (:func:`.handoff.arrow_dataframe`) - no Spark job to read them, no Python worker round trip at all.

    With ``out`` (a scan's returned and sort columns) the rows come filtered, of ``out``'s columns: a file
    whose selection is exact (``FileTask.exact``) is read for those columns alone; any other is read with
    the predicate's columns and filtered right after its read by
    :func:`~paimon_codec.reading.arrow_filter.filter_table` - the exact filter of reads without Spark, which
    selects the rows Spark's filter selects (``tests/test_arrow_filter.py``) - so Spark gets only the
    matching rows (a bloom-filter answer: 1 row of a 50,000-row file, not the file and a filter in Spark).
    """
    from ..reading.arrow_filter import filter_table
    from ..reading.read import map_bounded, read_file_rows, read_threads

    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    schema = _with_timezone(arrow_schema(plan.row_type), tz)
    narrow = schema if out is None else _with_timezone(arrow_schema(out), tz)
    predicate = None if out is None else plan.predicate

    def read(t: FileTask) -> pa.Table:
        exact = predicate is None or t.exact
        table = read_file_rows(t.path, t.file_format, narrow if exact else schema, t.selection,
                               t.primary_key_file, t.evolution, t.file_size)
        if exact:
            return table
        return filter_table(table, predicate, plan.row_type, plan.report.semantics).select(narrow.names)

    parts = list(map_bounded(read, tasks, min(len(tasks), read_threads([t.path for t in tasks]))))
    table = pa.concat_tables(parts) if parts else narrow.empty_table()
    return arrow_dataframe(spark, to_spark_micros(table), spark_schema(plan.row_type if out is None else out))


def plan_dataframe(spark, plan: ScanPlan, *, native: bool = True, driver_rows: int = DRIVER_READ_ROWS):
    """A DataFrame of the plan's selected rows (no residual filter), of the columns of ``plan.row_type``.

    Each file goes the way :func:`.routes.route_plan` chooses (pyarrow on the driver for small selections,
    Spark's own reader for whole files and - filtering ``_metadata.row_index`` - for Parquet files with
    deleted rows, pyarrow in ``mapInArrow`` tasks otherwise); ``native=False`` keeps every file off
    Spark's reader; ``plan.report.read_paths`` counts the files of each path.
    """
    return _union(_plan_parts(spark, plan, native, driver_rows, None)) if plan.tasks or plan.groups \
        else _no_rows(spark, plan)


def _no_rows(spark, plan: ScanPlan):
    plan.report.read_paths = {}
    return spark.createDataFrame([], spark_schema(plan.row_type))


def _union(parts: list) -> Any:
    df = parts[0]
    for part in parts[1:]:
        df = df.unionByName(part)
    return df


def _plan_parts(spark, plan: ScanPlan, native: bool, driver_rows: int, out: RowType | None) -> list:
    """The DataFrames of the plan's read paths; with ``out`` (the columns a scan returns and sorts by),
    each filtered by the plan's predicate where its rows need it and cut to ``out``'s columns.

    Files whose selection is exactly the matching rows (``FileTask.exact``) need neither the filter nor the
    columns only the predicate reads: they are read apart by pyarrow with their selections (on the driver, or
    in ``mapInArrow`` tasks for large answers - never widened to Spark's whole-file read, which would need the
    filter), ``out``'s columns only.  The scale table's ``cat = 's001'``: the ``cat`` strings of 200 files
    decoded for nothing; ``cat = 's50'`` (5M of 10M rows): Spark's reader decoded ``id`` and ``cat`` of every
    row and filtered half away, where the tasks now decode ``id`` and take the selected rows (4.0 -> 2.9 s).
    The other files read on the driver come filtered by pyarrow right after their read
    (:func:`_driver_dataframe`); Spark filters the rest.
    """
    filtered = out is not None and plan.predicate is not None
    routes = route_plan(plan, native=native, driver_rows=driver_rows, exact_apart=filtered)
    plan.report.read_paths = routes.counts(len(plan.groups))
    parts: list[tuple[Any, bool]] = []  # (DataFrame, the predicate must still be applied)
    if routes.driver:
        parts.append((_driver_dataframe(spark, plan, routes.driver, out), False))
    parts.extend((native_dataframe(spark, plan.row_type, paths, fmt, pk), True)
                 for (fmt, pk), paths in routes.whole.items())
    residual = None if plan.predicate is None or not routes.jvm \
        else to_spark_column(plan.predicate, plan.row_type, plan.report.semantics)
    parts.extend((selection_dataframe(spark, plan.row_type, sel, pk, residual), True) for pk, sel in routes.jvm)
    if plan.groups:
        tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
        parts.append((group_dataframe(spark, plan, _with_timezone(arrow_schema(plan.row_type), tz)), True))
    exact = [t for t in routes.tasks if t.exact] if filtered else []
    rest = [t for t in routes.tasks if not t.exact] if filtered else routes.tasks
    if exact:
        parts.append((_arrow_dataframe(spark, plan, exact, out), False))
    if rest:
        parts.append((_arrow_dataframe(spark, plan, rest), True))
    if out is None:
        return [df for df, _ in parts]
    if plan.predicate is not None and any(needs for _, needs in parts):
        condition = to_spark_column(plan.predicate, plan.row_type, plan.report.semantics)  # built only when used
        parts = [(df.filter(condition) if needs else df, False) for df, needs in parts]
    if out.names == plan.row_type.names:
        # every part already holds exactly these columns, in this order: a select would cost ~15 py4j round trips
        # per column and part (each F.col asks for the active session), a tenth of a second on a busy driver
        return [df for df, _ in parts]
    names = [_quoted(f.name) for f in out]
    return [df.select(*names) for df, _ in parts]


def _sort_columns(keys: list[SortKey], row_type: RowType, semantics: str) -> list:
    """Spark's sort columns of ``keys``; under ``semantics="paimon"`` a FLOAT / DOUBLE key is followed by its
    sign (0 for a negative value, ``-0.0`` included, else 1; :func:`.filters.negative_sign`), so ``-0.0`` sorts
    before ``0.0`` as in ``Double.compare`` (Spark's own order has them equal)."""
    from pyspark.sql import functions as F

    def order(c: Any, k: SortKey) -> Any:
        if k.descending:
            return c.desc_nulls_first() if k.nulls_come_first else c.desc_nulls_last()
        return c.asc_nulls_first() if k.nulls_come_first else c.asc_nulls_last()

    out = []
    for k in keys:
        c = _quoted(k.column)
        out.append(order(c, k))
        if semantics == "paimon" and k.column in row_type.names \
                and row_type.field(k.column).type.root in ("FLOAT", "DOUBLE"):
            out.append(order(F.when(negative_sign(c), 0).otherwise(1), k))
    return out


def scan(spark: SparkSession, table_path: str | os.PathLike[str] | PaimonTable, where: WhereLike = None,
         snapshot_id: int | None = None,
         *, use_indexes: bool = True, order_by: OrderByLike = None, limit: int | None = None,
         nulls_first: bool | None = None, native: bool = True,
         driver_rows: int = DRIVER_READ_ROWS, branch: str | None = None, tag: str | None = None,
         timestamp_ms: int | None = None, distributed_planning: DistributedPlanningLike = DEFAULT_THRESHOLD,
         files_per_task: int | None = None, storage_options: dict[str, str] | None = None,
         columns: str | Sequence[str] | None = None, use_stats: bool = True,
         semantics: SemanticsLike = "spark", time_zone: str | None = None) -> tuple[DataFrame, PlanReport]:
    """Rows of ``table_path`` (latest snapshot, or ``snapshot_id``) satisfying ``where``.

    ``where``: SQL-like text (``"cat = 'A' AND code IN (1, 2)"``), a predicate object
    (``paimon_codec.expressions.predicate.col("cat") == "A"``), a JSON predicate (dict or text), or
    ``None`` for every row.  ``order_by``: ``"col"``, ``"col DESC"``, ``("col", "desc")`` or a list of
    those; ``nulls_first`` overrides Spark's default null ordering (first ascending, last
    descending); ``limit``: at most that many rows.  ``ORDER BY ... LIMIT n`` is answered from
    range-bitmap indexes when every file to read has one (``report.topn_pushed``).  ``native=False``
    reads no file with Spark's own reader; ``driver_rows`` (0 = never) is the most selected rows read
    on the driver (see :func:`plan_dataframe`).  ``branch``, ``tag`` and ``timestamp_ms`` (the latest
    snapshot at or before that time) choose what is read, as in :func:`plan_scan`.
    ``distributed_planning``: from how many files to judge (file index + deletion vector) the planning
    runs in Spark tasks, ``files_per_task`` files each (:mod:`.distributed_plan`; ``0`` or ``"never"``:
    on the driver, ``"always"``); ``report.planning`` says which.  ``storage_options`` (endpoint, keys,
    region, ... of an object store; see :mod:`paimon_codec.storage`) reach the driver and every task.
    ``columns``: the columns to return (``SELECT columns``; default every column): only they and the
    columns the predicate and sort need are read (a pyarrow read of a selection decodes whole column
    chunks, so this is what keeps small answers cheap; Spark's reader prunes columns by itself).
    ``use_stats=False``: no file is dropped by its manifest value stats (:mod:`paimon_codec.planning.stats_prune`).
    ``semantics``: whose FLOAT / DOUBLE comparison the rows and their order follow - ``"spark"`` (default: what
    ``spark.read...filter(...)`` keeps, ``-0.0 = 0.0``) or ``"paimon"`` (what Paimon's own read keeps,
    ``Double.compare``: ``-0.0 < 0.0``); ``report.semantics`` names it.
    ``time_zone``: the zone casts of evolved columns between TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE convert
    in (as Paimon's JVM does in its default zone); ``None`` (default) takes Spark's ``spark.sql.session.timeZone``.
    Returns ``(DataFrame, PlanReport)``.
    """
    table = table_path if isinstance(table_path, PaimonTable) else PaimonTable(table_path,
                                                                              storage_options=storage_options)
    from ..evolution.casts_zone import known_zone

    plan = plan_scan(table, where, snapshot_id, use_indexes=use_indexes, order_by=order_by, limit=limit,
                     nulls_first=nulls_first, branch=branch, tag=tag, timestamp_ms=timestamp_ms,
                     judge=SparkFileJudge(spark, distributed_planning, files_per_task), use_stats=use_stats,
                     semantics=semantics,
                     time_zone=time_zone if time_zone is not None else known_zone(spark.conf.get("spark.sql.session.timeZone")))
    keep = None
    if columns is not None:
        keep = [columns] if isinstance(columns, str) else list(columns)
        plan = _projected(plan, keep)
    # the columns returned and sorted by: the predicate's own columns go once it is applied
    needed = set(keep if keep is not None else plan.row_type.names) | {k.column for k in plan.order_by}
    out = RowType(tuple(f for f in plan.row_type.fields if f.name in needed))
    df = _union(_plan_parts(spark, plan, native, driver_rows, out)) if plan.tasks or plan.groups \
        else _no_rows(spark, plan)
    if plan.order_by:
        df = df.orderBy(*_sort_columns(plan.order_by, plan.row_type, plan.report.semantics))
    if plan.limit is not None:
        df = df.limit(plan.limit)
    if keep is not None:
        df = df.select(*[_quoted(c) for c in keep])
    return df, plan.report


def _quoted(name: str):
    from pyspark.sql import functions as F

    return F.col("`" + name.replace("`", "``") + "`")


def _projected(plan: ScanPlan, keep: list[str]) -> ScanPlan:
    """``plan`` reading only ``keep`` and the columns its predicate and sort need (group tasks - merges by
    key - read every column)."""
    for name in keep:
        plan.row_type.field(name)  # an unknown column fails here, named
    needed = set(keep) | {k.column for k in plan.order_by}
    if plan.predicate is not None:
        needed.update(plan.predicate.columns())
    if plan.groups:
        return plan
    return dataclasses.replace(plan, row_type=RowType(tuple(f for f in plan.row_type.fields if f.name in needed)))
