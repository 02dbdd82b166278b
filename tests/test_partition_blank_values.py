"""Partition values that are null, empty or whitespace only (``""``, ``" "``, ``"\\t"``): Paimon Java 1.4.2
writes their rows under the default partition name (``partition.default-name``) but keeps each row's own
value, so ``""`` reads back as ``""`` and NULL as NULL from the same directory.  We read Java's tables, and
our writer puts such rows where Java would, so Java reads ours."""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.reading import read_table
from paimon_codec.table.paths import is_blank_partition_text
from paimon_codec.writing import append_arrow, create_table

pytestmark = pytest.mark.java

VALUES = [None, "", " ", "\t", "  \u3000", "\u00a0", "a", " a"]
SCHEMA = pa.schema([("id", pa.int32()), ("p", pa.string()), ("v", pa.int64())])
WHERES = [None, "p = ''", "p = ' '", "p IS NULL", "p IS NOT NULL", "p > 'a'", "p < 'a'", "v >= 3"]


def _rows(nulls: bool = True) -> pa.Table:
    values = VALUES if nulls else [v for v in VALUES if v is not None]  # a primary key is NOT NULL
    return pa.table({"id": pa.array(range(len(values)), pa.int32()), "p": values,
                     "v": pa.array(range(len(values)), pa.int64())}, schema=SCHEMA)


def _partition_dirs(path: str) -> set[str]:
    return {d for d in os.listdir(path) if d.startswith("p=")}


def test_java_blank_rule_is_character_iswhitespace():
    assert is_blank_partition_text("") and is_blank_partition_text(" \t\u3000\u2028")
    assert not is_blank_partition_text("\u00a0") and not is_blank_partition_text("\u0085")


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
@pytest.mark.parametrize("pk", [False, True], ids=["append", "pk"])
def test_blank_partition_values_read_as_java_reads_them(java_newest, tmp_path, fmt, pk):
    opts = {"file.format": fmt, "bucket": "1" if pk else "-1"}
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT NOT NULL, p STRING, v BIGINT",
                                    primary_keys=["id", "p"] if pk else [], partition_keys=["p"], options=opts)
    java_newest.write(path, _rows(nulls=not pk))
    assert "p=__DEFAULT_PARTITION__" in _partition_dirs(path)
    for where in WHERES:
        assert_same_rows(read_table(path, where), java_newest.read(path, where=where), what=f"{fmt} {where}")


def test_our_writer_puts_blank_values_where_java_does(java_newest, tmp_path):
    java_path = java_newest.create_table(str(tmp_path), "db.j", "id INT, p STRING, v BIGINT",
                                         partition_keys=["p"], options={"file.format": "parquet"})
    java_newest.write(java_path, _rows())
    ours = create_table(tmp_path / "db.db" / "o", SCHEMA, {"file.format": "parquet"}, partition_keys=["p"])
    append_arrow(ours, _rows())
    assert _partition_dirs(ours) == _partition_dirs(java_path)
    # one directory for NULL, "", " ", "\t", "  \u3000"; each row keeps its own value (NULL stays NULL)
    assert sorted(_partition_dirs(java_path)) == ["p= a", "p=__DEFAULT_PARTITION__", "p=a", "p=\u00a0"]
    assert sorted(java_newest.read(java_path).column("p").to_pylist(), key=repr) == sorted(VALUES, key=repr)
    for where in WHERES:
        assert_same_rows(java_newest.read(ours, where=where), java_newest.read(java_path, where=where), what=where)
        assert_same_rows(read_table(ours, where), java_newest.read(java_path, where=where), what=where)
