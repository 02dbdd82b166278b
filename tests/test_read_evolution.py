"""Schema evolution read by field id, compared row for row with newest Paimon Java's read of the same table.

Every table is an append table (``bucket=-1``) written, altered and read by Paimon Java 1.4.2
(:mod:`oracles.java_steps`); our rows come from ``read_plan_locally(plan_scan(path))``.
"""

from __future__ import annotations

import pytest
from oracles.java_steps import canonical, normalize, run_steps, table_path
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.evolution.file_evolution import file_evolution
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.table import PaimonTable
from paimon_codec.table.schema import parse_schema

FORMATS = ("parquet", "orc", "avro")


def _cases(fmt: str) -> dict[str, list[dict]]:
    opts = {"bucket": "-1", "file.format": fmt}
    return {
        f"rename_{fmt}": [
            {"op": "create", "columns": [["a", "INT"], ["b", "STRING"]], "options": opts},
            {"op": "write", "rows": [[1, "one"], [2, None]]},
            {"op": "alter", "changes": [{"op": "rename", "from": "b", "to": "c"}]},
            {"op": "write", "rows": [[3, "three"]]},
            {"op": "alter", "changes": [{"op": "rename", "from": "a", "to": "b"}]},
            {"op": "write", "rows": [[4, "four"]]},
            {"op": "read"}],
        f"readd_{fmt}": [
            {"op": "create", "columns": [["a", "INT"], ["b", "STRING"], ["z", "BIGINT"]], "options": opts},
            {"op": "write", "rows": [[1, "old", 10]]},
            {"op": "alter", "changes": [{"op": "drop", "name": "b"}]},
            {"op": "write", "rows": [[2, 20]]},
            {"op": "alter", "changes": [{"op": "add", "name": "b", "type": "STRING"}]},
            {"op": "write", "rows": [[3, 30, "new"]]},
            {"op": "read"}],
        f"retype_{fmt}": [
            {"op": "create", "columns": [["i", "INT"], ["f", "FLOAT"], ["d", "DECIMAL(5, 2)"], ["n", "INT"],
                                         ["s", "STRING"], ["x", "DOUBLE"], ["t", "SMALLINT"],
                                         ["dd", "DECIMAL(6, 3)"], ["ds", "DECIMAL(8, 3)"]],
             "options": opts},
            {"op": "write", "rows": [
                [2147483647, 1.1, "123.45", -17, "42", 1.0e10, -5, "-1.235", "-12.500"],
                [-2147483648, -0.0, "-0.01", 0, "-7", 0.1, 300, "999.995", "0.000"],
                [None, 3.4028234663852886e38, None, None, None, 1.0e-5, None, "0.005", None]]},
            {"op": "alter", "changes": [
                {"op": "type", "name": "i", "type": "BIGINT"}, {"op": "type", "name": "f", "type": "DOUBLE"},
                {"op": "type", "name": "d", "type": "DECIMAL(10, 3)"}, {"op": "type", "name": "n", "type": "STRING"},
                {"op": "type", "name": "s", "type": "INT"}, {"op": "type", "name": "x", "type": "STRING"},
                {"op": "type", "name": "t", "type": "DOUBLE"}, {"op": "type", "name": "dd", "type": "DECIMAL(5, 2)"},
                {"op": "type", "name": "ds", "type": "STRING"}]},
            {"op": "write", "rows": [[5, 2.5, "1.5", "x", 9, "y", 0.5, "1.23", "z"]]},
            {"op": "read"}],
    }


_CAST_COLUMNS = [["f2i", "FLOAT"], ["l2i", "BIGINT"], ["s2d", "STRING"], ["s2b", "STRING"], ["d2s", "DATE"],
                 ["d2t", "DATE"], ["t2d", "TIMESTAMP(6)"], ["t63", "TIMESTAMP(6)"], ["b2s", "BOOLEAN"],
                 ["s2v", "STRING"], ["dc2i", "DECIMAL(10, 3)"], ["x2d", "DOUBLE"], ["i2t", "INT"], ["s2f", "STRING"],
                 ["d2f", "DECIMAL(10, 3)"]]
_CAST_TARGETS = {"f2i": "INT", "l2i": "INT", "s2d": "DECIMAL(6, 2)", "s2b": "BOOLEAN", "d2s": "STRING",
                 "d2t": "TIMESTAMP(3)", "t2d": "DATE", "t63": "TIMESTAMP(3)", "b2s": "STRING", "s2v": "VARCHAR(3)",
                 "dc2i": "INT", "x2d": "DECIMAL(8, 3)", "i2t": "TINYINT", "s2f": "DOUBLE", "d2f": "DOUBLE"}
_CAST_ROWS = [
    [3.99e9, 2 ** 40 + 5, "12.345", "yes", -1, 19000, [-2000, 999000], [1700000000123, 456000], True, "abcdef",
     "-12.999", 0.1, 300, "1e3", "12.345"],
    [-2.5, -(2 ** 33) - 1, "-0.005", "0", 0, 0, [86400000 * 3 + 5, 1000], [-1500, 1000], False, "ab", "99.5",
     -1.23456e-3, -129, "-0.5", "-0.001"],
    [float("nan"), None, None, "FALSE", None, None, None, None, None, "", None, None, None, " 7 ", None]]


def _cast_case(fmt: str) -> list[dict]:
    """Narrowing, float -> int, string -> decimal / boolean / double, date <-> timestamp, timestamp
    precision, boolean / date -> string, VARCHAR(n) cut: every file of the old schema, the ALTER after
    the last commit (Paimon reads the latest snapshot with the current schema).  Timestamps avoid the
    second before 1970 with a fraction: ORC's Java writer and reader shift those by a second, and Paimon's
    cast path reads them differently from its plain path."""
    return [{"op": "create", "columns": _CAST_COLUMNS, "options": {"bucket": "-1", "file.format": fmt}},
            {"op": "write", "rows": _CAST_ROWS},
            {"op": "alter", "changes": [{"op": "type", "name": k, "type": v} for k, v in _CAST_TARGETS.items()]},
            {"op": "read"}]


_NESTED = [["id", "INT"], ["r", "ROW<p INT, q STRING, gone STRING>"], ["arr", "ARRAY<ROW<x INT, y FLOAT>>"],
           ["m", "MAP<STRING, ROW<u INT>>"]]


def _nested_case(fmt: str) -> list[dict]:
    """Nested ROW fields renamed, re-typed, dropped and added (inside ROW, ARRAY<ROW>, MAP<_, ROW>)."""
    return [
        {"op": "create", "columns": _NESTED, "options": {"bucket": "-1", "file.format": fmt}},
        {"op": "write", "rows": [[1, [5, "q1", "g"], [[1, 0.5], None, [None, None]], [["k", [7]], ["n", None]]],
                                 [2, None, None, None], [3, [None, None, None], [], []]]},
        {"op": "alter", "changes": [
            {"op": "rename", "from": ["r", "q"], "to": "q2"}, {"op": "type", "name": ["r", "p"], "type": "BIGINT"},
            {"op": "drop", "name": ["r", "gone"]}, {"op": "add", "name": ["r", "gone"], "type": "STRING"},
            {"op": "rename", "from": ["arr", "element", "x"], "to": "x2"},
            {"op": "type", "name": ["arr", "element", "y"], "type": "DOUBLE"},
            {"op": "add", "name": ["m", "value", "w"], "type": "STRING"}]},
        {"op": "write", "rows": [[4, [6, "q4", "g4"], [[2, 1.5]], [["k", [8, "w"]]]]]},
        {"op": "read"}]


def _primary_key_cases() -> dict[str, list[dict]]:
    """Primary-key tables whose sorted runs span schemas (read by the merge reader, file by file)."""
    out = {}
    for dv in (False, True):  # default engine (deduplicate): merge-on-read, and deletion vectors
        opts = {"bucket": "1", "file.format": "parquet"}
        if dv:
            opts["deletion-vectors.enabled"] = "true"
        out[f"pk_deduplicate{'_dv' if dv else ''}"] = [
            {"op": "create", "columns": [["id", "INT NOT NULL"], ["v", "STRING"], ["n", "INT"], ["f", "FLOAT"]],
             "options": opts, "primary_keys": ["id"]},
            {"op": "write", "rows": [[1, "a", 10, 0.5], [2, "b", 20, None], [3, "c", None, 1.25]]},
            {"op": "alter", "changes": [{"op": "rename", "from": "v", "to": "w"},
                                        {"op": "type", "name": "n", "type": "BIGINT"},
                                        {"op": "type", "name": "f", "type": "DOUBLE"}]},
            {"op": "write", "rows": [[2, None, 21, 2.5], [4, "d", 40, None]]},
            {"op": "alter", "changes": [{"op": "drop", "name": "f"}, {"op": "add", "name": "f", "type": "STRING"}]},
            {"op": "write", "rows": [[3, "c2", None, "x"]]},
            {"op": "read"}]
    return out


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    warehouse = tmp_path_factory.mktemp("java14_evolution")
    tables: dict[str, list[dict]] = _primary_key_cases()
    tables.update({f"nested_{fmt}": _nested_case(fmt) for fmt in FORMATS})
    tables.update({f"casts_{fmt}": _cast_case(fmt) for fmt in FORMATS})
    for fmt in FORMATS:
        tables.update(_cases(fmt))
    return str(warehouse), run_steps(java_newest, str(warehouse), tables)


def _ours(path: str) -> tuple[list[list], list]:
    plan = plan_scan(path)
    types = [f.type for f in plan.row_type]
    rows = read_plan_locally(plan).to_pylist()
    return [[normalize(t, r[f.name]) for t, f in zip(types, plan.row_type, strict=True)] for r in rows], types


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", ["rename", "readd", "retype"])
def test_evolved_table_reads_as_java_reads_it(java_tables, case, fmt, table_location):
    warehouse, reads = java_tables
    name = f"{case}_{fmt}"
    path = table_location(table_path(warehouse, name))  # local disk, and a copy on the S3 server
    ours, types = _ours(path)
    java_rows = reads[name][-1]
    assert canonical(ours, types) == canonical(java_rows, types)
    # the table really holds files of older schemas (otherwise the test proves nothing)
    table = PaimonTable(path)
    assert len({f.meta.schema_id for f in table.data_files()}) >= 2


@pytest.mark.parametrize("fmt", FORMATS)
def test_nested_fields_evolve_by_id_as_java_reads_them(java_tables, fmt):
    warehouse, reads = java_tables
    case = f"nested_{fmt}"
    ours, types = _ours(table_path(warehouse, case))
    assert canonical(ours, types) == canonical(reads[case][-1], types)


@pytest.mark.parametrize("fmt", FORMATS)
def test_casts_read_as_java_reads_them(java_tables, fmt):
    warehouse, reads = java_tables
    case = f"casts_{fmt}"
    path = table_path(warehouse, case)
    plan = plan_scan(path)
    assert {t.schema_id for t in plan.tasks} == {0} and str(plan.row_type.field("f2i").type) == "INT"
    ours, types = _ours(path)
    assert canonical(ours, types) == canonical(reads[case][-1], types)


@pytest.mark.parametrize("case", sorted(_primary_key_cases()))
def test_primary_key_table_across_schemas_merges_as_java(java_tables, case):
    warehouse, reads = java_tables
    path = table_path(warehouse, case)
    ours, types = _ours(path)
    assert canonical(ours, types) == canonical(reads[case][-1], types)
    assert len({f.meta.schema_id for f in PaimonTable(path).data_files()}) >= 2


def test_renamed_column_keeps_old_values_and_readded_column_is_null(java_tables):
    warehouse, _ = java_tables
    rows = read_plan_locally(plan_scan(table_path(warehouse, "rename_parquet"))).to_pylist()
    assert sorted(rows, key=lambda r: r["b"]) == [{"b": 1, "c": "one"}, {"b": 2, "c": None},
                                                   {"b": 3, "c": "three"}, {"b": 4, "c": "four"}]
    rows = read_plan_locally(plan_scan(table_path(warehouse, "readd_parquet"))).to_pylist()
    assert sorted(rows, key=lambda r: r["a"]) == [{"a": 1, "z": 10, "b": None}, {"a": 2, "z": 20, "b": None},
                                                   {"a": 3, "z": 30, "b": "new"}]


def _schema(sid: int, fields: list[tuple[int, str, str]]):
    return parse_schema({"version": 3, "id": sid, "fields": [{"id": i, "name": n, "type": t} for i, n, t in fields],
                         "options": {}, "primaryKeys": [], "partitionKeys": []})


@pytest.mark.parametrize("old,new", [("TIMESTAMP(6)", "TIMESTAMP(6) WITH LOCAL TIME ZONE"), ("STRING", "TIME"),
                                     ("TIMESTAMP(6)", "VARCHAR(10)"), ("DATE", "INT"),
                                     ({"type": "ARRAY", "element": "INT"}, "STRING")])
def test_casts_not_implemented_are_refused_by_name(old, new):
    with pytest.raises(UnsupportedTypeError, match="column c: cannot read"):
        file_evolution(_schema(0, [(0, "c", old)]), _schema(1, [(0, "c", new)]))


def test_same_ids_names_and_types_need_no_evolution():
    assert file_evolution(_schema(0, [(0, "a", "INT")]), _schema(1, [(0, "a", "INT")])) is None
    evo = file_evolution(_schema(0, [(0, "a", "INT"), (1, "b", "INT")]),
                         _schema(1, [(0, "x", "INT"), (2, "b", "INT")]))
    assert [(c.name, c.source) for c in evo.columns] == [("x", "a"), ("b", None)]


@pytest.mark.parametrize("case", ["rename_parquet", "readd_orc", "retype_parquet"])
def test_spark_scan_of_evolved_table_reads_as_java(spark, java_tables, case):  # noqa: F811
    from paimon_codec.spark import scan
    from paimon_codec.spark.native import native_readable

    warehouse, reads = java_tables
    path = table_path(warehouse, case)
    plan = plan_scan(path)
    old = [t for t in plan.tasks if t.evolution is not None]
    assert old and not any(native_readable(t.path, t.file_format, plan.row_type, False, t.evolution) for t in old)
    df, _ = scan(spark, path)
    types = [f.type for f in plan.row_type]
    ours = [[normalize(t, r[f.name]) for t, f in zip(types, plan.row_type, strict=True)]
            for r in (row.asDict() for row in df.collect())]
    assert canonical(ours, types) == canonical(reads[case][-1], types)


@pytest.fixture(scope="module")
def indexed_evolution(tmp_path_factory, java_newest):
    """Bitmap-indexed columns dropped + re-added (b: new id) and re-typed (c: INT -> BIGINT)."""
    warehouse = str(tmp_path_factory.mktemp("java14_index_evolution"))
    steps = [{"op": "create", "columns": [["a", "INT"], ["b", "STRING"], ["c", "INT"]],
              "options": {"bucket": "-1", "file-index.bitmap.columns": "b,c"}},
             {"op": "write", "rows": [[1, "old", 5], [2, "old2", 6]]},
             {"op": "alter", "changes": [{"op": "drop", "name": "b"}, {"op": "add", "name": "b", "type": "STRING"},
                                         {"op": "type", "name": "c", "type": "BIGINT"}]},
             {"op": "write", "rows": [[3, 7, "new"], [4, 5, None]]},
             {"op": "read"}]
    return table_path(warehouse, "t"), run_steps(java_newest, warehouse, {"t": steps})["t"][-1]


@pytest.mark.parametrize("where,keep", [
    ("b IS NULL", lambda r: r[2] is None), ("b = 'old'", lambda r: r[2] == "old"),
    ("b = 'new'", lambda r: r[2] == "new"), ("c = 5", lambda r: r[1] == 5), ("c = 7", lambda r: r[1] == 7),
    ("b IS NOT NULL OR c = 6", lambda r: r[2] is not None or r[1] == 6)])
def test_index_of_an_older_schema_never_answers_for_a_changed_column(indexed_evolution, where, keep):
    from paimon_codec.reading.local_read import read_table

    path, java_rows = indexed_evolution
    plan = plan_scan(path)
    types = [f.type for f in plan.row_type]
    assert [f.name for f in plan.row_type] == ["a", "c", "b"]
    rows = read_table(path, where).to_pylist()
    ours = [[normalize(t, r[f.name]) for t, f in zip(types, plan.row_type, strict=True)] for r in rows]
    assert canonical(ours, types) == canonical([r for r in java_rows if keep(r)], types)
