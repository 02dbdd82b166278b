"""A primary-key table with ``scan.fallback-branch``: the partitions read from the fallback branch are
merged by the fallback's own merge options in Paimon (``FallbackReadFileStoreTable`` reads them through
the fallback table).  Ours merged them with the main branch's: an aggregate function or a sequence order
changed on the branch gave other rows (sum 18 where Java 1.4.2 reads max 9).  A fallback branch whose
merge differs was then refused in one line; it is now planned as a table of its own
(:mod:`paimon_codec.planning.fallback`) and read as Java reads it, as is one that merges the same.

Tables, branches and their writes are Java 1.4.2's (``java_newest``); Java's read is the oracle.
"""

from __future__ import annotations

import random

import pytest

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

COLUMNS = ["p", "id", "n", "s"]


def _table(java, tmp_path, name: str, branch_change: dict | None) -> str:
    path = java.create_table(tmp_path, f"db.{name}", "p INT NOT NULL, id INT NOT NULL, n INT, s INT",
                             primary_keys=["p", "id"], partition_keys=["p"],
                             options={"bucket": "1", "merge-engine": "aggregation",
                                      "fields.n.aggregate-function": "sum", "sequence.field": "s"})
    java.write(path, [{"p": 1, "id": 1, "n": 1, "s": 1}])
    java.create_branch(path, "fb")
    if branch_change:
        java.alter(path, [{"op": "set", **branch_change}], branch="fb")
    rng = random.Random(name)
    for commit in range(4):
        java.write(path, [{"p": 2, "id": rng.randrange(3), "n": rng.randrange(10), "s": rng.randrange(5)}
                          for _ in range(6)], branch="fb")
        if commit == 1:
            java.compact(path, branch="fb")
    java.alter(path, [{"op": "set", "key": "scan.fallback-branch", "value": "fb"}])
    return path


def _rows(table):
    return sorted([r[c] for c in COLUMNS] for r in table.to_pylist())


@pytest.mark.parametrize("change", [{"key": "fields.n.aggregate-function", "value": "max"},
                                    {"key": "sequence.field.sort-order", "value": "descending"}])
def test_fallback_branch_merging_otherwise_reads_like_java(java_newest, tmp_path, change):
    """(Refused before fallback_read.py: the fallback's partitions are now merged by its own options.)"""
    path = _table(java_newest, tmp_path, "t", change)
    expected = _rows(java_newest.read(path))
    assert any(r[0] == 2 for r in expected)       # rows of the fallback's partition
    assert _rows(read_plan_locally(plan_scan(path))) == expected


def test_fallback_branch_merging_alike_reads_like_java(java_newest, tmp_path):
    path = _table(java_newest, tmp_path, "same", None)
    expected = _rows(java_newest.read(path))
    assert any(r[0] == 2 for r in expected)
    assert _rows(read_plan_locally(plan_scan(path))) == expected
