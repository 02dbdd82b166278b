"""Writing tables on the S3 server: create, append, file-index rewrite, Spark write and rewrite jobs (the
two-process commit race on S3 is in ``test_commit_protocol.py``).

Every table written on ``s3://`` must read exactly like the same writes on local disk, and Paimon itself
(Java 1.4.2, pypaimon 2.1; they read a download of the bucket's objects) must read it too.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pyarrow.fs as pafs
import pytest
from oracles.compare import assert_same_rows
from oracles.s3_server import ACCESS_KEY, REGION, SECRET_KEY
from spark_fixtures import spark  # noqa: F401

from paimon_codec import storage
from paimon_codec.maintenance.file_index_rewrite import index_task, run_index_task, updated_meta
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.writing import append_arrow, create_table
from paimon_codec.writing.commit import FileChange, commit_changes

BUCKET = "written-tables"
SCHEMA = "id BIGINT, s STRING, p INT"
OPTS = {"file.format": "parquet", "file-index.bloom-filter.columns": "s"}
WHERES = [None, "id = 17", "s = 'v3'", "p = 2", "id IN (1, 44)"]


def _rows(start: int, n: int, parts=(1, 2)) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int64()), "s": [f"v{i % 5}" for i in ids],
                     "p": pa.array([parts[i % len(parts)] for i in ids], pa.int32())})


@pytest.fixture(scope="module")
def bucket(s3_server):
    s3_server.create_bucket(BUCKET)
    return f"s3://{BUCKET}"


def _download(server, uri: str, local: str) -> str:
    s3 = pafs.S3FileSystem(endpoint_override=server.endpoint.split("://", 1)[1], scheme="http",
                           access_key=ACCESS_KEY, secret_key=SECRET_KEY, region=REGION)
    pafs.copy_files(uri.split("://", 1)[1], local, source_filesystem=s3, destination_filesystem=pafs.LocalFileSystem())
    return local


def test_table_written_on_s3_reads_like_local_and_in_paimon(tmp_path, s3_server, bucket, java_newest, pypaimon21):
    uri = f"{bucket}/wh/db.db/t"
    local = str(tmp_path / "wh" / "db.db" / "t")
    for path in (uri, local):
        assert create_table(path, SCHEMA, OPTS, partition_keys=["p"]) == path
        append_arrow(path, _rows(0, 40))
        append_arrow(path, _rows(40, 25, parts=(2, 3)))
    assert storage.read_text(f"{uri}/snapshot/LATEST") == "2" and storage.read_text(f"{uri}/snapshot/EARLIEST") == "1"
    expected = pa.concat_tables([_rows(0, 40), _rows(40, 25, parts=(2, 3))])
    assert_same_rows(read_table(uri), expected)
    copy = _download(s3_server, uri, str(tmp_path / "download" / "db.db" / "t"))
    for where in WHERES:
        ours = read_table(uri, where)
        assert_same_rows(ours, read_table(local, where))
        assert_same_rows(java_newest.read(copy, where=where), ours)
        assert_same_rows(pypaimon21.read(copy, where=where), ours)
    assert PaimonTable(uri).snapshot().total_record_count == 65
    # the bloom filters we wrote prune on S3 as on local disk
    plan = plan_scan(uri, "s = 'nope'", use_stats=False)
    assert plan.report.files_skipped_by_index == plan.report.files_total > 0


def test_file_index_rewrite_on_s3(tmp_path, s3_server, bucket, java_newest):
    """Index files written next to the data on S3 (``.index`` files and embedded containers), committed as a
    COMPACT, prune the next scan; Java reads the rewritten table."""
    uri = create_table(f"{bucket}/wh/db.db/rw", SCHEMA, {"file.format": "parquet"}, partition_keys=["p"])
    append_arrow(uri, _rows(0, 60))
    storage.set_storage_options(f"s3://{BUCKET}", s3_server.options)  # per-bucket options reach the writers too
    try:
        table = PaimonTable(uri)
        options = dict(table.schema.options, **{"file-index.bitmap.columns": "s",
                                                "file-index.in-manifest-threshold": "10"})
        changes = []
        for f in table.data_files():
            outcome = run_index_task(index_task(f, table.schema, table.schema_by_id(f.meta.schema_id), options))
            assert outcome.changed and outcome.index_file_name is not None  # above the threshold: an .index file
            assert storage.is_file(f"{storage.parent(f.path)}/{outcome.index_file_name}")
            changes += [FileChange.delete_entry(f.entry),
                        FileChange.add_entry(f.entry, updated_meta(f.meta, outcome))]
        assert commit_changes(uri, changes, kind="COMPACT").snapshot_id == 2
    finally:
        storage.set_storage_options(f"s3://{BUCKET}", {})
    plan = plan_scan(uri, "s = 'v3'")
    assert plan.report.files_total == 2 and all(f["index_result"] == "BITMAP" for f in plan.report.files)
    assert_same_rows(read_table(uri, "s = 'v3'"), _rows(0, 60).filter(pa.compute.equal(_rows(0, 60)["s"], "v3")))
    copy = _download(s3_server, uri, str(tmp_path / "dl" / "db.db" / "rw"))
    assert_same_rows(java_newest.read(copy, where="s = 'v3'"), read_table(uri, "s = 'v3'"))
    assert sorted(os.listdir(copy)) == ["manifest", "p=1", "p=2", "schema", "snapshot"]


def test_spark_write_and_index_rewrite_on_s3(spark, s3_server, bucket, tmp_path, java_newest):  # noqa: F811
    """``spark.write`` (Parquet + indexes written by the tasks, straight into the bucket) and the Spark
    ``rewrite_file_index`` job (tasks read the data files from S3, put the new containers, one COMPACT
    commit); the executors get only URIs and the driver's storage options."""
    from paimon_codec.spark.rewrite import rewrite_file_index
    from paimon_codec.spark.write import write

    uri = create_table(f"{bucket}/wh/db.db/spark_rw", SCHEMA, {"file.format": "parquet",
                                                                "file-index.bitmap.columns": "s"},
                       partition_keys=["p"])
    rows = _rows(0, 300, parts=(1, 2, 3))
    write(spark.createDataFrame(rows.to_pandas()).repartition(3), uri)
    assert_same_rows(read_table(uri), rows)
    assert plan_scan(uri, "s = 'none'", use_stats=False).report.files_skipped_by_index > 0  # the tasks' bitmaps are there
    report = rewrite_file_index(spark, uri, {"file-index.bloom-filter.columns": "id",
                                             "file-index.in-manifest-threshold": "64"})
    assert report.files_indexed == report.files_total > 0
    plan = plan_scan(uri, "id = 5", use_stats=False)
    assert plan.report.files_skipped_by_index > 0  # the new bloom filters prune
    want = rows.filter(pa.compute.equal(rows["id"], 5))
    assert_same_rows(read_table(uri, "id = 5"), want)
    copy = _download(s3_server, uri, str(tmp_path / "dl" / "db.db" / "spark_rw"))
    for where in ("id = 5", "s = 'v2'", None):
        assert_same_rows(java_newest.read(copy, where=where), read_table(uri, where))


def test_cli_index_rewrite_of_an_s3_table_with_storage_option_flags(s3_server, bucket):
    """``paimon-codec --storage-option ... index rewrite s3://...`` in a process that knows the store only from
    its flags (no AWS_* variables): the rewrite commits and the new index prunes."""
    import json
    import subprocess
    import sys

    uri = create_table(f"{bucket}/wh/db.db/cli_rw", SCHEMA, {"file.format": "parquet"}, partition_keys=["p"])
    append_arrow(uri, _rows(0, 90))
    flags = [f"--storage-option=s3.endpoint={s3_server.endpoint}", f"--storage-option=s3.access-key={ACCESS_KEY}",
             f"--storage-option=s3.secret-key={SECRET_KEY}", f"--storage-option=s3.region={REGION}"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    res = subprocess.run([sys.executable, "-m", "paimon_codec", *flags, "index", "rewrite", uri, "--local",
                          "--option", "file-index.bitmap.columns=s", "--json", "--quiet"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert SECRET_KEY not in res.stdout + res.stderr
    report = json.loads(res.stdout)
    assert report["files_indexed"] == report["files_total"] > 0
    plan = plan_scan(uri, "s = 'none'", use_stats=False)
    assert plan.report.files_skipped_by_index == plan.report.files_total > 0
