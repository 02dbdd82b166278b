"""Table metadata of tables the newest Paimon Java writes: manifests in ORC/Parquet, index files in
data dirs, external paths, path directory, postpone bucket, branches, tags, time travel, fallback.

Each table is compared with Java's own batch scan of it: the data files Java plans and the rows Java
reads (the session's newest-Java oracle, :mod:`oracles.java_newest`).
"""

from __future__ import annotations

import json
import os
import shutil

import fastavro
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec import storage
from paimon_codec.errors import CorruptDataError, MissingFileError, UnsupportedTypeError
from paimon_codec.maintenance.inventory import table_inventory
from paimon_codec.planning.plan import plan_scan
from paimon_codec.planning.read_options import REFUSED, classify_options
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.table import PaimonTable
from paimon_codec.table.metadata_records import read_metadata_records
from paimon_codec.table.paths import strip_scheme


def _rows_of(ids, tag: str = "v") -> list[dict]:
    return [{"id": i, "v": f"{tag}{i}", "p": i % 2} for i in ids]


def _write_tables(java, warehouse: str, external: str) -> dict[str, dict]:
    """The tables of these tests, written by Java; per checked read, the data files Java plans and the
    rows Java reads (``{"files", "rows"}``)."""
    results: dict[str, dict] = {}

    def create(name: str, options: dict, pk: bool = False, part: bool = False) -> str:
        return java.create_table(warehouse, f"db.{name}", "id INT, v STRING, p INT",
                                 primary_keys=(["id", "p"] if part else ["id"]) if pk else (),
                                 partition_keys=["p"] if part else (), options=options)

    def record(key: str, path: str, **selector) -> None:
        rows = java.read(path, projection=["id", "v", "p"], **selector).to_pylist()
        results[key] = {"files": java.plan_files(path, **selector),
                        "rows": sorted([r["id"], r["v"], r["p"]] for r in rows)}

    for fmt in ("orc", "parquet"):
        t = create(f"manifest_{fmt}", {"manifest.format": fmt, "bucket": "2", "bucket-key": "id",
                                       "file-index.bitmap.columns": "v"}, part=True)
        java.write(t, _rows_of(range(10)))
        java.write(t, _rows_of(range(10, 20)))
        record(f"manifest_{fmt}", t)
        t = create(f"manifest_{fmt}_dv", {"manifest.format": fmt, "bucket": "1", "deletion-vectors.enabled": "true"},
                   pk=True)
        java.write(t, _rows_of(range(8)))
        java.write(t, _rows_of(range(3), "w"))
        record(f"manifest_{fmt}_dv", t)

    t = create("dv_in_data_dir", {"index-file-in-data-file-dir": "true", "deletion-vectors.enabled": "true",
                                  "bucket": "2"}, pk=True, part=True)
    java.write(t, _rows_of(range(12)))
    java.write(t, _rows_of(range(0, 12, 3), "w"))
    record("dv_in_data_dir", t)

    t = create("external", {"data-file.external-paths": "FILE://" + external, "data-file.external-paths.strategy":
                            "round-robin", "bucket": "1", "bucket-key": "id", "file-index.bitmap.columns": "v"})
    java.write(t, _rows_of(range(6)))
    record("external", t)
    t = create("external_dv", {"data-file.external-paths": "file://" + external, "data-file.external-paths.strategy":
                               "round-robin", "bucket": "1", "deletion-vectors.enabled": "true",
                               "index-file-in-data-file-dir": "true"}, pk=True)
    java.write(t, _rows_of(range(6)))
    java.write(t, _rows_of(range(2), "w"))
    record("external_dv", t)

    t = create("changelog", {"bucket": "1", "deletion-vectors.enabled": "true", "changelog-producer": "input"},
               pk=True)
    java.write(t, _rows_of(range(6)))
    java.write(t, _rows_of(range(3), "w"))
    record("changelog", t)

    t = create("path_directory", {"data-file.path-directory": "data", "bucket": "1", "bucket-key": "id"}, part=True)
    java.write(t, _rows_of(range(6)))
    record("path_directory", t)

    t = create("postpone", {"bucket": "-2"}, pk=True)
    java.write(t, _rows_of(range(6)))
    record("postpone", t)

    t = create("branched", {"bucket": "1", "bucket-key": "id"})
    java.write(t, _rows_of(range(4)))
    java.create_tag(t, "t1", 1)
    java.write(t, _rows_of(range(4, 7)))
    java.create_branch(t, "b1", tag="t1")
    java.write(t, _rows_of(range(100, 103)), branch="b1")
    record("branched", t)
    record("branched@tag=t1", t, tag="t1")
    record("branched@snapshot=1", t, snapshot_id=1)
    record("branched$branch_b1", t, branch="b1")
    results["branched@snapshot=1"]["time_millis"] = java.snapshot(t, 1)["time_millis"]

    t = create("fallback", {"bucket": "1", "bucket-key": "id"}, part=True)
    java.write(t, [{"id": 1, "v": "main", "p": 0}])
    java.create_branch(t, "fb")
    java.write(t, [{"id": 2, "v": "fb0", "p": 0}, {"id": 3, "v": "fb1", "p": 1}], branch="fb")
    java.alter(t, [{"op": "set", "key": "scan.fallback-branch", "value": "fb"}])
    record("fallback", t)
    return results


@pytest.fixture(scope="module")
def java(tmp_path_factory, java_newest):
    root = tmp_path_factory.mktemp("java_meta")
    external = root / "external"
    external.mkdir()
    expected = _write_tables(java_newest, str(root / "wh"), str(external))
    return str(root / "wh" / "db.db"), expected, str(root)


def _open(db: str, key: str) -> tuple[PaimonTable, dict]:
    name, _, branch = key.split("@")[0].partition("$branch_")
    return PaimonTable(os.path.join(db, name), branch=branch or None), {}


def _selector(key: str) -> dict:
    if "@" not in key:
        return {}
    what, _, value = key.split("@")[1].partition("=")
    return {"tag": value} if what == "tag" else {"snapshot_id": int(value)}


def _our_rows(plan) -> list[list]:
    table = read_plan_locally(plan)
    return sorted([r["id"], r["v"], r["p"]] for r in table.select(["id", "v", "p"]).to_pylist())


CASES = ["manifest_orc", "manifest_parquet", "manifest_orc_dv", "manifest_parquet_dv", "dv_in_data_dir",
         "external", "external_dv", "path_directory", "changelog", "branched", "branched@tag=t1",
         "branched@snapshot=1", "branched$branch_b1", "fallback"]


@pytest.mark.parametrize("key", CASES)
def test_files_and_rows_match_java(java, key, table_location):
    """Java 1.4.2's tables read the same from local disk and from a copy on the S3 server (external data
    paths stay where Java wrote them)."""
    db, expected, _ = java
    table, _ = _open(table_location(db), key)
    plan = plan_scan(table, **_selector(key))
    ours = sorted(os.path.basename(t.path) for t in plan.tasks)
    assert ours == expected[key]["files"]
    assert all(storage.exists(t.path) for t in plan.tasks)
    assert _our_rows(plan) == expected[key]["rows"]


def test_time_travel_by_timestamp_is_the_latest_snapshot_at_or_before(java):
    db, expected, _ = java
    table = PaimonTable(os.path.join(db, "branched"))
    t1 = expected["branched@snapshot=1"]["time_millis"]
    assert table.resolve_snapshot(timestamp_ms=t1).id == 1
    assert table.resolve_snapshot(timestamp_ms=t1 - 1 + 1).id == 1
    later = table.snapshot()
    assert table.resolve_snapshot(timestamp_ms=later.time_millis + 10_000).id == later.id
    assert _our_rows(plan_scan(table, timestamp_ms=t1)) == expected["branched@snapshot=1"]["rows"]
    with pytest.raises(CorruptDataError, match="no snapshot at or before"):
        table.resolve_snapshot(timestamp_ms=t1 - 10_000_000)
    with pytest.raises(CorruptDataError, match="tag 'nope' does not exist"):
        table.resolve_snapshot(tag="nope")
    with pytest.raises(CorruptDataError, match="branch 'nope' does not exist"):
        PaimonTable(table.path, branch="nope")


@pytest.mark.parametrize("fmt", ["orc", "parquet"])
def test_columnar_manifests_read_into_the_avro_record_model(java, fmt, tmp_path):
    """The same records, whatever the encoding: re-encode an ORC/Parquet manifest as Avro and compare."""
    db, _, _ = java
    table = PaimonTable(os.path.join(db, f"manifest_{fmt}"))
    name = table.manifest_file_names(table.snapshot())[0]
    path = os.path.join(table.manifest_dir, name)
    assert open(path, "rb").read(4)[:3] in (b"ORC", b"PAR")
    entries = table.manifest(name)
    assert entries and all(e.total_buckets == 2 and e.file.file_name.endswith(".parquet") for e in entries)
    records = read_metadata_records(path, "manifest")
    assert {r["_FILE"]["_FILE_NAME"] for r in records} == {e.file.file_name for e in entries}


def test_unreadable_metadata_encoding_is_corrupt_data(tmp_path):
    bad = tmp_path / "manifest-x"
    bad.write_bytes(b"JUNKJUNK")
    with pytest.raises(CorruptDataError, match="not an Avro, ORC or Parquet file"):
        read_metadata_records(bad, "manifest")
    bad.write_bytes(b"ORC\x00garbage")
    with pytest.raises(CorruptDataError, match=r"cannot read manifest \(orc\)"):
        read_metadata_records(bad, "manifest")


def test_index_files_in_data_dir_and_external_paths(java):
    db, _, root = java
    t = PaimonTable(os.path.join(db, "dv_in_data_dir"))
    files = t.index_files(t.snapshot())
    assert files and all(os.path.dirname(f.path).rsplit(os.sep, 1)[-1].startswith("bucket-") for f in files)
    assert all(os.path.exists(f.path) for f in files)
    t = PaimonTable(os.path.join(db, "external_dv"))
    files = t.index_files(t.snapshot())
    assert files and all(f.path.startswith(os.path.join(root, "external")) and os.path.exists(f.path)
                         for f in files)
    t = PaimonTable(os.path.join(db, "external"))
    live = t.data_files()
    assert live and all(f.path.startswith(os.path.join(root, "external")) for f in live)
    assert all(os.path.dirname(f.index_path) == os.path.dirname(f.path) and os.path.exists(f.index_path)
               for f in live if f.index_path)
    assert all(f.index_path or f.embedded_index for f in live)


@pytest.mark.parametrize("uri,path", [("FILE:/a/b", "/a/b"), ("file:///a/b", "/a/b"), ("File://localhost/a", "/a"),
                                      ("file:/a", "/a"), ("/a/b", "/a/b"), ("oss://bucket/a", "oss://bucket/a")])
def test_strip_scheme_is_case_insensitive(uri, path):
    assert strip_scheme(uri) == path


def test_postpone_bucket_files_are_listed_but_not_read(java):
    db, _, _ = java
    t = PaimonTable(os.path.join(db, "postpone"))
    live = t.data_files()
    assert live and all(f.bucket == -2 and os.sep + "bucket-postpone" + os.sep in f.path for f in live)
    assert all(os.path.exists(f.path) for f in live)
    assert t.batch_files(t.snapshot()) == []
    assert java[1]["postpone"] == {"files": [], "rows": []}


@pytest.mark.parametrize("table", ["dv_in_data_dir", "external_dv", "manifest_orc_dv", "manifest_parquet",
                                   "branched", "fallback", "external"])
def test_audit_of_java_tables_is_clean(java, table):
    db, _, _ = java
    tasks, findings = table_inventory(os.path.join(db, table))
    if table in ("external", "external_dv"):
        # both tables write into one external root: Paimon's orphan clean of either would delete the other's
        # files; the audit names each such file with the table using it, never as an orphan
        from paimon_codec.maintenance.orphans import used_file_names

        other = used_file_names(os.path.join(db, "external_dv" if table == "external" else "external"))[0]
        shared = [f for f in findings if f.finding == "shared-external-file"]
        assert shared and all(os.path.basename(f.path) in other for f in shared)
        findings = [f for f in findings if f not in shared]
    assert findings == []
    from paimon_codec.maintenance.inventory import check_index_task

    for t in tasks:
        assert check_index_task(t.to_row())["status"] in ("ok", "skipped"), t.path


def test_audit_with_a_corrupt_manifest_reports_it_and_no_orphans(java, tmp_path):
    db, _, _ = java
    dst = tmp_path / "dv_in_data_dir"
    shutil.copytree(os.path.join(db, "dv_in_data_dir"), dst)
    t = PaimonTable(str(dst))
    name = t.snapshot().index_manifest
    target = os.path.join(t.manifest_dir, name)
    data = open(target, "rb").read()
    open(target, "wb").write(data[: len(data) // 2])
    _, findings = table_inventory(str(dst))
    assert not [f for f in findings if f.finding == "orphan"]
    assert any(f.path == target and f.finding == "corrupt" for f in findings)
    assert any(f.finding == "orphan-check-skipped" for f in findings)


def test_audit_finds_a_real_orphan_in_a_bucket_dir(java, tmp_path):
    db, _, _ = java
    dst = tmp_path / "dv_in_data_dir"
    shutil.copytree(os.path.join(db, "dv_in_data_dir"), dst)
    bucket = next(os.path.join(r, d) for r, ds, _ in os.walk(dst) for d in ds if d.startswith("bucket-"))
    stray = os.path.join(bucket, "index-00000000-0000-0000-0000-000000000000-9")
    open(stray, "wb").write(b"x")
    _, findings = table_inventory(str(dst))
    assert [f.path for f in findings if f.finding == "orphan"] == [stray]


def test_unknown_manifest_versions_stay_refusals(java, tmp_path):
    from paimon_codec.errors import UnsupportedVersionError

    db, _, _ = java
    dst = tmp_path / "branched"
    shutil.copytree(os.path.join(db, "branched"), dst)
    t = PaimonTable(str(dst))
    name = t.manifest_file_names(t.snapshot())[0]
    path = os.path.join(t.manifest_dir, name)
    with open(path, "rb") as fh:
        reader = fastavro.reader(fh)
        schema, records = reader.writer_schema, list(reader)
    for r in records:
        r["_VERSION"] = 3
    with open(path, "wb") as fh:
        fastavro.writer(fh, schema, records)
    with pytest.raises(UnsupportedVersionError, match="version 3"):
        plan_scan(str(dst))


@pytest.mark.parametrize("option,value", [("scan.snapshot-id", "1"), ("scan.tag-name", "t1"),
                                          ("scan.mode", "compacted-full"), ("data-evolution.enabled", "true"),
                                          ("fields.v.default-value", "x"), ("blob-field", "v")])
def test_options_that_change_a_read_are_refused_by_name(java, tmp_path, option, value):
    db, _, _ = java
    dst = tmp_path / "branched"
    shutil.copytree(os.path.join(db, "branched"), dst)
    t = PaimonTable(str(dst))
    schema_file = os.path.join(dst, "schema", f"schema-{t.schema.id}")
    obj = json.load(open(schema_file))
    obj["options"][option] = value
    json.dump(obj, open(schema_file, "w"))
    with pytest.raises(UnsupportedTypeError, match=option.replace(".", r"\.")):
        plan_scan(str(dst))


def test_option_classes(java):
    db, _, _ = java
    for name in ("dv_in_data_dir", "external_dv", "manifest_orc", "fallback", "postpone"):
        check = classify_options(PaimonTable(os.path.join(db, name)).schema)
        assert check.refused == {}, name
    schema = PaimonTable(os.path.join(db, "branched")).schema
    pk_merge = type(schema)(**{**schema.__dict__, "primary_keys": ("id",),
                               "options": {"merge-engine": "aggregation", "changelog-producer": "lookup",
                                           "rowkind.field": "op", "ignore-update-before": "true"}})
    check = classify_options(pk_merge)
    # the merge read honours merge-engine (refusing engines/functions it cannot reproduce by name);
    # ignore-update-before makes Paimon's writer drop -U records (its read never looks at it) and
    # rowkind.field only tells a writer which column holds the row kind (files store _VALUE_KIND), so
    # reads honour them by ignoring them
    assert "merge-engine" in check.supported and "changelog-producer" in check.irrelevant
    assert "ignore-update-before" in check.supported and "rowkind.field" in check.irrelevant
    dv = type(schema)(**{**schema.__dict__, "primary_keys": ("id",),
                         "options": {"merge-engine": "aggregation", "deletion-vectors.enabled": "true"}})
    assert classify_options(dv).refused == {}
    append = type(schema)(**{**schema.__dict__, "options": {"scan.mode": "from-snapshot", "scan.snapshot-id": "1",
                                                           "some.connector.key": "x"}})
    check = classify_options(append)
    assert set(check.refused) == {"scan.mode", "scan.snapshot-id"} and "some.connector.key" in check.irrelevant
    assert REFUSED == "refused"


def test_changelog_files_are_not_rows_of_a_batch_read(java):
    db, expected, _ = java
    t = PaimonTable(os.path.join(db, "changelog"))
    snaps = [t.snapshot(i) for i in t.snapshot_ids()]
    assert any(s.changelog_manifest_list for s in snaps)  # the writer did produce changelog files
    changelog = {m.file_name for s in snaps if s.changelog_manifest_list
                 for m in t.manifest_list(s.changelog_manifest_list)}
    changelog_files = {e.file.file_name for name in changelog for e in t.manifest(name)}
    planned = {os.path.basename(x.path) for x in plan_scan(t).tasks}
    assert changelog_files and not (changelog_files & planned)
    assert sorted(planned) == expected["changelog"]["files"]


def test_a_tag_outlives_its_expired_snapshot(java, tmp_path):
    db, expected, _ = java
    dst = tmp_path / "branched"
    shutil.copytree(os.path.join(db, "branched"), dst)
    os.remove(os.path.join(dst, "snapshot", "snapshot-1"))
    with open(os.path.join(dst, "snapshot", "EARLIEST"), "w") as fh:
        fh.write("2")
    plan = plan_scan(str(dst), tag="t1")
    assert plan.snapshot_id == 1
    assert _our_rows(plan) == expected["branched@tag=t1"]["rows"]
    with pytest.raises(MissingFileError, match="snapshot 1 does not exist"):
        plan_scan(str(dst), snapshot_id=1)
    _, findings = table_inventory(str(dst))
    assert findings == []


def test_global_index_entries_are_carried_and_reported(java, tmp_path):
    """An index manifest entry with _GLOBAL_INDEX (a btree global index of a data-evolution table) is
    read, located in <table>/index, audited as an index file of its own type, never a crash."""
    db, _, _ = java
    dst = tmp_path / "dv_in_data_dir"
    shutil.copytree(os.path.join(db, "dv_in_data_dir"), dst)
    t = PaimonTable(str(dst))
    path = os.path.join(t.manifest_dir, t.snapshot().index_manifest)
    with open(path, "rb") as fh:
        reader = fastavro.reader(fh)
        schema, records = reader.writer_schema, list(reader)
    assert any(f["name"] == "_GLOBAL_INDEX" for f in schema["fields"])
    name = "index-global-0"
    records.append(dict(records[0], _INDEX_TYPE="btree", _FILE_NAME=name, _FILE_SIZE=3, _ROW_COUNT=10,
                        _DELETIONS_VECTORS_RANGES=None, _BUCKET=0,
                        _GLOBAL_INDEX={"_ROW_RANGE_START": 0, "_ROW_RANGE_END": 9, "_INDEX_FIELD_ID": 1,
                                       "_EXTRA_FIELD_IDS": None, "_INDEX_META": b"m"}))
    with open(path, "wb") as fh:
        fastavro.writer(fh, schema, records)
    os.makedirs(os.path.join(dst, "index"), exist_ok=True)
    open(os.path.join(dst, "index", name), "wb").write(b"abc")
    t = PaimonTable(str(dst))
    [g] = [f for f in t.index_files(t.snapshot()) if f.entry.index_file.is_global_index]
    assert g.path == os.path.join(str(dst), "index", name)
    meta = g.entry.index_file.global_index
    assert (meta.row_range_start, meta.row_range_end, meta.index_field_id, meta.index_meta) == (0, 9, 1, b"m")
    tasks, findings = table_inventory(str(dst))
    assert findings == []
    from paimon_codec.maintenance.inventory import check_index_task

    [task] = [x for x in tasks if x.path == g.path]
    # the audit decodes B-tree global-index files (paimon_codec.globalindex.audit): these 3 bytes are no B-tree,
    # which it says in one line of this project's error family, never a crash
    checked = check_index_task(task.to_row())
    assert task.index_type == "btree" and checked["status"] == "error", checked
    [finding] = checked["findings"]
    assert finding["finding"] == "corrupt" and "footer magic" in finding["message"], finding
    assert sorted(os.path.basename(x.path) for x in plan_scan(t).tasks)  # the scan still plans


@pytest.mark.parametrize("text,ms", [("1700000000123", 1700000000123), ("1970-01-01T00:00:01", 1000),
                                     ("1970-01-01T01:00:00+01:00", 0)])
def test_cli_as_of_accepts_millis_and_iso_times(text, ms):
    from paimon_codec.cli.common import as_of_ms as _as_of_ms

    assert _as_of_ms(text) == ms


def test_spark_scan_reads_branches_and_tags(java, spark):  # noqa: F811
    from paimon_codec.spark.scan import scan

    db, expected, _ = java
    path = os.path.join(db, "branched")
    for key, kwargs in (("branched$branch_b1", {"branch": "b1"}), ("branched@tag=t1", {"tag": "t1"}),
                        ("fallback", {})):
        df, report = scan(spark, path if key != "fallback" else os.path.join(db, "fallback"), **kwargs)
        rows = sorted([r["id"], r["v"], r["p"]] for r in df.select("id", "v", "p").collect())
        assert rows == expected[key]["rows"], key
