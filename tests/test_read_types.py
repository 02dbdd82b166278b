"""Every column type Paimon Java 1.4.2 writes, in Parquet, ORC and Avro data files, read exactly as Java
reads it: nested ARRAY / MAP / ROW (inside each other), TIMESTAMP(9) with nanoseconds, decimals, dates,
TIME, binary; locally (Arrow) and through a Spark scan (native reader where it qualifies)."""

from __future__ import annotations

import pytest
from oracles.java_steps import canonical, normalize, run_steps, table_path
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import arrow_schema, read_file_rows, read_plan_locally

FORMATS = ("parquet", "orc", "avro")

_ROW_X_M = "ROW<x INT, m MAP<STRING, BIGINT>>"
COLUMNS = [
    ["a", "INT"], ["b", "STRING"], ["c", "FLOAT"], ["d", "DECIMAL(5, 2)"], ["d2", "DECIMAL(20, 2)"],
    ["ts9", "TIMESTAMP(9)"], ["ts3", "TIMESTAMP(3)"], ["ts6", "TIMESTAMP(6)"],
    ["lz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"], ["dt", "DATE"], ["tm", "TIME(3)"], ["bin", "BYTES"],
    ["arr", f"ARRAY<{_ROW_X_M}>"],
    ["mi", "MAP<INT, ARRAY<STRING>>"],
    ["r", f"ROW<p ARRAY<DOUBLE>, q ROW<u STRING, v MAP<STRING, {_ROW_X_M}>>>"],
]
ROWS = [
    [1, "x", 1.5, "1.25", "123456789012345.67", [1000, 123456], [5, 0], [7, 1000], [9, 2000], 19000, 3723004,
     "00ff", [[1, [["k", 5], ["l", None]]], None, [None, None]], [[1, ["a", None]], [2, None], [3, []]],
     [[0.5, None, -0.0], ["u1", [["z", [7, [["q", -1]]]], ["n", None]]]]],
    [2, None, None, None, None, None, None, None, None, None, None, None, None, None, None],
    [3, "", -0.0, "-999.99", "-0.01", [-1, 999999], [-1, 0], [-1, 999000], [0, 1000], -1, 0, "",
     [], [], [None, [None, None]]],
    [4, "é", float("nan"), "0.00", "0.00", [1700000000123, 456789], [1700000000123, 0], [1700000000123, 456000],
     [1700000000123, 456000], 0, 86399999, "01", [[None, None]], [[0, None]], [[], None]],
]


def _columns(fmt: str) -> tuple[list, list]:
    if fmt != "avro":
        return COLUMNS, ROWS
    # Paimon's Avro format refuses TIMESTAMP with precision > 6 (Java: "Avro does not support TIMESTAMP")
    i = [c[0] for c in COLUMNS].index("ts9")
    return COLUMNS[:i] + COLUMNS[i + 1:], [r[:i] + r[i + 1:] for r in ROWS]


@pytest.fixture(scope="module")
def java_tables(tmp_path_factory, java_newest):
    warehouse = str(tmp_path_factory.mktemp("java14_types"))
    tables = {}
    for fmt in FORMATS:
        cols, rows = _columns(fmt)
        opts = {"bucket": "-1", "file.format": fmt}
        # three commits: three data files per table (Spark reads several files of one format at once)
        tables[f"types_{fmt}"] = [{"op": "create", "columns": cols, "options": opts},
                                  {"op": "write", "rows": rows[:2]}, {"op": "write", "rows": rows[2:3]},
                                  {"op": "write", "rows": rows[3:]}, {"op": "read"}]
    return warehouse, run_steps(java_newest, warehouse, tables)


def _normalized(plan, rows: list[dict]) -> list[list]:
    return [[normalize(f.type, r[f.name]) for f in plan.row_type] for r in rows]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_type_reads_as_java_reads_it(java_tables, fmt, table_location):
    warehouse, reads = java_tables
    plan = plan_scan(table_location(table_path(warehouse, f"types_{fmt}")))  # local disk and the S3 server
    assert {t.file_format for t in plan.tasks} == {fmt} and len(plan.tasks) == 3
    types = [f.type for f in plan.row_type]
    ours = _normalized(plan, read_plan_locally(plan).to_pylist())
    assert canonical(ours, types) == canonical(reads[f"types_{fmt}"][-1], types)


def test_timestamp9_keeps_nanoseconds(java_tables):
    warehouse, _ = java_tables
    plan = plan_scan(table_path(warehouse, "types_parquet"))
    table = read_plan_locally(plan)
    assert str(table.schema.field("ts9").type) == "timestamp[ns]"
    ns = sorted(v for v in table.column("ts9").cast("int64").to_pylist() if v is not None)
    assert ns == [-1 * 10**6 + 999999, 1000 * 10**6 + 123456, 1700000000123 * 10**6 + 456789]


@pytest.mark.parametrize("fmt", ["lance", "row", "vortex", "mosaic", "unknown"])
def test_unknown_data_file_formats_are_refused_by_name(java_tables, fmt):
    warehouse, _ = java_tables
    plan = plan_scan(table_path(warehouse, "types_parquet"))
    task = plan.tasks[0]
    with pytest.raises(UnsupportedTypeError, match=f"cannot read '{fmt}' data files"):
        read_file_rows(task.path, fmt, arrow_schema(plan.row_type))


def _floor_micros(t, v):
    """Java's value of a TIMESTAMP(p > 6) as a Spark scan returns it: floored to the microsecond."""
    if v is None or not t.is_timestamp or (t.precision or 6) <= 6:
        return v
    return [v[0], v[1] - v[1] % 1000]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("native", [True, False])
def test_spark_scan_reads_every_type(spark, java_tables, fmt, native):  # noqa: F811
    from paimon_codec.spark import scan

    warehouse, reads = java_tables
    path = table_path(warehouse, f"types_{fmt}")
    # native: Spark's reader (driver_rows=0: few rows would otherwise be read by pyarrow on the driver)
    df, report = scan(spark, path, native=native, driver_rows=0 if native else 1 << 30)
    plan = plan_scan(path)
    types = [f.type for f in plan.row_type]
    rows = [r.asDict(recursive=True) for r in df.collect()]
    for r in rows:  # Spark gives maps as dicts and rows as dicts; normalize() takes both
        for f in plan.row_type:
            r[f.name] = _spark_value(f.type, r[f.name])
    ours = _normalized(plan, rows)
    java = [[_floor_micros(t, v) for t, v in zip(types, row, strict=True)] for row in reads[f"types_{fmt}"][-1]]
    assert canonical(ours, types) == canonical(java, types)


def _spark_value(t, v):
    if v is None:
        return None
    if t.root == "MAP":
        return [(_spark_value(t.children[0], k), _spark_value(t.children[1], x)) for k, x in v.items()]
    if t.root == "ARRAY":
        return [_spark_value(t.children[0], x) for x in v]
    if t.root == "ROW":
        return [_spark_value(c, v[n]) for n, c in zip(t.field_names, t.children, strict=True)]
    return v


@pytest.fixture(scope="module")
def flat_orc(tmp_path_factory, java_newest):
    """A flat ORC table of three files (the native reader's case; ORC timestamps stay on the Arrow path)."""
    warehouse = str(tmp_path_factory.mktemp("java14_orc"))
    cols = [["a", "INT"], ["b", "STRING"], ["d", "DECIMAL(10, 2)"], ["f", "DOUBLE"]]
    steps = [{"op": "create", "columns": cols, "options": {"bucket": "-1", "file.format": "orc"}}]
    for i in range(3):
        steps.append({"op": "write", "rows": [[i * 10 + j, f"s{j}", f"{j}.5{i}", j / 3] for j in range(4)]})
    steps.append({"op": "read"})
    return warehouse, run_steps(java_newest, warehouse, {"flat_orc": steps})


def test_spark_native_reads_several_orc_files(spark, flat_orc):  # noqa: F811
    from paimon_codec.spark import scan
    from paimon_codec.spark.native import native_readable

    warehouse, reads = flat_orc
    path = table_path(warehouse, "flat_orc")
    plan = plan_scan(path)
    assert len(plan.tasks) == 3
    assert all(native_readable(t.path, t.file_format, plan.row_type, t.primary_key_file, t.evolution)
               for t in plan.tasks)
    df, report = scan(spark, path, driver_rows=0)
    assert report.read_paths == {"spark_whole_files": 3}
    types = [f.type for f in plan.row_type]
    ours = _normalized(plan, [r.asDict() for r in df.collect()])
    assert canonical(ours, types) == canonical(reads["flat_orc"][-1], types)
