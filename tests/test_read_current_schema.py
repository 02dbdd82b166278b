"""A latest read uses the table's current schema, a time-travel read the snapshot's (as Paimon does).

An ``ALTER TABLE`` writes a new schema file but no snapshot: Java's next read already shows the new
column names, types and added columns, while reading an older snapshot shows that snapshot's schema.
"""

from __future__ import annotations

import pyarrow as pa
from oracles.compare import assert_same_rows

from paimon_codec.reading import read_table


def test_alter_without_commit_reads_with_current_schema(java_newest, tmp_path):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, v INT, s STRING")
    java_newest.write(path, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "v": pa.array([10, None, 30], pa.int32()),
                                      "s": ["a", "b", None]}))
    java_newest.alter(path, [{"op": "rename", "from": "s", "to": "name"}, {"op": "type", "name": "v", "type": "BIGINT"},
                             {"op": "add", "name": "extra", "type": "DOUBLE"}])
    ours = read_table(path)
    theirs = java_newest.read(path)
    assert ours.schema.names == ["id", "v", "name", "extra"] == theirs.schema.names
    assert_same_rows(ours, theirs)
    assert_same_rows(read_table(path, "name = 'a' AND v > 5"), java_newest.read(path, where="name = 'a' AND v > 5"))
    old = read_table(path, snapshot_id=1)
    assert old.schema.names == ["id", "v", "s"] == java_newest.read(path, snapshot_id=1).schema.names
    assert_same_rows(old, java_newest.read(path, snapshot_id=1))


def test_a_table_opened_before_an_alter_reads_its_latest_snapshot_with_the_new_schema(java_newest, tmp_path):
    """Review finding: a :class:`PaimonTable` kept open loaded the schema once, so after ``ALTER TABLE`` (INT ->
    BIGINT, a rename) and a commit its latest reads cast the new files back to the old types - ``2^40 + 7``
    read as ``7``, and ``i = 7`` returned a row Java does not."""
    from paimon_codec.table import PaimonTable

    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, i INT, s STRING")
    java_newest.write(path, pa.table({"id": pa.array([1], pa.int32()), "i": pa.array([5], pa.int32()), "s": ["a"]}))
    table = PaimonTable(path)
    assert_same_rows(read_table(table), java_newest.read(path))
    java_newest.alter(path, [{"op": "type", "name": "i", "type": "BIGINT"}, {"op": "rename", "from": "s", "to": "s2"}])
    assert read_table(table).schema.names == ["id", "i", "s2"]  # an ALTER without a commit: Java's names too
    java_newest.write(path, pa.table({"id": pa.array([2], pa.int32()), "i": pa.array([2**40 + 7], pa.int64()),
                                      "s2": ["b"]}))
    for where in (None, "i = 7", "i > 6", "s2 = 'b'"):
        ours = read_table(table, where)
        assert ours.schema.names == ["id", "i", "s2"], where
        assert_same_rows(ours, java_newest.read(path, where=where))
    old = read_table(table, snapshot_id=1)  # time travel still reads with the snapshot's schema
    assert old.schema.names == ["id", "i", "s"]
    assert_same_rows(old, java_newest.read(path, snapshot_id=1))
