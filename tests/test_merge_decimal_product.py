"""The ``product`` aggregate over DECIMAL columns, as Paimon Java 1.4.2 folds it: each step multiplied exactly
and rounded HALF_UP to the column's scale (0.05 * 0.10 = 0.005 -> 0.01 at scale 2, where HALF_EVEN gives 0.00).
Ours refused every DECIMAL product (found by the random tables); compared with Java's read of its own
aggregation tables over several commits, with and without a full compaction.  A product past the column's
precision is NULL, as Java returns it, and the next input starts again.
"""

from __future__ import annotations

import decimal
import random

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference

from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

D = decimal.Decimal
VALUES = [D("0.05"), D("0.10"), D("1.50"), D("-2.35"), D("1.15"), D("0.01"), None]
# a key's only record passes unmerged: a 38-digit value must come back whole (abs() rounded it to 28 digits)
WIDE = D("9999999999999999999999999999.9999999999")


@pytest.mark.parametrize("fmt,compact", [("parquet", False), ("orc", True), ("avro", False)])
def test_decimal_product_as_java(java_newest, tmp_path, fmt, compact):
    path = java_newest.create_table(
        tmp_path, "db.p", "k INT NOT NULL, a DECIMAL(10, 2), b DECIMAL(20, 4), c DECIMAL(38, 10)", primary_keys=["k"],
        options={"bucket": "1", "file.format": fmt, "merge-engine": "aggregation",
                 **{f"fields.{c}.aggregate-function": "product" for c in "abc"}})
    rng = random.Random(5)
    for _ in range(4):
        ks = [rng.randrange(6) for _ in range(8)]
        java_newest.write(path, pa.table({
            "k": pa.array(ks, pa.int32()),
            **{c: pa.array([rng.choice(VALUES) for _ in ks], pa.decimal128(p, s))
               for c, p, s in (("a", 10, 2), ("b", 20, 4), ("c", 38, 10))}}))
    java_newest.write(path, pa.table({"k": pa.array([99], pa.int32()), "a": pa.array([None], pa.decimal128(10, 2)),
                                      "b": pa.array([None], pa.decimal128(20, 4)),
                                      "c": pa.array([WIDE], pa.decimal128(38, 10))}))
    if compact:
        java_newest.compact(path)
    assert row_set_difference(read_table(path), java_newest.read(path)) is None


@pytest.mark.parametrize("values", [("999.99", "999.99"), ("999.99", "999.99", "2.00"),
                                    ("500.00", "3.00", "0.10"), ("0.05", "0.10", "999.99")])
def test_decimal_product_past_precision_as_java(java_newest, tmp_path, values):
    path = java_newest.create_table(tmp_path, "db.big", "k INT NOT NULL, a DECIMAL(5, 2)", primary_keys=["k"],
                                    options={"bucket": "1", "merge-engine": "aggregation",
                                             "fields.a.aggregate-function": "product"})
    for v in values:
        java_newest.write(path, pa.table({"k": pa.array([1], pa.int32()), "a": pa.array([D(v)], pa.decimal128(5, 2))}))
    assert row_set_difference(read_table(path), java_newest.read(path)) is None
