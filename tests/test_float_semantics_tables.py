"""Table reads under an explicit comparison semantics, on FLOAT / DOUBLE columns holding ±0.0, NaN and ±inf.

Tables written by Paimon Java 1.4.2 - an append table partitioned on a DOUBLE (a file of only ``-0.0``, one of
only ``0.0``, one of NaN / inf / NULL, one mixed) with bitmap, bloom-filter and range-bitmap indexes on its float
columns; a primary-key table with deletion vectors; a partitioned primary-key table read by merging - are read
with every comparison operator, IN, NOT IN, BETWEEN and IS [NOT] NULL:

* ``semantics="paimon"``: the rows equal Java 1.4.2's own filtered read (``withFilter`` + ``Predicate.test``);
* ``semantics="spark"``: the rows equal real PySpark's ``filter`` of the same rows
  (``spark.createDataFrame(rows)``, conditions in Spark SQL text, independent of this library's filters);
* the plan report names the semantics; the Spark scan follows it too.
"""

from __future__ import annotations

import math

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table

Z, NZ, NAN, INF = 0.0, -0.0, math.nan, math.inf
LITS = [Z, NZ, NAN, INF, -INF, 1.0]
OPS = ("eq", "neq", "lt", "lte", "gt", "gte")
SQL_OPS = {"eq": "=", "neq": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}

#: the files of the append table, one commit each: only -0.0, only 0.0, the non-numbers, a mix
BATCHES = [[NZ, NZ], [Z, Z], [NAN, INF, None], [-INF, 1.0, -1.0, NZ, Z, NAN]]


def leaves_on(column: str) -> list:
    out = [make_leaf(op, column, (x,)) for op in OPS for x in LITS]
    for op, lits in (("in", (Z, 1.0)), ("in", (NZ, NAN)), ("not_in", (Z,)), ("not_in", (NZ, NAN)),
                     ("between", (NZ, Z)), ("between", (-INF, NZ)), ("between", (Z, INF)), ("between", (NZ, NAN)),
                     ("is_null", ()), ("is_not_null", ())):
        out.append(make_leaf(op, column, lits))
    return out


def _spark_literal(x: float, ftype: str) -> str:
    text = "NaN" if x != x else ("Infinity" if x == INF else "-Infinity" if x == -INF else repr(x))
    return f"CAST('{text}' AS {ftype})"


def spark_sql(leaf, ftype: str) -> str:
    """The leaf as Spark SQL text, literals cast to the column's type (``-0.0`` kept: ``CAST('-0.0' AS ...)``)."""
    c, lits = f"`{leaf.column}`", [_spark_literal(x, ftype) for x in leaf.literals]
    if leaf.op in SQL_OPS:
        return f"{c} {SQL_OPS[leaf.op]} {lits[0]}"
    if leaf.op in ("in", "not_in"):
        return f"{c} {'NOT ' if leaf.op == 'not_in' else ''}IN ({', '.join(lits)})"
    if leaf.op == "between":
        return f"{c} BETWEEN {lits[0]} AND {lits[1]}"
    return f"{c} {'IS NULL' if leaf.op == 'is_null' else 'IS NOT NULL'}"


def spark_answers(spark, rows: pa.Table, preds: list, types: dict[str, str]) -> list[list[int]]:  # noqa: F811
    """Ids PySpark's filter keeps for each predicate: one job, each condition a column (a row is kept where it
    is TRUE, as ``filter`` keeps it); the first few are cross-checked with a plain ``df.filter``."""
    from pyspark.sql import functions as F

    df = spark.createDataFrame(rows.to_pylist(), schema=_spark_schema(rows))
    conds = [spark_sql(p, types[p.column]) for p in preds]
    picked = df.select("id", *[F.coalesce(F.expr(c), F.lit(False)).alias(f"c{i}") for i, c in enumerate(conds)])
    got = picked.collect()
    out = [sorted(r["id"] for r in got if r[f"c{i}"]) for i in range(len(conds))]
    for i in range(0, len(conds), 9):
        assert sorted(r["id"] for r in df.filter(conds[i]).collect()) == out[i], conds[i]
    return out


def _spark_schema(rows: pa.Table):
    from pyspark.sql.types import DoubleType, FloatType, IntegerType, StructField, StructType

    kinds = {pa.int32(): IntegerType(), pa.float32(): FloatType(), pa.float64(): DoubleType()}
    return StructType([StructField(f.name, kinds[f.type], True) for f in rows.schema])


def _ids(t: pa.Table) -> list[int]:
    return sorted(t.column("id").to_pylist())


APPEND_SCHEMA = pa.schema([("id", pa.int32()), ("p", pa.float64()), ("a", pa.float32()), ("b", pa.float64()),
                           ("c", pa.float64()), ("e", pa.float32())])
APPEND_TYPES = {"p": "DOUBLE", "a": "FLOAT", "b": "DOUBLE", "c": "DOUBLE", "e": "FLOAT"}


@pytest.fixture(scope="module")
def append_table(tmp_path_factory, java_newest) -> str:
    """Partitioned on p; a: bitmap, b: bloom filter, c and e: range bitmap (every column holds the row's value)."""
    path = java_newest.create_table(
        tmp_path_factory.mktemp("float_semantics"), "db.t", "id INT, p DOUBLE, a FLOAT, b DOUBLE, c DOUBLE, e FLOAT",
        partition_keys=["p"],
        options={"bucket": "-1", "file-index.bitmap.columns": "a", "file-index.bloom-filter.columns": "b",
                 "file-index.range-bitmap.columns": "c,e"})
    next_id = 0
    for batch in BATCHES:
        ids = list(range(next_id, next_id + len(batch)))
        next_id += len(batch)
        java_newest.write(path, pa.table({"id": ids, "p": batch, "a": batch, "b": batch, "c": batch, "e": batch},
                                         schema=APPEND_SCHEMA))
    return path


def _check_table(java_newest, spark, path: str, types: dict[str, str], columns: list[str]) -> int:  # noqa: F811
    everything = java_newest.read(path)
    preds = [p for c in columns for p in leaves_on(c)]
    spark_rows = spark_answers(spark, everything, preds, types)
    for pred, spark_ids in zip(preds, spark_rows, strict=True):
        assert _ids(read_table(path, pred, semantics="paimon")) == _ids(java_newest.read(path, where=pred)), \
            f"paimon: {pred}"
        assert _ids(read_table(path, pred, semantics="spark")) == spark_ids, f"spark: {pred}"
    return len(preds)


def test_append_table_paimon_equals_java_spark_equals_pyspark(append_table, java_newest, spark):  # noqa: F811
    assert _check_table(java_newest, spark, append_table, APPEND_TYPES, list(APPEND_TYPES)) == 5 * 46


def test_the_two_semantics_differ_and_the_report_names_them(append_table):
    pred = make_leaf("eq", "c", (0.0,))
    paimon, spark_plan = plan_scan(append_table, pred), plan_scan(append_table, pred, semantics="spark")
    assert paimon.report.semantics == "paimon" and paimon.report.to_dict()["semantics"] == "paimon"
    assert spark_plan.report.semantics == "spark"
    # the two files of partition p=0.0 hold 0.0 rows; Spark's -0.0 = 0.0 also needs the two of p=-0.0
    assert (paimon.report.files_read, spark_plan.report.files_read) == (2, 4)
    assert len(read_table(append_table, pred)) == 2 + 1
    assert len(read_table(append_table, pred, semantics="spark")) == 2 + 2 + 2
    with pytest.raises(Exception, match="semantics"):
        plan_scan(append_table, pred, semantics="ieee")


def test_ordering_follows_the_semantics(append_table):
    """``ORDER BY`` under ``"paimon"``: -0.0 before 0.0 (``Double.compare``); NaN last in both."""
    rows = read_table(append_table, make_leaf("between", "c", (NZ, NAN)), order_by="c")
    values = rows.column("c").to_pylist()
    signs = [math.copysign(1, v) for v in values if v == 0.0]
    assert signs == sorted(signs) and -1.0 in signs and 1.0 in signs
    assert math.isnan(values[-1])


def test_spark_scan_follows_the_semantics(append_table, java_newest, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    everything = java_newest.read(append_table)
    preds = [p for c in ("a", "b", "c") for p in leaves_on(c) if any(x == 0.0 for x in p.literals)]
    spark_rows = spark_answers(spark, everything, preds, APPEND_TYPES)
    for pred, spark_ids in zip(preds, spark_rows, strict=True):
        df, report = scan(spark, append_table, pred)
        assert report.semantics == "spark" and sorted(r["id"] for r in df.collect()) == spark_ids, str(pred)
        df, report = scan(spark, append_table, pred, semantics="paimon")
        assert report.semantics == "paimon"
        assert sorted(r["id"] for r in df.collect()) == _ids(java_newest.read(append_table, where=pred)), str(pred)


PK_SCHEMA = pa.schema([("id", pa.int32()), ("a", pa.float32()), ("c", pa.float64())])


@pytest.fixture(scope="module")
def dv_table(tmp_path_factory, java_newest) -> str:
    """Primary key id, deletion vectors; a: bitmap, c: range bitmap; rows updated after a full compaction."""
    path = java_newest.create_table(
        tmp_path_factory.mktemp("float_semantics_dv"), "db.t", "id INT NOT NULL, a FLOAT, c DOUBLE",
        primary_keys=["id"],
        options={"bucket": "1", "deletion-vectors.enabled": "true", "file-index.bitmap.columns": "a",
                 "file-index.range-bitmap.columns": "c"})
    values = [NZ, Z, NAN, INF, -INF, 1.0, -1.0, None, NZ, Z]
    java_newest.write(path, pa.table({"id": list(range(10)), "a": values, "c": values}, schema=PK_SCHEMA))
    java_newest.compact(path)
    changed = [Z, NZ, NZ, Z]
    java_newest.write(path, pa.table({"id": [0, 1, 2, 3], "a": changed, "c": changed}, schema=PK_SCHEMA))
    java_newest.compact(path, full=False)
    return path


def test_dv_table(dv_table, java_newest, spark):  # noqa: F811
    assert _check_table(java_newest, spark, dv_table, {"a": "FLOAT", "c": "DOUBLE"}, ["a", "c"]) == 2 * 46


MERGE_SCHEMA = pa.schema([("id", pa.int32()), ("p", pa.float64()), ("a", pa.float32()), ("c", pa.float64())])


@pytest.fixture(scope="module")
def merge_table(tmp_path_factory, java_newest) -> str:
    """Primary key (p, id), partitioned on p, read by merging two commits; a: bitmap, c: range bitmap."""
    path = java_newest.create_table(
        tmp_path_factory.mktemp("float_semantics_merge"), "db.t", "id INT NOT NULL, p DOUBLE NOT NULL, a FLOAT, c DOUBLE",
        primary_keys=["p", "id"], partition_keys=["p"],
        options={"bucket": "1", "file-index.bitmap.columns": "a", "file-index.range-bitmap.columns": "c"})
    parts = [NZ, Z, NAN, 1.0]
    first = [NZ, Z, NAN, INF, -INF, None, NZ, Z]
    java_newest.write(path, pa.table({"id": list(range(8)), "p": [parts[i % 4] for i in range(8)], "a": first,
                                      "c": first}, schema=MERGE_SCHEMA))
    second = [Z, NZ, Z, NAN]
    java_newest.write(path, pa.table({"id": [0, 1, 2, 3], "p": [parts[i % 4] for i in range(4)], "a": second,
                                      "c": second}, schema=MERGE_SCHEMA))
    return path


def test_merge_table(merge_table, java_newest, spark):  # noqa: F811
    types = {"p": "DOUBLE", "a": "FLOAT", "c": "DOUBLE"}
    assert _check_table(java_newest, spark, merge_table, types, ["p", "a", "c"]) == 3 * 46


@pytest.fixture(scope="module")
def index_table(tmp_path_factory, java_newest) -> str:
    """Unpartitioned, four files (:data:`BATCHES`); a: bitmap, b: bloom filter, c and e: range bitmap."""
    path = java_newest.create_table(
        tmp_path_factory.mktemp("float_semantics_index"), "db.t", "id INT, a FLOAT, b DOUBLE, c DOUBLE, e FLOAT",
        options={"bucket": "-1", "file-index.bitmap.columns": "a", "file-index.bloom-filter.columns": "b",
                 "file-index.range-bitmap.columns": "c,e"})
    schema = pa.schema([f for f in APPEND_SCHEMA if f.name != "p"])
    next_id = 0
    for batch in BATCHES:
        ids = list(range(next_id, next_id + len(batch)))
        next_id += len(batch)
        java_newest.write(path, pa.table({"id": ids, "a": batch, "b": batch, "c": batch, "e": batch}, schema=schema))
    return path


def _normal(result):
    if result.kind == "BITMAP":
        rows = list(result.bitmap)
        return rows if rows else "SKIP"
    return result.kind


def test_index_layer_equals_java_file_index_predicate(index_table, java_newest):
    """The index layer (``evaluate``, default semantics) answers each ±0.0 / NaN predicate on the containers
    Java wrote exactly as Java's ``FileIndexPredicate.evaluate`` does (``x = 0.0``, ``x <> NaN`` included)."""
    from paimon_codec.fileindex import FileIndexContainerReader
    from paimon_codec.fileindex.evaluate import evaluate
    from paimon_codec.table import PaimonTable

    row_type = PaimonTable(index_table).schema.fields
    containers = java_newest.file_indexes(index_table)
    preds = [p for c in ("a", "b", "c", "e") for p in leaves_on(c)
             if any(x == 0.0 or x != x for x in p.literals)]
    compared = 0
    for name, found in sorted(containers.items()):
        container = found["embedded"] or found["index_bytes"]
        for pred in preds:
            ours = _normal(evaluate(pred.bind(row_type), FileIndexContainerReader(container), row_type))
            theirs = java_newest.evaluate_file_index(index_table, container, pred)
            assert ours == ("SKIP" if theirs == [] else theirs), (name, str(pred))
            compared += 1
    assert compared == len(BATCHES) * len(preds)


def test_cli_plan_names_the_semantics(append_table, capsys):
    """``plan --json`` names the semantics it planned with; ``--semantics spark`` reads the p=-0.0 files too."""
    import json

    from paimon_codec.cli import main

    reports = {}
    for extra in ([], ["--semantics", "spark"]):
        assert main(["plan", append_table, "--where", "p = 0.0", "--json", *extra]) == 0
        report = json.loads(capsys.readouterr().out)["report"]
        reports[report["semantics"]] = report
    assert sorted(reports) == ["paimon", "spark"]
    assert (reports["paimon"]["files_read"], reports["spark"]["files_read"]) == (2, 4)
    assert reports["spark"]["files_skipped_by_partition"] < reports["paimon"]["files_skipped_by_partition"]


def test_spark_scan_orders_by_the_semantics(append_table, spark):  # noqa: F811
    """``ORDER BY c`` on Spark: -0.0 before 0.0 under ``"paimon"`` (Spark's own order has them equal)."""
    from paimon_codec.spark.scan import scan

    df, _ = scan(spark, append_table, make_leaf("between", "c", (NZ, Z)), order_by=["c", ("id", "desc")],
                 semantics="paimon")
    values = [r["c"] for r in df.collect()]
    assert [math.copysign(1, v) for v in values] == sorted(math.copysign(1, v) for v in values)
    assert len(values) == 6


def test_spark_column_filter_under_paimon_equals_java(append_table, java_newest, spark):  # noqa: F811
    """The Spark column of each predicate (the residual filter of a Spark scan's whole-file reads) under
    ``semantics="paimon"`` keeps exactly Java 1.4.2's rows, ±0.0 told apart by their sign."""
    from pyspark.sql import functions as F

    from paimon_codec.spark.filters import to_spark_column
    from paimon_codec.table import PaimonTable

    row_type = PaimonTable(append_table).schema.fields
    everything = java_newest.read(append_table)
    df = spark.createDataFrame(everything.to_pylist(), schema=_spark_schema(everything))
    preds = [p.bind(row_type) for c in ("a", "c") for p in leaves_on(c)]
    cols = [F.coalesce(to_spark_column(p, row_type, "paimon"), F.lit(False)).alias(f"c{i}")
            for i, p in enumerate(preds)]
    got = df.select("id", *cols).collect()
    for i, pred in enumerate(preds):
        ours = sorted(r["id"] for r in got if r[f"c{i}"])
        assert ours == _ids(java_newest.read(append_table, where=pred)), str(pred)
