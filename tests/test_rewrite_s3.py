"""``rewrite_file_index`` and ``spark.write`` on ``s3://`` tables (the loopback S3 server of the test session).

A table Java 1.4.2 wrote is copied into a bucket and indexed there (locally and on Spark): every container
equals Java's ``DataFileIndexWriter`` bytes for the same file, new ``.index`` objects are claimed with a
conditional PUT, and our scan of the S3 table returns Java's rows of the local original.  A DataFrame
written to a table created on S3 reads back exactly.
"""

from __future__ import annotations

import pyarrow as pa
from oracles.compare import assert_same_rows
from spark_fixtures import spark  # noqa: F401
from storage_fixtures import on_s3

from paimon_codec import storage
from paimon_codec.maintenance.index_rewrite_job import rewrite_file_index
from paimon_codec.reading import read_table
from paimon_codec.spark.rewrite import rewrite_file_index as spark_rewrite
from paimon_codec.spark.write import write
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table

OPTIONS = {"file-index.bitmap.columns": "s", "file-index.bloom-filter.columns": "n",
           "file-index.bloom-filter.n.items": "100", "file-index.in-manifest-threshold": "300 b"}


def _rows(k: int, n: int = 80) -> pa.Table:
    return pa.table({"id": pa.array(range(k * 100, k * 100 + n), pa.int32()),
                     "s": [f"s{(i + k) % 4}" for i in range(n)],
                     "n": pa.array([i * 5 + k for i in range(n)], pa.int64())})


def _containers(path: str) -> dict[str, bytes]:
    out = {}
    for f in PaimonTable(path).data_files():
        out[f.file_name] = f.embedded_index if f.embedded_index is not None else storage.read_bytes(f.index_path)
    return out


def test_rewrite_on_s3_matches_java(tmp_path, java_newest, s3_server, spark):  # noqa: F811
    local = java_newest.create_table(str(tmp_path), "db.t", "id INT, s STRING, n BIGINT", options={"bucket": "-1"})
    for k in range(3):
        java_newest.write(local, _rows(k))
    java_newest.alter(local, [{"op": "set", "key": k, "value": v} for k, v in OPTIONS.items()])
    javas = {n: v["embedded"] if v["embedded"] is not None else v["index_bytes"]
             for n, v in java_newest.file_indexes(local).items()}
    uri = on_s3(s3_server)(local)
    assert uri.startswith("s3://")
    report = rewrite_file_index(uri)
    assert report.files_changed == 3 and report.snapshot_id is not None and report.index_files_written >= 1
    assert _containers(uri) == javas
    for where in [None, "s = 's1'", "n = 15", "n = 16"]:
        assert_same_rows(read_table(uri, where), java_newest.read(local, where=where), what=str(where))
    switched = spark_rewrite(spark, uri, {"file-index.bloom-filter.columns": None,
                                          "file-index.bloom-filter.n.items": None})
    assert switched.files_changed == 3
    for f in PaimonTable(uri).data_files():
        assert f.index_path is None or f.index_path.endswith("-1.index")  # a new object, the old one kept


def test_spark_write_to_s3(tmp_path, s3_server, spark):  # noqa: F811
    uri = f"s3://warehouses/{tmp_path.name}/db.db/w"
    create_table(uri, "id INT, s STRING, n BIGINT", {"file.format": "parquet", **OPTIONS})
    data = pa.concat_tables([_rows(k) for k in range(4)])
    report = write(spark.createDataFrame(data.to_pandas()).repartition(3), uri)
    assert report.rows == 320 and report.snapshot_id == 1 and report.files >= 3
    assert_same_rows(read_table(uri), data)
    assert_same_rows(read_table(uri, "s = 's2'"), data.filter(pa.compute.equal(data["s"], "s2")))
