"""``remove_orphan_files`` on Spark, as Paimon's Spark procedure: one task per table of a warehouse.

Each task runs :func:`paimon_codec.maintenance.orphan_clean.remove_orphan_files` where the table's files are (the
driver's storage options travel with it); the result is one row per file deleted (or, in a dry run, that
would be) and the per-table reports, refusals included.  On Spark Connect (no RDDs) the tables are cleaned on
the driver.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..maintenance.orphan_clean import older_than_millis
from ..maintenance.orphan_clean import remove_orphan_files as _remove
from ..storage import storage_state
from ..table import list_tables
from ..table.table import register_storage_options
from .session import is_spark_connect

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["remove_orphan_files", "ORPHANS_SCHEMA"]

ORPHANS_SCHEMA = "table string, path string, kind string, size long, action string"


def _cleaner(state: dict, older_than_ms: int, dry_run: bool) -> Callable[[str], dict]:
    def clean(table_path: str) -> dict:
        from paimon_codec.storage import restore_storage_state

        restore_storage_state(state)
        return _remove(table_path, older_than_ms, dry_run).to_dict()

    return clean


def remove_orphan_files(spark: SparkSession, table_or_warehouse: str | os.PathLike,
                        older_than: str | int | _dt.datetime | None = None, dry_run: bool = True,
                        storage_options: dict[str, str] | None = None) -> tuple[DataFrame, list[dict]]:
    """Delete (``dry_run=False``) the files Paimon's orphan clean would delete in a table or every table of a
    warehouse; ``older_than`` as Paimon's procedure takes it (default: one day before now).  Returns
    ``(DataFrame of the files, reports per table)``."""
    register_storage_options(table_or_warehouse, storage_options)
    older_than_ms = older_than_millis(older_than)
    tables = list_tables(table_or_warehouse)
    clean = _cleaner(storage_state(), older_than_ms, dry_run)
    if not tables:
        reports: list[dict] = []
    elif is_spark_connect(spark):
        reports = [clean(t) for t in tables]
    else:
        reports = spark.sparkContext.parallelize(tables, len(tables)).map(clean).collect()
    action = "would delete" if dry_run else "deleted"
    rows = [(r["table"], f["path"], f["kind"], int(f["size"]), action) for r in reports for f in r["files"]]
    return spark.createDataFrame(rows, ORPHANS_SCHEMA), reports
