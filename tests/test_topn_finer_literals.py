"""Top-N under a TIMESTAMP literal finer than the range bitmap's key (millis for p <= 3, micros for p 4..6).

Review finding: top-N is pushed down only where the indexes answer the predicate *exactly*; a range bitmap
answers ``ts > t + 0.5 ms`` on a TIMESTAMP(3) column as ``ts >= t`` (its keys are whole millis), a superset
holding the row at ``t``, which does not match.  The planner still counted that leaf as exact, so each file's
top-``n`` candidates were taken from the superset: ``ts > t + 0.5 ms ORDER BY ts LIMIT 1`` kept only the row at
``t`` of the first file (dropped by the row filter afterwards) and returned a row of another file instead of
the one at ``t + 1 ms``; the same for ``>=``, ``BETWEEN`` and ``IN`` with such literals, on micros keys too.

Expected rows: Paimon's row semantics, a full read filtered with exact comparisons (brute force in
nanoseconds over Java 1.4.2's whole read, sorted and cut in Python); Java's own filtered read is not the
reference here - its range bitmap truncates such literals too (``ts < t + 2.5 ms`` loses the row at ``t + 2``).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

from paimon_codec.expressions import parse_where
from paimon_codec.reading.local_read import read_table
from paimon_codec.values import Timestamp

BASE = dt.datetime(2024, 1, 1)
ARROW = pa.schema([("id", pa.int32()), ("ts", pa.timestamp("ms")), ("t6", pa.timestamp("us"))])
FILES = [[0, 1, 2, 3], [10, 11], [4, 7], [5]]  # offsets (distinct: no ties): ts in ms, t6 in us


CASES = [  # (where, column, order, limit)
    ("ts > TIMESTAMP '2024-01-01 00:00:00.0005'", "ts", "asc", 1),
    ("ts > TIMESTAMP '2024-01-01 00:00:00.0005'", "ts", "asc", 3),
    ("ts >= TIMESTAMP '2024-01-01 00:00:00.0015'", "ts", "asc", 1),
    ("ts BETWEEN TIMESTAMP '2024-01-01 00:00:00.0015' AND TIMESTAMP '2024-01-01 00:00:00.009'", "ts", "asc", 2),
    ("ts IN (TIMESTAMP '2024-01-01 00:00:00.0005', TIMESTAMP '2024-01-01 00:00:00.003')", "ts", "asc", 1),
    ("ts < TIMESTAMP '2024-01-01 00:00:00.0025'", "ts", "desc", 1),
    ("ts <= TIMESTAMP '2024-01-01 00:00:00.0105'", "ts", "desc", 2),
    ("ts = TIMESTAMP '2024-01-01 00:00:00.0025' OR ts > TIMESTAMP '2024-01-01 00:00:00.0095'", "ts", "asc", 1),
    ("t6 > TIMESTAMP '2024-01-01 00:00:00.0000005'", "t6", "asc", 1),
    ("t6 >= TIMESTAMP '2024-01-01 00:00:00.0000065'", "t6", "asc", 2),
    ("t6 IN (TIMESTAMP '2024-01-01 00:00:00.0000001', TIMESTAMP '2024-01-01 00:00:00.000005')", "t6", "asc", 1),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("topn_finer"), "db.t", "id INT, ts TIMESTAMP(3), t6 TIMESTAMP(6)",
                                    options={"bucket": "-1", "file-index.range-bitmap.columns": "ts,t6"})
    start = 0
    for offsets in FILES:
        ids = list(range(start, start + len(offsets)))
        java_newest.write(path, pa.table({"id": ids, "ts": [BASE + dt.timedelta(milliseconds=k) for k in offsets],
                                          "t6": [BASE + dt.timedelta(microseconds=k) for k in offsets]}, schema=ARROW))
        start += len(offsets)
    return path


def _holds(leaf, v: int) -> bool:
    lits = [x.to_nanos() for x in leaf.literals]
    return {"gt": lambda: v > lits[0], "gte": lambda: v >= lits[0], "lt": lambda: v < lits[0],
            "lte": lambda: v <= lits[0], "eq": lambda: v == lits[0], "in": lambda: v in lits,
            "between": lambda: lits[0] <= v <= lits[1]}[leaf.op]()


def _brute(everything: pa.Table, where: str, column: str, order: str, limit: int) -> list[int]:
    pred = parse_where(where)
    kids = getattr(pred, "children", None) or (pred,)
    rows = [(r["id"], Timestamp.from_datetime(r[column]).to_nanos()) for r in everything.to_pylist()]
    hits = [(i, v) for i, v in rows if any(_holds(k, v) for k in kids)]  # the OR of its leaves (or one leaf)
    hits.sort(key=lambda iv: iv[1], reverse=order == "desc")
    return [i for i, _ in hits[:limit]]


@pytest.mark.parametrize("where,column,order,limit", CASES)
def test_topn_returns_the_exact_rows(table, java_newest, where, column, order, limit):
    expected = _brute(java_newest.read(table), where, column, order, limit)
    assert expected, where  # every case has an answer
    got = read_table(table, where, order_by=f"{column} {order}", limit=limit).column("id").to_pylist()
    assert got == expected, where
