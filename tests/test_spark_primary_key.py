"""``write(df, table)`` on primary-key tables (an upsert, one task per partition) and ``compact(spark, table)``
/ ``paimon-codec compact`` on Spark, read back by Paimon Java 1.4.2 and by us."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import read_via, spark  # noqa: F401

from paimon_codec.cli import main
from paimon_codec.reading import read_table
from paimon_codec.spark import compact, write
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table

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
