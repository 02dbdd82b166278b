"""Tables written, altered and read by the newest-Java oracle from step lists, rows in one JSON form.

The read-path conformance tests (``test_read_types``, ``test_read_evolution``) describe each table as a
list of steps run by :class:`oracles.java_newest.JavaPaimon` on ``<warehouse>/db.db/<table>``:

* ``{"op": "create", "columns": [[name, type], ...], "options": {...}, "primary_keys": [...]}`` -- ``type``
  in this project's type syntax (``"ARRAY<ROW<x INT>>"``);
* ``{"op": "write", "rows": [[v, ...], ...]}`` -- one commit of rows in the current schema;
* ``{"op": "alter", "changes": [...]}`` -- :meth:`JavaPaimon.alter` changes (a list name is a nested path);
* ``{"op": "read"}`` -- every row of the latest snapshot as Java reads it.

Values use one JSON form per type (see :func:`normalize`): integers and floats as themselves, DECIMAL as
its plain string, DATE as epoch days, TIME as millis of day, TIMESTAMP as ``[epoch millis, nano of
milli]``, BINARY as hex, ARRAY as a list, MAP as a list of ``[key, value]``, ROW as a list.
"""

from __future__ import annotations

import datetime as dt
import decimal
import json
import os
from typing import Any

import pyarrow as pa

from paimon_codec.evolution.file_evolution import arrow_schema
from paimon_codec.types import DataType, parse_row_type

from .java_newest import JavaPaimon

_NS_PER = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1000, "ns": 1}


def table_path(warehouse: str | os.PathLike, table: str) -> str:
    return os.path.join(str(warehouse), "db.db", table)


def run_steps(java: JavaPaimon, warehouse: str | os.PathLike,
              tables: dict[str, list[dict]]) -> dict[str, list[list[list[Any]]]]:
    """Run each table's steps; returns the rows of every ``read`` step per table (JSON form)."""
    result: dict[str, list[list[list[Any]]]] = {}
    for name, steps in tables.items():
        reads = result.setdefault(name, [])
        path = table_path(warehouse, name)
        for step in steps:
            op = step["op"]
            if op == "create":
                path = java.create_table(warehouse, f"db.{name}", ", ".join(f"{n} {t}" for n, t in step["columns"]),
                                         primary_keys=step.get("primary_keys", ()), options=step.get("options"))
            elif op == "write":
                java.write(path, _arrow_rows(parse_row_type(java.schema(path)), step["rows"]))
            elif op == "alter":
                java.alter(path, step["changes"])
            elif op == "read":
                row_type = parse_row_type(java.schema(path))
                rows = java.read(path).to_pylist()
                reads.append([[normalize(f.type, r[f.name]) for f in row_type] for r in rows])
            else:
                raise ValueError(f"unknown step {op!r} (create, write, alter, read)")
    return result


def _arrow_rows(row_type, rows: list[list[Any]]) -> pa.Table:
    """JSON-form rows as an Arrow table of the row type's exact Arrow types."""
    schema = arrow_schema(row_type)
    columns = [pa.array([_arrow_value(f.type, row[k]) for row in rows], type=f.type)
               for k, f in enumerate(schema)]
    return pa.Table.from_arrays(columns, schema=schema)


def _arrow_value(t: pa.DataType, v: Any) -> Any:
    """One JSON-form value as a Python value ``pa.array`` takes for Arrow type ``t``."""
    if v is None:
        return None
    if pa.types.is_timestamp(t):
        return (v[0] * 1_000_000 + v[1]) // _NS_PER[t.unit]
    if pa.types.is_decimal(t):
        return decimal.Decimal(v)
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return bytes.fromhex(v)
    if pa.types.is_map(t):
        return [(_arrow_value(t.key_type, k), _arrow_value(t.item_type, x)) for k, x in v]
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return [_arrow_value(t.value_type, x) for x in v]
    if pa.types.is_struct(t):
        return {f.name: _arrow_value(f.type, x) for f, x in zip(t, v, strict=True)}
    return v


# -- rows of an Arrow read (ours or Java's) in the JSON form ----------------------------------------
_EPOCH = dt.datetime(1970, 1, 1)


def _timestamp(v: Any) -> list[int]:
    if hasattr(v, "value") and hasattr(v, "nanosecond"):  # pandas.Timestamp (timestamp[ns])
        ns = int(v.value)
    else:
        if v.tzinfo is not None:
            v = v.astimezone(dt.timezone.utc).replace(tzinfo=None)
        delta = v - _EPOCH
        ns = (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1000
    return [ns // 1_000_000, ns % 1_000_000]


def normalize(t: DataType, v: Any) -> Any:
    """A value of Arrow rows (``to_pylist``) in the JSON form of the steps."""
    if v is None:
        return None
    r = t.root
    if r == "DECIMAL":
        return format(decimal.Decimal(v), "f")
    if r == "DATE":
        return v if isinstance(v, int) else (v - dt.date(1970, 1, 1)).days
    if r == "TIME_WITHOUT_TIME_ZONE" and isinstance(v, dt.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
    if t.is_timestamp:
        return _timestamp(v)
    if r in ("BINARY", "VARBINARY"):
        return bytes(v).hex()
    if r == "ARRAY":
        return [normalize(t.children[0], x) for x in v]
    if r == "MAP":
        return [[normalize(t.children[0], k), normalize(t.children[1], x)] for k, x in v]
    if r == "ROW":
        items = v.values() if isinstance(v, dict) else v
        return [normalize(c, x) for c, x in zip(t.children, items, strict=True)]
    return v


def sort_key(row: list[Any]) -> str:
    return json.dumps(row, sort_keys=True, default=str)


def canonical(rows: list[list[Any]], types: list[DataType]) -> list[str]:
    """Rows as sorted JSON strings (maps sorted by key) so row sets compare exactly (-0.0 is not 0.0)."""

    def canon(t: DataType, v: Any) -> Any:
        if v is None:
            return None
        if t.root == "ARRAY":
            return [canon(t.children[0], x) for x in v]
        if t.root == "MAP":
            return sorted(([canon(t.children[0], k), canon(t.children[1], x)] for k, x in v), key=sort_key)
        if t.root == "ROW":
            return [canon(c, x) for c, x in zip(t.children, v, strict=True)]
        if isinstance(v, float) and v != v:
            return "NaN"
        return v

    return sorted(sort_key([canon(t, v) for t, v in zip(types, row, strict=True)]) for row in rows)
