"""Arrow <-> Paimon types for the append writer, and what it refuses.

A table made from an Arrow schema gets the Paimon type of each column (``int32`` -> ``INT``,
``timestamp[ms]`` -> ``TIMESTAMP(3)``, ``timestamp[us, tz=...]`` -> ``TIMESTAMP(6) WITH LOCAL TIME ZONE``
...).  Data files are written with the Arrow types Paimon's own Parquet writer produces for the
table's types (millisecond timestamps up to precision 3, microseconds up to 6, decimals as 32/64-bit
integers where they fit), so every Paimon reader decodes them as it decodes its own files.

Refused, in one line each: nested types (ARRAY, MAP, ROW, MULTISET), TIME, VARIANT / BLOB,
TIMESTAMP precision above 6, unsigned integers.
"""

from __future__ import annotations

import pyarrow as pa

from ..errors import UnsupportedTypeError
from ..types import DataType, Field, RowType

__all__ = ["row_type_from_arrow", "arrow_type_for", "arrow_schema_for", "check_writable"]

_SIMPLE = {
    pa.bool_(): "BOOLEAN", pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INTEGER",
    pa.int64(): "BIGINT", pa.float32(): "FLOAT", pa.float64(): "DOUBLE", pa.date32(): "DATE",
}
_UNIT_PRECISION = {"s": 0, "ms": 3, "us": 6, "ns": 9}


def _from_arrow(name: str, t: pa.DataType, nullable: bool) -> DataType:
    if t in _SIMPLE:
        return DataType(_SIMPLE[t], nullable)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return DataType("VARCHAR", nullable, length=2147483647)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return DataType("VARBINARY", nullable, length=2147483647)
    if pa.types.is_fixed_size_binary(t):
        return DataType("BINARY", nullable, length=t.byte_width)
    if pa.types.is_decimal(t) and t.precision <= 38:
        return DataType("DECIMAL", nullable, precision=t.precision, scale=t.scale)
    if pa.types.is_timestamp(t):
        precision = _UNIT_PRECISION[t.unit]
        root = "TIMESTAMP_WITH_LOCAL_TIME_ZONE" if t.tz else "TIMESTAMP_WITHOUT_TIME_ZONE"
        dtype = DataType(root, nullable, precision=precision)
        check_writable(name, dtype)
        return dtype
    raise UnsupportedTypeError(f"column {name!r}: Arrow type {t} is not supported by the append writer",
                               expected="boolean, (signed) integers, floats, string, binary, decimal, date32, "
                               "timestamp up to microseconds")


def row_type_from_arrow(schema: pa.Schema) -> RowType:
    """The Paimon row type of an Arrow schema (field ids 0..n-1, NOT NULL for non-nullable fields)."""
    return RowType(tuple(Field(f.name, _from_arrow(f.name, f.type, f.nullable), i) for i, f in enumerate(schema)))


def check_writable(name: str, t: DataType) -> None:
    """Refuse a column type the append writer cannot write as Paimon does."""
    if t.children or t.root in ("ARRAY", "MAP", "ROW", "MULTISET"):
        raise UnsupportedTypeError(f"column {name!r} has nested type {t}: nested types are not supported by the "
                                   "append writer", expected="atomic column types")
    if t.is_timestamp and (t.precision or 0) > 6:
        raise UnsupportedTypeError(f"column {name!r} is {t}: TIMESTAMP precision above 6 is not supported by the "
                                   "append writer", expected="precision <= 6")
    if t.root in ("TIME_WITHOUT_TIME_ZONE", "VARIANT", "BLOB"):
        raise UnsupportedTypeError(f"column {name!r} has type {t}, not supported by the append writer")


def arrow_type_for(t: DataType) -> pa.DataType:
    r = t.root
    if r == "BOOLEAN":
        return pa.bool_()
    if r in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT"):
        return {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INTEGER": pa.int32(), "BIGINT": pa.int64()}[r]
    if r == "FLOAT":
        return pa.float32()
    if r == "DOUBLE":
        return pa.float64()
    if r == "DATE":
        return pa.date32()
    if t.is_string:
        return pa.string()
    if t.is_binary:
        return pa.binary()
    if r == "DECIMAL":
        return pa.decimal128(t.precision, t.scale)
    if t.is_timestamp:
        unit = "ms" if (t.precision or 0) <= 3 else "us"
        return pa.timestamp(unit, tz="UTC" if r == "TIMESTAMP_WITH_LOCAL_TIME_ZONE" else None)
    raise UnsupportedTypeError(f"type {t} is not supported by the append writer")


def arrow_schema_for(row_type: RowType) -> pa.Schema:
    """The Arrow schema data files of ``row_type`` are written with (Parquet field ids = Paimon ids)."""
    fields = []
    for f in row_type:
        check_writable(f.name, f.type)
        meta = None if f.id is None else {b"PARQUET:field_id": str(f.id).encode()}
        fields.append(pa.field(f.name, arrow_type_for(f.type), nullable=f.type.nullable, metadata=meta))
    return pa.schema(fields)
