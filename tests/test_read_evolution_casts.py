"""Schema-evolution casts Paimon's ``CastExecutors`` (1.4.2) allows and ours refused, read as Java reads them.

TIMESTAMP(p) -> STRING (the nano-of-second down to p digits), TIMESTAMP / TIMESTAMP_LTZ -> INT / BIGINT
(epoch seconds toward zero, INT wrapping), INT / BIGINT / TIME -> TIMESTAMP, TIMESTAMP -> TIME, TIME -> STRING,
STRING -> DATE (day numbers, lenient y-m-d), STRING -> TIMESTAMP (numbers in the precision's unit, y-M-d H:m:s.f),
STRING -> BYTES / BINARY(n) / VARBINARY(n), BYTES -> STRING, BOOLEAN -> INT / DECIMAL, INT -> BOOLEAN.
Java 1.4.2 writes rows under the old types, alters every column, writes again under the new types;
ours must read what Java reads, without and with a predicate on a cast column, in Parquet, ORC and Avro,
for an append table and a primary-key table.  Casts that depend on the JVM's time zone stay refused.
"""

from __future__ import annotations

import datetime
import decimal

import pyarrow as pa
import pytest

from paimon_codec.errors import UnsupportedTypeError, UsageError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.local_read import read_table
from paimon_codec.reading.read import read_plan_locally

# name, old type, new type
CASTS = [("t9", "TIMESTAMP(9)", "STRING"), ("t3", "TIMESTAMP(3)", "STRING"), ("t0", "TIMESTAMP(0)", "INT"),
         ("t6", "TIMESTAMP(6)", "BIGINT"), ("tl", "TIMESTAMP(6) WITH LOCAL TIME ZONE", "BIGINT"),
         ("i2t", "INT", "TIMESTAMP(3)"), ("l2t", "BIGINT", "TIMESTAMP(6)"), ("t2tm", "TIMESTAMP(3)", "TIME(3)"),
         ("tm2s", "TIME(3)", "STRING"), ("s2b", "STRING", "BYTES"), ("s2bn", "STRING", "BINARY(4)"),
         ("v2vb", "VARCHAR(10)", "VARBINARY(3)"), ("b2s", "BYTES", "STRING"), ("bo2i", "BOOLEAN", "INT"),
         ("bo2d", "BOOLEAN", "DECIMAL(3, 1)"), ("i2bo", "INT", "BOOLEAN"), ("s2d", "STRING", "DATE"),
         ("s2t", "STRING", "TIMESTAMP(3)"), ("s2t6", "VARCHAR(40)", "TIMESTAMP(6)"), ("tm2t", "TIME(3)", "TIMESTAMP(3)")]


def _ts(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


def _old_rows() -> pa.Table:
    ns = pa.timestamp("ns")
    rows = {
        "id": pa.array([1, 2, 3, 4], pa.int32()),
        "t9": pa.array([1_700_000_000_123_456_789, 0, -1_500_000_000, None], ns),
        "t3": pa.array([_ts("2024-02-29 23:59:59.120"), _ts("1969-12-31 23:59:59"), _ts("1700-01-01 00:00:00.001"),
                        None], pa.timestamp("ms")),
        "t0": pa.array([_ts("2038-01-19 03:14:08"), _ts("1960-05-05 05:05:05"), _ts("2000-01-01"), None],
                       pa.timestamp("ms")),
        "t6": pa.array([_ts("2024-01-01 00:00:00.999999"), _ts("1969-12-31 23:59:59.5"), _ts("1970-01-01"),
                        None], pa.timestamp("us")),
        "tl": pa.array([1_700_000_000_999_999, -1_000_001, 0, None], pa.timestamp("us", tz="UTC")),
        "i2t": pa.array([0, -86_401, 2_000_000_000, None], pa.int32()),
        "l2t": pa.array([1_700_000_000, -62_135_596_800, 253_402_300_799, None], pa.int64()),
        "t2tm": pa.array([_ts("2024-05-06 07:08:09.010"), _ts("1970-01-01 00:00:00.001"), _ts("2000-01-01"),
                          None], pa.timestamp("ms")),
        "tm2s": pa.array([datetime.time(7, 8, 9, 10_000), datetime.time(0, 0), datetime.time(23, 59, 59, 500_000),
                          None], pa.time32("ms")),
        "s2b": pa.array(["abc", "", "ünï", None]), "s2bn": pa.array(["ab", "abcdef", "ü", None]),
        "v2vb": pa.array(["abcd", "a", "", None]),
        "b2s": pa.array([b"xyz", b"", "é".encode(), None], pa.binary()),
        "bo2i": pa.array([True, False, None, True]), "bo2d": pa.array([True, False, None, False]),
        "i2bo": pa.array([0, -7, None, 2 ** 31 - 1], pa.int32()),
        "s2d": pa.array(["2024-02-29", "17000", " 2024 - 3 - 1 ", "1999-12-31 23:59:59"]),
        "s2t": pa.array(["2024-01-02 03:04:05.123456", "1700000000123", "1999-1-2", None]),
        "s2t6": pa.array(["-1500", "2000-02-29 23:59:59.9999999", "1969-12-31 23:59:59", "0"]),
        "tm2t": pa.array([datetime.time(7, 8, 9, 10_000), None, datetime.time(0, 0), datetime.time(23, 59, 59)],
                         pa.time32("ms")),
    }
    return pa.table(rows)


def _new_rows(java, path) -> pa.Table:
    """Rows under the new types: one per column, taken from Java's own read of the evolved table."""
    sample = java.read(path).slice(0, 1)
    return sample.set_column(0, "id", pa.array([9], pa.int32()))


def _table(java, tmp_path, fmt: str, primary_key: bool) -> str:
    casts = [c for c in CASTS if fmt != "avro" or c[0] != "t9"]   # Avro holds no TIMESTAMP(9)
    schema = ", ".join(["id INT NOT NULL"] + [f"{n} {old}" for n, old, _ in casts])
    options = {"file.format": fmt, "bucket": "1" if primary_key else "-1"}
    path = java.create_table(tmp_path, "db.c", schema, primary_keys=["id"] if primary_key else [], options=options)
    java.write(path, _old_rows().select(["id"] + [n for n, _, _ in casts]))
    java.alter(path, [{"op": "type", "name": n, "type": new} for n, _, new in casts])
    java.write(path, _new_rows(java, path))
    return path


def _sorted(table: pa.Table) -> list[dict]:
    """Rows by id; a TIME as millis of day (this library hands TIME out as int32 millis, Java's oracle as
    ``datetime.time``)."""
    def norm(v):
        if isinstance(v, datetime.time):
            return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
        return v
    return sorted(({k: norm(v) for k, v in r.items()} for r in table.to_pylist()), key=lambda r: r["id"])


@pytest.mark.parametrize("primary_key", [False, True])
@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
def test_casts_read_as_java(java_newest, tmp_path, fmt, primary_key):
    path = _table(java_newest, tmp_path, fmt, primary_key)
    expected = _sorted(java_newest.read(path))
    assert len(expected) == 5 and expected[0]["t3"] == "2024-02-29 23:59:59.120"
    assert fmt == "avro" or expected[0]["t9"] == "2023-11-14 22:13:20.123456789"
    assert _sorted(read_plan_locally(plan_scan(path))) == expected
    for where in ("t9 = '1970-01-01 00:00:00.000000000'", "t3 >= '1999'", "t0 < 0", "t6 = 1704067200",
                  "tl > 0", "tm2s = '07:08:09.01'", "i2bo = true", "bo2i = 1", "b2s = 'xyz'",
                  "i2t > TIMESTAMP '1970-01-01 00:00:00'"):
        if fmt == "avro" and where.startswith("t9"):
            continue
        java_rows = _sorted(java_newest.read(path, where=where))
        assert _sorted(read_table(path, where)) == java_rows, where


@pytest.mark.parametrize(("old", "new"), [("TIMESTAMP(6) WITH LOCAL TIME ZONE", "STRING"),
                                          ("TIMESTAMP(6)", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
                                          ("BIGINT", "TIMESTAMP(3) WITH LOCAL TIME ZONE")])
def test_casts_in_the_jvm_time_zone_are_refused_by_name(java_newest, tmp_path, old, new):
    path = java_newest.create_table(tmp_path, "db.z", f"id INT NOT NULL, c {old}", options={"bucket": "-1"})
    value = 5 if old == "BIGINT" else pa.scalar(1_700_000_000_000_000, pa.timestamp("us", tz="UTC"
                                                                                      if "LOCAL" in old else None))
    java_newest.write(path, pa.table({"id": pa.array([1], pa.int32()), "c": pa.array([value])}))
    java_newest.alter(path, [{"op": "type", "name": "c", "type": new}])
    assert java_newest.read(path).num_rows == 1
    with pytest.raises(UnsupportedTypeError, match="cannot read .*time_zone="):
        read_plan_locally(plan_scan(path))
    with pytest.raises(UsageError, match="not a known zone"):
        plan_scan(path, time_zone="Mars/Olympus_Mons")


def test_decimal_cast_of_booleans_fits_the_precision():
    from paimon_codec.evolution.casts import cast_array
    from paimon_codec.types import DataType

    out = cast_array(pa.array([True, False, None]), DataType("BOOLEAN"), DataType("DECIMAL", precision=3, scale=1),
                     pa.decimal128(3, 1))
    assert out.to_pylist() == [decimal.Decimal("1.0"), decimal.Decimal("0.0"), None]


@pytest.mark.parametrize(("new", "text"), [("DATE", "yesterday"), ("DATE", "2023-02-29"), ("TIMESTAMP(3)", "12:00"),
                                           ("TIMESTAMP(3)", "2024-01-01T00:00:00")])
def test_strings_paimon_cannot_parse_fail_as_java(java_newest, tmp_path, new, text):
    from oracles.java_newest import JavaError

    path = java_newest.create_table(tmp_path, "db.p", "id INT NOT NULL, c STRING", options={"bucket": "-1"})
    java_newest.write(path, pa.table({"id": pa.array([1], pa.int32()), "c": pa.array([text])}))
    java_newest.alter(path, [{"op": "type", "name": "c", "type": new}])
    with pytest.raises(JavaError):
        java_newest.read(path)
    with pytest.raises(UnsupportedTypeError, match="read as"):
        read_plan_locally(plan_scan(path))
