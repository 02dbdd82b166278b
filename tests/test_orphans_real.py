"""Orphan files exactly as Paimon sees them, on tables the real writers made (issue 28).

Every table here - Paimon Java 1.4.2 (and 0.9) with each changelog producer, snapshot and changelog expiry (long-lived
changelogs), tags, branches, compactions, deletion vectors, file indexes and every kind of ALTER TABLE; pypaimon
2.1; this project's writer - is checked against Java's own ``LocalOrphanFilesClean`` (dry run) file for file:
as written, with planted orphans of every kind, with Paimon's default one-day age limit; the audit finds
nothing wrong in it but those orphans; after our ``remove_orphan_files`` Java reads every snapshot, tag and
branch the same and every file the metadata names (changelog files included) is still there.
"""

from __future__ import annotations

import os
import shutil
import time
import uuid

import pyarrow as pa
import pytest

from paimon_codec.maintenance.inventory import check_index_task, table_inventory
from paimon_codec.maintenance.orphan_clean import remove_orphan_files
from paimon_codec.maintenance.orphans import OrphanCheckRefused, candidate_dirs, find_orphans, used_file_names
from paimon_codec.table import PaimonTable
from paimon_codec.table.schema import load_schema
from paimon_codec.table.table import branch_names

pytestmark = pytest.mark.slow

DAY_MS = 24 * 3600 * 1000
FILE_INDEXES = {"file-index.bloom-filter.columns": "s", "file-index.in-manifest-threshold": "1"}
ALTER_INDEXES = {"file-index.range-bitmap.columns": "l", "file-index.bitmap.columns": "c,i",
                 "file-index.bloom-filter.columns": "s", "file-index.in-manifest-threshold": "1"}
RETAIN_CHANGELOGS = {"snapshot.num-retained.max": "2", "snapshot.num-retained.min": "1",
                     "changelog.num-retained.max": "20", "changelog.num-retained.min": "1"}
# every kind of schema change Paimon allows on a column with file indexes (drop / rename also move the index
# options off the column, as Paimon's writer requires)
ALTERS = {
    "add": [{"op": "add", "name": "x", "type": "INT"}],
    "drop": [{"op": "set", "key": "file-index.bitmap.columns", "value": "i"}, {"op": "drop", "name": "c"}],
    "rename": [{"op": "rename", "from": "c", "to": "c2"},
               {"op": "set", "key": "file-index.bitmap.columns", "value": "c2,i"}],
    "widen": [{"op": "type", "name": "i", "type": "BIGINT"}],
    "to_string": [{"op": "type", "name": "l", "type": "STRING"}],
    "nullability": [{"op": "nullability", "name": "l", "nullable": True}],
    "option": [{"op": "set", "key": "file-index.bloom-filter.columns", "value": "s,c"}],
}


def _rows(k: int, n: int = 3) -> pa.Table:
    ids = [k * 10 + i for i in range(n)]
    return pa.table({"p": ["a" if i % 2 else "b" for i in ids], "id": pa.array(ids, pa.int32()),
                     "s": [f"s{i}" for i in ids], "l": pa.array([i * 1000 for i in ids], pa.int64())})


def _changelog_table(java, wh: str, producer: str) -> str:
    """Partitioned primary-key table with a changelog producer: writes, a tag, a full compaction, a branch from
    the tag with its own writes, then snapshot expiry keeping changelogs longer (``changelog/`` files)."""
    p = java.create_table(wh, f"db.cl_{producer.replace('-', '_')}", "p STRING NOT NULL, id INT NOT NULL, "
                          "s STRING, l BIGINT", primary_keys=["p", "id"], partition_keys=["p"],
                          options={"bucket": "2", "changelog-producer": producer, **FILE_INDEXES})
    for k in range(3):
        java.write(p, _rows(k))
    java.create_tag(p, "t1")
    java.write(p, _rows(1, 2), row_kinds=["-D", "+I"])
    java.compact(p, full=True)
    java.create_branch(p, "b1", "t1")
    java.write(p, _rows(7), branch="b1")
    java.write(p, _rows(4))
    # the retention goes into the table's options: a streaming read then knows changelogs outlive snapshots
    java.alter(p, [{"op": "set", "key": k, "value": v} for k, v in RETAIN_CHANGELOGS.items()])
    java.expire(p, {})
    if producer == "lookup":  # and an expiry of the long-lived changelogs themselves
        assert java.expire(p, {"changelog.num-retained.max": "5"}, changelogs=True) > 0
    assert os.listdir(os.path.join(p, "changelog")), "expiry kept no long-lived changelog"
    return p


def _java09_table(java09, wh: str) -> str:
    """Paimon 0.9's changelog-producer table (read and cleaned by 1.4.2): writes, a tag, a full compaction,
    a branch from the tag with its own write."""
    p = java09.create_table(wh, "db.j09_input", "p STRING NOT NULL, id INT NOT NULL, s STRING, l BIGINT",
                            primary_keys=["p", "id"], partition_keys=["p"],
                            options={"bucket": "2", "changelog-producer": "input", **FILE_INDEXES})
    for k in range(3):
        java09.write(p, _rows(k))
    java09.create_tag(p, "t1")
    java09.compact(p, full=True)
    java09.create_branch(p, "b1", "t1")
    java09.write(p, _rows(7), branch="b1")
    return p


def _dv_table(java, wh: str) -> str:
    p = java.create_table(wh, "db.dv_dynamic", "p STRING NOT NULL, id INT NOT NULL, s STRING, l BIGINT",
                          primary_keys=["p", "id"], partition_keys=["p"],
                          options={"bucket": "-1", "deletion-vectors.enabled": "true", **FILE_INDEXES})
    for k in range(3):
        java.write(p, _rows(k))
    java.write(p, _rows(0, 2), row_kinds=["-D", "-D"])
    java.create_tag(p, "t1")
    java.compact(p, full=True)
    java.write(p, _rows(5))
    java.expire(p, {"snapshot.num-retained.max": "2", "snapshot.num-retained.min": "1"})
    return p


def _altered_table(java, wh: str, kind: str) -> str:
    nullability = kind == "nullability"
    p = java.create_table(wh, f"db.alter_{kind}", f"id INT, i INT, l BIGINT{' NOT NULL' if nullability else ''}, "
                          "c STRING, s STRING", options=dict(ALTER_INDEXES))
    java.write(p, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "i": pa.array([5, 6, 7], pa.int32()),
                            "l": pa.array([10 ** 12, 5, 7], pa.int64()), "c": ["a", "b", "a"], "s": ["x", "y", "z"]}))
    java.alter(p, ALTERS[kind])
    java.write(p, [{"id": 4, "l": 9} if nullability else {"id": 4}])
    return p


def _external_table(java, wh: str, root: str) -> str:
    p = java.create_table(wh, "db.external_own", "id INT NOT NULL, s STRING, l BIGINT", primary_keys=["id"],
                          options={"bucket": "1", "data-file.external-paths": "file://" + root,
                                   "data-file.external-paths.strategy": "round-robin", **FILE_INDEXES})
    java.write(p, _rows(1).drop(["p"]))
    java.write(p, _rows(2).drop(["p"]))
    return p


def _pypaimon_table(py, wh: str) -> str:
    p = py.create_table(wh, "db.py_pk", "p STRING NOT NULL, id INT NOT NULL, s STRING, l BIGINT",
                        primary_keys=["p", "id"], partition_keys=["p"], options={"bucket": "2"})
    py.write(p, _rows(1))
    py.write(p, _rows(2))
    return p


def _our_table(wh: str) -> str:
    from paimon_codec.writing.append import append_arrow
    from paimon_codec.writing.create import create_table

    p = create_table(os.path.join(wh, "db.db", "ours_append"), "p STRING, id INT, s STRING, l BIGINT",
                     options={"file-index.bloom-filter.columns": "s", "file-index.in-manifest-threshold": "1"},
                     partition_keys=["p"])
    append_arrow(p, _rows(1))
    append_arrow(p, _rows(2))
    return p


@pytest.fixture(scope="module")
def tables(java_newest, java09_tables, pypaimon21, tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("orphans")
    wh = str(root / "wh")
    out = {f"cl_{p}": _changelog_table(java_newest, wh, p) for p in ("input", "lookup", "full-compaction")}
    out["dv_dynamic"] = _dv_table(java_newest, wh)
    out["j09_input"] = _java09_table(java09_tables, wh)
    out.update({f"alter_{k}": _altered_table(java_newest, wh, k) for k in ALTERS})
    os.makedirs(root / "ext")
    out["external_own"] = _external_table(java_newest, wh, str(root / "ext"))
    out["py_pk"] = _pypaimon_table(pypaimon21, str(root / "py"))
    out["ours_append"] = _our_table(str(root / "ours"))
    return out


TABLES = ["cl_input", "cl_lookup", "cl_full-compaction", "dv_dynamic", "j09_input", *(f"alter_{k}" for k in ALTERS),
          "external_own", "py_pk", "ours_append"]


# ------------------------------------------------------------------------------------------- helpers
def _java_reads(java, path: str) -> dict[str, list]:
    """Java's rows of every retained snapshot and tag of the table and of each branch."""
    out = {}
    for branch in [None, *branch_names(path)]:
        view = PaimonTable(path, branch=branch)
        for sid in view.snapshot_ids():
            out[f"{branch}@{sid}"] = sorted(map(repr, java.read(path, snapshot_id=sid, branch=branch).to_pylist()))
        for tag in view.tag_names():
            out[f"{branch}#{tag}"] = sorted(map(repr, java.read(path, tag=tag, branch=branch).to_pylist()))
        ids = view.snapshot_ids()
        # a branch's first snapshot is its tag's copy, whose changelog is main's (Paimon's changelog expiry of
        # main deletes it): the branch's own changelogs start after it
        first = 1 if branch is None else (ids[0] + 1 if ids else 0)
        if load_schema(path).options.get("changelog-producer", "none") != "none" and ids and first <= ids[-1]:
            # the streaming read of every changelog from the first snapshot (long-lived changelogs included)
            out[f"{branch} changelog"] = java.read_changelog(path, first, ids[-1], branch=branch)
            assert out[f"{branch} changelog"] or branch is not None  # full-compaction: none without compaction
    return out


def _plant(path: str) -> tuple[set[str], str]:
    """Orphans of every kind Paimon's clean deletes; returns them and the one left young (now), the others aged
    two days."""
    schema = load_schema(path)
    bucket = next(d for d, kind in candidate_dirs(path, schema.options, len(schema.partition_keys))
                  if kind == "bucket")
    u = lambda: uuid.uuid4()  # noqa: E731
    planted = {os.path.join(bucket, f"data-{u()}-0.parquet"), os.path.join(bucket, f"changelog-{u()}-0.parquet"),
               os.path.join(bucket, f"data-{u()}-0.parquet.index"), os.path.join(bucket, f".tmp-{u()}"),
               os.path.join(path, "manifest", f"manifest-{u()}-0"),
               os.path.join(path, "manifest", f"manifest-list-{u()}-0"),
               os.path.join(path, "manifest", f"index-manifest-{u()}-0"),
               os.path.join(path, "index", f"index-{u()}-0"), os.path.join(path, "statistics", f"stat-{u()}-0"),
               os.path.join(path, "snapshot", f".snapshot-{u()}.tmp")}
    old = time.time() - 2 * 86400
    for p in planted:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as fh:
            fh.write(b"PAR1 stray")
        os.utime(p, (old, old))
    young = os.path.join(bucket, f"data-{u()}-1.parquet")
    with open(young, "wb") as fh:
        fh.write(b"PAR1 being written")
    return planted, young


def _files(path: str) -> set[str]:
    """Every file of the table: its directory and the external data roots it names."""
    roots = [path] + [r.strip().removeprefix("file://") for r in
                      (load_schema(path).options.get("data-file.external-paths") or "").split(",") if r.strip()]
    return {os.path.join(d, n) for root in roots for d, _, names in os.walk(root) for n in names}


def _future_ms() -> int:
    return int(time.time() * 1000) + 365 * DAY_MS


# ------------------------------------------------------------------------------------------- the test
@pytest.mark.parametrize("name", TABLES)
def test_orphans_equal_paimons_and_removal_keeps_every_read(java_newest, tables, name):
    path = tables[name]
    # as its writer left it: the same orphans as Java's (none, but where Paimon's own changelog expiry left some:
    # the changelog files of a tagged snapshot whose changelog manifest list it deleted), and the audit finds
    # nothing else (index files judged under their data file's schema; changelog files' indexes are used)
    native = java_newest.orphan_files(path, _future_ms())
    assert [f.path for f in find_orphans(path, _future_ms()).orphans] == native
    assert native == [] or name == "cl_lookup"
    tasks, findings = table_inventory(path)
    assert [f.path for f in findings if f.finding == "orphan"] == native
    assert {f.finding for f in findings} <= {"orphan"}
    bad = [r for r in (check_index_task(t.to_row()) for t in tasks) if r["status"] not in ("ok", "skipped")]
    assert bad == []
    before = _java_reads(java_newest, path)
    files_before = _files(path)

    planted, young = _plant(path)
    ours = [f.path for f in find_orphans(path, _future_ms()).orphans]
    assert ours == java_newest.orphan_files(path, _future_ms())
    assert set(ours) == planted | {young} | set(native)
    _, findings = table_inventory(path)
    assert sorted(f.path for f in findings if f.finding == "orphan") == ours
    assert {f.finding for f in findings} == {"orphan"}
    # Paimon's default age limit (one day): the young file (and the table's young files) are no candidates
    day_ago = int(time.time() * 1000) - DAY_MS
    aged = [f.path for f in find_orphans(path).orphans]
    assert aged == java_newest.orphan_files(path, day_ago) == sorted(planted)

    report = remove_orphan_files(path, dry_run=False)
    assert report.refused is None and {f["path"] for f in report.files} == planted
    assert os.path.exists(young) and not any(os.path.exists(p) for p in planted)
    assert _java_reads(java_newest, path) == before
    assert [f.path for f in find_orphans(path, _future_ms()).orphans] == sorted([young, *native])
    assert java_newest.orphan_files(path, _future_ms()) == sorted([young, *native])
    assert files_before <= _files(path)  # every file the metadata uses (changelog files too) is still there
    os.unlink(young)


def test_old_audit_false_orphans_are_gone(tables):
    """The issue's two false findings: changelog files' ``.index`` files, old files' indexes after ALTER."""
    changelog_indexes = [os.path.join(r, n) for r, _, files in os.walk(tables["cl_input"]) for n in files
                         if n.startswith("changelog-") and n.endswith(".index")]
    assert changelog_indexes
    names = used_file_names(tables["cl_input"])[0]
    assert {os.path.basename(p) for p in changelog_indexes} <= names
    # and the audit decodes them as the index files they are (long-lived changelogs' included)
    tasks, _ = table_inventory(tables["cl_input"])
    checked = {t.path: check_index_task(t.to_row())["status"] for t in tasks}
    assert {p: checked.get(p) for p in changelog_indexes} == {p: "ok" for p in changelog_indexes}


def test_unreadable_metadata_refuses_and_deletes_nothing(java_newest, tables, tmp_path):
    src = tables["cl_lookup"]
    dst = tmp_path / "cl_lookup"
    shutil.copytree(src, dst)
    snap = PaimonTable(str(dst)).snapshot()
    target = os.path.join(str(dst), "manifest", snap.changelog_manifest_list or snap.delta_manifest_list)
    data = open(target, "rb").read()
    open(target, "wb").write(data[: len(data) // 2])
    stray = os.path.join(str(dst), "manifest", f"manifest-{uuid.uuid4()}-0")
    open(stray, "wb").write(b"x")
    with pytest.raises(OrphanCheckRefused):
        find_orphans(str(dst), _future_ms())
    report = remove_orphan_files(str(dst), older_than_ms=int(time.time() * 1000), dry_run=False)
    assert report.refused and report.files == [] and os.path.exists(stray)
    _, findings = table_inventory(str(dst))
    assert not [f for f in findings if f.finding == "orphan"]


def test_branch_without_schema_is_refused_as_paimon_refuses(java_newest, tables, tmp_path):
    from oracles.java_newest import JavaError

    dst = tmp_path / "cl_input"
    shutil.copytree(tables["cl_input"], dst)
    os.makedirs(dst / "branch" / "branch-broken" / "snapshot")
    with pytest.raises(JavaError, match="have no schemas"):
        java_newest.orphan_files(str(dst), _future_ms())
    with pytest.raises(OrphanCheckRefused, match="have no schema"):
        find_orphans(str(dst), _future_ms())


def _tree(root) -> list[str]:
    out = []
    for d, dirs, files in os.walk(root):
        out.extend(os.path.relpath(os.path.join(d, n), root) + "/" for n in dirs)
        out.extend(os.path.relpath(os.path.join(d, n), root) for n in files)
    return sorted(out)


def test_a_deleting_run_leaves_the_tree_paimon_leaves(java_newest, tables, tmp_path):
    """Files and empty directories: an orphan alone in a new partition (its bucket and partition directories
    empty out), an empty bucket directory, an empty partition directory - after Java's deleting clean and ours
    the table directories hold the same files and directories."""
    trees = {}
    for who in ("java", "ours"):
        dst = tmp_path / who / "t"
        shutil.copytree(tables["cl_full-compaction"], dst)
        planted = [dst / "p=zz" / "bucket-0" / f"data-{uuid.uuid4()}-0.parquet",
                   dst / "p=a" / "bucket-0" / f"changelog-{uuid.uuid4()}-0.parquet"]
        for p in planted:
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(b"stray")
        empty = [dst / "p=a" / "bucket-7", dst / "p=yy"]
        for d in empty:
            d.mkdir(parents=True)
        old = time.time() - 2 * 86400
        for p in [*planted, *empty, dst / "p=zz" / "bucket-0", dst / "p=zz"]:
            os.utime(p, (old, old))
        now = int(time.time() * 1000)
        if who == "java":
            deleted = java_newest.orphan_files(str(dst), now, dry_run=False)
        else:
            deleted = [f["path"] for f in remove_orphan_files(str(dst), now, dry_run=False).files]
        assert sorted(deleted) == sorted(map(str, planted))
        trees[who] = _tree(dst)
    assert trees["ours"] == trees["java"]
    assert "p=zz/" not in trees["ours"] and "p=yy/" not in trees["ours"] and "p=a/bucket-7/" not in trees["ours"]
