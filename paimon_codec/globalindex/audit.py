"""The table audit's decode of global-index files (hooked into :mod:`paimon_codec.maintenance.inventory`).

:func:`task_fields` gives an ``IndexTask`` what the executor needs for a ``_GLOBAL_INDEX`` file (its
column type, row-id range and ``_INDEX_META``); :func:`check_global_index` decodes the file whole
(:mod:`.describe`: every CRC32, every entry and key) and compares it with its manifest entry: file size,
row count (keys' row ids + null rows), row ids inside the range, first / last key and ``has_nulls`` of
the ``_INDEX_META``.  Java 1.4.2's bitmap global index (a bitmap file-index payload) is decoded with
the ``bitmap`` codec.
"""

from __future__ import annotations

from typing import Any

from .. import formats as F
from .. import storage
from ..fileio import ByteSource
from ..types import parse_type
from .bitmap import BitmapGlobalIndexReader
from .btree import BTreeGlobalIndexReader
from .describe import describe_global_index
from .keys import global_key_codec
from .meta import read_sorted_meta
from .table_files import layout_of

__all__ = ["KIND_GLOBAL_INDEX", "task_fields", "check_global_index"]

KIND_GLOBAL_INDEX = "global-index"


def task_fields(schema: Any, meta: Any) -> dict[str, Any]:
    """``IndexTask.global_index`` of an index file meta with a ``_GLOBAL_INDEX`` record."""
    g = meta.global_index
    by_id = {f.id: f for f in schema.fields}
    fld = by_id.get(g.index_field_id)
    return {"row_start": g.row_range_start, "row_end": g.row_range_end, "field_id": g.index_field_id,
            "column": None if fld is None else fld.name, "type": None if fld is None else str(fld.type),
            "index_meta": None if g.index_meta is None else bytes(g.index_meta).hex(),
            "extra_field_ids": None if g.extra_field_ids is None else list(g.extra_field_ids)}


def _finding(task: dict, finding: str, message: str) -> dict:
    return {"table": task["table"], "path": task["path"], "kind": task["kind"], "finding": finding,
            "message": message}


def check_global_index(task: dict) -> tuple[list[dict], dict]:
    g = task.get("global_index") or {}
    out: list[dict] = []
    data = storage.read_bytes(task["path"])
    if task.get("file_size") is not None and len(data) != task["file_size"]:
        out.append(_finding(task, "size-mismatch", f"file has {len(data)} bytes, the index manifest says "
                                                   f"{task['file_size']}"))
    if g.get("type") is None:
        return [*out, _finding(task, "corrupt", f"global index on field id {g.get('field_id')}, which the "
                                                "table schema does not have")], {}
    dtype = parse_type(g["type"])
    layout = layout_of(data[-4:])
    if layout is None and task.get("index_type") == "btree":
        return [*out, _finding(task, "corrupt", f"B-tree global index of {len(data)} bytes does not end in the "
                                                "footer magic 0x50425449")], {}
    if layout is None:  # Java 1.4.2's bitmap global index: a bitmap file-index payload
        F.get("bitmap").decode(data, task["path"], F.key_kind_for(dtype))
        return out, {"entries": 1}
    codec = global_key_codec(dtype)
    src = ByteSource(data, path=task["path"])
    d = describe_global_index(src, layout, codec)
    rows = d["row_ids"] + d["null_rows"]
    if task.get("row_count") is not None and rows != task["row_count"]:
        out.append(_finding(task, "count-mismatch", f"{rows} rows in the file, the index manifest says "
                                                    f"{task['row_count']}"))
    reader = BTreeGlobalIndexReader(src, codec) if layout == "btree" else BitmapGlobalIndexReader(src, codec)
    every = reader.not_null_rows() | reader.null_rows()
    span = g["row_end"] - g["row_start"]
    if every and every.max() > span:
        out.append(_finding(task, "corrupt", f"row id {every.max()} outside the file's range of {span + 1} rows"))
    if g.get("index_meta") is not None:
        meta = read_sorted_meta(bytes.fromhex(g["index_meta"]), task["path"])
        if meta.has_nulls != (d["null_rows"] > 0):
            out.append(_finding(task, "corrupt", f"_INDEX_META has_nulls={meta.has_nulls}, the file holds "
                                                 f"{d['null_rows']} null rows"))
        keys = [k for k, _ in _first_last(reader, layout)]
        want = [meta.first_key, meta.last_key]
        if keys != want:
            out.append(_finding(task, "corrupt", f"_INDEX_META keys {want} differ from the file's {keys}"))
    return out, {"entries": d["keys"]}


def _first_last(reader: Any, layout: str) -> list[tuple[bytes | None, None]]:
    """The smallest and largest key (serialised) in the column's order, ``None`` when there is none."""
    if layout == "btree":
        index = reader.index_block()
        if not len(index):
            return [(None, None), (None, None)]
        first = bytes(reader.data_block(0).entry(0)[0])
        last = bytes(index.entry(len(index) - 1)[0])
        return [(first, None), (last, None)]
    keys = [k for k, _ in reader.entries()]
    if not keys:
        return [(None, None), (None, None)]
    ordered = sorted(keys, key=reader.codec.raw_order)
    return [(ordered[0], None), (ordered[-1], None)]
