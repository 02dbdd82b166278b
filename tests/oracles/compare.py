"""Row-set equality of two Arrow tables, as SQL sees values (our read vs. a writer's own read).

:func:`assert_same_rows` compares column names (in order) and the rows as a multiset (order does not
matter, duplicates do).  Values are compared exactly as SQL values, independent of the Arrow encoding:

* timestamps as integer nanoseconds since the epoch, whatever the unit (``[us]`` vs ``[ns]``) or zone tag;
* TIME as milliseconds of day (``time32[ms]``, ``time64`` or Paimon's int32 millis);
* DATE as days; DECIMAL by value (``1.50 == 1.5``); strings and bytes exactly;
* floats by value, so ``-0.0 == 0.0`` (SQL equality) while NaN equals NaN; with ``exact_floats=True``
  -0.0 and 0.0 differ (bit-exact reads: a writer's -0.0 must come back as -0.0);
* lists in order, maps as unordered key/value pairs, structs by field name and value (nested freely).

``check_types=True`` also requires identical Arrow types.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pyarrow as pa

__all__ = ["assert_same_rows", "row_set_difference", "canonical_rows"]

_NAN = ("NaN",)  # a tuple: never equal to a string or number a column could hold
_NS_PER = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1000, "ns": 1}


def _raw_type(t: pa.DataType) -> pa.DataType:
    """``t`` with temporal leaves as plain integers (a lossless cast; units are kept in ``t``)."""
    if pa.types.is_timestamp(t) or pa.types.is_date64(t) or pa.types.is_time64(t):
        return pa.int64()
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        f = t.value_field
        return pa.list_(pa.field(f.name, _raw_type(f.type), f.nullable))
    if pa.types.is_map(t):
        return pa.map_(_raw_type(t.key_type), pa.field(t.item_field.name, _raw_type(t.item_type),
                                                       t.item_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _raw_type(f.type), f.nullable) for f in t])
    return t


def _decoded(col: pa.ChunkedArray | pa.Array) -> pa.ChunkedArray | pa.Array:
    if pa.types.is_dictionary(col.type):
        return col.cast(col.type.value_type)
    return col


def _canon(v: Any, t: pa.DataType, exact: bool = False) -> Any:
    if v is None:
        return None
    if pa.types.is_timestamp(t):
        return v * _NS_PER[t.unit]
    if pa.types.is_date64(t):
        return v // 86_400_000
    if pa.types.is_time(t):
        return v * _NS_PER[t.unit] // _NS_PER["ms"]  # milliseconds of day, as Paimon keeps TIME
    if pa.types.is_floating(t):
        if math.isnan(v):
            return _NAN
        return (float(v), math.copysign(1.0, v)) if exact else float(v)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return tuple(_canon(x, t.value_type, exact) for x in v)
    if pa.types.is_map(t):
        return tuple(sorted(((_canon(k, t.key_type, exact), _canon(x, t.item_type, exact)) for k, x in v),
                            key=repr))
    if pa.types.is_struct(t):
        return tuple((f.name, _canon(v[f.name], f.type, exact)) for f in t)
    return v


def canonical_rows(table: pa.Table, *, exact_floats: bool = False) -> list[tuple]:
    """Every row as a hashable tuple of canonical values (see the module docstring)."""
    columns = []
    for name in table.column_names:
        col = _decoded(table.column(name))
        raw = _raw_type(col.type)
        values = (col.cast(raw) if raw != col.type else col).to_pylist()
        columns.append([_canon(v, col.type, exact_floats) for v in values])
    return list(zip(*columns, strict=True)) if columns else [()] * table.num_rows


def row_set_difference(ours: pa.Table, theirs: pa.Table, *, check_types: bool = False, exact_floats: bool = False,
                       show: int = 5) -> str | None:
    """``None`` when both tables hold the same rows, else a readable description of the difference."""
    if ours.column_names != theirs.column_names:
        return f"columns differ: ours {ours.column_names}, theirs {theirs.column_names}"
    if check_types and ours.schema.types != theirs.schema.types:
        diffs = [f"{n}: ours {a}, theirs {b}" for n, a, b in zip(ours.column_names, ours.schema.types,
                                                                  theirs.schema.types, strict=True) if a != b]
        return "column types differ: " + "; ".join(diffs)
    a = Counter(canonical_rows(ours, exact_floats=exact_floats))
    b = Counter(canonical_rows(theirs, exact_floats=exact_floats))
    if a == b:
        return None
    only_ours, only_theirs = a - b, b - a
    lines = [f"row sets differ: ours {ours.num_rows} rows, theirs {theirs.num_rows} rows; "
             f"{sum(only_ours.values())} only in ours, {sum(only_theirs.values())} only in theirs"]
    for label, rows in (("only in ours", only_ours), ("only in theirs", only_theirs)):
        for row, count in list(rows.items())[:show]:
            shown = dict(zip(ours.column_names, row, strict=True))
            lines.append(f"  {label}{f' (x{count})' if count > 1 else ''}: {shown}")
    return "\n".join(lines)


def assert_same_rows(ours: pa.Table, theirs: pa.Table, *, check_types: bool = False, exact_floats: bool = False,
                     what: str = "") -> None:
    """Fail with a readable difference unless ``ours`` and ``theirs`` hold the same rows (``what`` heads it)."""
    diff = row_set_difference(ours, theirs, check_types=check_types, exact_floats=exact_floats)
    if diff is not None:
        raise AssertionError(f"{what}: {diff}" if what else diff)
