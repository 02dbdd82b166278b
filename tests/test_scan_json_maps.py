"""``scan --json`` rows of MAP columns of any key type: every map (nested anywhere) is a list of
``{"key": k, "value": v}`` objects.  A map keyed by an ARRAY used to crash the scan (``TypeError:
unhashable type: 'list'``: Spark's ``Row`` turns maps into Python dicts).  Compared with Paimon Java
1.4.2's own read of the table it wrote."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.cli import main

pytestmark = [pytest.mark.java, pytest.mark.spark]

SCHEMA = ("id INT, m MAP<ARRAY<FLOAT>, ROW<x INT, s STRING>>, ms MAP<STRING, INT>, "
          "r ROW<n MAP<INT, ARRAY<MAP<STRING, INT>>>, t STRING>, a ARRAY<MAP<ROW<k BIGINT>, STRING>>")


def _arrow(java, path) -> pa.Table:
    from paimon_codec.evolution.file_evolution import arrow_schema
    from paimon_codec.types import parse_row_type

    rows = [
        {"id": 1, "m": [([1.5, None, -2.0], {"x": 1, "s": "a"}), ([], None)], "ms": [("k", 1), ("", None)],
         "r": {"n": [(7, [[("q", 1)], None]), (8, None)], "t": "x"}, "a": [[({"k": 5}, "v")], None, []]},
        {"id": 2, "m": None, "ms": [], "r": None, "a": None},
        {"id": 3, "m": [([0.25], {"x": None, "s": None})], "ms": None, "r": {"n": None, "t": None}, "a": [[]]},
    ]
    return pa.Table.from_pylist(rows, schema=arrow_schema(parse_row_type(java.schema(path))))


def _json_form(v, t: pa.DataType):
    """Java's Arrow value in the documented JSON form of ``scan --json``."""
    if v is None:
        return None
    if pa.types.is_map(t):
        return [{"key": _json_form(k, t.key_type), "value": _json_form(x, t.item_type)} for k, x in v]
    if pa.types.is_list(t):
        return [_json_form(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {f.name: _json_form(v[f.name], f.type) for f in t}
    return v


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
def test_scan_json_of_maps_with_any_key_type(java_newest, tmp_path, capsys, spark, fmt):  # noqa: F811
    path = java_newest.create_table(str(tmp_path), "db.t", SCHEMA, options={"file.format": fmt})
    java_newest.write(path, _arrow(java_newest, path))
    theirs = java_newest.read(path)
    expected = sorted(({n: _json_form(r[n], theirs.schema.field(n).type) for n in theirs.column_names}
                       for r in theirs.to_pylist()), key=lambda r: r["id"])
    assert main(["scan", path, "--json"]) == 0
    rows = sorted(json.loads(capsys.readouterr().out)["rows"], key=lambda r: r["id"])
    types = {n: theirs.schema.field(n).type for n in theirs.column_names}
    assert [{n: _unordered(r[n], t) for n, t in types.items()} for r in rows] == \
        [{n: _unordered(r[n], t) for n, t in types.items()} for r in expected]


def _unordered(v, t: pa.DataType):
    """A JSON-form value with every map's entries sorted: a map has no order (Java's Avro read of a map
    with non-string keys returns them hashed)."""
    if v is None:
        return None
    if pa.types.is_map(t):
        return sorted(({"key": _unordered(e["key"], t.key_type), "value": _unordered(e["value"], t.item_type)}
                       for e in v), key=lambda e: json.dumps(e, sort_keys=True))
    if pa.types.is_list(t):
        return [_unordered(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {f.name: _unordered(v[f.name], f.type) for f in t}
    return v
