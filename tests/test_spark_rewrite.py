"""``rewrite_file_index`` on Spark and ``paimon-codec index rewrite``: Java's bytes, one commit, readers agree.

A table Java 1.4.2 wrote (partitioned, five files) is indexed on local Spark (small files grouped into
tasks); every manifest entry then carries exactly the container Java's ``DataFileIndexWriter`` makes for
that file under the new options, Java and pypaimon read our rows, and the CLI reports what it did.
"""

from __future__ import annotations

import json
import logging

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import read_via, spark  # noqa: F401

from paimon_codec.cli import main
from paimon_codec.maintenance.file_index_rewrite import IndexTask
from paimon_codec.reading import read_table
from paimon_codec.spark.rewrite import group_tasks, rewrite_file_index
from paimon_codec.table import PaimonTable

OPTIONS = {"file-index.bitmap.columns": "s", "file-index.bloom-filter.columns": "n",
           "file-index.bloom-filter.n.items": "500", "file-index.range-bitmap.columns": "n",
           "file-index.in-manifest-threshold": "3000 b"}


def _rows(k: int, n: int = 150) -> pa.Table:
    return pa.table({"id": pa.array(range(k * 1000, k * 1000 + n), pa.int32()),
                     "s": [None if i % 19 == 0 else f"s{(i + k) % 5}" for i in range(n)],
                     "n": pa.array([(i * 11 + k) % (200 + 50 * k) for i in range(n)], pa.int64()),
                     "p": [("x", "y")[k % 2]] * n})


@pytest.fixture
def java_table(tmp_path, java_newest):
    path = java_newest.create_table(str(tmp_path), "db.t", "id INT, s STRING, n BIGINT, p STRING",
                                    partition_keys=["p"], options={"bucket": "-1"})
    for k in range(5):
        java_newest.write(path, _rows(k))
    return path


def _containers(path: str) -> dict[str, bytes]:
    out = {}
    for f in PaimonTable(path).data_files():
        if f.embedded_index is not None:
            out[f.file_name] = f.embedded_index
        else:
            with open(f.index_path, "rb") as fh:
                out[f.file_name] = fh.read()
    return out


def _javas(java, path: str) -> dict[str, bytes]:
    return {name: v["embedded"] if v["embedded"] is not None else v["index_bytes"]
            for name, v in java.file_indexes(path).items()}


def _source_reads_as_java(spark, path: str, java) -> None:  # noqa: F811
    """The DataFrame source with pushdown (the rewritten indexes judging the files) reads Java's rows."""
    for where in ("s = 's3'", "n > 260 AND p = 'y'"):
        df, _ = read_via(spark, "source-pushdown", path, where)
        assert_same_rows(df.toArrow(), java.read(path, where=where), what=f"source, {where}")


def test_spark_rewrite_matches_java(spark, java_table, java_newest, pypaimon21, caplog):  # noqa: F811
    with caplog.at_level(logging.INFO, logger="paimon_codec.maintenance.index_rewrite_job"):
        report = rewrite_file_index(spark, java_table, OPTIONS, target_bytes=3000)
    assert report.files_changed == 5 and report.snapshot_id is not None
    assert 0 < report.embedded < 5 and report.index_files_written == 5 - report.embedded
    assert any("5/5 files" in r.getMessage() for r in caplog.records)  # driver progress
    assert _containers(java_table) == _javas(java_newest, java_table)
    for where in [None, "s = 's3'", "n = 7", "n > 260", "s IS NULL AND p = 'x'"]:
        ours = read_table(java_table, where)
        assert_same_rows(ours, java_newest.read(java_table, where=where), what=str(where))
        assert_same_rows(ours, pypaimon21.read(java_table, where=where), what=str(where))
    _source_reads_as_java(spark, java_table, java_newest)
    again = rewrite_file_index(spark, java_table)
    assert again.snapshot_id is None and again.files_changed == 0


def test_cli_index_rewrite(spark, java_table, java_newest, capsys):  # noqa: F811
    args = ["index", "rewrite", java_table, "--json", "--quiet", "--partition", "p=y"]
    for k, v in OPTIONS.items():
        args += ["--option", f"{k}={v}"]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["files_total"] == 2 and report["files_changed"] == 2 and report["snapshot_id"] == 6
    assert main(["index", "rewrite", java_table, "--remove-option", "file-index.range-bitmap.columns",
                 "--json", "--quiet", "--local"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["files_total"] == 5 and report["files_changed"] == 5
    assert _containers(java_table) == _javas(java_newest, java_table)
    _source_reads_as_java(spark, java_table, java_newest)
    assert main(["index", "rewrite", java_table, "--option", "file-index.bitmap.columns=nope", "--quiet"]) == 2
    assert "nope" in capsys.readouterr().err


def _task(name: str, size: int) -> IndexTask:
    return IndexTask(name, "parquet", name, 1, size, None, (), 500, (), None, None)


def test_group_tasks_packs_small_files():
    tasks = [_task("big", 100), _task("a", 30), _task("b", 30), _task("c", 30), _task("d", 5)]
    groups = group_tasks(tasks, target_bytes=64)
    assert [[t.file_name for t in g] for g in groups] == [["big"], ["a", "b"], ["c", "d"]]
    assert sorted(t.file_name for g in groups for t in g) == sorted(t.file_name for t in tasks)
