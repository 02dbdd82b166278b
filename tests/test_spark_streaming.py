"""The streaming source and sink (``spark.readStream`` / ``df.writeStream`` ``.format("paimon_codec")``).

The reader's offsets and batches are checked directly (a batch is a pure function of two snapshot ids) and
through Spark; the sink's commit identity against Paimon Java's reading of the table; and a query reading a
table that Paimon Java and this library keep appending to, killed with SIGKILL and restarted from its
checkpoint (once with its last batch's commit erased from the checkpoint, so Spark replays a batch the sink
had committed), delivers every row exactly once - compared with Java's read of both tables.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time

import pyarrow as pa
import pytest
from changelog_tables import stream_changes
from oracles.compare import assert_same_rows
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidOptionError, UnsupportedTypeError
from paimon_codec.maintenance.orphans import find_orphans
from paimon_codec.reading import read_table
from paimon_codec.spark.staged_upsert import STAGED_PREFIX, discard_staged
from paimon_codec.spark.stream_read import PaimonStreamReader, SnapshotExpiredError, with_row_kind
from paimon_codec.spark.stream_write import PaimonStreamWriter, StreamCommitMessage, committed_identifier
from paimon_codec.spark.types import spark_schema
from paimon_codec.table import PaimonTable
from paimon_codec.writing import append_arrow, create_table

SCHEMA = pa.schema([("id", pa.int64()), ("s", pa.string()), ("p", pa.string())])
HERE = os.path.dirname(os.path.abspath(__file__))


def _rows(start: int, n: int) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()), "s": [f"v{i % 7}" for i in ids],
                     "p": [("a", "b")[i % 2] for i in ids]})


def _table(path: str, **options: str) -> str:
    return create_table(path, SCHEMA, {"file.format": "parquet", **options}, partition_keys=["p"])


def _reader(path: str, **options: str) -> PaimonStreamReader:
    return PaimonStreamReader(path, options, with_row_kind(options, spark_schema(PaimonTable(path).schema.fields)))


def _batch_ids(reader: PaimonStreamReader, start: dict, end: dict) -> list[int]:
    ids: list[int] = []
    for part in reader.partitions(start, end):
        for batch in reader.read(part):
            ids.extend(batch.column("id").to_pylist())
    return sorted(ids)


def _appended(path: str, *chunks: tuple[int, int]) -> None:
    for start, n in chunks:
        append_arrow(path, _rows(start, n))


def test_offsets_and_batches_follow_scan_mode(tmp_path):
    path = _table(str(tmp_path / "db.db" / "t"))
    _appended(path, (0, 10), (10, 5))  # snapshots 1, 2
    full = _reader(path)  # latest-full
    start = full.initialOffset()
    assert start == {"snapshot": 2, "full": True, "initial": True}
    end = full.latestOffset(start, None)
    assert end == {"snapshot": 2, "from": {"snapshot": 2, "full": True}}  # batch 0's end records its start
    assert _batch_ids(full, start, end) == list(range(15))
    assert full.latestOffset(end, None) == end  # nothing new: no batch
    _appended(path, (15, 3), (18, 4))  # snapshots 3, 4
    later = full.latestOffset(end, None)
    assert later == {"snapshot": 4}
    assert _batch_ids(full, end, later) == list(range(15, 22))
    assert _batch_ids(full, end, {"snapshot": 3}) == list(range(15, 18))

    latest = _reader(path, **{"scan.mode": "latest"})
    assert latest.initialOffset() == {"snapshot": 4, "initial": True}
    assert _batch_ids(latest, {"snapshot": 4}, latest.latestOffset({"snapshot": 4}, None)) == []
    from_snap = _reader(path, **{"scan.snapshot-id": "2"})  # from-snapshot: deltas of 2, 3, 4
    assert _batch_ids(from_snap, from_snap.initialOffset(), {"snapshot": 4}) == list(range(10, 22))
    from_full = _reader(path, **{"scan.mode": "from-snapshot-full", "scan.snapshot-id": "3"})
    assert _batch_ids(from_full, from_full.initialOffset(), {"snapshot": 4}) == list(range(22))
    t3 = PaimonTable(path).snapshot(3).time_millis
    from_ts = _reader(path, **{"scan.timestamp-millis": str(t3)})
    ids = _batch_ids(from_ts, from_ts.initialOffset(), {"snapshot": 4})
    t2 = PaimonTable(path).snapshot(2).time_millis
    assert ids == (list(range(15, 22)) if t2 < t3 else list(range(10, 22)))
    full.prepareForTriggerAvailableNow()  # trigger(availableNow=True): up to the snapshot latest now
    _appended(path, (22, 1))
    assert full.latestOffset(later, None) == later and full.reportLatestOffset() == later


def test_batch_0_reads_the_start_it_had_after_a_restart(tmp_path):
    """Spark logs only end offsets and asks initialOffset again for batch 0 (in the same driver, and in a driver
    restarted from the checkpoint): a latest-full start asked again after a commit read that commit whole in
    batch 0 and as a delta in batch 1 (rows delivered twice in CI's kill -9 test).  Batch 0's end records its
    start, so a replay reads the rows the first run read."""
    path = _table(str(tmp_path / "db.db" / "t"))
    _appended(path, (0, 10))
    reader = _reader(path)  # latest-full
    start = reader.initialOffset()
    end = reader.latestOffset(start, None)  # what Spark logs for batch 0
    _appended(path, (10, 5))  # committed before Spark asks again, or before a restarted driver does
    assert reader.initialOffset() == start
    restarted = _reader(path)
    assert restarted.initialOffset() != start  # the restarted driver's answer is the newer snapshot ...
    for r in (reader, restarted):  # ... and batch 0 still reads what it read first
        assert _batch_ids(r, r.initialOffset(), end) == list(range(10))
        assert _batch_ids(r, end, r.latestOffset(end, None)) == list(range(10, 15))
    with pytest.raises(UnsupportedTypeError, match="ends before it starts"):
        reader.partitions({"snapshot": 2, "full": True}, {"snapshot": 1})


def test_compaction_is_not_delivered_again(tmp_path, java_newest):
    path = _table(str(tmp_path / "db.db" / "t"), **{"compaction.min.file-num": "2"})
    _appended(path, (0, 4), (4, 4), (8, 4))
    reader = _reader(path, **{"scan.mode": "latest"})
    start = reader.initialOffset()
    compacted = java_newest.compact(path)  # a COMPACT snapshot rewrites rows already delivered
    assert compacted is not None and PaimonTable(path).snapshot(compacted).commit_kind == "COMPACT"
    java_newest.write(path, _rows(100, 3))
    end = reader.latestOffset(start, None)
    assert end["snapshot"] == compacted + 1
    assert _batch_ids(reader, start, end) == [100, 101, 102]


def test_expired_snapshot_is_an_error_by_name(tmp_path, java_newest, caplog):
    path = _table(str(tmp_path / "db.db" / "t"))
    _appended(path, (0, 2), (2, 2))
    reader = _reader(path, **{"scan.mode": "latest"})
    start = reader.initialOffset()  # snapshot 2 delivered
    _appended(path, (4, 2), (6, 2), (8, 2))  # 3, 4, 5
    assert java_newest.expire(path, {"snapshot.num-retained.min": "1", "snapshot.num-retained.max": "1"}) > 0
    with pytest.raises(SnapshotExpiredError, match="snapshot 3 has expired"):
        reader.partitions(start, reader.latestOffset(start, None))
    # a NEW query from an id older than every snapshot starts at the earliest, with a warning, as Java's
    # streaming read does (ContinuousFromSnapshotStartingScanner); from-snapshot-full reads the earliest whole
    earliest = PaimonTable(path).snapshot_ids()[0]
    with caplog.at_level(logging.WARNING, logger="paimon_codec.spark.stream_start"):
        old = _reader(path, **{"scan.snapshot-id": "1"})
        first = old.initialOffset()
    assert first["snapshot"] == earliest - 1 and "older than the earliest snapshot" in caplog.text
    end = old.latestOffset(first, None)
    java_ids = sorted(int(line.split(" [")[1].split(",")[0]) for line in java_newest.read_changelog(path, 1, 5))
    assert _batch_ids(old, first, end) == java_ids == [8, 9]
    full = _reader(path, **{"scan.mode": "from-snapshot-full", "scan.snapshot-id": "1"})
    assert full.initialOffset()["snapshot"] == earliest and full.initialOffset()["full"]
    assert _batch_ids(full, full.initialOffset(), full.latestOffset(full.initialOffset(), None)) == list(range(10))
    resumed = _reader(path, **{"scan.snapshot-id": "1"})  # restarted from a checkpoint at snapshot 5: fine
    assert _batch_ids(resumed, {"snapshot": 5}, resumed.latestOffset({"snapshot": 5}, None)) == []


def test_refusals_by_name(tmp_path):
    pk = create_table(str(tmp_path / "db.db" / "pk"), SCHEMA, {"bucket": "1"}, primary_keys=["id"])
    with pytest.raises(UnsupportedTypeError, match="changelog-producer = none"):
        _reader(pk, **{"read.changelog": "true"})
    changelog = create_table(str(tmp_path / "db.db" / "cl"), SCHEMA, {"bucket": "1", "changelog-producer": "input"},
                             primary_keys=["id"])
    with pytest.raises(InvalidOptionError, match="read.changelog = true"):
        _reader(changelog)
    path = _table(str(tmp_path / "db.db" / "t"))
    with pytest.raises(InvalidOptionError, match="scan.mode 'compacted-full'"):
        _reader(path, **{"scan.mode": "compacted-full"})
    with pytest.raises(InvalidOptionError, match="complete output mode"):
        PaimonStreamWriter(path, {}, overwrite=True)


PK_SCHEMA = "p STRING NOT NULL, id BIGINT NOT NULL, s STRING"


@pytest.mark.parametrize("producer", ["input", "lookup", "full-compaction"])
def test_primary_key_changelog_as_java_streams_it(tmp_path, java_newest, producer):
    """Paimon Java 1.4.2 writes a primary-key table with a changelog producer (inserts, updates, deletes, a full
    compaction); the stream delivers the merged snapshot as ``+I`` rows, then exactly the records Java's own
    streaming read delivers for the same snapshots, with their row kinds."""
    path = java_newest.create_table(str(tmp_path), "db.pk", PK_SCHEMA, primary_keys=["p", "id"],
                                    partition_keys=["p"],
                                    options={"bucket": "2", "changelog-producer": producer})
    columns = ["p", "id", "s"]
    java_newest.write(path, _rows(0, 12).select(columns))
    java_newest.compact(path, full=True)  # full-compaction's changelogs are the differences of two of these
    reader = _reader(path, **{"read.changelog": "true"})  # latest-full
    start = reader.initialOffset()
    first = reader.latestOffset(start, None)
    merged = sorted(f"+I {[r[c] for c in columns]!r}" for r in java_newest.read(path).to_pylist())
    assert stream_changes(reader, start, first, columns) == merged and len(merged) == 12
    updated = _rows(6, 10).select(columns).set_column(2, "s", pa.array([f"u{i}" for i in range(6, 16)]))
    java_newest.write(path, updated)  # six updates, four inserts
    java_newest.write(path, _rows(0, 3).select(columns), row_kinds=["-D", "-D", "-D"])
    java_newest.compact(path, full=True)
    java_newest.write(path, _rows(1, 1).select(columns))  # a deleted key comes back
    end = reader.latestOffset(first, None)
    assert end["snapshot"] > first["snapshot"]
    ours = stream_changes(reader, first, end, columns)
    theirs = java_newest.read_changelog(path, first["snapshot"] + 1, end["snapshot"])
    assert ours == theirs and ours
    kinds = {line.split(" ", 1)[0] for line in ours}
    assert "-D" in kinds and ("+U" in kinds or producer == "input")
    assert stream_changes(reader, end, reader.latestOffset(end, None), columns) == []


def test_primary_key_stream_through_spark(tmp_path, spark, java_newest):  # noqa: F811
    path = java_newest.create_table(str(tmp_path), "db.pk", PK_SCHEMA, primary_keys=["p", "id"],
                                    partition_keys=["p"], options={"bucket": "1", "changelog-producer": "input"})
    java_newest.write(path, _rows(0, 4).select(["p", "id", "s"]))
    ck = str(tmp_path / "ck")
    stream = spark.readStream.format("paimon_codec").option("read.changelog", "true").load(path)
    assert stream.columns == ["rowkind", "p", "id", "s"]
    delivered: list = []

    def drain() -> None:  # a restart from the checkpoint each time
        (stream.writeStream.foreachBatch(lambda df, _epoch: delivered.extend(df.collect()))
         .option("checkpointLocation", ck).trigger(availableNow=True).start().awaitTermination())

    drain()
    java_newest.write(path, _rows(0, 2).select(["p", "id", "s"]), row_kinds=["-D", "+I"])
    drain()
    got = sorted(f"{r.rowkind} {[r.p, r.id, r.s]!r}" for r in delivered)
    snaps = PaimonTable(path).snapshot_ids()
    want = sorted([f"+I {[r['p'], r['id'], r['s']]!r}" for r in _rows(0, 4).to_pylist()]
                  + java_newest.read_changelog(path, snaps[1], snaps[-1]))
    assert got == want
    with pytest.raises(Exception, match="read.changelog"):
        spark.read.format("paimon_codec").option("read.changelog", "true").load(path).collect()


def test_changelog_streams_into_a_primary_key_table(tmp_path, spark, java_newest):  # noqa: F811
    """``read.changelog`` of Java's table A (``changelog-producer = input``) streamed by the sink into our table B:
    the ``rowkind`` column gives the rows their kinds, so A's deletes and updates reach B; B equals A (Java)."""
    columns = ["p", "id", "s"]
    a = java_newest.create_table(str(tmp_path), "db.a", PK_SCHEMA, primary_keys=["p", "id"], partition_keys=["p"],
                                 options={"bucket": "1", "changelog-producer": "input"})
    b = java_newest.create_table(str(tmp_path), "db.b", PK_SCHEMA, primary_keys=["p", "id"], partition_keys=["p"],
                                 options={"bucket": "2"})
    ck = str(tmp_path / "ck")

    def drain() -> None:  # a restart from the checkpoint each time
        (spark.readStream.format("paimon_codec").option("read.changelog", "true").load(a)
         .writeStream.format("paimon_codec").option("checkpointLocation", ck).trigger(availableNow=True)
         .start(b).awaitTermination())

    java_newest.write(a, _rows(0, 6).select(columns))
    drain()
    java_newest.write(a, _rows(0, 3).select(columns), row_kinds=["-D", "+I", "-D"])
    java_newest.write(a, _tagged([1, 1, 4, 9], "u").select(columns), row_kinds=["-U", "+U", "+U", "+I"])
    drain()
    want = java_newest.read(a)
    assert sorted((r["id"], r["s"]) for r in want.to_pylist()) == \
        [(1, "u1"), (3, "v3"), (4, "u4"), (5, "v5"), (9, "u9")]  # the deletes and updates took
    assert_same_rows(java_newest.read(b), want, what="Java reads B as A")
    assert_same_rows(read_table(b), want, what="we read B as A")


def test_sink_commits_a_replayed_batch_once(tmp_path, java_newest):
    path = _table(str(tmp_path / "db.db" / "t"))
    options = {"checkpointLocation": str(tmp_path / "ck")}
    writer = PaimonStreamWriter(path, options)

    def batch(start: int) -> list:
        return [writer.write(iter(_rows(start, 5).to_batches()))]

    writer.commit(batch(0), 0)
    writer.commit(batch(5), 1)
    again = PaimonStreamWriter(path, options)  # a restarted query: the same commit user
    assert again.commit_user == writer.commit_user
    again.commit(batch(5), 1)  # Spark replays batch 1: recognised, not committed twice
    again.commit(batch(10), 2)
    snaps = [PaimonTable(path).snapshot(i).raw for i in PaimonTable(path).snapshot_ids()]
    assert [(s["commitUser"], s["commitIdentifier"]) for s in snaps] == [(writer.commit_user, i) for i in range(3)]
    assert committed_identifier(path, writer.commit_user) == 2
    assert sorted(java_newest.read(path).column("id").to_pylist()) == list(range(15))
    other = PaimonStreamWriter(path, {"checkpointLocation": str(tmp_path / "other")})
    assert other.commit_user != writer.commit_user
    other.commit([StreamCommitMessage(b"\x80\x04]\x94.", 0)], 0)  # an empty batch commits nothing
    assert len(PaimonTable(path).snapshot_ids()) == 3


def _tagged(ids, tag: str) -> pa.Table:
    return pa.table({"id": pa.array(list(ids), pa.int64()), "s": [f"{tag}{i}" for i in ids],
                     "p": [("a", "b")[i % 2] for i in ids]})


def _upserted(expected: dict, rows: pa.Table) -> dict:
    expected.update({(r["id"], r["p"]): r for r in rows.to_pylist()})
    return expected


def _staged_files(path: str) -> list[str]:
    index = os.path.join(path, "index")
    return [n for n in os.listdir(index) if n.startswith(STAGED_PREFIX)] if os.path.isdir(index) else []


@pytest.mark.parametrize("table_options", [{"bucket": "-1", "dynamic-bucket.target-row-num": "8"},
                                           {"bucket": "-2", "postpone.default-bucket-num": "2"}],
                         ids=["dynamic", "postpone"])
def test_sink_upserts_a_replayed_batch_once(tmp_path, java_newest, table_options):
    """Micro-batches into a dynamic-bucket (or postpone-bucket) primary-key table: a key repeated across a batch's
    tasks keeps the last task's row, a replayed batch is recognised by the commit identity and its staged rows
    dropped, Java reads what we read (a postpone table's rows after Java's postpone compaction) and keeps
    upserting on top."""
    path = create_table(str(tmp_path / "db.db" / "pk"), SCHEMA, table_options, partition_keys=["p"],
                        primary_keys=["id", "p"])
    postpone = table_options["bucket"] == "-2"
    options = {"checkpointLocation": str(tmp_path / "ck")}
    writer = PaimonStreamWriter(path, options)

    def batch(*tasks: pa.Table) -> list:
        return [writer.write(iter(t.to_batches())) for t in tasks]  # one task each, in order

    expected: dict = {}
    writer.commit(batch(_tagged(range(0, 20), "a"), _tagged(range(10, 30), "b")), 0)
    _upserted(_upserted(expected, _tagged(range(0, 20), "a")), _tagged(range(10, 30), "b"))
    writer.commit(batch(_tagged(range(25, 40), "c")), 1)
    _upserted(expected, _tagged(range(25, 40), "c"))
    again = PaimonStreamWriter(path, options)  # a restarted query: the same commit user
    again.commit(batch(_tagged(range(0, 40), "replayed")), 1)  # Spark replays batch 1: not committed twice
    assert not _staged_files(path)  # the replay's staged rows are gone
    again.commit(batch(_tagged(range(35, 45), "d")), 2)
    _upserted(expected, _tagged(range(35, 45), "d"))
    snaps = [PaimonTable(path).snapshot(i).raw for i in PaimonTable(path).snapshot_ids()]
    assert [(s["commitUser"], s["commitIdentifier"], s["commitKind"]) for s in snaps] == \
        [(writer.commit_user, i, "APPEND") for i in range(3)]
    if postpone:
        assert java_newest.read(path).num_rows == 0 and read_table(path).num_rows == 0
        java_newest.compact_postpone(path)
    want = pa.Table.from_pylist(list(expected.values()), schema=SCHEMA)
    assert_same_rows(java_newest.read(path), want, what="Java reads the streamed upserts")
    assert_same_rows(read_table(path), want, what="ours")
    java_newest.write(path, _tagged([1, 44, 50], "j"))
    if postpone:
        java_newest.compact_postpone(path)
    want = pa.Table.from_pylist(list(_upserted(expected, _tagged([1, 44, 50], "j")).values()), schema=SCHEMA)
    assert_same_rows(java_newest.read(path), want, what="Java reads its upsert over ours")
    assert_same_rows(read_table(path), want, what="we read Java's upsert over ours")
    assert not _staged_files(path)
    crashed = batch(_tagged(range(3), "lost"))  # staged by a task, never committed: a job that died
    staged = sorted(os.path.join(path, "index", n) for n in _staged_files(path))
    assert len(staged) == 2  # one per table partition
    future = int(time.time() * 1000) + 60_000
    assert set(staged) <= set(java_newest.orphan_files(path, future))  # Paimon's orphan clean removes them
    assert set(staged) <= {f.path for f in find_orphans(path, future).orphans}
    assert discard_staged(crashed) == 2 and not _staged_files(path)


@pytest.mark.slow
def test_primary_key_sink_through_spark(tmp_path, spark, java_newest):  # noqa: F811
    """A query streaming an append table into a fixed-bucket primary-key table, stopped and restarted from its
    checkpoint; keys repeat within and across micro-batches."""
    import stream_source

    stream_source.register(spark)
    src = _table(str(tmp_path / "db.db" / "src"))
    dst = create_table(str(tmp_path / "db.db" / "dst"), SCHEMA, {"bucket": "2"}, partition_keys=["p"],
                       primary_keys=["id", "p"])
    ck = str(tmp_path / "ck")

    def drain() -> None:
        (spark.readStream.format("paimon_codec").load(src).writeStream.format("paimon_codec")
         .option("checkpointLocation", ck).trigger(availableNow=True).start(dst).awaitTermination())

    append_arrow(src, _tagged(range(0, 20), "a"))
    drain()
    first = {(r["id"], r["p"]): r for r in read_table(dst).to_pylist()}
    assert first == _upserted({}, _tagged(range(0, 20), "a"))
    append_arrow(src, _tagged(range(10, 30), "b"))
    append_arrow(src, _tagged(range(15, 25), "c"))  # with "b", a batch repeating keys 15..24 across its files
    drain()  # the restarted query: the same commit user, the next batch ids
    ours = {(r["id"], r["p"]): r for r in read_table(dst).to_pylist()}
    assert set(ours) == {(i, ("a", "b")[i % 2]) for i in range(30)}
    for (i, _p), row in ours.items():  # "b" and "c" may share a micro-batch: either may win a key of both
        later = [t for t, ids in (("b", range(10, 30)), ("c", range(15, 25))) if i in ids]
        assert row["s"] in {f"{t}{i}" for t in later or ["a"]}
    assert_same_rows(read_table(dst), java_newest.read(dst), what="ours vs Java")
    snaps = [PaimonTable(dst).snapshot(i).raw for i in PaimonTable(dst).snapshot_ids()]
    assert len({s["commitUser"] for s in snaps}) == 1
    ids = [s["commitIdentifier"] for s in snaps]
    assert ids == sorted(set(ids))  # each micro-batch committed once
    assert not _staged_files(dst)


def test_stream_through_spark(tmp_path, spark):  # noqa: F811
    import stream_source

    stream_source.register(spark)
    src = _table(str(tmp_path / "db.db" / "src"))
    dst = _table(str(tmp_path / "db.db" / "dst"))
    _appended(src, (0, 20))
    ck = str(tmp_path / "ck")

    def drain() -> None:
        (spark.readStream.format("paimon_codec").load(src).writeStream.format("paimon_codec")
         .option("checkpointLocation", ck).trigger(availableNow=True).start(dst).awaitTermination())

    drain()
    _appended(src, (20, 7), (27, 3))
    drain()
    assert sorted(read_table(dst).column("id").to_pylist()) == list(range(30))
    users = {PaimonTable(dst).snapshot(i).raw["commitUser"] for i in PaimonTable(dst).snapshot_ids()}
    assert len(users) == 1


def _java_rows(java, path: str) -> list[int]:
    return sorted(java.read(path).column("id").to_pylist())


def _driver(src: str, dst: str, ck: str, mode: str, log) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, os.path.join(HERE, "stream_driver.py"), src, dst, ck, mode],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


@pytest.mark.slow
@pytest.mark.spark
@pytest.mark.parametrize("erase_last_commit", [False, True], ids=["killed", "killed-after-sink-commit"])
def test_kill_9_and_restart_delivers_every_row_once(tmp_path, spark, java_newest, erase_last_commit):  # noqa: F811
    """Paimon Java and this library's DataFrame sink (``df.write.format("paimon_codec")``, in this process's
    session) take turns appending to SRC while a query in its own driver process streams SRC into DST; the
    driver is killed with SIGKILL after DST has some of the batches, restarted from the checkpoint and drained.
    With ``erase_last_commit`` the checkpoint loses its last ``commits/<n>`` entry, as when the driver dies
    between the sink's Paimon commit and Spark's checkpoint commit: Spark replays batch ``n``, the sink must
    see it."""
    src = _table(str(tmp_path / "db.db" / "src"), **{"write-only": "true"})  # Java: no COMPACT (empty) batches
    dst = _table(str(tmp_path / "db.db" / "dst"))
    ck = str(tmp_path / "ck")
    _appended(src, (0, 50))
    stop = threading.Event()
    written: list[int] = list(range(50))

    def feed() -> None:
        start, turn = 50, 0
        while not stop.is_set() and turn < 60:  # until the driver is killed
            rows = _rows(start, 25)
            if turn % 2:
                java_newest.write(src, rows)
            else:
                spark.createDataFrame(rows.to_pandas()).repartition(2).write.format("paimon_codec") \
                    .mode("append").save(src)
            written.extend(range(start, start + 25))
            start, turn = start + 25, turn + 1
            time.sleep(2)

    with open(tmp_path / "driver.log", "wb") as log:
        proc = _driver(src, dst, ck, "run", log)
        feeder = threading.Thread(target=feed)
        feeder.start()
        try:
            deadline = time.monotonic() + 480
            # killed once DST has a batch and both Java and the sink have appended to SRC
            while (not PaimonTable(dst).snapshot_ids() or len(written) < 100) and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            assert proc.poll() is None, (tmp_path / "driver.log").read_text()[-3000:]
            assert PaimonTable(dst).snapshot_ids(), "the query committed no batch"
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        finally:
            stop.set()
            feeder.join()
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
        before = sorted(read_table(dst).column("id").to_pylist())
        assert before and before == sorted(set(before))
        last = max((int(n) for n in os.listdir(os.path.join(ck, "commits")) if n.isdigit()), default=-1)
        snap = PaimonTable(dst).snapshot()
        assert snap is not None
        # the sink's last batch is Spark's last committed one, or the one after when the kill came between the
        # sink's commit and Spark's (then the restart replays it whichever way this test goes)
        assert snap.raw["commitIdentifier"] in (last, last + 1)
        if erase_last_commit and snap.raw["commitIdentifier"] == last:
            os.remove(os.path.join(ck, "commits", str(last)))
            crc = os.path.join(ck, "commits", f".{last}.crc")
            if os.path.exists(crc):
                os.remove(crc)
        drained = _driver(src, dst, ck, "drain", log)
        try:
            code = drained.wait(timeout=600)
        finally:
            if drained.poll() is None:
                os.killpg(drained.pid, signal.SIGKILL)
        assert code == 0, (tmp_path / "driver.log").read_text()[-3000:]
    assert _java_rows(java_newest, src) == sorted(written)
    src_users = {PaimonTable(src).snapshot(i).raw["commitUser"] for i in PaimonTable(src).snapshot_ids()}
    assert len(src_users) >= 3  # append_arrow's first snapshot, Java's writes, the sink's writes
    delivered = _java_rows(java_newest, dst)
    if delivered != sorted(written):  # what the checkpoint and the sink's snapshots say, to see why
        offsets = {n: (tmp_path / "ck" / "offsets" / n).read_text().splitlines()[-1]
                   for n in sorted(os.listdir(tmp_path / "ck" / "offsets")) if n.isdigit()}
        snaps = [(i, PaimonTable(dst).snapshot(i).raw["commitIdentifier"], PaimonTable(dst).snapshot(i).raw[
            "deltaRecordCount"]) for i in PaimonTable(dst).snapshot_ids()]
        missing = sorted(set(written) - set(delivered))
        extra = sorted(i for i in set(delivered) if delivered.count(i) > 1)
        pytest.fail(f"missing {len(missing)} {missing[:5]}, repeated {extra[:5]}; offsets {offsets}; "
                    f"commits {sorted(os.listdir(tmp_path / 'ck' / 'commits'))}; sink snapshots {snaps}")
    assert_same_rows(read_table(dst), java_newest.read(dst), what="dst: ours vs Java")
    idents = [PaimonTable(dst).snapshot(i).raw["commitIdentifier"] for i in PaimonTable(dst).snapshot_ids()]
    assert idents == sorted(set(idents))  # each micro-batch one snapshot, in batch order
