"""CHAR(n) values in ORC data files: the ORC writer pads them with spaces to n characters (ORC type
``char(n)``) and ORC's Java reader - so Paimon Java - right-trims the spaces again, while pyarrow's ORC
reader returns them padded.  Parquet and Avro keep a CHAR value as written (Paimon does not pad), so
only ORC columns are trimmed, and only those the file wrote as CHAR (its own type, before any
schema-evolution cast).

A CHAR column's Paimon type travels with its Arrow field as metadata (:func:`type_note`), so readers that
only get the Arrow schema know which columns, and which leaves inside ROW / ARRAY / MAP, are CHAR.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from ..types import DataType, parse_type

__all__ = ["type_note", "noted_type", "has_char", "trim_char"]

_KEY = b"paimon.type"


def has_char(t: DataType) -> bool:
    return t.root == "CHAR" or any(has_char(c) for c in t.children)


def type_note(t: DataType) -> dict[bytes, bytes] | None:
    """Arrow field metadata recording ``t`` when it holds a CHAR (else ``None``: no metadata)."""
    return {_KEY: str(t).encode()} if has_char(t) else None


def noted_type(field: pa.Field) -> DataType | None:
    """The Paimon type :func:`type_note` put on ``field``, if any."""
    note = (field.metadata or {}).get(_KEY)
    return None if note is None else parse_type(note.decode())


def trim_char(arr: pa.Array | pa.ChunkedArray, t: DataType) -> pa.Array | pa.ChunkedArray:
    """``arr`` (ORC values of type ``t``) with the padding of every CHAR leaf right-trimmed, as ORC's
    Java reader returns them (it trims spaces, U+0020, only)."""
    if not has_char(t):
        return arr
    if isinstance(arr, pa.ChunkedArray):
        return pa.chunked_array([trim_char(c, t) for c in arr.chunks], type=arr.type)
    if t.root == "CHAR":
        return pc.utf8_rtrim(arr, characters=" ")
    mask = arr.is_null() if arr.null_count else None
    if t.root == "ROW":
        kids = [trim_char(arr.field(i), c) for i, c in enumerate(t.children)]
        return pa.StructArray.from_arrays(kids, fields=list(arr.type), mask=mask)
    if t.root == "MAP":
        return pa.MapArray.from_arrays(arr.offsets, trim_char(arr.keys, t.children[0]),
                                       trim_char(arr.items, t.children[1]), type=arr.type, mask=mask)
    if t.root in ("ARRAY", "MULTISET") and pa.types.is_list(arr.type):
        return pa.ListArray.from_arrays(arr.offsets, trim_char(arr.values, t.children[0]), type=arr.type, mask=mask)
    return arr
