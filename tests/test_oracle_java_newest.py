"""The Paimon Java oracle itself (tests/oracles/java_newest.py): Java writes, Java reads, exact values.

These tests prove the oracle, not this library's reader: every table is written AND read by Paimon
Java (newest release, and 0.9 for the version-agnostic worker), and the rows must come back exactly as
written (after Paimon's own precision truncation, which the inputs avoid), with merge, schema
evolution, tags, branches, time travel and predicates behaving as Paimon defines them.
"""

from __future__ import annotations

import decimal
import json
import math
from pathlib import Path

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from oracles.java_jars import NEWEST, POM, newest_java_classpath
from oracles.java_newest import JavaError, OracleError

pytestmark = pytest.mark.java

ALL_TYPES = (
    "id INT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, bi BIGINT, f FLOAT, d DOUBLE, s STRING, c CHAR(3), "
    "vc VARCHAR(10), bin BINARY(4), vb BYTES, dec DECIMAL(38, 10), dec2 DECIMAL(5, 2), dt DATE, tm TIME, "
    "ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), "
    "ltz9 TIMESTAMP_LTZ(9), a ARRAY<INT>, m MAP<STRING, BIGINT>, r ROW<x INT, y STRING>, "
    "nest ARRAY<MAP<STRING, ROW<p ARRAY<DOUBLE>, q MAP<INT, ARRAY<STRING>>>>>, "
    "rr ROW<inner ROW<z ARRAY<ROW<k BIGINT, t TIMESTAMP(9)>>>, w MAP<INT, ROW<u DECIMAL(20, 4)>>>"
)

NS = 1_000_000_000


def _all_type_rows() -> list[dict]:
    """Values exactly representable at every column's precision (Paimon truncates, we do not test that)."""
    nan, inf = float("nan"), float("inf")
    return [
        dict(id=1, b=True, ti=-128, si=32767, bi=-2**63, f=-0.0, d=nan, s="héllo ✓", c="ab", vc="x",
             bin=b"\x00\x01\x02\xff", vb=b"", dec=decimal.Decimal("1234567890123456789012345678.0123456789"),
             dec2=decimal.Decimal("-1.50"), dt=-1, tm=86_399_000, ts0=-NS, ts3=-1000, ts6=123_456_789,
             ts9=1_700_000_000_123_456_789, ltz=5000, ltz9=1_700_000_000_000_000_001, a=[1, None, 3],
             m=[("k", 1), ("n", None)], r={"x": 1, "y": None},
             nest=[[("a", {"p": [0.0, -0.0, inf, nan], "q": [(1, ["z", None]), (2, None)]})], None, []],
             rr={"inner": {"z": [{"k": 7, "t": -1}, None]}, "w": [(3, {"u": decimal.Decimal("-0.0001")})]}),
        dict(id=2, b=False, f=0.0, d=-0.0, s="", ts9=0, a=[], m=[], r=None, nest=None, rr={"inner": None, "w": None}),
        dict(id=3, f=float("nan"), d=-inf, dec=decimal.Decimal("-99999999999999999999999999.9999999999"),
             ts9=-1, ltz9=-NS - 999_999_999, tm=0, dt=2_932_896),
    ]


def _table(schema: pa.Schema, rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=schema)


# ------------------------------------------------------------------------------------------ set-up


def test_jars_come_from_the_pinned_pom():
    jars = [Path(j).name for j in newest_java_classpath()]
    assert f"paimon-bundle-{NEWEST}.jar" in jars
    assert {"hadoop-client-api-3.3.6.jar", "hadoop-client-runtime-3.3.6.jar"} <= set(jars)
    assert f"<paimon.version>{NEWEST}</paimon.version>" in POM.read_text()


# ------------------------------------------------------------------------------------------ values


def test_every_type_round_trips_exactly(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.all_types", ALL_TYPES, primary_keys=["id"],
                                    options={"bucket": "1"})
    assert Path(path) == tmp_path / "db.db" / "all_types"
    empty = java_newest.read(path)
    assert empty.num_rows == 0
    types = {f.name: f.type for f in empty.schema}
    assert types["ts9"] == pa.timestamp("ns") and types["ts6"] == pa.timestamp("us")
    assert types["ltz9"] == pa.timestamp("ns", tz="UTC") and types["tm"] == pa.time32("ms")
    assert types["dec"] == pa.decimal128(38, 10) and types["bin"] == pa.binary() and types["dt"] == pa.date32()
    assert pa.types.is_map(types["m"]) and pa.types.is_struct(types["r"]) and pa.types.is_list(types["nest"])
    assert empty.schema.field("id").nullable is False

    written = _table(empty.schema, _all_type_rows())
    snapshot = java_newest.write(path, written)
    assert snapshot == 1
    got = java_newest.read(path)
    assert got.schema == empty.schema
    assert_same_rows(got, written, exact_floats=True, check_types=True)
    # Java really kept -0.0 apart from 0.0, and NaN
    by_id = got.sort_by("id")
    f, d = by_id.column("f").to_pylist(), by_id.column("d").to_pylist()
    assert f[:2] == [0.0, 0.0] and [math.copysign(1.0, v) for v in f[:2]] == [-1.0, 1.0] and math.isnan(d[0])


def test_timestamps_come_back_as_paimon_stores_them(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.ts", "id INT, t0 TIMESTAMP(0), t3 TIMESTAMP(3), t9 TIMESTAMP(9)")
    ns = -1  # one nanosecond before the epoch
    java_newest.write(path, pa.table({"id": pa.array([1], pa.int32()), "t0": pa.array([ns], pa.timestamp("ns")),
                                      "t3": pa.array([ns], pa.timestamp("ns")),
                                      "t9": pa.array([ns], pa.timestamp("ns"))}))
    got = java_newest.read(path)
    assert [f.type for f in got.schema][1:] == [pa.timestamp("us"), pa.timestamp("us"), pa.timestamp("ns")]
    row = got.cast(pa.schema([("id", pa.int32()), ("t0", pa.int64()), ("t3", pa.int64()), ("t9", pa.int64())]))
    # Parquet keeps TIMESTAMP(0..3) as millis (floored; the oracle adds no truncation of its own) and
    # TIMESTAMP(9) to the nanosecond
    assert row.to_pylist() == [{"id": 1, "t0": -1000, "t3": -1000, "t9": -1}]


# ------------------------------------------------------------------------------------------ merge


def test_primary_key_updates_and_deletes_merge(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.pk", "id INT NOT NULL, v STRING, n BIGINT",
                                    primary_keys=["id"], options={"bucket": "2"})
    first = pa.table({"id": pa.array([1, 2, 3, 4], pa.int32()), "v": ["a", "b", "c", "d"], "n": [1, 2, 3, 4]})
    assert java_newest.write(path, first) == 1
    change = pa.table({"id": pa.array([1, 2, 2, 3, 5], pa.int32()), "v": ["a2", "b", "b2", None, "e"],
                       "n": [10, 2, 20, 3, 50]})
    assert java_newest.write(path, change, row_kinds=["+U", "-U", "+U", "-D", "+I"]) == 2
    got = java_newest.read(path).to_pylist()
    assert sorted(got, key=lambda r: r["id"]) == [
        {"id": 1, "v": "a2", "n": 10}, {"id": 2, "v": "b2", "n": 20}, {"id": 4, "v": "d", "n": 4},
        {"id": 5, "v": "e", "n": 50}]
    assert sorted(r["id"] for r in java_newest.read(path, snapshot_id=1).to_pylist()) == [1, 2, 3, 4]
    assert java_newest.compact(path) == 3
    snapshot = json.loads((Path(path) / "snapshot" / "snapshot-3").read_text())
    assert snapshot["commitKind"] == "COMPACT"
    assert sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"]) == sorted(got, key=lambda r: r["id"])


def test_dynamic_bucket_table_keeps_keys_in_their_bucket(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.dyn", "id INT NOT NULL, v STRING", primary_keys=["id"],
                                    options={"dynamic-bucket.target-row-num": "2"})
    java_newest.write(path, pa.table({"id": pa.array(range(6), pa.int32()), "v": list("abcdef")}))
    java_newest.write(path, pa.table({"id": pa.array([0, 5], pa.int32()), "v": ["A", "F"]}))
    got = sorted(java_newest.read(path).to_pylist(), key=lambda r: r["id"])
    assert got == [{"id": i, "v": v} for i, v in enumerate("AbcdeF")]
    assert len(list(Path(path).glob("bucket-*"))) >= 3


def test_append_table_with_partitions(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.app", "p STRING, id BIGINT, v DOUBLE", partition_keys=["p"])
    java_newest.write(path, pa.table({"p": ["x", "y", "x"], "id": [1, 2, 3], "v": [0.5, -0.0, None]}))
    java_newest.write(path, pa.table({"p": ["y"], "id": [4], "v": [1.5]}))
    assert sorted(p.name for p in Path(path).iterdir() if p.name.startswith("p=")) == ["p=x", "p=y"]
    assert sorted(r["id"] for r in java_newest.read(path).to_pylist()) == [1, 2, 3, 4]
    assert java_newest.read(path, where="p = 'y'", projection=["id"]).to_pylist() == [{"id": 2}, {"id": 4}]


# ------------------------------------------------------------------------------------------ schema evolution


def test_alter_then_read_resolves_columns_by_field_id(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.evo", "id INT NOT NULL, a INT, b STRING, c FLOAT",
                                    primary_keys=["id"], options={"bucket": "1"})
    java_newest.write(path, pa.table({"id": pa.array([1, 2], pa.int32()), "a": pa.array([10, 20], pa.int32()),
                                      "b": ["x", "y"], "c": pa.array([1.5, -0.0], pa.float32())}))
    java_newest.alter(path, [{"op": "rename", "from": "a", "to": "a2"}, {"op": "drop", "name": "b"},
                             {"op": "add", "name": "b", "type": "STRING"}, {"op": "type", "name": "a2", "type": "BIGINT"},
                             {"op": "type", "name": "c", "type": "DOUBLE"}, {"op": "set", "key": "snapshot.num-retained.min",
                                                                             "value": "5"}])
    assert java_newest.schema(path) == "id INT NOT NULL, a2 BIGINT, c DOUBLE, b STRING"
    java_newest.write(path, pa.table({"id": pa.array([3], pa.int32()), "a2": [2**40], "b": ["new"], "c": [0.25]}))
    got = java_newest.read(path)
    assert got.schema.field("a2").type == pa.int64() and got.schema.field("c").type == pa.float64()
    assert_same_rows(got, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "a2": [10, 20, 2**40],
                                    "c": [1.5, -0.0, 0.25], "b": [None, None, "new"]}), exact_floats=True,
                     check_types=True)
    assert "snapshot.num-retained.min" in (Path(path) / "schema" / "schema-1").read_text()
    java_newest.alter(path, [{"op": "remove", "key": "snapshot.num-retained.min"}])
    assert "snapshot.num-retained.min" not in (Path(path) / "schema" / "schema-2").read_text()


# ------------------------------------------------------------------------------------------ tags, branches, time


def test_tags_branches_and_time_travel(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.tt", "id INT NOT NULL, v STRING", primary_keys=["id"],
                                    options={"bucket": "1"})

    def ids(table: pa.Table) -> list[int]:
        return sorted(table.column("id").to_pylist())

    java_newest.write(path, pa.table({"id": pa.array([1, 2], pa.int32()), "v": ["a", "b"]}))
    java_newest.write(path, pa.table({"id": pa.array([3], pa.int32()), "v": ["c"]}))
    java_newest.create_tag(path, "t1", 1)
    java_newest.create_tag(path, "latest")
    java_newest.create_branch(path, "dev", tag="t1")
    assert java_newest.write(path, pa.table({"id": pa.array([9], pa.int32()), "v": ["dev"]}), branch="dev") == 2
    assert ids(java_newest.read(path)) == [1, 2, 3]
    assert ids(java_newest.read(path, tag="t1")) == [1, 2]
    assert ids(java_newest.read(path, tag="latest")) == [1, 2, 3]
    assert ids(java_newest.read(path, branch="dev")) == [1, 2, 9]
    assert ids(java_newest.read(path, branch="dev", snapshot_id=1)) == [1, 2]
    assert (Path(path) / "branch" / "branch-dev" / "snapshot" / "snapshot-2").is_file()
    t1 = json.loads((Path(path) / "snapshot" / "snapshot-1").read_text())["timeMillis"]
    assert ids(java_newest.read(path, timestamp_ms=t1)) == [1, 2]
    java_newest.fast_forward(path, "dev")
    assert ids(java_newest.read(path)) == [1, 2, 9]


# ------------------------------------------------------------------------------------------ predicates


def test_predicate_read_returns_exactly_the_matching_rows(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.pred", "id INT, f FLOAT, s STRING, t TIMESTAMP(9)",
                                    options={"file-index.bloom-filter.columns": "s"})
    java_newest.write(path, pa.table({
        "id": pa.array(range(10), pa.int32()),
        "f": pa.array([0.0, -0.0, float("nan"), 1.0, None, 2.5, -1.0, 3.0, 0.0, 4.0], pa.float32()),
        "s": ["a", "b", "c", "a", None, "b", "c", "a", "b", "z"],
        "t": pa.array([i * NS + i for i in range(10)], pa.timestamp("ns"))}))

    def ids(where, **kw) -> list[int]:
        return sorted(java_newest.read(path, where=where, **kw).column("id").to_pylist())

    # a data file holding every row: pruning alone would return all ten
    assert ids("s = 'a'") == [0, 3, 7]
    assert ids("s IN ('b', 'z') AND id > 1") == [5, 8, 9]
    assert ids("s IS NULL OR id = 6") == [4, 6]
    assert ids({"op": "eq", "field": "s", "literal": "c"}) == [2, 6]
    assert ids({"and": [{"op": "gte", "field": "id", "literal": 7}, {"op": "neq", "field": "s", "literal": "a"}]}) \
        == [8, 9]
    assert ids("t > TIMESTAMP '1970-01-01 00:00:07.000000006'") == [7, 8, 9]
    # Paimon's own semantics for floats: compare as Float.compare (NaN equals NaN, -0.0 below 0.0)
    assert ids("f = 0.0") == [0, 8]
    assert ids("f = NaN") == [2]
    # the filter column need not be projected
    got = java_newest.read(path, where="s = 'b'", projection=["f", "id"])
    assert got.column_names == ["f", "id"] and sorted(got.column("id").to_pylist()) == [1, 5, 8]


# ------------------------------------------------------------------------------------------ errors, versions


def test_java_errors_carry_javas_message_and_the_worker_survives(java_newest, tmp_path):
    path = java_newest.create_table(tmp_path, "db.err", "id INT")
    with pytest.raises(JavaError, match="already exists") as info:
        java_newest.create_table(tmp_path, "db.err", "id INT")
    assert info.value.java_class.endswith("TableAlreadyExistException")
    with pytest.raises(OracleError, match="not in the table"):
        java_newest.write(path, pa.table({"nope": [1]}))
    assert java_newest.read(path).num_rows == 0


def test_our_reader_opens_the_schema_of_a_java_table(java_newest, tmp_path):
    from paimon_codec.table import PaimonTable

    path = java_newest.create_table(tmp_path, "db.open", ALL_TYPES, primary_keys=["id"], options={"bucket": "1"})
    empty = java_newest.read(path)
    java_newest.write(path, _table(empty.schema, _all_type_rows()))
    table = PaimonTable(path)
    assert str(table.schema_of(table.snapshot()).fields) == java_newest.schema(path)


def test_paimon_09_worker_writes_what_newest_java_reads(java09_tables, java_newest, tmp_path):
    schema = "id INT NOT NULL, s STRING, d DECIMAL(20, 3), t TIMESTAMP(9), a ARRAY<ROW<x INT, y MAP<STRING, INT>>>"
    path = java09_tables.create_table(tmp_path, "db.v09", schema, primary_keys=["id"], options={"bucket": "2"})
    empty = java09_tables.read(path)
    rows = _table(empty.schema, [
        dict(id=1, s="a", d=decimal.Decimal("-1.250"), t=NS + 7, a=[{"x": 1, "y": [("k", 2)]}, None]),
        dict(id=2, s=None, d=None, t=None, a=[]),
    ])
    java09_tables.write(path, rows)
    java09_tables.write(path, rows.slice(0, 1), row_kinds=["-D"])
    assert_same_rows(java09_tables.read(path), rows.slice(1, 1), exact_floats=True, check_types=True)
    assert_same_rows(java_newest.read(path), java09_tables.read(path), exact_floats=True, check_types=True)
    assert_same_rows(java_newest.read(path, snapshot_id=1), rows, exact_floats=True, check_types=True)
