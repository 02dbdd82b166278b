"""``paimon-codec remove-orphans``, ``remove_orphan_files`` on an object store and on Spark (issue 28).

The tables are this project's own writer's; what the orphan set is (equal to Paimon Java's file for file) is
checked on Java-, pypaimon- and our-written tables in ``test_orphans_real.py``.  Here: the CLI is a dry run by
default and deletes with ``--delete``, young files survive, the same orphans are found and removed on S3 as on
local disk, and the Spark entry point lists / deletes what the library does.
"""

from __future__ import annotations

import io
import json
import os
import time
import uuid
from contextlib import redirect_stdout

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidOptionError
from paimon_codec.maintenance.orphan_clean import older_than_millis, remove_orphan_files
from paimon_codec.maintenance.orphans import find_orphans


def _table(root) -> str:
    from paimon_codec.writing.append import append_arrow
    from paimon_codec.writing.create import create_table

    p = create_table(os.path.join(str(root), "wh", "db.db", "t"), "p STRING, id INT, s STRING",
                     options={"file-index.bloom-filter.columns": "s", "file-index.in-manifest-threshold": "1"},
                     partition_keys=["p"])
    for k in range(2):
        append_arrow(p, pa.table({"p": ["a", "b"], "id": pa.array([k, k + 1], pa.int32()), "s": ["x", "y"]}))
    return p


def _plant(table: str, age_s: float = 2 * 86400) -> set[str]:
    bucket = os.path.join(table, "p=a", "bucket-0")
    planted = {os.path.join(bucket, f"data-{uuid.uuid4()}-0.parquet"),
               os.path.join(bucket, f"data-{uuid.uuid4()}-0.parquet.index"),
               os.path.join(table, "manifest", f"manifest-{uuid.uuid4()}-0"),
               os.path.join(table, "snapshot", f".stray-{uuid.uuid4()}")}
    t = time.time() - age_s
    for p in planted:
        with open(p, "wb") as fh:
            fh.write(b"stray")
        os.utime(p, (t, t))
    return planted


def _cli(argv: list[str]) -> tuple[int, str]:
    from paimon_codec.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        status = main(argv)
    return status, buf.getvalue()


def test_cli_lists_by_default_and_deletes_with_delete(tmp_path):
    table = _table(tmp_path)
    planted = _plant(table)
    young = _plant(table, age_s=0)
    status, out = _cli(["remove-orphans", str(tmp_path / "wh"), "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["dry_run"] is True
    assert {f["path"] for f in obj["tables"][0]["files"]} == planted and obj["deleted_files"] == len(planted)
    assert all(os.path.exists(p) for p in planted | young)
    status, out = _cli(["remove-orphans", table, "--delete", "--json"])
    obj = json.loads(out)
    assert status == 0 and obj["dry_run"] is False and {f["path"] for f in obj["tables"][0]["files"]} == planted
    assert not any(os.path.exists(p) for p in planted) and all(os.path.exists(p) for p in young)
    # the young files go once --older-than is past them
    now = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(time.time() + 1))
    time.sleep(1.1)
    status, out = _cli(["remove-orphans", table, "--delete", "--older-than", now, "--json"])
    assert status == 0 and {f["path"] for f in json.loads(out)["tables"][0]["files"]} == young
    assert find_orphans(table, None).orphans == []


def test_cli_refuses_unreadable_metadata_with_status_1(tmp_path):
    table = _table(tmp_path)
    _plant(table)
    snap = os.path.join(table, "snapshot", "snapshot-1")
    with open(snap, "w") as fh:
        fh.write("{not json")
    status, out = _cli(["remove-orphans", table, "--delete", "--json"])
    obj = json.loads(out)
    assert status == 1 and obj["tables"][0]["refused"] and obj["deleted_files"] == 0


def test_a_future_older_than_is_refused_for_a_deleting_run(tmp_path):
    table = _table(tmp_path)
    with pytest.raises(InvalidOptionError, match="older_than must be before now"):
        remove_orphan_files(table, older_than_millis(int(time.time() * 1000) + 60_000), dry_run=False)


def test_older_than_parses_as_paimon(tmp_path):
    local = time.mktime(time.strptime("2026-11-28 10:00:00", "%Y-%m-%d %H:%M:%S"))
    assert older_than_millis("2026-11-28 10:00:00") == int(local * 1000)
    assert older_than_millis("1700000000000") == 1700000000000
    assert abs(older_than_millis(None) - (time.time() - 86400) * 1000) < 5000


def test_object_store_finds_and_removes_the_same_orphans(tmp_path, s3_server):
    from oracles.s3_server import copy_to_s3

    table = _table(tmp_path)
    planted = _plant(table)
    uri = copy_to_s3(s3_server, table, "warehouses", f"orphans-{uuid.uuid4().hex[:8]}/db.db/t")
    local_orphans = [os.path.relpath(f.path, table) for f in find_orphans(table, None).orphans]
    store_orphans = [f.path[len(uri) + 1:] for f in find_orphans(uri, None).orphans]
    assert store_orphans == local_orphans and {os.path.join(table, p) for p in local_orphans} == planted
    report = remove_orphan_files(uri, older_than_ms=int(time.time() * 1000), dry_run=False)
    assert sorted(f["path"][len(uri) + 1:] for f in report.files) == local_orphans
    assert find_orphans(uri, None).orphans == []
    from paimon_codec.reading import read_table

    assert read_table(uri).num_rows == read_table(table).num_rows == 4


def test_tags_keep_their_files_and_a_tag_deleted_meanwhile_is_skipped(tmp_path, monkeypatch):
    """Snapshot 1 expired but tagged: its manifest lists are used through the tag file.  A tag listed but
    deleted before it is read is skipped (as Paimon skips it); a tag file that is not a snapshot refuses."""
    import shutil

    from paimon_codec.maintenance import orphans
    from paimon_codec.maintenance.orphans import OrphanCheckRefused

    table = _table(tmp_path)
    os.makedirs(os.path.join(table, "tag"))
    shutil.copy(os.path.join(table, "snapshot", "snapshot-1"), os.path.join(table, "tag", "tag-t1"))
    os.remove(os.path.join(table, "snapshot", "snapshot-1"))
    scan = find_orphans(table, None)
    assert scan.orphans == [] and scan.snapshots_read == 2
    listed = orphans.tag_names
    monkeypatch.setattr(orphans, "tag_names", lambda meta: [*listed(meta), "gone"])
    assert find_orphans(table, None) == scan
    with open(os.path.join(table, "tag", "tag-gone"), "w") as fh:
        fh.write("[]")
    with pytest.raises(OrphanCheckRefused, match="tag file is not a JSON object"):
        find_orphans(table, None)
    monkeypatch.undo()
    os.remove(os.path.join(table, "tag", "tag-gone"))
    os.remove(os.path.join(table, "tag", "tag-t1"))
    lost = {os.path.basename(f.path) for f in find_orphans(table, None).orphans}
    assert lost and all(name.startswith("manifest") for name in lost)  # what only snapshot 1 named


@pytest.mark.spark
def test_spark_remove_orphan_files(tmp_path, spark):  # noqa: F811
    from paimon_codec.spark import remove_orphan_files as spark_remove

    table = _table(tmp_path)
    planted = _plant(table)
    df, reports = spark_remove(spark, str(tmp_path / "wh"))
    assert {r.path for r in df.collect()} == planted and all(os.path.exists(p) for p in planted)
    df, reports = spark_remove(spark, str(tmp_path / "wh"), dry_run=False)
    assert {r.path for r in df.collect() if r.action == "deleted"} == planted
    assert not any(os.path.exists(p) for p in planted) and reports[0]["refused"] is None
