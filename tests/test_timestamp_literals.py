"""A TIMESTAMP literal finer than the unit its column is read in (nanoseconds on a TIMESTAMP(0..6) column, read
as Arrow / Spark microseconds): no value equals it, and it lies strictly between two microsecond values.

Review finding: the Arrow filter of local reads and Spark's residual filter cut such a literal to whole
microseconds, so ``ts = <t + 500 ns>`` returned the row holding ``t``, ``ts <> ...`` and ``ts NOT IN (...)``
lost it and ``ts >= ...`` returned it - rows neither an exact comparison nor Java Paimon 1.4.2 returns.
The reference is an exact comparison in nanoseconds over Java's whole read, and Java's filtered read where
its file pruning is not lossy (it converts the literal to the column's unit for Parquet's statistics
filter, so ``ts < <t + 500 ns>`` drops the file holding ``t``).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions import make_leaf
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.values import Timestamp

BASE = dt.datetime(2024, 1, 1)
BASE_MS = int((BASE - dt.datetime(1970, 1, 1)).total_seconds() * 1000)
ARROW = pa.schema([("id", pa.int32()), ("ts", pa.timestamp("us")), ("t3", pa.timestamp("ms")),
                   ("t0", pa.timestamp("us"))])
FINE = [Timestamp(BASE_MS, 500), Timestamp(BASE_MS, 1_999), Timestamp(BASE_MS - 1, 999_999), Timestamp(BASE_MS + 1, 1)]
OPS = ("eq", "neq", "lt", "lte", "gt", "gte")


def L(op, col, *lits):  # noqa: N802
    return make_leaf(op, col, tuple(lits))


def predicates() -> list:
    out = []
    for c in ("ts", "t3", "t0"):
        out += [L(op, c, v) for op in OPS for v in FINE]
        out += [L("in", c, FINE[0]), L("in", c, FINE[0], Timestamp(BASE_MS, 1000)), L("not_in", c, FINE[0]),
                L("not_in", c, FINE[1], Timestamp(BASE_MS, 0)), L("between", c, FINE[0], FINE[3]),
                L("between", c, FINE[2], FINE[0]), L("gte", c, FINE[0]).negate()]
    return out


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("ts_literals"), "db.t",
                                    "id INT, ts TIMESTAMP(6), t3 TIMESTAMP(3), t0 TIMESTAMP(0)", options={"bucket": "-1"})
    us, ms = dt.timedelta(microseconds=1), dt.timedelta(milliseconds=1)
    rows = [(BASE, BASE, BASE), (BASE + us, BASE + ms, BASE + dt.timedelta(seconds=1)), (BASE - us, BASE - ms, None),
            (BASE + 2 * us, BASE + 2 * ms, BASE - dt.timedelta(seconds=1))]
    java_newest.write(path, pa.table({"id": list(range(len(rows))), "ts": [r[0] for r in rows],
                                      "t3": [r[1] for r in rows], "t0": [r[2] for r in rows]}, schema=ARROW))
    return path


def _nanos(v) -> int | None:
    if v is None:
        return None
    return int((v - dt.datetime(1970, 1, 1)) / dt.timedelta(microseconds=1)) * 1000


def _exact(everything: pa.Table, pred) -> list[int]:
    """``pred`` (one leaf or its negation) compared exactly in nanoseconds."""
    from paimon_codec.expressions.predicate import Or

    if isinstance(pred, Or):
        return sorted(set().union(*(_exact(everything, c) for c in pred.children)))
    col = everything.column(pred.column).to_pylist()
    lits = [None if v is None else v.to_nanos() for v in pred.literals]
    out = []
    for i, v in zip(everything.column("id").to_pylist(), map(_nanos, col), strict=True):
        if v is not None and _holds(pred.op, v, lits):
            out.append(i)
    return sorted(out)


def _holds(op: str, v: int, lits: list) -> bool:
    if op in ("in", "not_in"):
        return (v in lits) if op == "in" else (v not in lits and None not in lits)
    if op == "between":
        return lits[0] <= v <= lits[1]
    x = lits[0]
    return {"eq": v == x, "neq": v != x, "lt": v < x, "lte": v <= x, "gt": v > x, "gte": v >= x}[op]


def _local(path: str, pred) -> list[int]:
    plan = plan_scan(path, pred)
    return sorted(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type).column("id").to_pylist())


def test_local_reads_compare_finer_literals_exactly(table, java_newest):
    everything = java_newest.read(table)
    for pred in predicates():
        exact = _exact(everything, pred)
        assert _local(table, pred) == exact, str(pred)
        if pred.op not in ("lt", "between") and not pred.has_or():  # Java's pruning is exact there
            assert sorted(java_newest.read(table, where=pred).column("id").to_pylist()) == exact, str(pred)


def test_spark_scans_compare_finer_literals_exactly(table, java_newest, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    everything = java_newest.read(table)
    for pred in [L(op, "ts", FINE[0]) for op in OPS] + [L("not_in", "t3", FINE[0]), L("in", "t0", FINE[0]),
                                                          L("between", "ts", FINE[2], FINE[0])]:
        for driver_rows in (0, 65_536):
            df, _ = scan(spark, table, pred, driver_rows=driver_rows)
            assert sorted(r["id"] for r in df.collect()) == _exact(everything, pred), (str(pred), driver_rows)
