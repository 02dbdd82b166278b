"""Schema-evolution casts Paimon converts in the JVM's default time zone, read with the read's ``time_zone``.

Paimon Java 1.4.2 writes a table of TIMESTAMP / TIMESTAMP_LTZ / INT / BIGINT columns, changes
their types (TIMESTAMP <-> TIMESTAMP_LTZ, TIMESTAMP_LTZ -> DATE / STRING, INT / BIGINT -> TIMESTAMP_LTZ); a JVM
running in ``zone`` reads it; ``read_table(..., time_zone=zone)`` must return Java's rows, value for value.  The values sit on
New York's DST gap and overlap, before 1970, on a day boundary and carry nanoseconds.  Without ``time_zone`` the
read is refused, naming the option; ORC files are answered in UTC only.
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference
from oracles.java_newest import JavaPaimon
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

WALL = [dt.datetime(2024, 3, 10, 2, 30, 0, 123456), dt.datetime(2024, 11, 3, 1, 30, 0, 999999),
        dt.datetime(1969, 12, 31, 23, 59, 59, 1), dt.datetime(1930, 6, 1, 12, 0, 0),
        dt.datetime(2024, 7, 1, 16, 0, 0, 500000), dt.datetime(2024, 7, 1, 3, 59, 59, 999000), None]
SECONDS = [1710052200, 1730611800, -1, -1577923200, 1719849600, 0, None]

COLUMNS = ("id INT, a TIMESTAMP(9), b TIMESTAMP(6), c TIMESTAMP(6) WITH LOCAL TIME ZONE, "
           "d TIMESTAMP(9) WITH LOCAL TIME ZONE, e TIMESTAMP(3) WITH LOCAL TIME ZONE, "
           "f TIMESTAMP(6) WITH LOCAL TIME ZONE, g INT, h BIGINT")
CHANGES = [("a", "TIMESTAMP(9) WITH LOCAL TIME ZONE"), ("b", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
           ("c", "TIMESTAMP(3)"), ("d", "DATE"), ("e", "STRING"), ("f", "TIMESTAMP(9)"),
           ("g", "TIMESTAMP(3) WITH LOCAL TIME ZONE"), ("h", "TIMESTAMP(6) WITH LOCAL TIME ZONE")]


def _rows() -> pa.Table:
    naive = pa.array(WALL, pa.timestamp("us"))
    ltz = pa.array([None if v is None else v.replace(tzinfo=dt.timezone.utc) for v in WALL],
                   pa.timestamp("us", tz="UTC"))
    return pa.table({"id": pa.array(range(len(WALL)), pa.int32()), "a": naive.cast(pa.timestamp("ns")),
                     "b": naive, "c": ltz, "d": ltz.cast(pa.timestamp("ns", tz="UTC")),
                     "e": ltz.cast(pa.timestamp("ms", tz="UTC"), safe=False), "f": ltz,
                     "g": pa.array(SECONDS, pa.int32()), "h": pa.array(SECONDS, pa.int64())})


def _written_and_altered(java: JavaPaimon, where: str, file_format: str) -> str:
    path = java.create_table(where, "db.t", COLUMNS, options={"file.format": file_format, "bucket": "-1"})
    java.write(path, _rows())
    java.alter(path, [{"op": "type", "name": name, "type": t} for name, t in CHANGES])
    return path


def _assert_same(ours: pa.Table, theirs: pa.Table) -> None:
    for name in theirs.column_names:  # column by column first: a difference names its cast
        assert ours.column(name).to_pylist() == theirs.column(name).to_pylist(), name
    assert row_set_difference(ours.select(theirs.column_names), theirs) is None


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York"])
def test_zone_casts_read_as_java_reads_them_in_its_zone(tmp_path, zone):
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", f"-Duser.timezone={zone}"]) as java:
        path = _written_and_altered(java, str(tmp_path), "parquet")
        theirs = java.read(path)
    _assert_same(read_table(path, time_zone=zone), theirs)
    with pytest.raises(UnsupportedTypeError, match="time_zone="):
        read_table(path)


def test_orc_zone_casts_are_answered_in_utc_and_refused_elsewhere(tmp_path):
    """Java's ORC reader converts TIMESTAMP values in its own zone too (a TIMESTAMP_LTZ written in UTC reads 8 hours
    later in Shanghai): in any zone but UTC such ORC reads are refused by name."""
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1"]) as java:
        path = _written_and_altered(java, str(tmp_path), "orc")
        theirs = java.read(path)
    _assert_same(read_table(path, time_zone="UTC"), theirs)
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", "-Duser.timezone=Asia/Shanghai"]) as java:
        shanghai = java.read(path)
    assert shanghai.column("c").to_pylist() != theirs.column("c").to_pylist()  # why it is refused
    with pytest.raises(UnsupportedTypeError, match="ORC data file read as .* in time zone 'Asia/Shanghai'"):
        read_table(path, time_zone="Asia/Shanghai")
    with pytest.raises(UnsupportedTypeError, match="time_zone="):
        read_table(path)


def test_spark_reads_take_the_zone_from_the_option_or_the_session(tmp_path, spark):  # noqa: F811
    """The source's ``time-zone`` option and ``scan(time_zone=)`` reach the casts (DATE / STRING columns compare
    without Spark's own zone handling of timestamps); without one the source refuses by name."""
    from paimon_codec.spark.scan import scan

    zone = "Asia/Shanghai"
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1"]) as java:
        path = _written_and_altered(java, str(tmp_path), "parquet")
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", f"-Duser.timezone={zone}"]) as java:
        theirs = java.read(path).sort_by("id")
    want = list(zip(theirs.column("id").to_pylist(), theirs.column("d").to_pylist(), theirs.column("e").to_pylist(),
                    strict=True))
    source = spark.read.format("paimon_codec").option("time-zone", zone).load(path)
    assert [tuple(r) for r in source.select("id", "d", "e").orderBy("id").collect()] == want
    df, report = scan(spark, path, time_zone=zone)
    assert report.time_zone == zone
    assert [tuple(r) for r in df.select("id", "d", "e").orderBy("id").collect()] == want
    with pytest.raises(Exception, match="time_zone="):
        spark.read.format("paimon_codec").load(path).select("id", "d").collect()
