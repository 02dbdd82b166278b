"""ORC files Paimon Java writes in a zone other than UTC: LTZ columns and TIMESTAMPs of the zone's older offsets.

Measured with Paimon Java 1.4.2 writing in a JVM in ``Asia/Shanghai`` and ``America/New_York`` and reading back
in the same JVM: pyarrow read a ``TIMESTAMP WITH LOCAL TIME ZONE`` value 8 h off Java's, and a 1900 ``TIMESTAMP``
written in Shanghai (local mean time, +08:05:43) 5 min 43 s off.  Our read must be Java's, or refuse by name.
LTZ is refused unless the file names UTC (a correction by the zone would be wrong for tables with
``orc.timestamp-ltz.legacy.type=false``, whose values pyarrow reads exactly).
"""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest
from oracles.compare import row_set_difference
from oracles.java_newest import JavaPaimon

from paimon_codec.errors import UnsupportedFeatureError
from paimon_codec.reading import read_table

pytestmark = pytest.mark.java

ORC = {"file.format": "orc", "bucket": "-1"}
UTC = dt.timezone.utc


def _java(zone: str) -> JavaPaimon:
    return JavaPaimon(jvm_args=["-XX:TieredStopAtLevel=1", f"-Duser.timezone={zone}"])


def _ours_or_refusal(path: str, theirs: pa.Table) -> str | None:
    """``None`` when our read equals Java's; the refusal's message when we refuse; fails on a wrong answer."""
    try:
        ours = read_table(path)
    except UnsupportedFeatureError as exc:
        return str(exc)
    assert row_set_difference(ours.select(theirs.column_names), theirs) is None
    return None


LTZ_ROWS = [{"id": 1, "l": dt.datetime(2024, 3, 5, 2, 30, tzinfo=UTC), "t": dt.datetime(2024, 3, 5, 2, 30)},
            {"id": 2, "l": dt.datetime(1969, 12, 31, 23, 0, 0, 1000, tzinfo=UTC), "t": None},
            {"id": 3, "l": dt.datetime(2024, 7, 1, 12, 0, 0, 123456, tzinfo=UTC), "t": None},
            {"id": 4, "l": dt.datetime(1960, 1, 2, 3, 4, 5, tzinfo=UTC), "t": None},
            {"id": 5, "l": None, "t": None}]


@pytest.mark.parametrize(("zone", "legacy"), [("Asia/Shanghai", "true"), ("America/New_York", "true"),
                                             ("Asia/Shanghai", "false"), ("UTC", "true"), ("UTC", "false")])
def test_an_orc_ltz_column_written_outside_utc_is_refused(tmp_path, zone, legacy):
    """With a TIMESTAMP column beside it the file names its writer's zone: UTC reads as Java, others are refused.
    pyarrow's values alone were 8 h early (Shanghai), 5 h late (New York's winter) with the default
    ``orc.timestamp-ltz.legacy.type``, exact with ``false``: the file records neither, so no correction is right."""
    with _java(zone) as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, l TIMESTAMP(6) WITH LOCAL TIME ZONE, t TIMESTAMP(6)",
                                 options={**ORC, "orc.timestamp-ltz.legacy.type": legacy})
        java.write(path, LTZ_ROWS)
        theirs = java.read(path)
    assert theirs.column("l").to_pylist() == [r["l"] for r in LTZ_ROWS]
    refusal = _ours_or_refusal(path, theirs)
    if zone == "UTC":
        assert refusal is None
    else:
        assert refusal is not None and "'l'" in refusal and repr(zone) in refusal and "LOCAL TIME ZONE" in refusal


def test_an_orc_ltz_column_of_a_file_naming_no_zone_is_refused(tmp_path):
    """Without a TIMESTAMP column Java's ORC writer records no zone: Shanghai's file (read 8 h off by pyarrow)
    cannot be told from UTC's, so both are refused."""
    with _java("Asia/Shanghai") as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, l TIMESTAMP(6) WITH LOCAL TIME ZONE", options=ORC)
        java.write(path, [{k: v for k, v in r.items() if k != "t"} for r in LTZ_ROWS])
        theirs = java.read(path)
    refusal = _ours_or_refusal(path, theirs)
    assert refusal is not None and "'l'" in refusal and "does not record" in refusal


def test_an_orc_timestamp_of_the_zones_local_mean_time_reads_as_java_or_is_refused(tmp_path):
    """Shanghai's offset before 1901 was +08:05:43 (local mean time); 1988 had daylight saving (+09:00)."""
    with _java("Asia/Shanghai") as java:
        path = java.create_table(str(tmp_path), "db.t", "id INT, t TIMESTAMP(6)", options=ORC)
        java.write(path, [{"id": 1, "t": dt.datetime(2024, 7, 1, 12, 0, 0, 5000)}])
        modern = java.read(path)
        assert row_set_difference(read_table(path).select(modern.column_names), modern) is None
        java.write(path, [{"id": 2, "t": dt.datetime(1988, 7, 1, 12, 0)}])
        dst = java.read(path)
        java.write(path, [{"id": 3, "t": dt.datetime(1900, 6, 1, 12, 0, 0, 250000)}])
        theirs = java.read(path)
        assert theirs.num_rows == 3
    refusal = _ours_or_refusal(path, theirs)
    assert refusal is not None, "1900 must be refused"  # pyarrow's reading is 5 min 43 s off Java's
    assert "'t'" in refusal and "Asia/Shanghai" in refusal
    del dst
