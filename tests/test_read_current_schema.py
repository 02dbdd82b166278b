"""A latest read uses the table's current schema, a time-travel read the snapshot's (as Paimon does).

An ``ALTER TABLE`` writes a new schema file but no snapshot: Java's next read already shows the new
column names, types and added columns, while reading an older snapshot shows that snapshot's schema.
"""

from __future__ import annotations

import pyarrow as pa
from oracles.compare import assert_same_rows

from paimon_codec.table import read_table


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
