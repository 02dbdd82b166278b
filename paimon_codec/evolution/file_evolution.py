"""A data file's columns as the table's columns: schema evolution by field id, as Paimon reads it.

Every data file records the id of the schema it was written under (``_SCHEMA_ID``).  Paimon reads
such a file through that schema: each column of the table (the read schema) is the file column with
the **same field id** (read under the file schema's name for it), cast from the file schema's type
to the table's type; a table column whose id the file schema lacks reads as NULL.  Renamed columns
therefore keep their data, and a column dropped and added again under the same name (a new id)
reads as NULL in older files.  Nested ROW fields carry ids too and are resolved the same way inside
ROW, ARRAY and MAP values.  Casts follow :mod:`.casts` (Paimon's ``CastExecutors``).

:class:`FileEvolution` is the picklable recipe for one (file schema -> table schema) pair; it travels
with :class:`~paimon_codec.planning.tasks.FileTask` into Spark tasks.  ``None`` means the file was written
under a schema with the same ids, names and types (read columns by name, as they are).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from ..errors import CorruptDataError, UnsupportedTypeError
from ..table.schema import TableSchema
from ..types import DataType, RowType
from .casts import cast_array, castable, refusal_detail
from .casts_zone import zone_cast
from .orc_char import type_note

__all__ = ["arrow_type", "arrow_schema", "decode_array", "Conversion", "ColumnRead", "FileEvolution",
           "file_evolution", "evolution_for", "per_schema_pair", "convert_array", "as_arrow"]


# -- Arrow types of Paimon types ---------------------------------------------------------------------------
def arrow_type(t: DataType) -> pa.DataType:
    """Arrow type of a Paimon type as this library hands rows out (TIME = int32 millis of day;
    TIMESTAMP(7..9) = ``timestamp[ns]``, keeping nanoseconds; coarser timestamps ``timestamp[us]``)."""
    r = t.root
    simple = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
              "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "CHAR": pa.string(),
              "VARCHAR": pa.string(), "BINARY": pa.binary(), "VARBINARY": pa.binary(), "DATE": pa.date32(),
              "TIME_WITHOUT_TIME_ZONE": pa.int32(), "BLOB": pa.binary()}
    if r in simple:
        return simple[r]
    if t.is_timestamp:
        unit = "ns" if (t.precision if t.precision is not None else 6) > 6 else "us"
        return pa.timestamp(unit, tz="UTC" if r == "TIMESTAMP_WITH_LOCAL_TIME_ZONE" else None)
    if r == "DECIMAL":
        return pa.decimal128(t.precision or 10, t.scale or 0)
    if r == "ARRAY":
        return pa.list_(pa.field("element", arrow_type(t.children[0]), t.children[0].nullable))
    if r == "MAP":
        return pa.map_(arrow_type(t.children[0]), pa.field("value", arrow_type(t.children[1]),
                                                           t.children[1].nullable))
    if r == "ROW":
        return pa.struct([pa.field(n, arrow_type(c), c.nullable) for n, c in zip(t.field_names, t.children,
                                                                                  strict=True)])
    raise UnsupportedTypeError(f"cannot read a {t} column")


def arrow_schema(row_type: RowType) -> pa.Schema:
    """Arrow schema of ``row_type``; a column holding a CHAR carries its Paimon type as field metadata
    (:mod:`.orc_char`: ORC pads CHAR values, which the reader trims)."""
    return pa.schema([pa.field(f.name, arrow_type(f.type), f.type.nullable, metadata=type_note(f.type))
                      for f in row_type])


def _combined(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    return col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col


def decode_array(arr: pa.Array | pa.ChunkedArray, t: DataType) -> pa.Array:
    """Values of Paimon type ``t`` as a file reader decoded them -> :func:`arrow_type` of ``t``."""
    return convert_array(arr, Conversion(t, t))


# -- conversions ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Conversion:
    """How values of file type ``src`` become values of table type ``dst``.

    For ROW, ``fields[i]`` is the index of the ``src`` field feeding ``dst`` field ``i`` (``None``: the
    file has no field with that id -> NULL) and ``children[i]`` its conversion; for ARRAY / MAP the
    children convert the element / key and value.
    """

    src: DataType
    dst: DataType
    fields: tuple[int | None, ...] = ()
    children: tuple[Conversion | None, ...] = ()
    time_zone: str | None = None  # the read's zone, for TIMESTAMP <-> TIMESTAMP WITH LOCAL TIME ZONE (casts_zone)


def _child(conv: Conversion, i: int, src: DataType, dst: DataType) -> Conversion:
    """Child ``i`` of ``conv`` (``src`` -> ``dst`` as is when ``conv`` records no children)."""
    child = conv.children[i] if conv.children else None
    return child if child is not None else Conversion(src, dst, time_zone=conv.time_zone)


def _struct_children(arr: pa.StructArray) -> list[pa.Array]:
    return [arr.field(i) for i in range(arr.type.num_fields)]


def convert_array(arr: pa.Array | pa.ChunkedArray, conv: Conversion) -> pa.Array:
    """``arr`` (a file column of type ``conv.src``) as an array of ``arrow_type(conv.dst)``."""
    arr = _combined(arr)
    src, dst = conv.src, conv.dst
    target = arrow_type(dst)
    if src == dst and not conv.fields:
        return as_arrow(arr, target)
    root = dst.root
    if root in ("ROW", "ARRAY", "MAP", "MULTISET") or src.root in ("ROW", "ARRAY", "MAP", "MULTISET"):
        if src.root != root:
            raise UnsupportedTypeError(f"cannot read {src} values of an older data file as {dst}")
        if root == "MULTISET":
            raise UnsupportedTypeError(f"cannot read a {dst} column")
        mask = arr.is_null() if arr.null_count else None
        if root == "ROW":
            if not pa.types.is_struct(arr.type):
                raise CorruptDataError(f"expected a struct column for {dst}, found {arr.type}")
            kids = _struct_children(arr)
            fields = conv.fields or tuple(range(len(dst.children)))
            out = []
            for i, (child_t, pos) in enumerate(zip(dst.children, fields, strict=True)):
                if pos is None or pos >= len(kids):
                    out.append(pa.nulls(len(arr), arrow_type(child_t)))
                else:
                    out.append(convert_array(kids[pos], _child(conv, i, src.children[pos], child_t)))
            return pa.StructArray.from_arrays(out, fields=list(target), mask=mask)
        if root == "ARRAY":
            values = convert_array(arr.values, _child(conv, 0, src.children[0], dst.children[0]))
            return pa.ListArray.from_arrays(arr.offsets, values, type=target, mask=mask)
        key_conv = _child(conv, 0, src.children[0], dst.children[0])
        value_conv = _child(conv, 1, src.children[1], dst.children[1])
        return pa.MapArray.from_arrays(arr.offsets, convert_array(arr.keys, key_conv),
                                       convert_array(arr.items, value_conv), type=target, mask=mask)
    decoded = _decode_atomic(arr, src)
    if _same_type(src, dst):
        return decoded if decoded.type == target else decoded.cast(target)
    return cast_array(decoded, src, dst, target, conv.time_zone)


def _same_type(a: DataType, b: DataType) -> bool:
    return a.nullable == b.nullable and a == b or a == DataType(b.root, a.nullable, b.precision, b.scale,
                                                                 b.length, b.children, b.field_names)


def _decode_atomic(arr: pa.Array, t: DataType) -> pa.Array:
    return as_arrow(arr, arrow_type(t))


def as_arrow(arr: pa.Array | pa.ChunkedArray, target: pa.DataType) -> pa.Array:
    """A file column as a file reader decoded it -> ``target`` (the Arrow type of the same Paimon type).

    Nested values are rebuilt child by child (file readers name list / map children their own way);
    TIME read as a time type becomes int32 millis of day; a timestamp's time-zone flag is re-labelled
    (the stored instant is kept) and its unit changed, which is exact for the values Paimon stores.
    """
    arr = _combined(arr)
    if arr.type == target:
        return arr
    mask = arr.is_null() if arr.null_count else None
    if pa.types.is_struct(target) and pa.types.is_struct(arr.type):
        names = [arr.type.field(i).name for i in range(arr.type.num_fields)]
        kids = []
        for i, f in enumerate(target):
            pos = names.index(f.name) if f.name in names else i
            kids.append(as_arrow(arr.field(pos), f.type))
        return pa.StructArray.from_arrays(kids, fields=list(target), mask=mask)
    if pa.types.is_map(target) and pa.types.is_map(arr.type):
        return pa.MapArray.from_arrays(arr.offsets, as_arrow(arr.keys, target.key_type),
                                       as_arrow(arr.items, target.item_type), type=target, mask=mask)
    if pa.types.is_list(target) and (pa.types.is_list(arr.type) or pa.types.is_large_list(arr.type)):
        offsets = arr.offsets.cast(pa.int32()) if pa.types.is_large_list(arr.type) else arr.offsets
        return pa.ListArray.from_arrays(offsets, as_arrow(arr.values, target.value_type), type=target,
                                        mask=mask)
    if pa.types.is_time(arr.type) and pa.types.is_integer(target):
        unit = arr.type.unit
        ints = arr.cast(pa.int64() if arr.type.bit_width == 64 else pa.int32())
        if unit == "us":
            ints = pc.divide(ints, 1000)
        elif unit == "ns":
            ints = pc.divide(ints, 1_000_000)
        return ints.cast(target)
    if pa.types.is_timestamp(arr.type) and pa.types.is_timestamp(target):
        if arr.type.tz != target.tz:
            arr = arr.cast(pa.int64()).cast(pa.timestamp(arr.type.unit, tz=target.tz))
        try:
            return arr.cast(target)
        except pa.ArrowInvalid:
            # ORC keeps the nanoseconds a writer handed it even for TIMESTAMP(p <= 6)
            raise UnsupportedTypeError(f"a TIMESTAMP column of precision <= 6 holds values finer than "
                                       f"{target.unit} in the data file (not representable as {target})") from None
    return arr.cast(target)


# -- mapping by field id -------------------------------------------------------------------------------------
def _ids_of_type(type_json: Any) -> Any:
    """The field ids inside a type of a schema file: for ROW ``[(id, subtree), ...]``, for ARRAY /
    MULTISET ``[subtree]``, for MAP ``[key subtree, value subtree]``, ``None`` for atomic types."""
    if not isinstance(type_json, dict):
        return None
    kind = str(type_json.get("type", "")).upper()
    if kind.startswith("ROW"):
        return [(f.get("id"), _ids_of_type(f.get("type"))) for f in type_json.get("fields", [])]
    if kind.startswith("ARRAY") or kind.startswith("MULTISET"):
        return [_ids_of_type(type_json.get("element"))]
    if kind.startswith("MAP"):
        return [_ids_of_type(type_json.get("key")), _ids_of_type(type_json.get("value"))]
    return None


def _conversion(src: DataType, src_ids: Any, dst: DataType, dst_ids: Any, where: str,
                time_zone: str | None = None) -> Conversion | None:
    """The conversion of one column, or ``None`` when the file's values are already the table's."""
    if src.root != dst.root and (src.root in ("ROW", "ARRAY", "MAP", "MULTISET")
                                 or dst.root in ("ROW", "ARRAY", "MAP", "MULTISET")):
        raise UnsupportedTypeError(f"column {where}: cannot read {src} values of an older data file as {dst}")
    if dst.root == "ROW":
        src_pos = {fid: i for i, (fid, _) in enumerate(src_ids or [])}
        fields: list[int | None] = []
        children: list[Conversion | None] = []
        changed = len(src.children) != len(dst.children)
        for i, (name, child_t) in enumerate(zip(dst.field_names, dst.children, strict=True)):
            fid, sub_ids = (dst_ids or [])[i] if dst_ids and i < len(dst_ids) else (None, None)
            if fid is not None:
                pos = src_pos.get(fid)
            else:  # a schema without nested ids: match by name
                pos = src.field_names.index(name) if name in src.field_names else None
            fields.append(pos)
            if pos is None:
                children.append(None)
                changed = True
                continue
            sub_src_ids = src_ids[pos][1] if src_ids and pos < len(src_ids) else None
            sub = _conversion(src.children[pos], sub_src_ids, child_t, sub_ids, f"{where}.{name}", time_zone)
            changed |= sub is not None or pos != i or src.field_names[pos] != name
            children.append(sub or Conversion(src.children[pos], child_t, time_zone=time_zone))
        return Conversion(src, dst, tuple(fields), tuple(children), time_zone) if changed else None
    if dst.root in ("ARRAY", "MULTISET", "MAP"):
        subs = [_conversion(s, (src_ids or [None, None])[i], d, (dst_ids or [None, None])[i], f"{where}[]", time_zone)
                for i, (s, d) in enumerate(zip(src.children, dst.children, strict=True))]
        if all(s is None for s in subs):
            return None
        return Conversion(src, dst, (), tuple(s or Conversion(src.children[i], dst.children[i], time_zone=time_zone)
                                              for i, s in enumerate(subs)), time_zone)
    if _same_type(src, dst):
        return None
    if not castable(src, dst, time_zone):
        raise UnsupportedTypeError(f"column {where}: cannot read {src} values of an older data file as {dst} "
                                   f"({refusal_detail(src, dst)})")
    return Conversion(src, dst, time_zone=time_zone if zone_cast(src, dst) else None)


@dataclass(frozen=True)
class ColumnRead:
    """One table column: read from file column ``source`` (``None``: NULL), then ``conversion``."""

    name: str
    source: str | None
    conversion: Conversion | None = None


@dataclass(frozen=True)
class FileEvolution:
    """How the files written under schema ``file_schema_id`` read as the table's columns."""

    file_schema_id: int
    table_schema_id: int
    columns: tuple[ColumnRead, ...] = field(default=())

    def column(self, name: str) -> ColumnRead:
        """How table column ``name`` reads; a name the table schema lacks (a system column such as
        ``_SEQUENCE_NUMBER`` / ``_VALUE_KIND``, which no schema change touches) reads by that name."""
        for c in self.columns:
            if c.name == name:
                return c
        return ColumnRead(name, name)


def file_evolution(file_schema: TableSchema, table_schema: TableSchema,
                   time_zone: str | None = None) -> FileEvolution | None:
    """The recipe reading files of ``file_schema`` as ``table_schema`` (``None``: read by name as is);
    ``time_zone`` is the read's zone for the casts that need one (:mod:`.casts_zone`)."""
    if file_schema.id == table_schema.id:
        return None
    file_fields = {f.id: (f, raw) for f, raw in zip(file_schema.fields, file_schema.raw.get("fields", []),
                                                    strict=False)}
    if None in file_fields:
        raise CorruptDataError("schema has a field without an id", path=f"schema-{file_schema.id}")
    columns, changed = [], False
    for f, raw in zip(table_schema.fields, table_schema.raw.get("fields", []), strict=False):
        hit = file_fields.get(f.id)
        if hit is None:
            columns.append(ColumnRead(f.name, None))
            changed = True
            continue
        old, old_raw = hit
        conv = _conversion(old.type, _ids_of_type(old_raw.get("type")), f.type, _ids_of_type(raw.get("type")),
                           f.name, time_zone)
        columns.append(ColumnRead(f.name, old.name, conv))
        changed |= conv is not None or old.name != f.name
    if not changed:
        return None
    return FileEvolution(file_schema.id, table_schema.id, tuple(columns))


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# files are judged by several threads (judge.JUDGE_THREADS): a WeakKeyDictionary is not safe to mutate
# concurrently; reentrant in case a ``build`` asks for another pair
_CACHE_LOCK = threading.RLock()


def per_schema_pair(table: Any, what: str, table_schema: TableSchema, file_schema_id: int,
                    build: Callable[[TableSchema], Any]) -> Any:
    """``build(file schema)`` for files of ``table`` written under ``file_schema_id`` and read as
    ``table_schema``, computed once per table (every file of a schema shares it)."""
    key = (what, table_schema.id, file_schema_id)
    with _CACHE_LOCK:
        per_table = _CACHE.setdefault(table, {})
        if key not in per_table:
            per_table[key] = build(table.schema_by_id(file_schema_id))
        return per_table[key]


def evolution_for(table: Any, table_schema: TableSchema, file_schema_id: int | None,
                  time_zone: str | None = None) -> FileEvolution | None:
    """:func:`file_evolution` for a file of ``table`` written under ``file_schema_id`` read in ``time_zone``
    (cached per table)."""
    if file_schema_id is None or file_schema_id == table_schema.id:
        return None
    return per_schema_pair(table, f"evolution@{time_zone}", table_schema, file_schema_id,
                           lambda file_schema: file_evolution(file_schema, table_schema, time_zone))
