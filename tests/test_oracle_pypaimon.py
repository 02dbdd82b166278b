"""Self-test of the pypaimon 2.1 oracle (tests/oracles/pypaimon21.py): its venv, writes, alters and reads."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pyarrow as pa
import pytest
from oracles.pypaimon21 import OracleError, pypaimon_venv, schema_fields

from paimon_codec.table import PaimonTable


def test_venv_has_the_pinned_versions(pypaimon21):
    assert pypaimon_venv() == pypaimon21.python
    v = pypaimon21.versions
    assert v["pypaimon"] == "2.1.0"
    assert v["pyarrow"].split(".")[0] == "19"
    assert v["pypaimon_rust"] == "0.4.0" and v["native_write"] is True


def test_schema_fields_use_paimons_schema_json():
    assert schema_fields("a INT NOT NULL, m MAP<STRING, ARRAY<BIGINT>>, r ROW<x DOUBLE, y STRING>") == [
        {"name": "a", "type": "INT NOT NULL"},
        {"name": "m", "type": {"type": "MAP", "key": "STRING", "value": {"type": "ARRAY", "element": "BIGINT"}}},
        {"name": "r", "type": {"type": "ROW", "fields": [{"name": "x", "type": "DOUBLE"},
                                                          {"name": "y", "type": "STRING"}]}},
    ]


def test_create_write_read_round_trip(pypaimon21, tmp_path):
    path = pypaimon21.create_table(tmp_path, "t", "id INT, p STRING, d DATE, amount DECIMAL(10, 2)",
                                   partition_keys=["p"], options={"bucket": "-1"})
    rows = pa.table({"id": [1, 2, 3], "p": ["a", "b", "a"],
                     "d": [dt.date(2024, 1, i) for i in (1, 2, 3)],
                     "amount": pa.array([Decimal("1.50"), None, Decimal("3.25")], pa.decimal128(10, 2))})
    assert pypaimon21.write(path, rows) == 1
    assert pypaimon21.write(path, rows) == 2
    schema = PaimonTable(path).schema_of(None)
    assert list(schema.partition_keys) == ["p"] and [f.name for f in schema.fields] == ["id", "p", "d", "amount"]
    assert pypaimon21.read(path).num_rows == 6
    assert pypaimon21.read(path, snapshot_id=1).num_rows == 3
    got = pypaimon21.read(path, where="d BETWEEN DATE '2024-01-02' AND DATE '2024-01-03' AND amount > 2",
                          projection=["id"])
    assert got.column_names == ["id"] and got.column("id").to_pylist() == [3, 3]
    # JSON predicates (docs/predicates.md) too; a null never matches
    assert pypaimon21.read(path, where={"op": "neq", "field": "amount", "literal": "1.50"}).num_rows == 2
    assert pypaimon21.read(path, where={"or": [{"op": "eq", "field": "p", "literal": "b"},
                                               {"op": "is_null", "field": "amount"}]}).num_rows == 2


def test_overwrite_alter_and_native_writer(pypaimon21, tmp_path):
    path = pypaimon21.create_table(tmp_path, "t", "id INT, v INT")
    pypaimon21.write(path, pa.table({"id": [1, 2], "v": [10, 20]}), native=True)
    pypaimon21.write(path, pa.table({"id": [3], "v": [30]}), overwrite=True)
    pypaimon21.alter(path, [{"op": "rename", "from": "v", "to": "w"}, {"op": "type", "name": "w", "type": "BIGINT"},
                            {"op": "add", "name": "note", "type": "STRING"}, {"op": "set", "key": "k", "value": "1"}])
    fields = PaimonTable(path).schema_of(None).fields
    assert [(f.name, str(f.type)) for f in fields] == [("id", "INT"), ("w", "BIGINT"), ("note", "STRING")]
    assert pypaimon21.read(path).to_pylist() == [{"id": 3, "w": 30, "note": None}]


def test_native_writer_that_is_not_taken_is_an_error(pypaimon21, tmp_path):
    # pypaimon-rust writes parquet only: an ORC table falls back to Python, which the oracle must not hide
    path = pypaimon21.create_table(tmp_path, "t", "id INT", options={"file.format": "orc"})
    with pytest.raises(OracleError, match="native"):
        pypaimon21.write(path, pa.table({"id": [1]}), native=True)


def test_run_and_worker_errors(pypaimon21, tmp_path):
    assert pypaimon21.run("result = kwargs['x'] + 1", x=41) == 42
    assert pypaimon21.run("result = pa.table({'a': [1, 2]})").to_pylist() == [{"a": 1}, {"a": 2}]
    with pytest.raises(OracleError, match="ZeroDivisionError"):
        pypaimon21.run("1 / 0")
    assert pypaimon21.run("result = 'still alive'") == "still alive"
