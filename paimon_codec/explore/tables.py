"""A table as the explorer draws it: its snapshots, the live data files of one snapshot with their index files
and deletion vectors, its table-level index files, and a query's plan (``paimon-codec plan --json``).

Everything comes from :class:`~paimon_codec.table.PaimonTable` and the planner, the code every read uses; file
paths are given relative to the explorer's root so the page can open each file in the byte view.
"""

from __future__ import annotations

import os
from typing import Any

from ..cli.plan import plan_json
from ..expressions import parse_where
from ..planning.plan import plan_scan
from ..table import PaimonTable

__all__ = ["describe_table", "plan_table", "deletion_vector_owners"]


def _rel(root: str, path: str | None) -> str | None:
    if path is None:
        return None
    rel = os.path.relpath(path, root)
    return None if rel.startswith("..") else rel.replace(os.sep, "/")


def describe_table(root: str, table_path: str, snapshot_id: int | None = None) -> dict[str, Any]:
    """Snapshots (newest first), and the data and index files of ``snapshot_id`` (default: the latest)."""
    table = PaimonTable(table_path)
    ids = table.snapshot_ids()
    snapshots = []
    for sid in reversed(ids):
        s = table.snapshot(sid)
        if s is not None:
            snapshots.append({"id": s.id, "kind": s.commit_kind, "time_millis": s.time_millis,
                              "schema_id": s.schema_id, "total_record_count": s.total_record_count})
    chosen = table.snapshot(snapshot_id) if ids else None
    files: list[dict[str, Any]] = []
    index_files: list[dict[str, Any]] = []
    if chosen is not None:
        for f in table.live_files(chosen):
            dv = f.deletion_file
            files.append({
                "path": _rel(root, f.path), "name": f.file_name, "partition": [str(v) for v in f.partition],
                "bucket": f.bucket, "level": f.level, "row_count": f.meta.row_count, "file_size": f.meta.file_size,
                "index": _rel(root, f.index_path),
                "embedded_index_bytes": None if f.meta.embedded_index is None else len(f.meta.embedded_index),
                "deletion_vector": None if dv is None else {
                    "index_file": _rel(root, dv.path), "offset": dv.offset, "length": dv.length,
                    "cardinality": dv.cardinality}})
        for ix in table.index_files(chosen):
            index_files.append({"path": _rel(root, ix.path), "type": ix.index_type, "bucket": ix.bucket,
                                "partition": [str(v) for v in ix.partition],
                                "row_count": ix.entry.index_file.row_count,
                                "file_size": ix.entry.index_file.file_size})
    schema = table.schema
    return {"table": table.name, "path": _rel(root, table.path), "snapshots": snapshots,
            "snapshot_id": None if chosen is None else chosen.id,
            "fields": [{"name": f.name, "type": str(f.type)} for f in schema.fields],
            "partition_keys": list(schema.partition_keys), "primary_keys": list(schema.primary_keys),
            "options": dict(schema.options), "files": files, "index_files": index_files}


def plan_table(root: str, table_path: str, where: str | None, snapshot_id: int | None = None) -> dict[str, Any]:
    """The plan of ``SELECT * WHERE where`` (Paimon's semantics), as ``paimon-codec plan --json`` prints it,
    with file paths relative to the root."""
    predicate = parse_where(where) if where else None
    out = plan_json(plan_scan(table_path, predicate, snapshot_id, semantics="paimon"))
    for task in out["tasks"]:
        task["path"] = _rel(root, task["path"]) or task["path"]
    for f in out["report"].get("files", []):
        f["path"] = _rel(root, f["path"]) or f["path"]
    return out


def deletion_vector_owners(table_path: str, index_file: str) -> dict[int, str]:
    """``{offset: data file}`` of the vectors a table's latest snapshot keeps in the DV index file ``index_file``."""
    table = PaimonTable(table_path)
    target = os.path.realpath(index_file)
    out: dict[int, str] = {}
    for ix in table.index_files():
        if os.path.realpath(ix.path) == target:
            for r in ix.entry.index_file.dv_ranges or ():
                out[r.offset] = r.data_file
    return out
