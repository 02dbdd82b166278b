"""The local exact filter selects the same rows as Spark's filter of the same predicate.

Spark is the reference: its NaN / -0.0 / NULL semantics are what a scan on Spark returns, so a
read without Spark must agree with it row for row.
"""

from __future__ import annotations

import math

import numpy as np
import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions.sql import parse_where
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.spark.filters import to_spark_column
from paimon_codec.spark.types import spark_schema
from paimon_codec.types import parse_row_type

pytestmark = pytest.mark.spark

ROW_TYPE = parse_row_type("id INT, f DOUBLE, g FLOAT, n BIGINT, s STRING, d DATE")

WHERES = [
    "f = 0.0", "f = -0.0", "f <> 0.0", "f > 0.0", "f >= -0.0", "f < 1.5", "f <= 0.0", "f > 1e300",
    "f IN (0.0, 2.5)", "f NOT IN (0.0, 2.5)", "f IS NULL", "f IS NOT NULL", "g = 0.0", "g > -1.0",
    "n = 3", "n <> 3", "n IN (1, 2, NULL)", "n NOT IN (1, 2)", "n NOT IN (1, NULL)", "n BETWEEN 2 AND 5",
    "s = 'b'", "s > 'b'", "s LIKE 'a%'", "s IN ('a', 'c')", "s NOT IN ('a')",
    "(f > 0.0 OR n < 2) AND s IS NOT NULL", "f > 0.0 OR n IS NULL", "d < DATE '1970-01-05'",
]


def _table(seed: int) -> pa.Table:
    rng = np.random.default_rng(seed)
    n = 200
    pool = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, 2.5, -1.0, 1e308]
    f = [None if rng.random() < 0.1 else pool[rng.integers(len(pool))] for _ in range(n)]
    g = [None if rng.random() < 0.1 else pool[rng.integers(len(pool) - 1)] for _ in range(n)]
    nn = [None if rng.random() < 0.1 else int(rng.integers(0, 7)) for _ in range(n)]
    s = [None if rng.random() < 0.1 else "abcd"[rng.integers(4)] + "xy"[rng.integers(2)] * int(rng.integers(2))
         for _ in range(n)]
    d = [None if rng.random() < 0.1 else int(rng.integers(0, 10)) for _ in range(n)]
    return pa.table({"id": pa.array(range(n), pa.int32()), "f": pa.array(f, pa.float64()),
                     "g": pa.array(g, pa.float32()), "n": pa.array(nn, pa.int64()), "s": pa.array(s),
                     "d": pa.array(d, pa.int32()).cast(pa.date32())})


@pytest.mark.parametrize("seed", [1])
def test_filter_matches_spark(spark, seed):  # noqa: F811
    table = _table(seed)
    df = spark.createDataFrame(table, schema=spark_schema(ROW_TYPE))  # Arrow keeps NaN apart from NULL
    for where in WHERES:
        pred = parse_where(where).bind(ROW_TYPE)
        ours = sorted(filter_table(table, pred, ROW_TYPE).column("id").to_pylist())
        theirs = sorted(r["id"] for r in df.filter(to_spark_column(pred, ROW_TYPE)).select("id").collect())
        assert ours == theirs, where


def test_a_table_with_other_arrow_types_is_refused_in_one_line() -> None:
    """TIME reads as int32 millis of day; a time32 column from elsewhere gets the family's error, not Arrow's."""
    from paimon_codec.errors import InvalidPredicateError

    row_type = parse_row_type("t TIME(3)")
    ours = pa.table({"t": pa.array([1000, 5000], pa.int32())})
    assert filter_table(ours, parse_where("t > TIME '00:00:02'").bind(row_type), row_type)["t"].to_pylist() == [5000]
    other = pa.table({"t": pa.array([1000, 5000], pa.time32("ms"))})
    with pytest.raises(InvalidPredicateError, match=r"columns \(t: time32\[ms\]\)"):
        filter_table(other, parse_where("t > TIME '00:00:02'").bind(row_type), row_type)
