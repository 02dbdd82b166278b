"""TIMESTAMP(p) / TIMESTAMP_LTZ(p) and DATE values across Paimon's whole range (years 0001..9999) in Java
1.4.2 tables, read by us as Java reads them.

Parquet and Avro hold such values as microseconds / millis / days and read exactly.  ORC is different:
Java's ORC writer stores an old timestamp as Julian-calendar seconds (0001-01-01 comes back from Java's own
read two days early) and pyarrow's ORC reader decodes every timestamp as nanoseconds, failing any value
outside 1677-09-21 .. 2262-04-11.  Our read of such an ORC file must refuse in one line naming the limit
(it crashed with pyarrow's ArrowInvalid) while the in-range values of an ORC table still read as Java's.
"""

from __future__ import annotations

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.expressions import make_leaf
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

COLUMNS = "id INT, t3 TIMESTAMP(3), t6 TIMESTAMP(6), l6 TIMESTAMP(6) WITH LOCAL TIME ZONE, d DATE"
# epoch micros: 0001-01-01, 0999-03-04 05:06:07.123456 (ms-cut for t3), 1677-09-22, 2300-01-01, 9999-12-31 23:59:59.999999
FAR = [-62135596800_000_000, -30610224000_000_000 + 123456, -9_214_646_400_000_000, 10_413_792_000_000_000,
       253402300799_999_999]
NEAR = [-9_214_000_000_000_000, 0, 1_700_000_000_123_456, 9_000_000_000_000_000, -1]
DAYS = [-719162, -354000, 0, 2932896, None]  # 0001-01-01 .. 9999-12-31


def _write(java, root, fmt: str, micros: list[int]) -> str:
    path = java.create_table(root, f"db.ts_{fmt}", COLUMNS, options={"file.format": fmt})
    java.write(path, pa.table({
        "id": pa.array(range(len(micros) + 1), pa.int32()),
        "t3": pa.array([m - m % 1000 for m in micros] + [None], pa.timestamp("us")),
        "t6": pa.array([*micros, None], pa.timestamp("us")),
        "l6": pa.array([*micros, None], pa.timestamp("us", tz="UTC")),
        "d": pa.array([*DAYS, None], pa.int32()).cast(pa.date32())}))
    return path


def _as_ints(table: pa.Table) -> list[tuple]:
    """Rows with timestamps / dates as their stored integers (Python's datetime cannot hold all of Java's)."""
    cols = [table.column(n) for n in ("id", "t3", "t6", "l6", "d")]
    cols = [c.cast(pa.int64()) if pa.types.is_timestamp(c.type) else c.cast(pa.int32()) if pa.types.is_date(c.type)
            else c for c in cols]
    return sorted(zip(*(c.to_pylist() for c in cols), strict=True), key=lambda r: r[0])


@pytest.mark.parametrize("fmt", ["parquet", "avro"])
def test_full_range_reads_as_java(java_newest, tmp_path, fmt):
    path = _write(java_newest, tmp_path, fmt, FAR)
    assert _as_ints(read_table(path)) == _as_ints(java_newest.read(path))
    where = make_leaf("gt", "d", ["1000-01-01"])
    assert _as_ints(read_table(path, where)) == _as_ints(java_newest.read(path, where=where))


def test_orc_far_timestamps_refused_by_name(java_newest, tmp_path):
    path = _write(java_newest, tmp_path, "orc", FAR)
    assert java_newest.read(path).num_rows == len(FAR) + 1
    with pytest.raises(UnsupportedTypeError, match="ORC TIMESTAMP value before 1677-09-21 or after 2262-04-11"):
        read_table(path)


def test_orc_in_range_timestamps_and_far_dates_read_as_java(java_newest, tmp_path):
    path = _write(java_newest, tmp_path, "orc", NEAR)
    assert _as_ints(read_table(path)) == _as_ints(java_newest.read(path))


def _spark_ints(df) -> list[tuple]:
    """Spark's rows with timestamps as epoch micros and dates as day numbers (exact, any year)."""
    from pyspark.sql import functions as F

    cols = [F.col("id"), *(F.unix_micros(F.col(c)).alias(c) for c in ("t3", "t6", "l6")),
            F.datediff(F.col("d"), F.lit("1970-01-01").cast("date")).alias("d")]
    return sorted((tuple(r) for r in df.select(*cols).collect()), key=lambda r: r[0])


@pytest.mark.parametrize("fmt,far", [("parquet", True), ("orc", False), ("orc", True)])
def test_spark_scan_range_as_java(spark, java_newest, tmp_path, fmt, far):  # noqa: F811
    from paimon_codec.spark.scan import scan

    path = _write(java_newest, tmp_path, fmt, FAR if far else NEAR)
    if fmt == "orc" and far:
        with pytest.raises(Exception, match="ORC TIMESTAMP value before 1677-09-21"):
            scan(spark, path)[0].collect()
        return
    df, _ = scan(spark, path)
    assert _spark_ints(df) == _as_ints(java_newest.read(path))
