"""Merges whose outcome Paimon does not define by a total order: the read refuses them in one line
instead of answering with rows Paimon does not return.

* ``min`` / ``max`` aggregates on a BOOLEAN column: Paimon's ``InternalRowUtils.compare`` cannot compare
  booleans, so its read fails as soon as two non-null values of one key meet ("Incomparable type");
  ours answered with Arrow's min / max.

Tables are written by Paimon Java 1.4.2 (``java_newest``) without compaction (every commit is a sorted
run the read merges) and read by Java and by ``plan_scan`` + ``read_plan_locally``.
"""

from __future__ import annotations

import pytest

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.table.plan import plan_scan
from paimon_codec.table.read import read_plan_locally

def _rows(table, columns):
    return sorted([repr(r[c]) for c in columns] for r in table.to_pylist())


def test_boolean_min_max_fail_like_java(java_newest, tmp_path):
    from oracles.java_newest import JavaError

    path = java_newest.create_table(tmp_path, "db.bool_max", "id INT NOT NULL, b BOOLEAN, c BOOLEAN",
                                    primary_keys=["id"],
                                    options={"bucket": "1", "merge-engine": "aggregation", "write-only": "true",
                                             "fields.b.aggregate-function": "max",
                                             "fields.c.aggregate-function": "min"})
    java_newest.write(path, [{"id": 1, "b": True, "c": None}, {"id": 2, "b": None, "c": False}])
    java_newest.write(path, [{"id": 1, "b": None, "c": True}, {"id": 3, "b": False, "c": None}])
    # one non-null value per key: nothing to compare, Paimon reads it
    expected = _rows(java_newest.read(path), ["id", "b", "c"])
    assert expected == [["1", "True", "True"], ["2", "None", "False"], ["3", "False", "None"]]
    assert _rows(read_plan_locally(plan_scan(path)), ["id", "b", "c"]) == expected
    java_newest.write(path, [{"id": 2, "b": None, "c": True}])     # key 2: two non-null values of c
    with pytest.raises(JavaError, match="Incomparable type: BOOLEAN"):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="'min' on a bool column met two non-null values"):
        read_plan_locally(plan_scan(path))
