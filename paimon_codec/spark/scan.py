"""Index-aware scans of Paimon tables on Spark.

``scan(spark, table_path, where=...)`` plans on the driver (metadata, file indexes, deletion
vectors: :func:`paimon_codec.table.plan.plan_scan`), then Spark reads only the surviving files:

* files read whole (the index kept every row and no deletion vector applies) go to Spark's own
  Parquet/ORC reader in one ``spark.read`` (vectorised, in the JVM, row groups pruned by the
  residual filter's statistics; see :mod:`.native` for when a file qualifies);
* files with a row selection are read by pyarrow, just those rows (and just the Parquet row groups
  holding them): on the driver into a local Arrow relation when few rows are selected in total
  (top-N candidates, selective index answers), otherwise one task per file in ``mapInArrow``, each
  task getting the file path and its serialized selection.

Group tasks (``plan.groups``: a primary-key bucket whose sorted runs are merged by key) run one per
Spark partition in ``mapInArrow``, each task pickled into a binary column (:func:`group_dataframe`).

The parts are unioned and the predicate is applied again in Spark because index answers are
supersets.  ``order_by`` + ``limit`` push top-N down to range-bitmap indexes (see
:func:`paimon_codec.table.plan.plan_scan`); Spark then sorts and limits the candidate rows.  Tasks
carry only paths and bytes, so the same code runs on a cluster whose executors see the table's
file system.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import pyarrow as pa

from ..storage import storage_state
from ..table import PaimonTable
from ..table.plan import ScanPlan, SortKey, plan_scan
from ..table.read import arrow_schema
from ..table.tasks import FileTask, PlanReport
from .distributed_plan import DEFAULT_THRESHOLD, SparkFileJudge
from .filters import to_spark_column
from .native import native_dataframe, native_readable, selected_bytes
from .session import is_spark_connect
from .types import spark_schema, to_spark_micros

__all__ = ["scan", "plan_dataframe", "read_plan_tasks", "group_dataframe", "read_group_tasks"]

_TASK_COLUMNS = "path string, file_format string, selection binary, primary_key_file boolean, evolution binary"


def _with_timezone(schema: pa.Schema, tz: str) -> pa.Schema:
    fields = []
    for f in schema:
        t = f.type
        if pa.types.is_timestamp(t) and t.tz is not None:
            t = pa.timestamp(t.unit, tz=tz)
        fields.append(pa.field(f.name, t, f.nullable))
    return pa.schema(fields)


def _task_row(t: FileTask) -> tuple:
    evolution = getattr(t, "evolution", None)
    return (t.path, t.file_format, t.selection_bytes(), t.primary_key_file,
            None if evolution is None else pickle.dumps(evolution))


def read_plan_tasks(schema_bytes: bytes, storage: dict | None = None):
    """The ``mapInArrow`` function reading task rows -> data rows (runs on executors).

    ``storage`` is the driver's :func:`paimon_codec.storage.storage_state` (plain options, never a
    filesystem object): the executor rebuilds its filesystems from each task's URI and these options.
    """

    def read(batches):
        import pickle

        import pyarrow as pa

        from paimon_codec.spark.types import to_spark_micros
        from paimon_codec.storage import restore_storage_state
        from paimon_codec.table.read import read_file_rows

        restore_storage_state(storage)
        schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))
        for batch in batches:
            for task in batch.to_pylist():
                evolution = pickle.loads(task["evolution"]) if task["evolution"] is not None else None
                table = read_file_rows(task["path"], task["file_format"], schema, task["selection"],
                                       bool(task["primary_key_file"]), evolution)
                yield from to_spark_micros(table).to_batches(max_chunksize=65536)

    return read


def _arrow_dataframe(spark, plan: ScanPlan, tasks: list[FileTask]):
    """The selected rows of ``tasks`` read by pyarrow in ``mapInArrow``: files spread over at most twice the
    default parallelism of Spark partitions (each Python task reads several files: one Python worker round
    trip per file would dominate on tables of many small files)."""
    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    aschema = _with_timezone(arrow_schema(plan.row_type), tz)
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
                              spark_schema(plan.row_type))


# -- group tasks (files read together: primary-key merges, ...) ---------------------------------------------
def read_group_tasks(schema_bytes: bytes, storage: dict | None = None):
    """The ``mapInArrow`` function running pickled :class:`GroupTask` rows -> data rows (runs on executors;
    ``storage`` as for :func:`read_plan_tasks`)."""

    def read(batches):
        import pickle

        import pyarrow as pa

        from paimon_codec.storage import restore_storage_state
        from paimon_codec.table.tasks import read_group_task

        restore_storage_state(storage)
        schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))
        for batch in batches:
            for blob in batch.column(0).to_pylist():
                table = read_group_task(pickle.loads(blob), schema)
                yield from table.to_batches(max_chunksize=65536)

    return read


def group_dataframe(spark, plan: ScanPlan):
    """The rows of ``plan.groups``: one Spark partition per group, the task pickled into a binary column."""
    import pickle

    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    aschema = _with_timezone(arrow_schema(plan.row_type), tz)
    rows = [(pickle.dumps(g, protocol=pickle.HIGHEST_PROTOCOL),) for g in plan.groups]
    if is_spark_connect(spark):  # no SparkContext: a round-robin repartition instead
        task_df = spark.createDataFrame(rows, "task binary").repartition(len(rows))
    else:
        task_df = spark.createDataFrame(spark.sparkContext.parallelize(rows, len(rows)), "task binary")
    return task_df.mapInArrow(read_group_tasks(aschema.serialize().to_pybytes(), storage_state()),
                              spark_schema(plan.row_type))


# selections holding at most this many rows in total, in row groups of at most this many bytes, are read
# on the driver (see plan_dataframe)
DRIVER_READ_ROWS = 65_536
DRIVER_READ_BYTES = 32 << 20


def _driver_dataframe(spark, plan: ScanPlan, tasks: list[FileTask]):
    """Few selected rows (top-N candidates, selective index answers): read them right here with
    pyarrow and hand Spark one local Arrow relation - no Python worker round trip at all."""
    from ..table.read import read_tasks_locally

    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    table = read_tasks_locally(tasks, _with_timezone(arrow_schema(plan.row_type), tz))
    return spark.createDataFrame(to_spark_micros(table), schema=spark_schema(plan.row_type))


# a row selection whose row groups hold at least this share of a file's bytes is read as the whole file
WHOLE_FILE_SHARE = 0.5


def _read_whole(t: FileTask, touched: dict[str, int]) -> bool:
    """Whether Spark's own reader may read all of ``t``: every row kept, or a selection that saves little I/O
    and is not needed for the right rows - it came from the file index or top-N pushdown (a superset the
    residual filter, sort and limit narrow anyway), not from a deletion vector."""
    if t.selection is None:
        return True
    if t.has_deletions:
        return False
    sizes = selected_bytes(t.path, t.file_format, t.selection)
    touched[t.path] = t.file_size if sizes is None else sizes[0]
    return sizes is not None and sizes[0] >= WHOLE_FILE_SHARE * sizes[1]


def plan_dataframe(spark, plan: ScanPlan, *, native: bool = True, driver_rows: int = DRIVER_READ_ROWS):
    """A DataFrame of the plan's selected rows (no residual filter).

    With ``native`` (default) files read whole go through Spark's own reader where it gives the same
    rows (:func:`.native.native_readable`); so do files whose row selection came from the file index or
    top-N alone (no deleted rows) and touches at least half of the file's Parquet bytes
    (:func:`_read_whole`: a selection spread over every row group saves no I/O).  Other files with a row
    selection (and files Spark's reader cannot take) are read by pyarrow: on the driver when their
    selected rows number at most ``driver_rows`` in total and the row groups holding them at most
    ``DRIVER_READ_BYTES`` (measured: a local Arrow relation beats starting Python workers for top-N
    candidates and selective bitmaps), otherwise in ``mapInArrow`` tasks of several files each.
    """
    sschema = spark_schema(plan.row_type)
    if not plan.tasks and not plan.groups:
        return spark.createDataFrame([], sschema)
    groups: dict[tuple[str, bool], list[str]] = {}
    arrow_tasks: list[FileTask] = []
    touched: dict[str, int] = {}  # bytes of the row groups a selection needs, per file
    for t in plan.tasks:
        if native and _read_whole(t, touched) and native_readable(t.path, t.file_format, plan.row_type,
                                                               t.primary_key_file, t.evolution):
            groups.setdefault((t.file_format, t.primary_key_file), []).append(t.path)
        else:
            arrow_tasks.append(t)
    parts = [native_dataframe(spark, plan.row_type, paths, fmt, pk) for (fmt, pk), paths in groups.items()]
    if plan.groups:
        parts.append(group_dataframe(spark, plan))
    if arrow_tasks:
        selected = sum(t.selected_rows for t in arrow_tasks)
        to_read = sum(touched.get(t.path, t.file_size) for t in arrow_tasks)
        if selected <= driver_rows and to_read <= DRIVER_READ_BYTES:
            parts.append(_driver_dataframe(spark, plan, arrow_tasks))
        else:
            parts.append(_arrow_dataframe(spark, plan, arrow_tasks))
    df = parts[0]
    for part in parts[1:]:
        df = df.unionByName(part)
    return df


def _sort_columns(keys: list[SortKey]) -> list:
    from pyspark.sql import functions as F

    out = []
    for k in keys:
        c = F.col("`" + k.column.replace("`", "``") + "`")
        if k.descending:
            out.append(c.desc_nulls_first() if k.nulls_come_first else c.desc_nulls_last())
        else:
            out.append(c.asc_nulls_first() if k.nulls_come_first else c.asc_nulls_last())
    return out


def scan(spark, table_path: str | os.PathLike | PaimonTable, where: Any = None, snapshot_id: int | None = None,
         *, use_indexes: bool = True, order_by: Any = None, limit: int | None = None,
         nulls_first: bool | None = None, native: bool = True,
         driver_rows: int = DRIVER_READ_ROWS, branch: str | None = None, tag: str | None = None,
         timestamp_ms: int | None = None, distributed_planning: int | str = DEFAULT_THRESHOLD,
         files_per_task: int | None = None, storage_options: dict[str, str] | None = None
         ) -> tuple[Any, PlanReport]:
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
    Returns ``(DataFrame, PlanReport)``.
    """
    table = table_path if isinstance(table_path, PaimonTable) else PaimonTable(table_path,
                                                                              storage_options=storage_options)
    plan = plan_scan(table, where, snapshot_id, use_indexes=use_indexes, order_by=order_by, limit=limit,
                     nulls_first=nulls_first, branch=branch, tag=tag, timestamp_ms=timestamp_ms,
                     judge=SparkFileJudge(spark, distributed_planning, files_per_task))
    df = plan_dataframe(spark, plan, native=native, driver_rows=driver_rows)
    if plan.predicate is not None:
        df = df.filter(to_spark_column(plan.predicate, plan.row_type))
    if plan.order_by:
        df = df.orderBy(*_sort_columns(plan.order_by))
    if plan.limit is not None:
        df = df.limit(plan.limit)
    return df, plan.report
