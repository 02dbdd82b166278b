"""DATE / TIMESTAMP literals before the Gregorian cut-over (1582-10-15) through Spark's residual filter.

Review finding: the Spark filter passed literals as Python ``date`` / ``datetime`` objects, which py4j hands to
Spark through ``java.sql.Date`` / ``java.sql.Timestamp`` - the Julian calendar before 1582-10-15 - while Paimon
(and the values Spark reads from its files) count days and microseconds on the proleptic Gregorian calendar.
So ``ts = TIMESTAMP '1500-03-01 00:00:00'`` returned nothing, ``ts = TIMESTAMP '0001-01-01 00:00:00'`` the
row holding 0001-01-03, ``ts > TIMESTAMP '1582-10-04 ...'`` the row at 1582-10-04, and any DATE literal
before year 1000 failed with a bare ``IllegalArgumentException`` (its text had no four-digit year).
Literals are now built from their numbers (``date_from_unix_date``, ``timestamp_micros``, ISO text).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.expressions import parse_where
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.read import read_plan_locally

DAYS = [dt.date(1, 1, 1), dt.date(1, 1, 3), dt.date(999, 12, 31), dt.date(1582, 10, 4), dt.date(1582, 10, 15),
        dt.date(1500, 3, 1), None, dt.date(2024, 1, 1), dt.date(1969, 12, 31)]
TIMES = [None if d is None else dt.datetime(d.year, d.month, d.day, 0, 0, 0, 7 * k) for k, d in enumerate(DAYS)]
ARROW = pa.schema([("id", pa.int32()), ("d", pa.date32()), ("ts", pa.timestamp("us")),
                   ("ltz", pa.timestamp("us", tz="UTC"))])

WHERES = [
    "d = DATE '0001-01-01'", "d < DATE '0001-01-03'", "d >= DATE '1582-10-04'", "d = DATE '1500-03-01'",
    "d <> DATE '0999-12-31'", "d IN (DATE '0001-01-01', DATE '1500-03-01')", "d BETWEEN DATE '0999-01-01' AND DATE '1582-10-04'",
    "ts = TIMESTAMP '0001-01-01 00:00:00'", "ts < TIMESTAMP '0001-01-03 00:00:00'",
    "ts = TIMESTAMP '1500-03-01 00:00:00.000035'", "ts > TIMESTAMP '1582-10-04 00:00:00.000021'",
    "ts IN (TIMESTAMP '0001-01-01 00:00:00', TIMESTAMP '0999-12-31 00:00:00.000014')", "ts <= DATE '1500-03-01'",
    "ltz = TIMESTAMP '0001-01-01 00:00:00'", "ltz < TIMESTAMP '0001-01-03 00:00:00.000007'",
    "ltz = TIMESTAMP '1500-03-01 00:00:00.000035'", "ltz > TIMESTAMP '1582-10-04 00:00:00'", "ltz <= DATE '1500-03-01'",
    "NOT (ts = TIMESTAMP '1500-03-01 00:00:00.000035') AND d > DATE '1000-01-01'",
]


@pytest.fixture(scope="module")
def table(tmp_path_factory, java_newest) -> str:
    path = java_newest.create_table(tmp_path_factory.mktemp("ancient"), "db.a",
                                    "id INT, d DATE, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6)", options={"bucket": "-1"})
    for start in (0, 5):
        ids = list(range(start, min(start + 5, len(DAYS))))
        java_newest.write(path, pa.table({"id": ids, "d": [DAYS[k] for k in ids], "ts": [TIMES[k] for k in ids],
                                          "ltz": [TIMES[k] for k in ids]}, schema=ARROW))
    return path


def test_spark_returns_javas_rows_for_dates_before_1582(table, java_newest, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    for where in WHERES:
        pred = parse_where(where)
        java = sorted(java_newest.read(table, where=pred).column("id").to_pylist())
        assert java, where  # every case selects a row: a literal read in the wrong calendar misses it
        plan = plan_scan(table, pred)
        assert sorted(filter_table(read_plan_locally(plan), plan.predicate, plan.row_type).column("id").to_pylist()) \
            == java, where
        for driver_rows in (0, 65_536):  # Spark's reader / tasks, and pyarrow on the driver
            df, _ = scan(spark, table, pred, driver_rows=driver_rows)
            assert sorted(r["id"] for r in df.select("id").collect()) == java, (where, driver_rows)
