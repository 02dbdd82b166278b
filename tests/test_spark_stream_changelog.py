"""The streaming source over snapshots that expired while their changelogs were kept (Paimon's decoupled changelog
lifecycle, ``changelog/changelog-<id>``): the expired ids are read from the long-lived changelogs, as Paimon Java
1.4.2's own streaming read reads them, for an append table and primary-key tables with ``input`` / ``lookup``
changelog producers (and full-compaction); without a readable changelog the expired snapshot stays an error by name."""

from __future__ import annotations

import os

import pytest
from changelog_tables import (
    COLUMNS,
    RETAIN_CHANGELOGS,
    append_table,
    changelog_ids,
    grow_append,
    grow_pk,
    pk_table,
    stream_changes,
)
from spark_fixtures import spark  # noqa: F401

from paimon_codec.spark.stream_read import PaimonStreamReader, SnapshotExpiredError, with_row_kind
from paimon_codec.spark.stream_start import stream_start
from paimon_codec.spark.types import spark_schema
from paimon_codec.table import PaimonTable
from paimon_codec.table.long_lived_changelog import StreamSnapshots


def _reader(path: str, **options: str) -> PaimonStreamReader:
    return PaimonStreamReader(path, options, with_row_kind(options, spark_schema(PaimonTable(path).schema.fields)))


def test_append_stream_reads_expired_snapshots_from_changelogs(tmp_path, java_newest):
    path = append_table(java_newest, str(tmp_path))
    columns = ["id", "s", "p"]
    lagging = _reader(path, **{"scan.mode": "latest", "read.changelog": "true"})
    start = lagging.initialOffset()  # snapshot 1 delivered; the query then falls behind the expiry
    grow_append(java_newest, path)
    snapshots = PaimonTable(path).snapshot_ids()
    assert start["snapshot"] == 1 and snapshots[0] > 2 and changelog_ids(path)[:2] == [1, 2]
    end = lagging.latestOffset(start, None)
    assert end == {"snapshot": snapshots[-1], "from": {"snapshot": 1}}
    ours = stream_changes(lagging, start, end, columns)
    theirs = java_newest.read_changelog(path, 2, snapshots[-1])
    assert ours == theirs and sorted(int(line.split(" [")[1].split(",")[0]) for line in ours) == list(range(4, 20))
    # a new query from an expired snapshot whose changelog remains: scan.snapshot-id 1, and a timestamp
    from_one = _reader(path, **{"scan.snapshot-id": "1", "read.changelog": "true"})
    first = from_one.initialOffset()
    assert first["snapshot"] == 0
    last = {"snapshot": snapshots[-1]}  # (``end`` is batch 0's of the other query: it records its start)
    assert stream_changes(from_one, first, last, columns) == java_newest.read_changelog(path, 1, snapshots[-1])
    table = PaimonTable(path)  # scan.timestamp-millis: the changelogs' times count too
    readable = StreamSnapshots(table)
    times = {sid: readable.require(sid).time_millis for sid in readable.ids()}
    want = max((sid for sid, t in times.items() if t is not None and t < times[3]), default=0)
    by_time = stream_start(table, {"scan.timestamp-millis": str(times[3])})
    assert by_time.snapshot == want <= 2 < snapshots[0]
    assert stream_changes(lagging, by_time.offset(), last, columns) == java_newest.read_changelog(path, want + 1,
                                                                                           snapshots[-1])
    # Paimon reads no changelog when the options do not keep changelogs longer than snapshots
    # (a new query from an id before them starts, as Java's, at the earliest snapshot; a full one reads it whole)
    coupled = _reader(path, **{"scan.snapshot-id": "1", "changelog.num-retained.max": "2"})
    assert coupled.initialOffset()["snapshot"] == snapshots[0] - 1
    with pytest.raises(SnapshotExpiredError, match="snapshot 2 has expired .*long-lived changelog is not read"):
        coupled.partitions(start, end)
    full = _reader(path, **{"scan.mode": "from-snapshot-full", "scan.snapshot-id": "1"}).initialOffset()
    assert (full["snapshot"], full["full"]) == (snapshots[0], True)
    # the changelogs expire too: the lagging query's next snapshot is an error by name, never a silent gap
    assert java_newest.expire(path, {**RETAIN_CHANGELOGS, "changelog.num-retained.max": "2"}, changelogs=True) > 0
    assert 2 not in changelog_ids(path)
    with pytest.raises(SnapshotExpiredError, match=r"snapshot 2 has expired .*retained: snapshots"):
        lagging.partitions(start, end)
    # a new query from id 1, older than every changelog left: Java's stream starts at the earliest changelog
    late = _reader(path, **{"scan.snapshot-id": "1", "read.changelog": "true"})
    begin = late.initialOffset()
    assert begin["snapshot"] == changelog_ids(path)[0] - 1
    assert stream_changes(late, begin, last, columns) == java_newest.read_changelog(path, 1, snapshots[-1])


@pytest.mark.parametrize("producer", ["input", "lookup", "full-compaction"])
def test_primary_key_stream_reads_changelogs_of_expired_snapshots(tmp_path, java_newest, producer):
    """The changelog records of snapshots that expired while the query lagged, and of a query started from an
    expired snapshot, are exactly those Java's streaming read delivers (row kinds included)."""
    path = pk_table(java_newest, str(tmp_path), producer)
    reader = _reader(path, **{"read.changelog": "true"})  # latest-full
    start = reader.initialOffset()
    first = reader.latestOffset(start, None)
    merged = sorted(f"+I {[r[c] for c in COLUMNS]!r}" for r in java_newest.read(path).to_pylist())
    assert stream_changes(reader, start, first, COLUMNS) == merged and len(merged) == 12
    grow_pk(java_newest, path)
    snapshots = PaimonTable(path).snapshot_ids()
    assert first["snapshot"] + 1 < snapshots[0] and first["snapshot"] + 1 in changelog_ids(path)
    end = reader.latestOffset(first, None)
    assert end == {"snapshot": snapshots[-1]}
    ours = stream_changes(reader, first, end, COLUMNS)
    assert ours == java_newest.read_changelog(path, first["snapshot"] + 1, snapshots[-1])
    kinds = {line.split(" ", 1)[0] for line in ours}
    assert "-D" in kinds and ("+U" in kinds or producer == "input")
    # split across the boundary between changelogs and snapshots: the same records, once
    middle = {"snapshot": snapshots[0]}
    assert sorted(stream_changes(reader, first, middle, COLUMNS) + stream_changes(reader, middle, end, COLUMNS)) == ours
    again = _reader(path, **{"read.changelog": "true", "scan.snapshot-id": "1"})
    assert stream_changes(again, again.initialOffset(), end, COLUMNS) == java_newest.read_changelog(path, 1, snapshots[-1])


def test_stream_through_spark_after_expiry(tmp_path, spark, java_newest):  # noqa: F811
    """A query restarted from its checkpoint after its next snapshots expired reads them from their changelogs:
    every row once, as Java reads the table."""
    path = append_table(java_newest, str(tmp_path))
    ck = str(tmp_path / "ck")
    delivered: list = []
    stream = spark.readStream.format("paimon_codec").load(path)

    def drain() -> None:
        (stream.writeStream.foreachBatch(lambda df, _epoch: delivered.extend(r.id for r in df.collect()))
         .option("checkpointLocation", ck).trigger(availableNow=True).start().awaitTermination())

    drain()
    assert sorted(delivered) == list(range(4))
    grow_append(java_newest, path)
    assert changelog_ids(path) and 2 not in PaimonTable(path).snapshot_ids()
    drain()
    assert sorted(delivered) == sorted(java_newest.read(path).column("id").to_pylist()) == list(range(20))
    assert os.listdir(os.path.join(ck, "commits"))
