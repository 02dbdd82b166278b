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
               "deletion-vectors": ({"bucket": "1", "deletion-vectors.enabled": "true"}, []),
               "postpone": ({"bucket": "-2", "postpone.default-bucket-num": "2"}, ["p"])}


def _settled(java, path: str) -> None:
    """Both readers agree on the table; with deletion vectors level 0 shows after a compaction (ours: the Java
    oracle's compaction plans through a batch scan, which skips level 0 of such a table); a postpone-bucket
    table's rows show after Paimon's postpone compaction (Java's)."""
    assert_same_rows(read_table(path), java.read(path), what="ours vs Java")
    if PaimonTable(path).schema.bucket == -2:
        assert java.compact_postpone(path) is not None
        assert_same_rows(read_table(path), java.read(path), what="ours vs Java after Java's postpone compaction")
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


def test_write_upserts_into_a_postpone_table(tmp_path, spark, java_newest):  # noqa: F811
    """``write(df, table)`` into a postpone-bucket table: one task per table partition writes its
    ``bucket-postpone`` files; Java's postpone compaction replays them into 3 buckets and reads every row."""
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW,
                            {"bucket": "-2", "postpone.default-bucket-num": "3"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    report = write(spark.createDataFrame(_rows(range(0, 40), "a").to_pandas()).repartition(3), path)
    assert report.snapshot_id == 1
    files = PaimonTable(path).data_files()
    assert len(files) == 4 and {(f.bucket, f.entry.total_buckets, f.level) for f in files} == {(-2, -2, 0)}
    write(spark.createDataFrame(_rows(range(30, 50), "b").to_pandas()), path)
    assert read_table(path).num_rows == 0 == java_newest.read(path).num_rows
    java_newest.compact_postpone(path)
    want = pa.concat_tables([_rows(range(0, 30), "a"), _rows(range(30, 50), "b")])
    assert_same_rows(java_newest.read(path), want, what="Java compacts and reads write()'s postpone files")
    assert_same_rows(read_table(path), want, what="ours after Java's compaction")
    assert {f.entry.total_buckets for f in PaimonTable(path).data_files()} == {3}


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


def _kinded(kinds_rows):
    """``[(kind, id, s)]`` as a sink batch with a leading ``rowkind`` column (what ``read.changelog`` streams)."""
    return pa.table({"rowkind": [k for k, _i, _s in kinds_rows],
                     "id": pa.array([i for _k, i, _s in kinds_rows], pa.int32()),
                     "p": pa.array([i % 4 for _k, i, _s in kinds_rows], pa.int32()),
                     "s": [s for _k, _i, s in kinds_rows]})


def _sink_schema(*names):
    from pyspark.sql.types import IntegerType, StringType, StructField, StructType

    types = {"rowkind": StringType(), "id": IntegerType(), "p": IntegerType(), "s": StringType()}
    return StructType([StructField(n, types[n]) for n in names])


def test_sink_takes_row_kinds(tmp_path, java_newest):
    """A ``rowkind`` column gives the sink's rows their kinds: ``-U``/``+U`` update, ``-D`` deletes, in task
    order across tasks (an insert in one task, its delete in the next); Java reads what the kinds say."""
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "2"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    writer = PaimonCodecWriter({"path": path}, _sink_schema("rowkind", "id", "p", "s"), False, None)
    writer.commit([writer.write(iter(_kinded([("+I", i, f"a{i}") for i in range(10)]).to_batches()))])
    tasks = [_kinded([("-U", 1, "a1"), ("+U", 1, "b1"), ("-D", 2, "a2"), ("+I", 20, "b20"), ("-D", 3, "a3"),
                      ("+I", 3, "b3")]),
             _kinded([("-D", 20, "b20"), ("+I", 21, "b21"), ("-D", 4, "a4")])]
    writer.commit([writer.write(iter(t.to_batches())) for t in tasks])
    want = {i: f"a{i}" for i in range(10)}
    want.update({1: "b1", 3: "b3", 21: "b21"})
    for gone in (2, 4):
        del want[gone]
    expected = pa.Table.from_pylist([{"id": i, "p": i % 4, "s": s} for i, s in want.items()], schema=ARROW)
    assert_same_rows(java_newest.read(path), expected, what="Java reads the sink's +I/-U/+U/-D rows")
    assert_same_rows(read_table(path), expected, what="ours")
    java_newest.write(path, _rows([2, 21], "j"), row_kinds=["+I", "-D"])  # Java keeps writing on top
    expected = pa.Table.from_pylist([r for r in expected.to_pylist() if r["id"] != 21]
                                    + _rows([2], "j").to_pylist(), schema=ARROW)
    assert_same_rows(java_newest.read(path), expected, what="Java's changes over ours")
    assert not [n for n in os.listdir(os.path.join(path, "index")) if n.startswith(STAGED_PREFIX)]


def test_sink_row_kind_refusals(tmp_path):
    """Refused by name: a ``rowkind`` column into an append table, an unknown or null kind.  A table with its own
    ``rowkind`` column takes it as data."""
    from paimon_codec.errors import PaimonCodecError

    append = str(create_table(tmp_path / "wh" / "db.db" / "a", ARROW, {}))
    with pytest.raises(UnsupportedFeatureError, match="'rowkind' column .* append table"):
        PaimonCodecWriter({"path": append}, _sink_schema("rowkind", "id", "p", "s"), False, None)
    pk = str(create_table(tmp_path / "wh" / "db.db" / "pk", ARROW, {"bucket": "1"}, primary_keys=["id", "p"]))
    writer = PaimonCodecWriter({"path": pk}, _sink_schema("rowkind", "id", "p", "s"), False, None)
    with pytest.raises(PaimonCodecError, match="unknown row kind 'X'"):
        writer.write(iter(_kinded([("+I", 1, "a"), ("X", 2, "b")]).to_batches()))
    with pytest.raises(PaimonCodecError, match="unknown row kind None"):
        writer.write(iter(_kinded([("+I", 1, "a"), (None, 2, "b")]).to_batches()))
    own_schema = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("rowkind", pa.string())])
    own = str(create_table(tmp_path / "wh" / "db.db" / "own", own_schema, {"bucket": "1"}, primary_keys=["id", "p"]))
    writer = PaimonCodecWriter({"path": own}, _sink_schema("rowkind", "id", "p"), False, None)
    data = _kinded([("-D", 1, "x")]).select(["rowkind", "id", "p"])
    writer.commit([writer.write(iter(data.to_batches()))])
    assert read_table(own).to_pylist() == [{"id": 1, "p": 1, "rowkind": "-D"}]


def test_sink_takes_the_kinds_of_rowkind_field(tmp_path, java_newest):
    """Paimon's ``rowkind.field``: each row's kind is the value of that table column, for Java's writer and ours
    alike; a ``rowkind`` column as well is ambiguous and refused by name."""
    path = java_newest.create_table(str(tmp_path), "db.f", "id INT NOT NULL, p INT NOT NULL, s STRING, op STRING",
                                    primary_keys=["id", "p"], options={"bucket": "1", "rowkind.field": "op"})
    schema = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("s", pa.string()), ("op", pa.string())])

    def ops(rows):
        return pa.Table.from_pylist([{"id": i, "p": i % 4, "s": s, "op": op} for i, s, op in rows], schema=schema)

    java_newest.write(path, ops([(i, f"a{i}", "+I") for i in range(6)]))
    java_newest.write(path, ops([(0, "a0", "-D")]))  # Java deletes by the op column
    writer = PaimonCodecWriter({"path": path}, _sink_schema("id", "p", "s").add("op", "string"), False, None)
    writer.commit([writer.write(iter(ops([(1, "a1", "-D"), (2, "u2", "+U"), (7, "a7", "+I")]).to_batches()))])
    want = ops([(2, "u2", "+U"), (3, "a3", "+I"), (4, "a4", "+I"), (5, "a5", "+I"), (7, "a7", "+I")])
    assert_same_rows(java_newest.read(path), want, what="Java reads the kinds our sink took from rowkind.field")
    assert_same_rows(read_table(path), want, what="ours")
    with pytest.raises(UnsupportedFeatureError, match="both a 'rowkind' column and the table's rowkind.field = op"):
        PaimonCodecWriter({"path": path}, _sink_schema("rowkind", "id", "p", "s").add("op", "string"), False, None)
