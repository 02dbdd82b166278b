"""Upserts into postpone-bucket primary-key tables (``bucket = -2``): records in ``bucket-postpone`` files as Paimon
1.4.2's ``PostponeBucketWriter`` writes them, invisible to batch reads (ours and Java's) until Paimon's postpone
compaction replays them into real buckets; Java compacts our files, keeps writing after us, and we read its
tables as it does."""

from __future__ import annotations

import os
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from oracles.compare import assert_same_rows
from test_write_primary_key import ARROW, Model, _batch

from paimon_codec.errors import UnsupportedFeatureError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.table.manifest import merge_entries
from paimon_codec.writing import create_table, delete
from paimon_codec.writing.compact import compact_table
from paimon_codec.writing.primary_key import upsert_arrow


def _postpone(tmp_path, name="t", options=None) -> str:
    return str(create_table(tmp_path / "wh" / "db.db" / name, ARROW, {"bucket": "-2", **(options or {})},
                            partition_keys=["p"], primary_keys=["id", "p"]))


def test_postpone_files_as_paimon_writes_them(tmp_path):
    """One write: per partition one level-0 file in ``bucket-postpone`` holding the records in arrival order
    (a repeated key twice, a -D kept), sequence numbers -1, min/max key the first/last record, manifest bucket
    and totalBuckets -2, named after the commit user and write id 0; nothing is visible to a batch read."""
    path = _postpone(tmp_path)
    data = _batch([5, 2, 5, 8, 3], p=1)
    result = upsert_arrow(path, data, row_kinds=["+I", "+I", "+U", "-D", "+I"], commit_user="writer-1")
    table = PaimonTable(path)
    entries = merge_entries(table.manifest_entries(table.snapshot()))
    assert [(e.bucket, e.total_buckets, e.file.level) for e in entries] == [(-2, -2, 0)]
    meta = entries[0].file
    assert re.fullmatch(r"data--u-writer-1-s-0-w-[0-9a-f-]{36}-0\.parquet", meta.file_name)
    assert (meta.min_sequence_number, meta.max_sequence_number, meta.delete_row_count) == (-1, -1, 1)
    assert result.snapshot_id == 1
    records = pq.read_table(os.path.join(path, "p=1", "bucket-postpone", meta.file_name))
    assert records.column("_KEY_id").to_pylist() == [5, 2, 5, 8, 3]
    assert records.column("_VALUE_KIND").to_pylist() == [0, 0, 2, 3, 0]
    assert set(records.column("_SEQUENCE_NUMBER").to_pylist()) == {-1}
    assert meta.min_key != meta.max_key  # first record (5) and last (3), not the sorted ends (2, 8)
    assert read_table(path).num_rows == 0


def test_postpone_writes_replay_in_order(tmp_path):
    """Writes in quick succession: every new file's creation time is later than those already in its
    partition (Paimon's compaction replays by creation time), and the files roll in order too."""
    path = _postpone(tmp_path, options={"target-file-size": "1 kb"})
    for tag in "abc":
        upsert_arrow(path, _batch(range(200), p=0, tag=tag))
    table = PaimonTable(path)
    files = [e.file for e in merge_entries(table.manifest_entries(table.snapshot()))]
    assert len(files) > 3  # rolled
    created = [f.creation_time_ms for f in files]
    assert len(set(created)) == len(created)
    first_ids = [pq.read_table(os.path.join(path, "p=0", "bucket-postpone", f.file_name)).column("s")[1].as_py()
                 for f in sorted(files, key=lambda f: f.creation_time_ms)]
    assert "".join(dict.fromkeys(s[0] for s in first_ids)) == "abc"


def test_postpone_refusals(tmp_path):
    """What this library does not do to a postpone-bucket table is refused by name: its compaction, DELETE."""
    path = _postpone(tmp_path)
    upsert_arrow(path, _batch(range(4), p=0))
    with pytest.raises(UnsupportedFeatureError, match=r"compacting a postpone-bucket table \(bucket = -2\)"):
        compact_table(path)
    with pytest.raises(UnsupportedFeatureError, match=r"DELETE on a postpone-bucket table \(bucket = -2\)"):
        delete(path, "id = 1")
    assert PaimonTable(path).snapshot().id == 1


@pytest.mark.parametrize("options", [{}, {"postpone.default-bucket-num": "3", "merge-engine": "partial-update"}],
                         ids=["deduplicate", "partial-update-3-buckets"])
def test_postpone_interop(tmp_path, java_newest, options):
    """Ours and Java's postpone writes interleaved; before a compaction neither reader shows them, after Java's
    compaction both show the model's rows (replayed in write order, -D deleting, a key repeated in one write
    ending at its last row)."""
    path = _postpone(tmp_path, options=options)
    partial = options.get("merge-engine") == "partial-update"
    model = Model()
    first = _batch(range(30))
    upsert_arrow(path, first)
    model.apply(first)
    again = pa.concat_tables([_batch(range(20, 40), tag="b"), _batch([21, 22], tag="c")])
    kinds = ["+I"] * 20 + (["+I", "+I"] if partial else ["-D", "+I"])
    upsert_arrow(path, again, row_kinds=kinds)
    model.apply(again, kinds)
    assert java_newest.read(path).num_rows == 0 and read_table(path).num_rows == 0
    assert java_newest.compact_postpone(path) is not None
    if not partial:  # partial-update: a null keeps the older value; only the non-null columns are compared below
        assert_same_rows(java_newest.read(path), model.table(), what="Java compacts and reads our postpone files")
    assert_same_rows(read_table(path), java_newest.read(path), what="we read Java's compaction of our files")

    theirs = _batch(range(35, 45), tag="j")
    java_newest.write(path, theirs)
    model.apply(theirs)
    ours = _batch([36, 1, 50], tag="o")
    upsert_arrow(path, ours, row_kinds=["+I", "+I", "+I"])
    model.apply(ours)
    assert_same_rows(read_table(path), java_newest.read(path), what="postpone files hidden by both readers")
    java_newest.compact_postpone(path)
    want = model.table()
    got = java_newest.read(path)
    if partial:
        want, got = want.select(["id", "p", "n"]), got.select(["id", "p", "n"])  # n is never null
    assert_same_rows(got, want, what="Java after its second compaction (its write between ours)")
    assert_same_rows(read_table(path), java_newest.read(path), what="ours after Java's second compaction")
    buckets = {e.total_buckets for e in merge_entries(PaimonTable(path).manifest_entries(PaimonTable(path).snapshot()))}
    assert buckets == {int(options.get("postpone.default-bucket-num", "1"))}


def test_pypaimon_reads_our_postpone_table_as_java_does(tmp_path, java_newest, pypaimon21):
    """pypaimon 2.1 hides our postpone files too, and reads Java's compaction of them as Java does."""
    path = _postpone(tmp_path)
    upsert_arrow(path, _batch(range(12)), row_kinds=["+I"] * 11 + ["-D"])
    assert pypaimon21.read(path).num_rows == 0
    java_newest.compact_postpone(path)
    assert_same_rows(pypaimon21.read(path), java_newest.read(path), what="pypaimon vs Java after the compaction")
    assert java_newest.read(path).num_rows == 11
