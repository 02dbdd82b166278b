"""``sum`` aggregates over DECIMAL columns, as Paimon's ``FieldSumAgg`` adds them (retractions subtract),
against Java 1.4.2's read (``java_newest``) of seeded random commits (no compaction: every commit is a
sorted run the read merges).  Ours refused every DECIMAL sum.  A key whose values could add up beyond the
column's precision is refused: Paimon does not keep such a partial sum exactly (null above 18 digits).
"""

from __future__ import annotations

import decimal
import random

from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.read import read_plan_locally

COLUMNS = ["id", "small", "wide"]


def _rows(table):
    return sorted([r[c] for c in COLUMNS] for r in table.to_pylist())


def _table(java, tmp_path, name: str, small: str):
    return java.create_table(tmp_path, f"db.{name}", f"id INT NOT NULL, small {small}, wide DECIMAL(38, 10)",
                             primary_keys=["id"],
                             options={"bucket": "1", "write-only": "true", "merge-engine": "aggregation",
                                      "fields.small.aggregate-function": "sum",
                                      "fields.wide.aggregate-function": "sum"})


def test_decimal_sums_read_like_java(java_newest, tmp_path):
    rng = random.Random(12)
    path = _table(java_newest, tmp_path, "dec", "DECIMAL(10, 2)")
    for _ in range(5):
        rows = [{"id": rng.randrange(8),
                 "small": rng.choice([None, decimal.Decimal(rng.randrange(-10**6, 10**6)) / 100]),
                 "wide": rng.choice([None, decimal.Decimal(rng.randrange(-10**20, 10**20)) / 10**10])}
                for _ in range(12)]
        java_newest.write(path, rows, row_kinds=[rng.choice(("+I", "+I", "+U", "-U", "-D")) for _ in rows])
    expected = _rows(java_newest.read(path))
    assert any(r[1] is not None for r in expected)
    assert _rows(read_plan_locally(plan_scan(path))) == expected


def test_partial_sums_beyond_the_precision(java_newest, tmp_path):
    """Up to 18 digits Paimon adds exactly even past the precision (999.99 + 999.99 - 999.99 = 999.99 in a
    DECIMAL(5, 2)); above 18 digits such a partial sum becomes null and the sum starts again (Java reads
    -9e17 for 9e17 + 9e17 - 9e17 in a DECIMAL(20, 2)), folded in record order as Java does."""
    path = java_newest.create_table(tmp_path, "db.overflow", "id INT NOT NULL, small DECIMAL(5, 2), "
                                    "wide DECIMAL(20, 2)", primary_keys=["id"],
                                    options={"bucket": "1", "write-only": "true", "merge-engine": "aggregation",
                                             "fields.small.aggregate-function": "sum",
                                             "fields.wide.aggregate-function": "sum"})
    for small, kind in (("999.99", "+I"), ("999.99", "+I"), ("999.99", "-U")):
        java_newest.write(path, [{"id": 1, "small": decimal.Decimal(small)}], row_kinds=[kind])
    expected = _rows(java_newest.read(path))
    assert expected == [[1, decimal.Decimal("999.99"), None]]
    assert _rows(read_plan_locally(plan_scan(path))) == expected
    for wide, kind in (("900000000000000000", "+I"), ("900000000000000000", "+I"), ("900000000000000000", "-U")):
        java_newest.write(path, [{"id": 2, "wide": decimal.Decimal(wide)}], row_kinds=[kind])
    expected = _rows(java_newest.read(path))
    assert [r for r in expected if r[0] == 2] == [[2, None, decimal.Decimal("-9E+17")]]
    assert _rows(read_plan_locally(plan_scan(path))) == expected
