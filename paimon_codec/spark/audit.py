"""Warehouse audit on Spark: decode and verify every index file of every table, in parallel.

The driver reads table metadata (:func:`paimon_codec.maintenance.inventory.table_inventory`): which index
files every retained snapshot references, which of those are missing, and which files Paimon's own
orphan clean would delete (orphans of every kind, :mod:`paimon_codec.maintenance.orphans`; not looked for in a
table whose metadata could not be read completely: that is a finding about the unreadable file instead).  Every existing index file then becomes one Spark task
that decodes it completely (DV CRCs, entry counts and sizes against the index manifest, hash files,
file-index containers incl. embedded ones).  Tasks carry plain paths and bytes only, so the audit
runs unchanged on a cluster whose executors see the warehouse.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..maintenance.inventory import check_index_task, table_inventory
from ..storage import storage_state
from ..table import list_tables
from ..table.table import register_storage_options
from .session import is_spark_connect

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["audit", "audit_results", "AUDIT_SCHEMA"]

AUDIT_SCHEMA = ("table string, path string, kind string, index_type string, status string, entries long, "
                "finding string, message string")


def _checker(state: dict) -> Callable[[dict], dict]:
    """``check_index_task`` for executors: the driver's storage options (:func:`storage_state`) travel in
    the closure, the task rebuilds its filesystem from the file's URI."""

    def check(row: dict) -> dict:
        from paimon_codec.storage import restore_storage_state

        restore_storage_state(state)
        return check_index_task(row)

    return check


def _run_tasks(spark: SparkSession, rows: list[dict]) -> list[dict]:
    if not rows:
        return []
    if is_spark_connect(spark):  # no RDDs: decode on the driver instead
        return [check_index_task(r) for r in rows]
    return spark.sparkContext.parallelize(rows, len(rows)).map(_checker(storage_state())).collect()


def audit_results(spark: SparkSession, warehouse: str | os.PathLike,
                  storage_options: dict[str, str] | None = None) -> tuple[list[dict], dict]:
    """Per-file results and the summary ``{"tables": {...}, "findings": [...]}`` (``storage_options``: those
    of the warehouse's object store, see :mod:`paimon_codec.storage`)."""
    register_storage_options(warehouse, storage_options)
    tables: dict[str, dict[str, Any]] = {}
    findings: list[dict] = []
    task_rows: list[dict] = []
    for path in list_tables(warehouse):
        from ..errors import PaimonCodecError

        try:
            tasks, driver_findings = table_inventory(path)
        except (PaimonCodecError, OSError) as exc:
            name = os.path.basename(path)
            tables[name] = {"path": path, "index_files": 0, "ok": 0, "findings": 1}
            findings.append({"table": name, "path": str(getattr(exc, "path", None) or getattr(exc, "filename", None)
                                                        or path), "kind": "metadata",
                             "finding": "corrupt", "message": str(exc)})
            continue
        name = tasks[0].table if tasks else (driver_findings[0].table if driver_findings else
                                             os.path.basename(path))
        tables[name] = {"path": path, "index_files": len(tasks), "ok": 0, "findings": len(driver_findings)}
        findings.extend(f.to_dict() for f in driver_findings)
        task_rows.extend(t.to_row() for t in tasks)
    results = _run_tasks(spark, task_rows)
    for r in results:
        t = tables.setdefault(r["table"], {"path": None, "index_files": 0, "ok": 0, "findings": 0})
        if r["status"] == "ok":
            t["ok"] += 1
        t["findings"] += len(r["findings"])
        findings.extend(r["findings"])
    for f in findings:
        if f["finding"] in ("missing", "orphan", "shared-external-file", "temp-file") or f["kind"] == "metadata":
            results.append({"table": f["table"], "path": f["path"], "kind": f["kind"], "index_type": None,
                            "status": "error", "entries": 0, "findings": [f], "message": f["message"]})
    summary = {"warehouse": os.fspath(warehouse), "tables": tables, "findings": findings,
               "index_files": sum(t["index_files"] for t in tables.values()), "clean": not findings}
    return results, summary


def audit(spark: SparkSession, warehouse: str | os.PathLike,
          storage_options: dict[str, str] | None = None) -> tuple[DataFrame, dict]:
    """Audit every table of ``warehouse``; returns ``(DataFrame of per-file results, summary)``.

    The DataFrame has one row per index file and finding (``finding`` is null for a clean file);
    the summary is ``{"tables": {name: {index_files, ok, findings}}, "findings": [...], "clean"}``.
    """
    results, summary = audit_results(spark, warehouse, storage_options)
    rows = []
    for r in results:
        if r["findings"]:
            for f in r["findings"]:
                rows.append((r["table"], r["path"], r["kind"], r.get("index_type"), r["status"],
                             int(r.get("entries") or 0), f["finding"], f["message"]))
        else:
            rows.append((r["table"], r["path"], r["kind"], r.get("index_type"), r["status"],
                         int(r.get("entries") or 0), None, None))
    return spark.createDataFrame(rows, AUDIT_SCHEMA), summary
