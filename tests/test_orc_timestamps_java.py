"""ORC TIMESTAMP values near 1970-01-01 written by Paimon Java in a zone other than UTC read as Java reads them.

ORC's Java writer truncates a pre-epoch instant's seconds and its reader corrects them in the writer's zone;
pyarrow corrects them on the wall clock (:mod:`paimon_codec.reading.orc_timestamps`).  Paimon Java 1.4.2
writes the table in a JVM running in ``zone`` (its ORC files name that zone in their stripe footers) and
reads it back; our rows must be Java's, value for value (Java's own read is not always the written value:
Shanghai's ``07:59:59.5`` comes back as ``08:00:00.5`` from Java, and so from us).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference
from oracles.java_newest import JavaPaimon

from paimon_codec.errors import UnsupportedTypeError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

VALUES = [dt.datetime(1970, 1, 1, 0, 2, 3, 123123), dt.datetime(1970, 1, 1, 7, 59, 59, 500000),
          dt.datetime(1969, 12, 31, 20, 0, 1, 1000), dt.datetime(1969, 12, 31, 23, 59, 59, 999000),
          dt.datetime(1970, 1, 1, 0, 0, 0, 1000), dt.datetime(1970, 1, 1, 0, 0, 0, 999999),
          dt.datetime(1960, 6, 1, 3, 4, 5, 678000), dt.datetime(2024, 7, 1, 12, 0, 0, 5000), None]


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York"])
def test_orc_timestamps_near_the_epoch_read_as_java_reads_them(tmp_path, zone):
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", f"-Duser.timezone={zone}"]) as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, a TIMESTAMP(6), b TIMESTAMP(3), c TIMESTAMP(9)",
                                 options={"file.format": "orc", "bucket": "-1"})
        ts = pa.array(VALUES, pa.timestamp("us"))
        java.write(path, pa.table({"id": pa.array(range(len(VALUES)), pa.int32()), "a": ts, "b": ts, "c": ts}))
        theirs = java.read(path)
        filtered = java.read(path, where="id < 3")
    assert row_set_difference(read_table(path).select(theirs.column_names), theirs) is None
    assert row_set_difference(read_table(path, "id < 3").select(filtered.column_names), filtered) is None


def test_a_nested_orc_timestamp_near_the_epoch_written_outside_utc_is_refused(tmp_path):
    """Inside a ROW / ARRAY the correction is not applied: such a value is refused by name (pyarrow's
    ``00:00:01.001`` for Java's ``00:00:00.001`` came back before); a value far from the epoch reads as Java's."""
    with JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", "-Duser.timezone=Asia/Shanghai"]) as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, r ROW<t TIMESTAMP(3)>, a ARRAY<TIMESTAMP(3)>",
                                 options={"file.format": "orc", "bucket": "-1"})
        near, far = dt.datetime(1970, 1, 1, 0, 0, 0, 1000), dt.datetime(2024, 7, 1, 12, 0, 0, 5000)
        java.write(path, [{"id": 1, "r": {"t": far}, "a": [far]}])
        theirs = java.read(path)
        assert row_set_difference(read_table(path).select(theirs.column_names), theirs) is None
        java.write(path, [{"id": 2, "r": {"t": near}, "a": [far]}])
        assert java.read(path, where="id = 2").column("r").to_pylist() == [{"t": near}]
    with pytest.raises(UnsupportedTypeError, match="TIMESTAMP near 1970-01-01 inside column 'r'"):
        read_table(path)
