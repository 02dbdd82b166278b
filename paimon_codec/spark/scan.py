"""Index-aware scans of Paimon tables on Spark.

``scan(spark, table_path, where=...)`` plans on the driver (metadata, file indexes, deletion
vectors: :func:`paimon_codec.table.plan.plan_scan`), then Spark reads only the surviving files,
one task per file: each task gets the file path and its serialized row selection and reads just
those rows (and just the Parquet row groups holding them) with pyarrow in ``mapInArrow``.  The
predicate is applied again in Spark because index answers are supersets.  Tasks carry only paths
and bytes, so the same code runs on a cluster whose executors see the table's file system.
"""

from __future__ import annotations

import os
from typing import Any

import pyarrow as pa

from ..table import PaimonTable
from ..table.plan import PlanReport, ScanPlan, plan_scan
from ..table.read import arrow_schema
from .filters import to_spark_column
from .types import spark_schema

__all__ = ["scan", "plan_dataframe", "read_plan_tasks"]

_TASK_COLUMNS = "path string, file_format string, selection binary, primary_key_file boolean"


def _with_timezone(schema: pa.Schema, tz: str) -> pa.Schema:
    fields = []
    for f in schema:
        t = f.type
        if pa.types.is_timestamp(t) and t.tz is not None:
            t = pa.timestamp(t.unit, tz=tz)
        fields.append(pa.field(f.name, t, f.nullable))
    return pa.schema(fields)


def read_plan_tasks(schema_bytes: bytes):
    """The ``mapInArrow`` function reading task rows -> data rows (runs on executors)."""

    def read(batches):
        import pyarrow as pa

        from paimon_codec.table.read import read_file_rows

        schema = pa.ipc.read_schema(pa.py_buffer(schema_bytes))
        for batch in batches:
            for task in batch.to_pylist():
                table = read_file_rows(task["path"], task["file_format"], schema, task["selection"],
                                       bool(task["primary_key_file"]))
                yield from table.to_batches(max_chunksize=65536)

    return read


def plan_dataframe(spark, plan: ScanPlan):
    """A DataFrame of the plan's selected rows (no residual filter), one Spark partition per file."""
    sschema = spark_schema(plan.row_type)
    if not plan.tasks:
        return spark.createDataFrame([], sschema)
    tz = spark.conf.get("spark.sql.session.timeZone", "UTC") or "UTC"
    aschema = _with_timezone(arrow_schema(plan.row_type), tz)
    rows = [(t.path, t.file_format, t.selection_bytes(), t.primary_key_file) for t in plan.tasks]
    try:
        rdd = spark.sparkContext.parallelize(rows, len(rows))
        tasks = spark.createDataFrame(rdd, _TASK_COLUMNS)
    except Exception:  # Spark Connect has no SparkContext: fall back to a round-robin repartition
        tasks = spark.createDataFrame(rows, _TASK_COLUMNS).repartition(len(rows))
    return tasks.mapInArrow(read_plan_tasks(aschema.serialize().to_pybytes()), sschema)


def scan(spark, table_path: str | os.PathLike | PaimonTable, where: Any = None, snapshot_id: int | None = None,
         *, use_indexes: bool = True) -> tuple[Any, PlanReport]:
    """Rows of ``table_path`` (latest snapshot, or ``snapshot_id``) satisfying ``where``.

    ``where``: SQL-like text (``"cat = 'A' AND code IN (1, 2)"``), a predicate object
    (``paimon_codec.fileindex.predicate.col("cat") == "A"``), a JSON predicate (dict or text), or
    ``None`` for every row.  Returns ``(DataFrame, PlanReport)``.
    """
    table = table_path if isinstance(table_path, PaimonTable) else PaimonTable(table_path)
    plan = plan_scan(table, where, snapshot_id, use_indexes=use_indexes)
    df = plan_dataframe(spark, plan)
    if plan.predicate is not None:
        df = df.filter(to_spark_column(plan.predicate, plan.row_type))
    return df, plan.report
