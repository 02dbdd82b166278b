"""Shared by the tests that plan one scan two ways (threads, Spark tasks) and demand the same verdicts.

* :func:`assert_same_plans` - two plans of one scan agree: the plan report (but for the fields that say
  *how* it was planned) and, file by file in order, the path and the row selection;
* :func:`write_java_tables` - the tables those tests plan, written by Java Paimon 1.4.2: a partitioned
  append table with bitmap, bloom-filter and range-bitmap indexes in their own files over several commits,
  and a partitioned primary-key table with deletion vectors (a full compaction, then an update of every
  fourth row and a minor compaction).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import pyarrow as pa

__all__ = ["JAVA_SCHEMA", "JAVA_ARROW", "java_rows", "write_java_tables", "assert_same_plans"]

JAVA_SCHEMA = "id INT NOT NULL, p STRING NOT NULL, cat STRING, code INT, name STRING"
JAVA_ARROW = pa.schema([("id", pa.int32()), ("p", pa.string()), ("cat", pa.string()), ("code", pa.int32()),
                        ("name", pa.string())])
_INDEXES = {"file-index.bitmap.columns": "cat", "file-index.bloom-filter.columns": "name",
            "file-index.range-bitmap.columns": "code", "file-index.in-manifest-threshold": "1 b"}


def java_rows(start: int, n: int, salt: int = 0) -> pa.Table:
    """Rows ``start .. start + n`` of the tables' schema (values derived from the id and ``salt``)."""
    rows = [{"id": i, "p": "xy"[i % 2], "cat": f"c{(i * 7 + salt) % 9}", "code": (i * 13 + salt) % 100,
             "name": f"n{i}"} for i in range(start, start + n)]
    return pa.Table.from_pylist(rows, schema=JAVA_ARROW)


def write_java_tables(java_newest: Any, warehouse: Any, *, commits: int, rows_per_commit: int) -> dict[str, Any]:
    """``{"append": path, "pk_dv": path}`` written by ``java_newest`` (the oracle fixture) into ``warehouse``:
    the append table gets ``commits`` commits of ``rows_per_commit`` rows."""
    append = java_newest.create_table(warehouse, "db.append", JAVA_SCHEMA, partition_keys=["p"],
                                      options={"bucket": "-1", **_INDEXES})
    for k in range(commits):
        java_newest.write(append, java_rows(k * rows_per_commit, rows_per_commit))
    pk = java_newest.create_table(warehouse, "db.pk_dv", JAVA_SCHEMA, primary_keys=["id", "p"],
                                  partition_keys=["p"],
                                  options={"bucket": "2", "deletion-vectors.enabled": "true", **_INDEXES})
    java_newest.write(pk, java_rows(0, 240))
    java_newest.compact(pk, full=True)
    java_newest.write(pk, java_rows(0, 240).filter(pa.compute.equal(pa.compute.bit_wise_and(
        pa.compute.field("id"), 3), 0)).set_column(2, "cat", pa.array(["c8"] * 60)))
    java_newest.compact(pk, full=False)
    return {"append": append, "pk_dv": pk}


def assert_same_plans(expected: Any, got: Any, where: Any, ignore: Collection[str]) -> None:
    """Plans ``expected`` and ``got`` (``plan_scan`` results) hold the same verdicts: equal reports but for
    the fields in ``ignore``, and the same files in the same order with the same row selections."""
    want = {k: v for k, v in expected.report.to_dict().items() if k not in ignore}
    have = {k: v for k, v in got.report.to_dict().items() if k not in ignore}
    assert have == want, where
    assert [(t.path, t.selection_bytes()) for t in got.tasks] == \
        [(t.path, t.selection_bytes()) for t in expected.tasks], where
