"""The Spark scan of a primary-key table with a TIMESTAMP(7..9) column: each bucket is merged at full
(nanosecond) precision, then the timestamps are cut to Spark's microseconds as on every other read path.

The group reader handed Spark nanosecond Arrow vectors, and every such scan failed inside Spark
("Cannot call the method getLong of ArrowVectorAccessor").  The table is Java 1.4.2's (``java_newest``):
its sequence field differs between records of a key by nanoseconds only, so the merge must see them to
pick Java's row; Java's read, with timestamps floored to microseconds, is the oracle - for ``scan()`` and the
``paimon_codec`` DataFrame source.
"""

from __future__ import annotations

import random

import pyarrow as pa
import pytest
from spark_fixtures import read_via, spark  # noqa: F401


def _micros(value):
    if value is None:
        return None
    if hasattr(value, "to_pydatetime"):           # pandas Timestamp (nanoseconds): floored to micros
        return value.to_pydatetime(warn=False)
    return value


@pytest.mark.parametrize("via", ["scan", "source"])
def test_spark_merges_nanosecond_sequence_fields_like_java(spark, java_newest, tmp_path, via):  # noqa: F811
    rng = random.Random(9)
    path = java_newest.create_table(tmp_path, "db.nanos", "id INT NOT NULL, t9 TIMESTAMP(9), v STRING",
                                    primary_keys=["id"],
                                    options={"bucket": "2", "write-only": "true", "sequence.field": "t9"})
    base = 1_700_000_000_000_000_000
    for commit in range(4):
        n = 12
        java_newest.write(path, pa.table({
            "id": pa.array([rng.randrange(6) for _ in range(n)], pa.int32()),
            "t9": pa.array([rng.choice([None, base + rng.randrange(4)]) for _ in range(n)], pa.timestamp("ns")),
            "v": [f"c{commit}r{i}" for i in range(n)]}))
    java_rows = java_newest.read(path).to_pylist()
    expected = sorted((r["id"], _micros(r["t9"]), r["v"]) for r in java_rows)
    assert len({r["v"] for r in java_rows}) == len(java_rows)
    df, report = read_via(spark, via, path)
    assert report is None or report.files_read >= 4
    got = sorted((r["id"], r["t9"], r["v"]) for r in df.collect())
    assert got == expected
