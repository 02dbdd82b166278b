"""Upserts into primary-key tables and full compaction (``paimon_codec.writing.primary_key`` / ``.compact``),
checked against Paimon Java 1.4.2 in both orders of writers and against pypaimon 2.1.

Expected rows come from a plain model of each merge engine over the records written (the last record of
a key for ``deduplicate``, ...), never from our own reader alone: Java's read, pypaimon's read and ours
must all equal it.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec.bucket.hash_index import read_hash_index
from paimon_codec.errors import CommitConflictError, PaimonCodecError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table
from paimon_codec.writing.commit import commit_changes
from paimon_codec.writing.compact import compact_table
from paimon_codec.writing.primary_key import upsert_arrow, write_primary_key_files

SCHEMA = "id INT NOT NULL, p INT NOT NULL, s STRING, n BIGINT"
ARROW = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("s", pa.string()), ("n", pa.int64())])


def _batch(ids, p=None, tag="a") -> pa.Table:
    ids = list(ids)
    parts = [i % 3 for i in ids] if p is None else [p] * len(ids)
    return pa.table({"id": pa.array(ids, pa.int32()), "p": pa.array(parts, pa.int32()),
                     "s": [f"{tag}{i}" if i % 5 else None for i in ids], "n": pa.array([i * 7 for i in ids], pa.int64())})


class Model:
    """The table a deduplicate merge yields: key -> last row, a -D removes the key."""

    def __init__(self, keys=("id", "p")):
        self.keys = keys
        self.rows: dict[tuple, dict] = {}

    def apply(self, data: pa.Table, kinds=None) -> None:
        for i, row in enumerate(data.to_pylist()):
            key = tuple(row[k] for k in self.keys)
            if kinds is not None and kinds[i] in ("-D", "-U"):
                self.rows.pop(key, None)
            else:
                self.rows[key] = row

    def table(self) -> pa.Table:
        return pa.Table.from_pylist(list(self.rows.values()), schema=ARROW)


def _key_buckets(path: str) -> dict[tuple, int]:
    """key -> bucket of every record of the live files (each key must sit in one bucket)."""
    table = PaimonTable(path)
    out: dict[tuple, int] = {}
    for f in table.live_files(table.snapshot()):
        import pyarrow.parquet as pq

        data = pq.read_table(f.path, columns=["id", "p"])
        for key in zip(data.column("id").to_pylist(), data.column("p").to_pylist(), strict=True):
            assert out.setdefault(key, f.bucket) == f.bucket, f"key {key} in buckets {out[key]} and {f.bucket}"
    return out


@pytest.mark.parametrize("options", [{"bucket": "3"}, {"bucket": "-1", "dynamic-bucket.target-row-num": "7"}],
                         ids=["fixed", "dynamic"])
def test_upsert_compact_interop(tmp_path, java_newest, options):
    path = str(create_table(tmp_path / "wh" / "db.db" / "ours", ARROW, {**options, "file-index.bloom-filter.columns": "s"},
                            partition_keys=["p"], primary_keys=["id", "p"]))
    model = Model()
    first = _batch(range(40))
    upsert_arrow(path, first)
    model.apply(first)
    again = pa.concat_tables([_batch(range(30, 50), tag="b"), _batch([31, 32], tag="c")])  # dup keys in one call
    kinds = ["+I"] * 20 + ["-D", "+I"]
    upsert_arrow(path, again, row_kinds=kinds)
    model.apply(again, kinds)
    assert_same_rows(java_newest.read(path), model.table(), what="Java reads our upserts")
    assert_same_rows(read_table(path), model.table(), what="we read our upserts")
    ours_buckets = _key_buckets(path)

    # Java upserts and deletes on top of our files and hash index, then compacts
    theirs = _batch(range(45, 60), tag="j")
    java_newest.write(path, theirs)
    model.apply(theirs)
    java_newest.write(path, _batch([1, 2, 46]), row_kinds=["-D", "-D", "-D"])
    model.apply(_batch([1, 2, 46]), ["-D"] * 3)
    assert_same_rows(read_table(path), model.table(), what="we read Java's upserts on ours")
    _key_buckets(path)  # Java sent every key we wrote to our bucket
    java_newest.compact(path, full=True)
    assert_same_rows(read_table(path), model.table(), what="we read Java's compaction")

    # ours on top of Java's, then our compaction
    more = _batch(range(55, 70), tag="o")
    upsert_arrow(path, more)
    model.apply(more)
    result = compact_table(path)
    assert result.commit_kind == "COMPACT"
    assert java_newest.snapshot(path)["commit_kind"] == "COMPACT"
    assert_same_rows(java_newest.read(path), model.table(), what="Java reads our compaction")
    assert_same_rows(read_table(path), model.table(), what="we read our compaction")
    table = PaimonTable(path)
    assert {f.level for f in table.live_files(table.snapshot())} == {5}
    java_newest.write(path, _batch([3, 4], tag="z"))
    model.apply(_batch([3, 4], tag="z"))
    assert_same_rows(java_newest.read(path), model.table(), what="Java writes on our compaction")

    if options["bucket"] == "-1":  # the same keys written by Java alone land in the same buckets
        java_table = java_newest.create_table(tmp_path / "wh", "db.theirs", SCHEMA, primary_keys=["id", "p"],
                                              partition_keys=["p"], options=options)
        java_newest.write(java_table, first)
        java_newest.write(java_table, again, row_kinds=kinds)
        theirs_buckets = _key_buckets(java_table)
        assert theirs_buckets == {k: b for k, b in ours_buckets.items() if k in theirs_buckets}
        assert len(set(ours_buckets.values())) > 1


@pytest.mark.parametrize("partition_keys", [["p"], []], ids=["partitioned", "unpartitioned"])
def test_hash_index_files_match_java(tmp_path, java_newest, partition_keys):
    """Per (partition, bucket) our HASH file holds the same hashes as the one Java writes for the same keys -
    new keys, keys written again and -D records (a deleted key keeps its hash, in Java too) - and every key
    sits in the bucket Java's assigner picked."""
    options = {"bucket": "-1", "dynamic-bucket.target-row-num": "5"}
    ours = str(create_table(tmp_path / "wh" / "db.db" / "ours", ARROW, options, partition_keys=partition_keys,
                            primary_keys=["id", "p"]))
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", SCHEMA, primary_keys=["id", "p"],
                                      partition_keys=partition_keys, options=options)
    for batch, kinds in ((_batch(range(0, 23)), None), (_batch(range(15, 40)), None),
                         (_batch([2, 41, 7, 42]), ["-D", "+I", "-D", "+I"])):
        upsert_arrow(ours, batch, row_kinds=kinds)
        java_newest.write(theirs, batch, row_kinds=kinds)

    def hashes(path):
        t = PaimonTable(path)
        return {(e.partition, e.bucket): sorted(read_hash_index(t.index_file_path(e)).tolist())
                for e in t.index_entries(t.snapshot()) if e.index_file.index_type == "HASH"}
    assert hashes(ours) == hashes(theirs)
    assert len(hashes(ours)) > (3 if partition_keys else 1)
    assert _key_buckets(ours) == _key_buckets(theirs)


def test_deletion_vector_table(tmp_path, java_newest):
    options = {"bucket": "2", "deletion-vectors.enabled": "true"}
    path = str(create_table(tmp_path / "wh" / "db.db" / "dv", ARROW, options, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    model = Model()
    first = _batch(range(30))
    upsert_arrow(path, first)
    assert java_newest.read(path).num_rows == 0  # level 0 is invisible until compaction, as in Paimon
    compact_table(path)
    model.apply(first)
    assert_same_rows(java_newest.read(path), model.table(), what="Java reads our compaction")
    java_newest.write(path, _batch([1, 2], tag="j"))  # Java's lookup compaction writes deletion vectors
    java_newest.write(path, _batch([3]), row_kinds=["-D"])
    model.apply(_batch([1, 2], tag="j"))
    model.apply(_batch([3]), ["-D"])
    table = PaimonTable(path)
    assert any(e.index_file.index_type == "DELETION_VECTORS" for e in table.index_entries(table.snapshot()))
    assert_same_rows(read_table(path), model.table(), what="we read Java's deletion vectors")
    upsert_arrow(path, _batch([4, 5], tag="o"))
    assert_same_rows(java_newest.read(path), model.table(), what="our level 0 stays invisible")
    model.apply(_batch([4, 5], tag="o"))
    compact_table(path)
    table = PaimonTable(path)
    assert not [e for e in table.index_entries(table.snapshot()) if e.index_file.index_type == "DELETION_VECTORS"]
    assert_same_rows(java_newest.read(path), model.table(), what="Java reads our compaction over its DVs")
    assert_same_rows(read_table(path), model.table())


@pytest.mark.parametrize("engine,options", [
    ("partial-update", {"merge-engine": "partial-update"}),
    ("aggregation", {"merge-engine": "aggregation", "fields.n.aggregate-function": "sum"}),
    ("first-row", {"merge-engine": "first-row"}),
], ids=lambda v: v if isinstance(v, str) else "")
def test_merge_engines_with_repeated_keys(tmp_path, java_newest, pypaimon21, engine, options):
    """A key written several times in one call: Java's reads, pypaimon's and ours agree with Java writing the
    same rows."""
    batches = [pa.table({"id": pa.array([1, 2, 1, 1, 3], pa.int32()), "p": pa.array([0] * 5, pa.int32()),
                         "s": ["a", None, None, "d", "e"], "n": pa.array([1, 2, None, 4, 5], pa.int64())}),
               pa.table({"id": pa.array([2, 1], pa.int32()), "p": pa.array([0, 0], pa.int32()),
                         "s": [None, "z"], "n": pa.array([20, None], pa.int64())})]
    ours = str(create_table(tmp_path / "wh" / "db.db" / "ours", ARROW, {"bucket": "1", **options},
                            primary_keys=["id", "p"]))
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", SCHEMA, primary_keys=["id", "p"],
                                      options={"bucket": "1", **options})
    for b in batches:
        upsert_arrow(ours, b)
        java_newest.write(theirs, b)
    if engine == "first-row":  # level 0 is invisible to first-row reads until compaction
        compact_table(ours)
        java_newest.compact(theirs, full=True)
    expected = java_newest.read(theirs)
    assert expected.num_rows == 3
    assert_same_rows(java_newest.read(ours), expected, what=f"{engine}: Java reads ours")
    assert_same_rows(read_table(ours), expected, what=f"{engine}: we read ours")
    if engine != "first-row":
        assert_same_rows(pypaimon21.read(ours), expected, what=f"{engine}: pypaimon reads our level 0")
    compact_table(ours)
    assert_same_rows(java_newest.read(ours), expected, what=f"{engine}: Java reads our compaction")
    assert_same_rows(pypaimon21.read(ours), expected, what=f"{engine}: pypaimon reads our compaction")


def test_pypaimon_reads_our_upserts(tmp_path, pypaimon21):
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "2"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    model = Model()
    for batch, kinds in ((_batch(range(20)), None), (_batch([3, 4, 25], tag="b"), ["+I", "-D", "+I"])):
        upsert_arrow(path, batch, row_kinds=kinds)
        model.apply(batch, kinds)
    assert_same_rows(pypaimon21.read(path), model.table(), what="pypaimon reads our level 0")
    compact_table(path)
    assert_same_rows(pypaimon21.read(path), model.table(), what="pypaimon reads our compaction")


def test_two_writers_on_one_bucket_conflict(tmp_path):
    path = str(create_table(tmp_path / "t", ARROW, {"bucket": "1"}, primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(5), p=0))
    a = write_primary_key_files(path, _batch([1], p=0, tag="x"))
    b = write_primary_key_files(path, _batch([2], p=0, tag="y"))
    commit_changes(path, a.changes(), precondition=a.precondition())
    with pytest.raises(CommitConflictError, match="another writer"):
        commit_changes(path, b.changes(), precondition=b.precondition())
    rows = {r["id"]: r["s"] for r in read_table(path).to_pylist()}
    assert rows[1] == "x1" and rows[2] == "a2"
    seqs = [f.meta.max_sequence_number for f in PaimonTable(path).live_files(PaimonTable(path).snapshot())]
    assert sorted(seqs) == [4, 5]


def test_compaction_racing_compaction_conflicts(tmp_path):
    from paimon_codec.writing.compact import compact_bucket, plan_compaction

    path = str(create_table(tmp_path / "t", ARROW, {"bucket": "1"}, primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(5), p=0))
    upsert_arrow(path, _batch(range(3), p=0, tag="b"))
    jobs = plan_compaction(path)
    first = [c for j in jobs for part in compact_bucket(j) for c in part]
    second = [c for j in jobs for part in compact_bucket(j) for c in part]
    commit_changes(path, first, kind="COMPACT")
    with pytest.raises(CommitConflictError):
        commit_changes(path, second, kind="COMPACT")
    assert read_table(path).num_rows == 5


@pytest.mark.parametrize("options,partition_keys,what", [
    ({"bucket": "-1"}, ["p"], "cross-partition"),
    ({"bucket": "1", "changelog-producer": "input"}, [], "changelog-producer"),
])
def test_refused_by_name(tmp_path, options, partition_keys, what):
    path = str(create_table(tmp_path / "t", ARROW, options, partition_keys=partition_keys, primary_keys=["id"]))
    with pytest.raises(PaimonCodecError, match=what):
        upsert_arrow(path, _batch([1], p=0))
    assert PaimonTable(path).snapshot() is None
    np.testing.assert_equal(len(list((tmp_path / "t").glob("**/*.parquet"))), 0)


WIDE = pa.schema([("k", pa.string()), ("ts", pa.timestamp("ms")), ("d", pa.decimal128(12, 2)),
                  ("v", pa.string()), ("f", pa.float64()), ("b", pa.binary())])
WIDE_SQL = "k STRING NOT NULL, ts TIMESTAMP(3) NOT NULL, d DECIMAL(12, 2), v STRING, f DOUBLE, b BYTES"


def _wide(n: int, start: int = 0) -> pa.Table:
    import datetime as dt
    import decimal

    ids = range(start, start + n)
    return pa.table({"k": [f"key-{i % 17:03d}-{'x' * (i % 150)}" for i in ids],
                     "ts": pa.array([dt.datetime(2024, 1, 1) + dt.timedelta(minutes=i % 5) for i in ids],
                                    pa.timestamp("ms")),
                     "d": pa.array([None if i % 4 == 0 else decimal.Decimal(i) / 4 for i in ids], pa.decimal128(12, 2)),
                     "v": [f"v{i}" * (i % 9) for i in ids], "f": [i / 3 for i in ids],
                     "b": [bytes([i % 256]) for i in ids]}, schema=WIDE)


@pytest.mark.parametrize("options", [{"bucket": "4"}, {"bucket": "-1", "dynamic-bucket.target-row-num": "9"}],
                         ids=["fixed", "dynamic"])
def test_file_metas_match_java(tmp_path, java_newest, options):
    """Our level-0 files carry the metas Java's writer gives the same records (keys, stats, sequence numbers,
    retraction count), per bucket; with dynamic buckets the HASH files hold the same hashes."""
    rows = _wide(60)  # repeated keys: the write buffer / level-0 runs keep the last record of each
    keys = ["k", "ts"]
    ours = str(create_table(tmp_path / "wh" / "db.db" / "ours", WIDE, options, primary_keys=keys))
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", WIDE_SQL, primary_keys=keys, options=options)
    kinds = ["-D" if i % 13 == 0 else "+I" for i in range(rows.num_rows)]
    upsert_arrow(ours, rows, row_kinds=kinds)
    java_newest.write(theirs, rows, row_kinds=kinds)

    def metas(path):
        t = PaimonTable(path)
        out = {}
        for f in t.live_files(t.snapshot()):
            m = f.meta
            assert f.bucket not in out, "one level-0 file per bucket for one write"
            out[f.bucket] = (m.row_count, m.level, m.min_key, m.max_key, m.min_sequence_number,
                             m.max_sequence_number, m.delete_row_count, m.file_source, m.key_stats, m.value_stats)
        return out
    assert metas(ours) == metas(theirs)
    assert_same_rows(java_newest.read(ours), java_newest.read(theirs))
    if options["bucket"] == "-1":
        def hashes(path):
            t = PaimonTable(path)
            return {(e.partition, e.bucket): sorted(read_hash_index(t.index_file_path(e)).tolist())
                    for e in t.index_entries(t.snapshot()) if e.index_file.index_type == "HASH"}
        assert hashes(ours) == hashes(theirs)
        assert len(hashes(ours)) > 1


def test_two_dynamic_writers_on_one_partition_conflict(tmp_path):
    """A writer that assigned keys by a partition's hash index loses when another commit changed that index
    (even by a bucket the first writer never touched)."""
    path = str(create_table(tmp_path / "t", ARROW, {"bucket": "-1", "dynamic-bucket.target-row-num": "3"},
                            partition_keys=["p"], primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(3), p=0))              # bucket 0 full
    a = write_primary_key_files(path, _batch([10, 11], p=0))  # both open bucket 1
    b = write_primary_key_files(path, _batch([11, 12], p=0))
    commit_changes(path, a.changes(), precondition=a.precondition())
    with pytest.raises(CommitConflictError, match="another writer"):
        commit_changes(path, b.changes(), precondition=b.precondition())
    assert sorted(r["id"] for r in read_table(path).to_pylist()) == [0, 1, 2, 10, 11]


def test_ignore_delete_drops_retractions_as_java(tmp_path, java_newest):
    """With ``ignore-delete`` Paimon's writer drops -D / -U records before they reach a file or the hash index."""
    options = {"bucket": "-1", "dynamic-bucket.target-row-num": "4", "ignore-delete": "true"}
    ours = str(create_table(tmp_path / "wh" / "db.db" / "ours", ARROW, options, primary_keys=["id", "p"]))
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", SCHEMA, primary_keys=["id", "p"], options=options)
    rows = _batch(range(12), p=0)
    kinds = ["-D" if i % 3 == 0 else "-U" if i % 3 == 1 else "+I" for i in range(12)]
    upsert_arrow(ours, rows, row_kinds=kinds)
    java_newest.write(theirs, rows, row_kinds=kinds)
    for path in (ours, theirs):
        t = PaimonTable(path)
        hashes = sorted(h for e in t.index_entries(t.snapshot()) for h in read_hash_index(t.index_file_path(e)).tolist())
        assert len(hashes) == 4
    assert_same_rows(java_newest.read(ours), java_newest.read(theirs))
    assert read_table(ours).num_rows == 4


@pytest.mark.parametrize("key_type", ["BIGINT", "INT", "STRING"])
def test_compacted_records_match_java_compaction(tmp_path, java_newest, key_type):
    """Twin tables written alike (ours: ``upsert_arrow``; Java's writer), one fully compacted by us, one by
    Java: the top-level files hold the same records - key, values and ``_SEQUENCE_NUMBER`` (the key's highest:
    one integer key takes the numpy path, others the group-by)."""
    import pyarrow.parquet as pq

    arrow_key = {"BIGINT": pa.int64(), "INT": pa.int32(), "STRING": pa.string()}[key_type]
    schema = pa.schema([("k", arrow_key), ("v", pa.int64()), ("s", pa.string())])
    options = {"bucket": "-1", "dynamic-bucket.target-row-num": "40"}
    ours = str(create_table(tmp_path / "wh" / "db.db" / "ours", schema, options, primary_keys=["k"]))
    theirs = java_newest.create_table(tmp_path / "wh", "db.theirs", f"k {key_type} NOT NULL, v BIGINT, s STRING",
                                      primary_keys=["k"], options=options)

    def batch(ids, tag):
        keys = [(i * 7919) % 1000 - 500 for i in ids]  # negative and positive, written out of order
        return pa.table({"k": pa.array([str(k) for k in keys] if key_type == "STRING" else keys, arrow_key),
                         "v": pa.array([i * 3 for i in ids], pa.int64()), "s": [f"{tag}{i}" for i in ids]})
    writes = [(batch(range(100), "a"), None), (batch(range(50, 130), "b"), None),
              (batch([3, 60, 61, 120], "c"), ["-D", "+I", "-D", "+I"])]
    for rows, kinds in writes:
        upsert_arrow(ours, rows, row_kinds=kinds)
        java_newest.write(theirs, rows, row_kinds=kinds)
    compact_table(ours)
    java_newest.compact(theirs, full=True)

    def records(path):
        t = PaimonTable(path)
        files = t.live_files(t.snapshot())
        assert {f.level for f in files} == {5}
        data = pa.concat_tables([pq.read_table(f.path, columns=["_KEY_k", "_SEQUENCE_NUMBER", "_VALUE_KIND", "v", "s"])
                                 for f in files])
        return sorted(zip(*(data.column(c).to_pylist() for c in data.column_names), strict=True))
    ours_records = records(ours)
    assert ours_records == records(theirs)
    assert len(ours_records) == len({(i * 7919) % 1000 for i in range(130)}) - 2


@pytest.mark.parametrize("kinds,what", [(["+I", "-X"], "unknown row kind '-X'"), (np.array([0, 4], np.int8), "unknown row kind 4"),
                                        (np.array([0], np.int8), "1 row kinds for 2 rows"), (["+I"], "1 row kinds for 2 rows")],
                         ids=["text", "byte", "byte-count", "text-count"])
def test_row_kinds_checked(tmp_path, kinds, what):
    """Row kinds as text or as byte values (what the benchmark and Spark pass, checked in bulk): a wrong one or a
    wrong count is refused before anything is written; byte -D deletes like text -D."""
    path = str(create_table(tmp_path / "t", ARROW, {"bucket": "1"}, primary_keys=["id", "p"]))
    with pytest.raises(PaimonCodecError, match=what):
        upsert_arrow(path, _batch([1, 2], p=0), row_kinds=kinds)
    assert PaimonTable(path).snapshot() is None
    upsert_arrow(path, _batch([1, 2], p=0))
    upsert_arrow(path, _batch([1, 3], p=0), row_kinds=np.array([3, 0], np.int8))
    assert sorted(read_table(path).column("id").to_pylist()) == [2, 3]


@pytest.mark.parametrize("options", [{"bucket": "2"}, {"bucket": "-1"}, {"bucket": "-2"}],
                         ids=["fixed", "dynamic", "postpone"])
def test_discard_removes_what_a_write_made(tmp_path, options):
    """``PrimaryKeyWrite.discard``: a write that is not committed leaves nothing behind - its data files and
    (dynamic buckets) its new HASH index files are deleted; the committed table's files stay."""
    import os

    path = str(create_table(tmp_path / "t", ARROW, options, partition_keys=["p"], primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(6)))

    def files() -> set[str]:
        return {os.path.join(d, n) for d, _, names in os.walk(tmp_path / "t") for n in names
                if "bucket-" in d or d.endswith("index")}

    before, rows = files(), read_table(path)  # (a postpone table shows no rows before a compaction)
    written = write_primary_key_files(path, _batch(range(4, 12), tag="x"))
    made = files() - before
    added_indexes = [c for c in written.indexes if c.kind == 0]  # (the HASH files they replace are kept)
    assert len(made) == len(written.files) + len(added_indexes) > 0
    assert written.discard(PaimonTable(path)) == len(made)
    assert files() == before
    assert read_table(path).equals(rows) and PaimonTable(path).snapshot().id == 1
