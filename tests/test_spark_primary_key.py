"""``write(df, table)`` on primary-key tables (an upsert, one task per partition), the ``paimon_codec`` sink's
upsert (``df.write.format("paimon_codec")``: tasks stage, the driver writes) and ``compact(spark, table)`` /
``paimon-codec compact`` on Spark, read back by Paimon Java 1.4.2 and by us."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import read_via, spark, write_via  # noqa: F401

from paimon_codec.cli import main
from paimon_codec.errors import UnsupportedFeatureError
from paimon_codec.reading import read_table
from paimon_codec.spark import compact, write
from paimon_codec.spark.sink import PaimonCodecWriter
from paimon_codec.spark.staged_upsert import STAGED_PREFIX
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table
from paimon_codec.writing.compact import compact_table

ARROW = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("s", pa.string())])


def _rows(ids, tag):
    return pa.table({"id": pa.array(list(ids), pa.int32()), "p": pa.array([i % 4 for i in ids], pa.int32()),
                     "s": [f"{tag}{i}" for i in ids]}, schema=ARROW)


@pytest.mark.slow
def test_spark_upsert_and_compact(tmp_path, spark, java_newest, capsys):  # noqa: F811
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW,
                            {"bucket": "-1", "dynamic-bucket.target-row-num": "10", "deletion-vectors.enabled": "true"},
                            partition_keys=["p"], primary_keys=["id", "p"]))
    expected = {}
    for ids, tag in ((range(0, 60), "a"), (range(40, 90), "b")):
        rows = _rows(ids, tag)
        report = write(spark.createDataFrame(rows.to_pandas()).repartition(3), path)
        assert report.mode == "upsert" and report.rows == rows.num_rows and report.partitions == 4
        expected.update({(r["id"], r["p"]): r for r in rows.to_pylist()})
    assert java_newest.read(path).num_rows == 0  # deletion vectors: level 0 waits for compaction
    result = compact(spark, path)
    assert result["buckets"] > 4 and result["files_added"] > 0
    want = pa.Table.from_pylist(list(expected.values()), schema=ARROW)
    assert_same_rows(java_newest.read(path), want, what="Java reads the Spark upserts after compaction")
    assert_same_rows(read_table(path), want)
    df, _ = read_via(spark, "source-pushdown", path, "s LIKE 'b%' AND p = 1")  # the DataFrame source
    assert_same_rows(df.toArrow(), java_newest.read(path, where="s LIKE 'b%' AND p = 1"), what="source")
    java_newest.write(path, _rows([1, 2], "j"))
    expected.update({(r["id"], r["p"]): r for r in _rows([1, 2], "j").to_pylist()})
    assert main(["compact", path, "--local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["snapshot_id"] == PaimonTable(path).snapshot().id
    want = pa.Table.from_pylist(list(expected.values()), schema=ARROW)
    assert_same_rows(java_newest.read(path), want, what="Java reads our CLI compaction over its upsert")


SINK_TABLES = {"fixed": ({"bucket": "2"}, ["p"]),
               "dynamic": ({"bucket": "-1", "dynamic-bucket.target-row-num": "10"}, ["p"]),
               "deletion-vectors": ({"bucket": "1", "deletion-vectors.enabled": "true"}, [])}


def _settled(java, path: str) -> None:
    """Both readers agree on the table; with deletion vectors level 0 shows after a compaction (ours: the Java
    oracle's compaction plans through a batch scan, which skips level 0 of such a table)."""
    assert_same_rows(read_table(path), java.read(path), what="ours vs Java")
    if PaimonTable(path).schema.option_bool("deletion-vectors.enabled"):
        compact_table(path)
        assert_same_rows(read_table(path), java.read(path), what="ours vs Java after the compaction")


@pytest.mark.parametrize("kind", list(SINK_TABLES))
def test_sink_upserts(tmp_path, spark, java_newest, kind):  # noqa: F811
    """The sink upserts rows whose keys repeat within and across the DataFrame's partitions: the last row in
    partition order wins (a DataFrame of 4 contiguous slices: the list's last row of each key); with a shuffled
    DataFrame whichever row wins, Java reads what we read; Java keeps upserting on top."""
    options, partitions = SINK_TABLES[kind]
    path = str(create_table(tmp_path / "wh" / "db.db" / kind, ARROW, options, partition_keys=partitions,
                            primary_keys=["id", "p"]))
    records = [r for ids, tag in ((range(0, 60), "a"), (range(30, 90), "b"), (range(50, 70), "c"))
               for r in _rows(ids, tag).to_pylist()]
    expected = {(r["id"], r["p"]): r for r in records}  # the last record of each key in the list's order
    rdd = spark.sparkContext.parallelize([(r["id"], r["p"], r["s"]) for r in records], 4)  # contiguous slices
    write_via("sink", spark.createDataFrame(rdd, "id int, p int, s string"), path)
    _settled(java_newest, path)
    want = pa.Table.from_pylist(list(expected.values()), schema=ARROW)
    assert_same_rows(java_newest.read(path), want, what="Java reads the sink's upsert")

    shuffled = pa.concat_tables([_rows(range(80, 120), "d"), _rows(range(100, 130), "e")])
    write_via("sink", spark.createDataFrame(shuffled.to_pandas()).repartition(4), path)
    _settled(java_newest, path)
    ours = {(r["id"], r["p"]): r for r in read_table(path).to_pylist()}
    for i in range(80, 130):  # a key in both "d" and "e" may keep either row: the same one for both readers
        assert ours[(i, i % 4)]["s"] in ({f"d{i}", f"e{i}"} if 100 <= i < 120 else {f"d{i}" if i < 100 else f"e{i}"})
        expected[(i, i % 4)] = ours[(i, i % 4)]

    java_newest.write(path, _rows([1, 2, 100, 200], "j"))  # Java continues the buckets we wrote
    expected.update({(r["id"], r["p"]): r for r in _rows([1, 2, 100, 200], "j").to_pylist()})
    _settled(java_newest, path)
    want = pa.Table.from_pylist(list(expected.values()), schema=ARROW)
    assert_same_rows(java_newest.read(path), want, what="Java reads its upsert over ours")
    assert_same_rows(read_table(path), want, what="we read Java's upsert over ours")
    assert not [n for n in os.listdir(os.path.join(path, "index")) if n.startswith(STAGED_PREFIX)]


def test_sink_refuses_overwrite_of_a_primary_key_table(tmp_path):
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "2"}, primary_keys=["id", "p"]))
    schema = StructType([StructField("id", IntegerType()), StructField("p", IntegerType()),
                         StructField("s", StringType())])
    with pytest.raises(UnsupportedFeatureError, match="write mode 'overwrite' on a primary-key table"):
        PaimonCodecWriter({"path": path}, schema, True, None)
    assert PaimonCodecWriter({"path": path}, schema, False, None).primary_key


def test_staged_upsert_rewrites_after_a_concurrent_commit(tmp_path, java_newest, monkeypatch):
    """Java commits to the buckets between the driver's write and its commit: the commit conflicts, the
    attempt's files are deleted and the staged rows are written again on Java's snapshot."""
    import paimon_codec.writing.primary_key as primary_key
    from paimon_codec.maintenance.orphans import find_orphans
    from paimon_codec.spark.staged_upsert import commit_staged, stage_rows

    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "1"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    messages = [stage_rows(path, iter(_rows(range(0, 20), "ours").to_batches()))]
    real = primary_key.write_primary_key_files
    calls = []

    def write_then_java_commits(*args, **kwargs):
        written = real(*args, **kwargs)
        calls.append(len(written.files))
        if len(calls) == 1:
            java_newest.write(path, _rows(range(10, 30), "java"))  # another writer takes the buckets first
        return written

    monkeypatch.setattr(primary_key, "write_primary_key_files", write_then_java_commits)
    result = commit_staged(path, messages, commit_user="sink")
    assert len(calls) == 8 and result.snapshot_id == 2  # 4 partitions, written twice
    want = pa.concat_tables([_rows(range(0, 20), "ours"), _rows(range(20, 30), "java")])
    assert_same_rows(java_newest.read(path), want, what="Java reads our rewrite over its commit")
    assert_same_rows(read_table(path), want)
    assert find_orphans(path, None).orphans == []  # the first attempt's files and the staged rows are gone
