"""``paimon_codec.spark.write`` and ``paimon-codec write``: a DataFrame appended with its file indexes.

Tables are read back by Paimon Java 1.4.2, Paimon Java 0.9 (a table Java 0.9 created: the 0.9 layout)
and pypaimon 2.1 with the same rows as our scan for several predicates; every container built in the
Spark tasks is byte-identical to what Java's ``DataFileIndexWriter`` writes for the same data file, and
with embedded containers Java's filtered scan plan keeps exactly the files ours keeps.  Each write runs through
``write()`` and through the ``paimon_codec`` sink (``via``).
"""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import spark, write_via  # noqa: F401

from paimon_codec.cli import main
from paimon_codec.errors import InvalidOptionError, PaimonCodecError
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading import read_table
from paimon_codec.spark.write import write
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table

SCHEMA = pa.schema([("id", pa.int32()), ("s", pa.string()), ("n", pa.int64()), ("p", pa.string())])
OPTIONS = {"file-index.bitmap.columns": "s", "file-index.bloom-filter.columns": "id",
           "file-index.bloom-filter.id.items": "300", "file-index.range-bitmap.columns": "n",
           "file-index.in-manifest-threshold": "1 mb", "file.format": "parquet"}
PREDICATES = ["s = 'k3'", "s = 'zz'", "id = 1234", "n > 9000", "n BETWEEN 10 AND 20 OR s = 'k1'", "s IS NULL"]


def _data(start: int, n: int, k: int) -> pa.Table:
    ids = list(range(start, start + n))
    return pa.table({"id": pa.array(ids, pa.int32()),
                     "s": [None if i % 29 == 0 else f"k{(i // 37) % 6 + k}" for i in ids],
                     "n": pa.array([(i * 7919) % 10000 for i in ids], pa.int64()),
                     "p": [("a", "b")[i % 2] for i in ids]})


def _df(spark, table: pa.Table, partitions: int):  # noqa: F811
    return spark.createDataFrame(table.to_pandas()).repartition(partitions)


def _containers(path: str) -> dict[str, bytes]:
    out = {}
    for f in PaimonTable(path).data_files():
        if f.embedded_index is not None:
            out[f.file_name] = f.embedded_index
        elif f.index_path:
            with open(f.index_path, "rb") as fh:
                out[f.file_name] = fh.read()
    return out


def _check(java, path: str, pypaimon=None) -> None:
    for where in [None, *PREDICATES]:
        ours = read_table(path, where)
        assert_same_rows(ours, java.read(path, where=where), what=f"Java, {where}")
        if pypaimon is not None:
            assert_same_rows(ours, pypaimon.read(path, where=where), what=f"pypaimon, {where}")


VIA = ["write", "sink"]


@pytest.mark.parametrize("via", VIA)
def test_write_append_partitioned(spark, tmp_path, java_newest, pypaimon21, via):  # noqa: F811
    path = create_table(str(tmp_path / "db.db" / "t"), SCHEMA, OPTIONS, partition_keys=["p"])
    first = _data(0, 600, 0)
    report = write_via(via, _df(spark, first, 3), path)
    if report is not None:
        assert report.rows == 600 and report.partitions == 2 and report.snapshot_id == 1
        assert report.files == report.embedded_indexes >= 2
    assert PaimonTable(path).snapshot().id == 1
    assert all(f.embedded_index is not None for f in PaimonTable(path).data_files())
    second = _data(600, 400, 3)
    write_via(via, _df(spark, second, 2), path)
    assert PaimonTable(path).snapshot().id == 2
    expected = pa.concat_tables([first, second])
    assert_same_rows(read_table(path), expected)
    _check(java_newest, path, pypaimon21)
    javas = {n: v["embedded"] for n, v in java_newest.file_indexes(path).items()}
    assert _containers(path) == javas  # built in the Spark tasks, Java's own bytes
    skipped = 0
    for where in PREDICATES:
        plan = plan_scan(path, where)
        assert java_newest.plan_files(path, where=where) == sorted(os.path.basename(t.path) for t in plan.tasks)
        skipped += plan.report.files_skipped_by_index
    assert skipped > 0
    java_newest.write(path, _data(5000, 50, 1))  # Java appends on top of our snapshots
    assert_same_rows(read_table(path), java_newest.read(path))


@pytest.mark.parametrize("via", VIA)
def test_write_fixed_buckets_and_overwrite(spark, tmp_path, java_newest, via):  # noqa: F811
    path = create_table(str(tmp_path / "db.db" / "b"), SCHEMA, {**OPTIONS, "bucket": "2", "bucket-key": "id"})
    write_via(via, _df(spark, _data(0, 500, 0), 3), path)
    write_via(via, _df(spark, _data(500, 300, 1), 2), path)
    by_bucket: dict[int, list[tuple[int, int]]] = {}
    for f in PaimonTable(path).data_files():
        by_bucket.setdefault(f.bucket, []).append((f.meta.min_sequence_number, f.meta.max_sequence_number))
    for ranges in by_bucket.values():  # contiguous per bucket, as one writer per bucket numbers them
        ranges.sort()
        assert ranges[0][0] == 0 and all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:], strict=False))
    _check(java_newest, path)
    replacement = _data(10_000, 120, 2)
    report = write_via(via, _df(spark, replacement, 2), path, mode="overwrite")
    assert report is None or report.snapshot_id is not None
    assert_same_rows(java_newest.read(path), replacement)
    assert_same_rows(read_table(path), replacement)
    with pytest.raises(InvalidOptionError, match="unknown write mode"):
        write(_df(spark, replacement, 1), path, mode="upsert")


@pytest.mark.parametrize("via", VIA)
def test_write_java09_table(spark, tmp_path, java09_tables, via):  # noqa: F811
    path = java09_tables.create_table(str(tmp_path), "db.v09", "id INT, s STRING, n BIGINT, p STRING",
                                      options={"bucket": "-1", "file-index.bitmap.columns": "s",
                                               "file.format": "parquet",
                                               "file-index.bloom-filter.columns": "id",
                                               "file-index.in-manifest-threshold": "1 mb"})
    java09_tables.write(path, _data(0, 100, 0))
    write_via(via, _df(spark, _data(100, 500, 2), 2), path)
    _check(java09_tables, path)
    orc = java09_tables.create_table(str(tmp_path), "db.orc", "id INT, s STRING, n BIGINT, p STRING",
                                     options={"bucket": "-1", "file.format": "orc"})  # ORC: refused on the driver
    with pytest.raises(Exception, match="file.format") as refused:  # the sink's: Spark's error around ours
        write_via(via, _df(spark, _data(0, 10, 0), 1), orc)
    assert via == "sink" or isinstance(refused.value, PaimonCodecError)


def test_cli_write(spark, tmp_path, java_newest, capsys):  # noqa: F811
    path = create_table(str(tmp_path / "db.db" / "c"), SCHEMA, OPTIONS)
    data = _data(0, 300, 0)
    src = str(tmp_path / "in.parquet")
    pq.write_table(data, src)
    assert main(["write", path, "--input", src, "--json", "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows"] == 300 and report["snapshot_id"] == 1
    assert_same_rows(java_newest.read(path), data)
    bad = str(tmp_path / "bad.parquet")
    pq.write_table(data.append_column("zzz", pa.array(range(300))), bad)
    assert main(["write", path, "--input", bad, "--quiet"]) == 2
    assert "zzz" in capsys.readouterr().err
