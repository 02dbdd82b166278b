"""The commit protocol: snapshot ids claimed only if absent, re-planning retries, conflicts, hints,
manifest merge, overwrite, index changes - checked against Paimon Java 1.4.2 and pypaimon 2.1 reads.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from dataclasses import replace

import fastavro
import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows

from paimon_codec import storage
from paimon_codec.dv import DeletionVector
from paimon_codec.dv.index_file import write_dv_index
from paimon_codec.errors import CommitConflictError
from paimon_codec.reading import read_table
from paimon_codec.table import IndexFileMeta, PaimonTable
from paimon_codec.table.index_manifest import DeletionVectorRange
from paimon_codec.writing import append_arrow, create_table, write_data_files
from paimon_codec.writing.commit import FileChange, IndexChange, commit_changes

OPTS = {"file.format": "parquet"}


def _rows(ids, p=1) -> pa.Table:
    return pa.table({"id": pa.array(list(ids), pa.int64()), "p": pa.array([p] * len(ids), pa.int32())})


def _writer_schema(path: str) -> dict:
    with open(path, "rb") as fh:
        return fastavro.reader(fh).writer_schema


def _referenced(path: str) -> set[str]:
    """Every metadata file some snapshot of the table references."""
    table = PaimonTable(path)
    out = set()
    for sid in table.snapshot_ids():
        s = table.snapshot(sid)
        for lst in (s.base_manifest_list, s.delta_manifest_list):
            out.add(lst)
            out.update(m.file_name for m in table.manifest_list(lst))
        if s.index_manifest:
            out.add(s.index_manifest)
    return out


def _appender(path: str, worker: int, commits: int, barrier, state=None) -> list[tuple[int, int]]:
    storage.restore_storage_state(state)  # the s3:// endpoint of the test server, in the child process
    barrier.wait()
    out = []
    for k in range(commits):
        base = (worker * 1000 + k) * 10
        res = append_arrow(path, _rows(range(base, base + 10)), commit_user=f"worker-{worker}")
        out.append((res.snapshot_id, res.attempts))
    return out


DYNAMIC_FIXTURES = {"s3": "s3_server"}  # the "s3" case requests it at run time: conftest marks it s3


@pytest.mark.parametrize("where", ["local", "s3"])
def test_two_processes_race_for_snapshot_ids(tmp_path, where, java_newest, request):
    """Two processes append concurrently: one winner per snapshot id (hard link locally, conditional PUT
    on S3), the loser re-plans; every row lands, and Java 1.4.2 reads them all."""
    if where == "s3":
        server = request.getfixturevalue("s3_server")
        server.create_bucket("commits")
        root = f"s3://commits/{os.path.basename(tmp_path)}"
    else:
        root = str(tmp_path)
    path = create_table(f"{root}/wh/db.db/race", "id BIGINT, p INT", OPTS)
    ctx = multiprocessing.get_context("spawn")
    commits = 6 if where == "local" else 4
    state = storage.storage_state()
    with ctx.Manager() as manager:
        barrier = manager.Barrier(2)
        with ctx.Pool(2) as pool:
            results = pool.starmap(_appender, [(path, w, commits, barrier, state) for w in range(2)])
    ids = sorted(sid for r in results for sid, _ in r)
    assert ids == list(range(1, 2 * commits + 1))  # exactly one winner per id, no gaps
    table = PaimonTable(path)
    users = [table.snapshot(sid).raw["commitUser"] for sid in ids]
    assert users.count("worker-0") == commits and users.count("worker-1") == commits
    expected = pa.concat_tables([_rows(range((w * 1000 + k) * 10, (w * 1000 + k) * 10 + 10))
                                 for w in range(2) for k in range(commits)])
    assert_same_rows(read_table(path), expected)
    assert set(storage.list_dir(f"{path}/manifest")) == _referenced(path)  # lost attempts left nothing behind
    assert storage.read_bytes(f"{path}/snapshot/LATEST") == str(2 * commits).encode()
    local = path
    if where == "s3":  # Java reads a local copy of what we committed on S3
        local = str(tmp_path / "copy" / "db.db" / "race")
        _download(path, local)
    assert_same_rows(java_newest.read(local), expected)


def _download(uri: str, local: str) -> None:
    for name in storage.list_dir(uri):
        src = f"{uri}/{name}"
        if storage.is_dir(src):
            _download(src, os.path.join(local, name))
        else:
            os.makedirs(local, exist_ok=True)
            with open(os.path.join(local, name), "wb") as fh:
                fh.write(storage.read_bytes(src))


def _race_once(monkeypatch, competitor):
    """Make the next snapshot claim lose: ``competitor()`` commits first, between plan and claim."""
    real = storage.create_if_absent
    state = {"raced": False}

    def claim(target: str, data: bytes) -> bool:
        if not state["raced"] and os.path.basename(target).startswith("snapshot-"):
            state["raced"] = True
            competitor()
        return real(target, data)
    monkeypatch.setattr(storage, "create_if_absent", claim)


def test_lost_id_replans_on_the_new_snapshot(tmp_path, monkeypatch, java_newest):
    path = create_table(tmp_path / "wh" / "db.db" / "t", "id BIGINT, p INT", OPTS)
    append_arrow(path, _rows(range(0, 5)))
    changes = write_data_files(path, _rows(range(5, 10)))
    _race_once(monkeypatch, lambda: append_arrow(path, _rows(range(10, 15))))
    res = commit_changes(path, changes)
    assert (res.snapshot_id, res.attempts) == (3, 2)
    assert PaimonTable(path).snapshot(3).total_record_count == 15
    assert_same_rows(java_newest.read(path), _rows(range(15)))
    assert set(os.listdir(f"{path}/manifest")) == _referenced(path)


def test_conflicting_delete(tmp_path, monkeypatch):
    path = create_table(tmp_path / "t", "id BIGINT, p INT", OPTS)
    append_arrow(path, _rows(range(5)))
    entry = PaimonTable(path).manifest_entries(PaimonTable(path).snapshot())[0]
    # sequential: the file is gone before the second delete is even planned
    commit_changes(path, [FileChange.delete_entry(entry)], kind="OVERWRITE")
    with pytest.raises(CommitConflictError, match="not live"):
        commit_changes(path, [FileChange.delete_entry(entry)])
    # raced: another writer deletes the file between our plan and our claim
    append_arrow(path, _rows(range(5, 8)))
    table = PaimonTable(path)
    live = [e for e in table.manifest_entries(table.snapshot()) if e.kind == 0][-1]
    before = table.snapshot().id
    _race_once(monkeypatch, lambda: commit_changes(path, [FileChange.delete_entry(live)]))
    with pytest.raises(CommitConflictError, match="another commit removed it"):
        commit_changes(path, [FileChange.delete_entry(live), FileChange.add_entry(live, replace(live.file, extra_files=("never-written.index",)))])
    assert PaimonTable(path).snapshot().id == before + 1  # only the competitor committed
    assert set(os.listdir(f"{path}/manifest")) == _referenced(path)
    append_arrow(path, _rows(range(8, 9)))
    append_arrow(path, _rows(range(9, 10)))
    a, b = [f.entry for f in PaimonTable(path).data_files()][:2]
    with pytest.raises(CommitConflictError, match="already live"):  # checked, as in Paimon, when a commit deletes
        commit_changes(path, [FileChange.delete_entry(a), FileChange.add_entry(b)])


def test_rewrite_in_place_keeps_rows(tmp_path, java_newest, pypaimon21):
    """DELETE + ADD of the same data file with a new embedded index (what a file-index rewrite commits)."""
    path = create_table(tmp_path / "wh" / "db.db" / "rw", "id BIGINT, p INT", OPTS, partition_keys=["p"])
    append_arrow(path, pa.concat_tables([_rows(range(10), 1), _rows(range(10, 20), 2)]))
    table = PaimonTable(path)
    live = table.manifest_entries(table.snapshot())
    from paimon_codec.fileindex import FileIndexWriter
    changes = []
    for e in live:
        import pyarrow.parquet as pq
        w = FileIndexWriter("id BIGINT, p INT", {"file-index.bloom-filter.columns": "id"})
        w.write_table(pq.read_table(table.data_file_path(e)))
        changes += [FileChange.delete_entry(e), FileChange.add_entry(e, replace(e.file, embedded_index=w.serialize()))]
    res = commit_changes(path, changes, kind="COMPACT")
    assert (res.added_files, res.deleted_files) == (2, 2)
    after = PaimonTable(path)
    files = after.data_files()
    assert len(files) == 2 and all(f.embedded_index for f in files)
    assert after.snapshot().total_record_count == 20 and after.snapshot().commit_kind == "COMPACT"
    for where in (None, "id = 13", "p = 1"):
        ours = read_table(path, where)
        assert_same_rows(java_newest.read(path, where=where), ours)
        assert_same_rows(pypaimon21.read(path, where=where), ours)


@pytest.mark.parametrize("layout", ["newest", "0.9"])
def test_manifest_merge(tmp_path, layout, java_newest, java09_tables, pypaimon21):
    path = create_table(tmp_path / "wh" / "db.db" / "m", "id BIGINT, p INT",
                        dict(OPTS, **{"manifest.merge-min-count": "3"}), partition_keys=["p"])
    merged = 0
    for k in range(8):
        merged += append_arrow(path, _rows(range(k * 10, k * 10 + 10), p=k % 3), layout=layout).merged_manifests
        if k == 4:  # a delete in the middle: merging must cancel it against its ADD
            table = PaimonTable(path)
            first = table.manifest_entries(table.snapshot())[0]
            commit_changes(path, [FileChange.delete_entry(first)], kind="OVERWRITE")
        table = PaimonTable(path)
        snap = table.snapshot()
        assert len(table.manifest_list(snap.base_manifest_list)) + len(table.manifest_list(snap.delta_manifest_list)) <= 4
    assert merged > 0
    table = PaimonTable(path)
    snap = table.snapshot()
    base = [e for m in table.manifest_list(snap.base_manifest_list) for e in table.manifest(m.file_name)]
    assert all(e.kind == 0 for e in base)  # the ADD/DELETE pair cancelled in the merge
    expected = read_table(path)
    assert expected.num_rows == 70 and snap.total_record_count == 70
    assert_same_rows(java_newest.read(path), expected)
    if layout == "newest":
        assert_same_rows(pypaimon21.read(path), expected)
    else:
        assert_same_rows(java09_tables.read(path), expected)
        assert "_VALUE_STATS_COLS" not in json.dumps(_writer_schema(f"{path}/manifest/{table.manifest_list(snap.base_manifest_list)[0].file_name}"))


def test_overwrite_partition(tmp_path, java_newest):
    path = create_table(tmp_path / "wh" / "db.db" / "ow", "id BIGINT, p INT", OPTS, partition_keys=["p"])
    append_arrow(path, pa.concat_tables([_rows(range(5), 1), _rows(range(5, 10), 2)]))
    res = commit_changes(path, write_data_files(path, _rows(range(100, 103), 1)), kind="OVERWRITE")
    assert (res.added_files, res.deleted_files) == (1, 1)
    expected = pa.concat_tables([_rows(range(100, 103), 1), _rows(range(5, 10), 2)])
    assert_same_rows(read_table(path), expected)
    assert_same_rows(java_newest.read(path), expected)
    assert PaimonTable(path).snapshot().commit_kind == "OVERWRITE"


def test_deletion_vector_index_change(tmp_path, java_newest, pypaimon21):
    path = create_table(tmp_path / "wh" / "db.db" / "dv", "id BIGINT, p INT",
                        dict(OPTS, **{"deletion-vectors.enabled": "true"}))
    append_arrow(path, _rows(range(10)))
    table = PaimonTable(path)
    data = table.data_files()[0]
    storage.makedirs(f"{path}/index")
    metas = write_dv_index(f"{path}/index", {data.file_name: DeletionVector.from_array([0, 3, 9])})
    index_files = [IndexFileMeta("DELETION_VECTORS", m.file_name, m.file_size, m.row_count,
                                 tuple(DeletionVectorRange(r.data_file, r.offset, r.length, r.cardinality)
                                       for r in m.ranges)) for m in metas]
    commit_changes(path, [IndexChange.of((), 0, f) for f in index_files])
    expected = _rows([1, 2, 4, 5, 6, 7, 8])
    assert_same_rows(read_table(path), expected)
    assert_same_rows(java_newest.read(path), expected)
    assert_same_rows(pypaimon21.read(path), expected)
    live = PaimonTable(path).index_files()
    commit_changes(path, [IndexChange.delete_entry(f.entry) for f in live])
    assert PaimonTable(path).snapshot().index_manifest is None
    assert_same_rows(java_newest.read(path), _rows(range(10)))
    with pytest.raises(CommitConflictError, match="index file"):
        commit_changes(path, [IndexChange.delete_entry(live[0].entry)])


@pytest.mark.parametrize("version", ["1.4.2", "0.9"])
def test_java_compacts_our_files(tmp_path, version, java_newest, java09_tables):
    """Java's compaction (a COMPACT commit deleting our files) runs on our metadata, and we commit on top."""
    java = java_newest if version == "1.4.2" else java09_tables
    layout = "0.9" if version == "0.9" else "newest"
    path = create_table(tmp_path / "wh" / "db.db" / "c", "id BIGINT, p INT",
                        dict(OPTS, **{"bucket": "2", "bucket-key": "id", "compaction.min.file-num": "2"}))
    for k in range(5):
        append_arrow(path, _rows(range(k * 10, k * 10 + 10)), layout=layout)
    before = read_table(path)
    assert len(PaimonTable(path).data_files()) == 10
    assert java.compact(path) == 6
    table = PaimonTable(path)
    assert table.snapshot().commit_kind == "COMPACT" and len(table.data_files()) == 2
    assert_same_rows(java.read(path), before)
    assert_same_rows(read_table(path), before)
    append_arrow(path, _rows(range(100, 103)))
    expected = pa.concat_tables([before, _rows(range(100, 103))])
    assert_same_rows(java.read(path), expected)
    assert_same_rows(read_table(path), expected)


def _reindex(table: PaimonTable, columns: str | None) -> list:
    """DELETE + ADD of every live file with an embedded bloom-filter index on ``columns`` (None: no index)."""
    import pyarrow.parquet as pq

    from paimon_codec.fileindex import FileIndexWriter

    changes = []
    for f in table.data_files():
        index = None
        if columns:
            w = FileIndexWriter(table.schema.fields, {"file-index.bloom-filter.columns": columns})
            w.write_table(pq.read_table(f.path).select(table.schema.fields.names))
            index = w.serialize()
        changes += [FileChange.delete_entry(f.entry), FileChange.add_entry(f.entry, replace(f.entry.file, embedded_index=index))]
    return changes


def test_rewrites_of_a_java_pk_table(tmp_path, java_newest):
    """Index rewrites of a Java-written primary-key table with deletion vectors, as Java 1.4.2 reads them:
    a no-op rewrite commits nothing (re-adding identical metadata would hide the files from Paimon >= 1.0,
    whose readers drop every ADD whose identifier some DELETE carries), a rewrite back to earlier metadata
    (A -> B -> A) first merges the manifests so no DELETE of A is left, and a rewrite planned on metadata
    another commit changed meanwhile is a conflict."""
    t = java_newest.create_table(tmp_path, "db.pk", "id INT NOT NULL, s STRING, p INT NOT NULL",
                                 primary_keys=["id", "p"], partition_keys=["p"],
                                 options={"bucket": "2", "deletion-vectors.enabled": "true"})
    java_newest.write(t, pa.table({"id": pa.array(range(60), pa.int32()), "s": ["a"] * 60,
                                   "p": pa.array([i % 2 for i in range(60)], pa.int32())}))
    java_newest.compact(t, full=True)
    java_newest.write(t, pa.table({"id": pa.array([1, 2], pa.int32()), "s": ["x", "y"], "p": pa.array([1, 0], pa.int32())}))
    java_newest.compact(t, full=False)
    expected = java_newest.read(t)
    assert PaimonTable(t).index_files(), "Java wrote no deletion vector"
    before = PaimonTable(t).snapshot().id
    assert commit_changes(t, _reindex(PaimonTable(t), None), kind="COMPACT").snapshot_id is None  # no-op
    stale = _reindex(PaimonTable(t), "id")  # planned on A
    res = commit_changes(t, _reindex(PaimonTable(t), "s"), kind="COMPACT")  # A -> B
    assert res.snapshot_id == before + 1
    assert_same_rows(java_newest.read(t), expected)
    with pytest.raises(CommitConflictError, match="changed since it was read"):
        commit_changes(t, stale, kind="COMPACT")
    res = commit_changes(t, _reindex(PaimonTable(t), None), kind="COMPACT")  # B -> A
    assert res.snapshot_id == before + 2 and res.merged_manifests > 0
    assert_same_rows(java_newest.read(t, where="s = 'x'"), read_table(t, "s = 'x'"))
    assert_same_rows(java_newest.read(t), expected)
    assert_same_rows(read_table(t), expected)
    java_newest.write(t, pa.table({"id": pa.array([7], pa.int32()), "s": ["z"], "p": pa.array([1], pa.int32())}))
    java_newest.compact(t, full=True)
    assert java_newest.read(t).num_rows == expected.num_rows


def test_commit_to_a_branch(tmp_path, java_newest):
    """A commit to a branch: its own snapshot and hints under ``branch/branch-dev/``; main is untouched."""
    t = java_newest.create_table(tmp_path, "db.br", "id BIGINT, p INT", options=OPTS)
    java_newest.write(t, _rows(range(3)))
    java_newest.create_tag(t, "t1")
    java_newest.create_branch(t, "dev", tag="t1")  # the branch starts from snapshot 1
    res = append_arrow(t, _rows(range(3, 6)), branch="dev")
    assert res.snapshot_id == 2
    assert (tmp_path / "db.db" / "br" / "branch" / "branch-dev" / "snapshot" / "LATEST").read_text() == "2"
    assert PaimonTable(t).snapshot().id == 1
    assert_same_rows(java_newest.read(t, branch="dev"), _rows(range(6)))
    assert_same_rows(java_newest.read(t), _rows(range(3)))
    assert_same_rows(read_table(PaimonTable(t, branch="dev")), _rows(range(6)))
    java_newest.write(t, _rows(range(6, 7)), branch="dev")
    assert_same_rows(java_newest.read(t, branch="dev"), _rows(range(7)))
