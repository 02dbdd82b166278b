"""Decoding one audited index file completely, and the ``paimon_index`` rows of one.

:func:`check_index_task` (executor side: it needs only the task's plain fields, see
:class:`~.inventory.IndexTask`) verifies a deletion-vectors file (CRCs, counts and sizes against the index
manifest), a hash index or a file-index container (every index of every column, under the row type of the
schema its data file was written with); :func:`index_rows` turns one task into rows for the data source.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .. import storage
from ..errors import ChecksumMismatchError, PaimonCodecError, UnsupportedVersionError

__all__ = ["check_index_task", "index_rows", "classify", "KIND_DV", "KIND_HASH", "KIND_FILE_INDEX"]

KIND_DV = "deletion-vectors"
KIND_HASH = "hash"
KIND_FILE_INDEX = "file-index"


# ---------------------------------------------------------------------------------------- decoding
def _finding(task: dict, finding: str, message: str) -> dict:
    return {"table": task["table"], "path": task["path"], "kind": task["kind"], "finding": finding,
            "message": message}


def classify(exc: PaimonCodecError) -> str:
    """The finding an error is: ``checksum``, ``unsupported-version`` or ``corrupt``."""
    if isinstance(exc, ChecksumMismatchError):
        return "checksum"
    if isinstance(exc, UnsupportedVersionError):
        return "unsupported-version"
    return "corrupt"


def _check_dv(task: dict) -> tuple[list[dict], dict]:
    from ..dv.index_file import read_deletion_vectors, read_dv_index

    out: list[dict] = []
    size = storage.file_size(task["path"])
    if task.get("file_size") is not None and size != task["file_size"]:
        out.append(_finding(task, "size-mismatch", f"file has {size} bytes, the index manifest says "
                                                   f"{task['file_size']}"))
    f = read_dv_index(task["path"])
    if task.get("row_count") is not None and len(f.entries) != task["row_count"]:
        out.append(_finding(task, "count-mismatch", f"{len(f.entries)} deletion vectors in the file, the index "
                                                    f"manifest says {task['row_count']}"))
    ranges = [tuple(r[:3]) for r in task.get("ranges") or ()]
    dvs = read_deletion_vectors(task["path"], ranges)
    for r in task.get("ranges") or ():
        card = r[3] if len(r) > 3 else None
        if card is not None and dvs[r[0]].cardinality != card:
            out.append(_finding(task, "count-mismatch", f"deletion vector of {r[0]} holds "
                                                        f"{dvs[r[0]].cardinality} rows, manifest says {card}"))
    return out, {"entries": len(f.entries), "deleted_rows": sum(e.cardinality for e in f.entries)}


def _check_hash(task: dict) -> tuple[list[dict], dict]:
    from ..bucket.hash_index import read_hash_index

    hashes = read_hash_index(task["path"])
    out = []
    if task.get("row_count") is not None and len(hashes) != task["row_count"]:
        out.append(_finding(task, "count-mismatch", f"{len(hashes)} hashes in the file, the index manifest "
                                                    f"says {task['row_count']}"))
    return out, {"entries": int(len(hashes))}


def _container(task: dict):
    from ..fileindex.container import FileIndexContainerReader
    from ..fileio import ByteSource

    src = ByteSource(task["embedded"], path=task["path"]) if task.get("embedded") is not None \
        else ByteSource(task["path"])
    return src, FileIndexContainerReader(src, path=task["path"])


def _column_type(row_type, column: str):
    base = column.split("[", 1)[0]
    if base in row_type.names:
        t = row_type.field(base).type
        if "[" in column and t.root == "MAP":
            return t.children[1]
        return t
    return None


def _check_file_index(task: dict) -> tuple[list[dict], dict]:
    from ..types import parse_row_type

    row_type = parse_row_type(task["row_type"])
    src, container = _container(task)
    out: list[dict] = []
    n = 0
    with src:
        for column in container.columns:
            dtype = _column_type(row_type, column)
            if dtype is None:
                out.append(_finding(task, "corrupt", f"index on unknown column {column!r}"))
                continue
            for reader in container.readers_for(column, dtype):
                n += 1
                # a full decode with no per-row output (verify), else the structure dump (describe)
                check = getattr(reader, "verify", None) or getattr(reader, "describe", None)
                if callable(check):
                    check()
                result = reader.visit_is_not_null()
                if hasattr(result, "bitmap"):
                    _ = result.bitmap
    return out, {"entries": n}


def check_index_task(task: dict) -> dict:
    """Decode one index file completely; returns ``{"status", "findings", "entries", ...}``."""
    from ..globalindex.audit import KIND_GLOBAL_INDEX, check_global_index

    checker = {KIND_DV: _check_dv, KIND_HASH: _check_hash, KIND_FILE_INDEX: _check_file_index,
               KIND_GLOBAL_INDEX: check_global_index}.get(task["kind"])
    base = {"table": task["table"], "path": task["path"], "kind": task["kind"], "index_type": task["index_type"]}
    if checker is None:
        return dict(base, status="skipped", findings=[], entries=0, message="index type not decoded")
    try:
        findings, info = checker(task)
    except FileNotFoundError:
        findings, info = [_finding(task, "missing", "index file does not exist")], {}
    except PaimonCodecError as exc:
        findings, info = [_finding(task, classify(exc), str(exc))], {}
    status = "ok" if not findings else "error"
    return dict(base, status=status, findings=findings, entries=info.get("entries", 0),
                message="; ".join(f["message"] for f in findings))


# ---------------------------------------------------------------------------------------- rows
def index_rows(task: dict) -> Iterator[dict[str, Any]]:
    """Rows describing one index file's contents (see :mod:`paimon_codec.spark.datasource`)."""
    from ..positions import ranges_of

    base = {"table": task["table"], "index_file": task["path"], "index_type": task["index_type"],
            "bucket": task.get("bucket"), "partition": task.get("partition")}
    kind = task["kind"]
    if kind == KIND_DV:
        from ..dv.index_file import read_deletion_vectors

        ranges = [tuple(r[:3]) for r in task.get("ranges") or ()]
        for data_file, dv in read_deletion_vectors(task["path"], ranges).items():
            rr = dv.ranges()
            for p in (p for a, b in rr for p in range(a, b)):  # one row per deleted position, streamed
                yield dict(base, data_file=data_file, position=int(p), hash=None, column=None, key=None,
                           row_ranges=rr)
    elif kind == KIND_HASH:
        from ..bucket.hash_index import read_hash_index

        for h in read_hash_index(task["path"]).tolist():
            yield dict(base, data_file=None, position=None, hash=int(h), column=None, key=None, row_ranges=None)
    elif kind == KIND_FILE_INDEX:
        from ..types import parse_row_type

        row_type = parse_row_type(task["row_type"])
        src, container = _container(task)
        with src:
            for column, indexes in container.columns.items():
                dtype = _column_type(row_type, column)
                if dtype is None:
                    continue
                for itype, reader in zip(indexes, container.readers_for(column, dtype), strict=True):
                    row = dict(base, index_type=itype, data_file=os.path.basename(task.get("data_file") or ""), position=None, hash=None,
                               column=column)
                    keys = _bitmap_keys(reader)
                    if keys is None:
                        yield dict(row, key=None, row_ranges=None)
                        continue
                    for k in keys:
                        yield dict(row, key=_key_text(k), row_ranges=ranges_of(reader.lookup(k)))
                    if getattr(reader, "has_null_value", False):
                        yield dict(row, key=None, row_ranges=ranges_of(reader.null_bitmap()))


def _bitmap_keys(reader) -> list | None:
    describe = getattr(reader, "describe", None)
    if not callable(describe) or not hasattr(reader, "lookup"):
        return None
    d = describe()
    if "entries_in_file_order" in d:
        return [e[0] for e in d["entries_in_file_order"]]
    if "index_blocks" in d:
        return [e[0] for b in d["index_blocks"] for e in b["entries"]]
    return None


def _key_text(k: Any) -> str:
    return k if isinstance(k, str) else str(k)
