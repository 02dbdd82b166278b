"""CHAR(n) columns as Paimon Java 1.4.2 reads them, per format: ORC pads CHAR values in the file and
Java's ORC reader trims them (``"a"``, where pyarrow gave ``"a   "``), Parquet and Avro keep what was
written (``"ab  "`` stays).  Nested CHAR too.  Java prunes ORC files and row groups by the padded ORC
statistics, so ``c = 'a'`` can return no row where ``'a'`` is stored: predicates whose answer that
pruning can change are refused on ORC files, the others (``>``, ``>=``, prefix LIKE, ``<>``, null tests)
select exactly Java's rows."""

from __future__ import annotations

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

SCHEMA = pa.schema([("id", pa.int32()), ("c", pa.string()),
                    ("r", pa.struct([("x", pa.string()), ("a", pa.list_(pa.string()))])),
                    ("m", pa.map_(pa.string(), pa.string()))])
ROWS = [dict(id=1, c="a", r={"x": "b ", "a": ["c", None, ""]}, m=[("k", "v")]), dict(id=2, c="ab  ", r=None, m=None),
        dict(id=3, c="", r={"x": None, "a": None}, m=[("", " ")]), dict(id=4, c=None), dict(id=5, c="aot "),
        dict(id=6, c="aou"), dict(id=7, c=" a"), dict(id=8, c="a\tb")]
EXACT = [None, "c > 'aot'", "c >= 'ab'", "c > ''", "c LIKE 'a%'", "c <> 'a'", "c IS NULL", "c IS NOT NULL",
         "c > 'a' AND id < 7", "c >= 'aou' OR id = 1"]
PRUNED = ["c = 'a'", "c < 'ab'", "c <= 'a'", "c = ''", "c IN ('a', 'aou')", "c BETWEEN 'a' AND 'b'",
          "c <> 'ab  '", "id = 1 OR c = 'a'"]


@pytest.mark.parametrize("fmt", ["orc", "parquet", "avro"])
def test_char_reads_and_filters_as_java(java_newest, tmp_path, fmt):
    path = java_newest.create_table(str(tmp_path), "db.t",
                                    "id INT, c CHAR(4), r ROW<x CHAR(3), a ARRAY<CHAR(2)>>, m MAP<CHAR(2), CHAR(3)>",
                                    options={"file.format": fmt})
    java_newest.write(path, pa.Table.from_pylist(ROWS[:5], schema=SCHEMA))
    java_newest.write(path, pa.Table.from_pylist(ROWS[5:], schema=SCHEMA))
    for where in EXACT:
        assert_same_rows(read_table(path, where), java_newest.read(path, where=where), what=f"{fmt}: {where}")
    for where in PRUNED:
        if fmt == "orc":
            with pytest.raises(UnsupportedTypeError, match="CHAR column c of ORC data files"):
                read_table(path, where)
        else:
            assert_same_rows(read_table(path, where), java_newest.read(path, where=where), what=f"{fmt}: {where}")


def test_orc_char_after_type_change_to_string(java_newest, tmp_path):
    """A file written while the column was CHAR is trimmed by its own type, then cast (as Java does)."""
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, c CHAR(4)", options={"file.format": "orc"})
    java_newest.write(path, pa.table({"id": pa.array([1, 2], pa.int32()), "c": ["a", "ab  "]}))
    java_newest.alter(path, [{"op": "type", "name": "c", "type": "STRING"}])
    java_newest.write(path, pa.table({"id": pa.array([3], pa.int32()), "c": ["x  "]}))
    for where in (None, "c = 'a'", "c = 'x  '"):
        assert_same_rows(read_table(path, where), java_newest.read(path, where=where), what=str(where))
