"""DELETE on primary-key tables (``paimon_codec.writing.pk_delete``): -D records, one APPEND commit, checked
against Paimon Java 1.4.2 (Java reads our -D files, compacts them, writes on top; we read Java's result).

Expected rows come from a plain model (the rows written minus the keys whose rows matched the predicate),
never from our own reader alone.
"""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pytest
from oracles.compare import assert_same_rows
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import InvalidOptionError, UnsupportedFeatureError
from paimon_codec.reading import read_table
from paimon_codec.table import PaimonTable
from paimon_codec.writing import create_table, delete
from paimon_codec.writing.compact import compact_table
from paimon_codec.writing.primary_key import upsert_arrow

SCHEMA = "id INT NOT NULL, p INT NOT NULL, s STRING, n BIGINT"
ARROW = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("s", pa.string()), ("n", pa.int64())])


def _batch(ids, tag="a") -> pa.Table:
    ids = list(ids)
    return pa.table({"id": pa.array(ids, pa.int32()), "p": pa.array([i % 3 for i in ids], pa.int32()),
                     "s": [f"{tag}{i}" if i % 5 else None for i in ids],
                     "n": pa.array([i * 7 for i in ids], pa.int64())})


def _rows(data: pa.Table) -> dict[tuple, dict]:
    return {(r["id"], r["p"]): r for r in data.to_pylist()}


def _table(rows: dict[tuple, dict]) -> pa.Table:
    return pa.Table.from_pylist(list(rows.values()), schema=ARROW)


def _gone(rows: dict[tuple, dict], keep) -> dict[tuple, dict]:
    return {k: r for k, r in rows.items() if keep(r)}


@pytest.mark.parametrize("options", [{"bucket": "3"}, {"bucket": "-1", "dynamic-bucket.target-row-num": "7"}],
                         ids=["fixed", "dynamic"])
def test_delete_writes_minus_d_records_java_reads(tmp_path, java_newest, options):
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, options, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(40)))
    java_newest.write(path, _batch(range(35, 50), tag="j"))  # Java's files under ours: the merged view is read
    rows = {**_rows(_batch(range(40))), **_rows(_batch(range(35, 50), tag="j"))}
    before = PaimonTable(path).snapshot().id

    report = delete(path, "n >= 140 AND (s LIKE 'j%' OR p = 1)")  # a value predicate: the merged rows decide
    expected = _gone(rows, lambda r: not (r["n"] >= 140 and ((r["s"] or "").startswith("j") or r["p"] == 1)))
    assert report.rows_deleted == len(rows) - len(expected) > 0
    assert report.commit_kind == "APPEND" and report.snapshot_id == before + 1
    assert report.read_snapshot_id == before
    assert java_newest.snapshot(path)["commit_kind"] == "APPEND"
    assert_same_rows(java_newest.read(path), _table(expected), what="Java reads our -D records")
    assert_same_rows(read_table(path), _table(expected), what="we read our -D records")

    assert delete(path, "n >= 140 AND p = 1").rows_deleted == 0  # already gone: nothing matches, no commit
    assert PaimonTable(path).snapshot().id == report.snapshot_id

    java_newest.compact(path, full=True)
    assert_same_rows(read_table(path), _table(expected), what="we read Java's compaction of our -D records")
    java_newest.write(path, _batch([41, 44], tag="z"))  # Java writes on top: the keys come back
    expected.update(_rows(_batch([41, 44], tag="z")))
    report = delete(path, "id IN (3, 41)")
    assert report.rows_deleted == 2
    expected = _gone(expected, lambda r: r["id"] not in (3, 41))
    compact_table(path)
    assert_same_rows(java_newest.read(path), _table(expected), what="Java reads our compaction of our deletes")
    assert_same_rows(read_table(path), _table(expected))


@pytest.mark.parametrize("bucket", ["2", "-1"], ids=["fixed", "dynamic"])
def test_deletion_vector_table_hides_rows_after_compaction(tmp_path, java_newest, bucket):
    """On a DV table the -D level-0 file is invisible to batch reads until compaction - in Java and here."""
    path = str(create_table(tmp_path / "wh" / "db.db" / "dv", ARROW,
                            {"bucket": bucket, "deletion-vectors.enabled": "true",
                             "dynamic-bucket.target-row-num": "4"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(30)))
    compact_table(path)
    rows = _rows(_batch(range(30)))
    report = delete(path, "id < 10")
    assert report.rows_deleted == 10 and report.commit_kind == "APPEND"
    assert_same_rows(java_newest.read(path), _table(rows), what="Java: the -D level 0 is not read yet")
    assert_same_rows(read_table(path), _table(rows), what="ours: the -D level 0 is not read yet")
    assert delete(path, "id < 10").rows_deleted == 10  # the merged view still shows them: Paimon deletes again
    java_newest.compact(path, full=True)
    expected = _gone(rows, lambda r: r["id"] >= 10)
    assert_same_rows(read_table(path), _table(expected), what="we read Java's compaction of our -D records")
    assert_same_rows(java_newest.read(path), _table(expected))
    delete(path, "id = 20")
    compact_table(path)
    expected.pop((20, 2))
    assert_same_rows(java_newest.read(path), _table(expected), what="Java reads our compaction of our -D")
    assert_same_rows(read_table(path), _table(expected))


@pytest.mark.parametrize("options", [
    {"sequence.field": "n"},  # the -D carries the row's own sequence field: it wins by its sequence number
    {"merge-engine": "partial-update", "partial-update.remove-record-on-delete": "true"},
    {"merge-engine": "aggregation", "fields.n.aggregate-function": "sum",
     "aggregation.remove-record-on-delete": "true"},
], ids=["sequence-field", "partial-update", "aggregation"])
def test_merge_engines_that_remove_on_delete(tmp_path, java_newest, options):
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "1", **options},
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(10)))
    upsert_arrow(path, _batch(range(5, 12), tag="b"))
    before = java_newest.read(path)
    report = delete(path, "n > 40")
    expected = before.filter(pa.array([n <= 40 for n in before.column("n").to_pylist()]))
    assert report.rows_deleted == before.num_rows - expected.num_rows > 0
    assert_same_rows(java_newest.read(path), expected, what="Java reads our -D records")
    assert_same_rows(read_table(path), expected)
    java_newest.compact(path, full=True)
    assert_same_rows(read_table(path), expected, what="we read Java's compaction")


@pytest.mark.parametrize("options,error,what", [
    ({"merge-engine": "first-row"}, UnsupportedFeatureError, "first-row"),
    ({"merge-engine": "partial-update"}, InvalidOptionError, "partial-update.remove-record-on-delete"),
    ({"merge-engine": "partial-update", "partial-update.remove-record-on-sequence-group": "g",
      "fields.g.sequence-group": "s"}, UnsupportedFeatureError, "remove-record-on-sequence-group"),
    ({"merge-engine": "aggregation"}, InvalidOptionError, "aggregation.remove-record-on-delete"),
    ({"ignore-delete": "true"}, InvalidOptionError, "ignore-delete"),
    ({"changelog-producer": "input"}, Exception, "changelog-producer"),
], ids=["first-row", "partial-update", "sequence-group", "aggregation", "ignore-delete", "changelog"])
def test_refused_by_name(tmp_path, options, error, what):
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "1", **options},
                            primary_keys=["id", "p"]))
    if "changelog-producer" not in options:
        upsert_arrow(path, _batch(range(3)))
    with pytest.raises(error, match=what):
        delete(path, "id = 1")


def test_upsert_racing_the_delete_is_re_planned(tmp_path, monkeypatch):
    """A commit between the delete's read and its commit: the written files are removed, the delete re-reads
    the new snapshot (a row the racing upsert made to match is deleted too) and commits once."""
    from paimon_codec.writing import pk_delete

    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "2"}, primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(20)))
    real = pk_delete.matching_rows
    calls = []

    def racing(plan):
        calls.append(plan.snapshot_id)
        rows = real(plan)
        if len(calls) == 1:  # another writer commits after our read
            upsert_arrow(path, pa.table({"id": pa.array([1], pa.int32()), "p": pa.array([1], pa.int32()),
                                         "s": ["x"], "n": pa.array([1000], pa.int64())}))
        return rows
    monkeypatch.setattr(pk_delete, "matching_rows", racing)
    report = delete(path, "n >= 100")
    assert report.attempts == 2 and calls == [1, 2]
    assert report.read_snapshot_id == 2 and report.snapshot_id == 3
    assert report.rows_deleted == 1 + sum(1 for i in range(20) if i * 7 >= 100)
    expected = {k: r for k, r in _rows(_batch(range(20))).items() if r["n"] < 100 and k != (1, 1)}
    assert_same_rows(read_table(path), _table(expected))
    table = PaimonTable(path)
    live = {f.entry.file.file_name for f in table.live_files(table.snapshot())}
    on_disk = {n for b in (0, 1) for n in os.listdir(os.path.join(path, f"bucket-{b}"))}
    assert on_disk == live  # the lost attempt's level-0 files are gone


def test_cli_delete_primary_key_table(tmp_path, capsys):
    from paimon_codec.cli import main

    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "1"}, primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(10)))
    assert main(["delete", path, "--where", "id < 4", "--local", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows_deleted"] == 4 and report["commit_kind"] == "APPEND" and report["snapshot_id"] == 2
    assert_same_rows(read_table(path), _table(_rows(_batch(range(4, 10)))))


def test_spark_delete_on_primary_key_table(tmp_path, spark):  # noqa: F811
    from paimon_codec.spark import delete as spark_delete

    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, {"bucket": "-1"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(12)))
    report = spark_delete(spark, path, "s IS NULL OR id = 7")
    assert report.rows_deleted == 4 and report.commit_kind == "APPEND"  # ids 0, 5, 10 (s is NULL) and 7
    assert_same_rows(read_table(path), _table(_rows(_batch([i for i in range(12) if i % 5 and i != 7]))))


PYPAIMON_LAYOUTS = {
    "fixed-partitioned": ({"bucket": "3"}, ["p"]),
    "fixed": ({"bucket": "2"}, []),
    "dynamic-partitioned": ({"bucket": "-1", "dynamic-bucket.target-row-num": "7"}, ["p"]),
    "dynamic": ({"bucket": "-1", "dynamic-bucket.target-row-num": "9"}, []),
    "sequence-field": ({"bucket": "2", "sequence.field": "n"}, ["p"]),
}


@pytest.mark.parametrize("layout", list(PYPAIMON_LAYOUTS))
def test_pypaimon_reads_our_minus_d_records_and_compaction(tmp_path, pypaimon21, layout):
    """pypaimon 2.1 merges our level-0 -D files (written by ``delete``) as Java does, and reads our full
    compaction of them; the expected rows come from the model (rows written minus the deleted keys).  The merge
    engines whose deletes need ``*.remove-record-on-delete`` are not here: pypaimon 2.1 refuses those options."""
    options, parts = PYPAIMON_LAYOUTS[layout]
    path = str(create_table(tmp_path / "wh" / "db.db" / "t", ARROW, options, partition_keys=parts,
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(30)))
    upsert_arrow(path, _batch(range(20, 36), tag="b"))
    rows = {**_rows(_batch(range(30))), **_rows(_batch(range(20, 36), tag="b"))}
    report = delete(path, "id < 6 OR (n >= 140 AND p = 1)")
    expected = _gone(rows, lambda r: not (r["id"] < 6 or (r["n"] >= 140 and r["p"] == 1)))
    assert report.rows_deleted == len(rows) - len(expected) > 0
    assert_same_rows(read_table(path), _table(expected), what="we read our -D records")
    assert_same_rows(pypaimon21.read(path), _table(expected), what="pypaimon reads our -D records")
    compact_table(path)
    assert_same_rows(pypaimon21.read(path), _table(expected), what="pypaimon reads our compaction")
    delete(path, "id = 33")
    expected = _gone(expected, lambda r: r["id"] != 33)
    assert_same_rows(pypaimon21.read(path), _table(expected), what="pypaimon reads a -D over our compaction")


@pytest.mark.parametrize("bucket", ["2", "-1"], ids=["fixed", "dynamic"])
def test_pypaimon_reads_our_deletion_vector_primary_key_table(tmp_path, pypaimon21, bucket):
    """A primary-key table with deletion vectors: our -D records stay invisible until our compaction (as in
    Paimon), then pypaimon reads exactly the remaining rows."""
    path = str(create_table(tmp_path / "wh" / "db.db" / "dv", ARROW,
                            {"bucket": bucket, "deletion-vectors.enabled": "true",
                             "dynamic-bucket.target-row-num": "4"}, partition_keys=["p"],
                            primary_keys=["id", "p"]))
    upsert_arrow(path, _batch(range(24)))
    compact_table(path)
    rows = _rows(_batch(range(24)))
    delete(path, "id < 8")
    assert_same_rows(pypaimon21.read(path), _table(rows), what="pypaimon: the -D level 0 is not read yet")
    compact_table(path)
    expected = _gone(rows, lambda r: r["id"] >= 8)
    assert_same_rows(pypaimon21.read(path), _table(expected), what="pypaimon reads our compaction")


@pytest.mark.parametrize("racer", ["compaction", "delete"])
def test_delete_racing_compaction_or_delete(tmp_path, monkeypatch, racer):
    """Our compaction or another delete commits between the delete's read and its commit: with no retries
    the delete fails cleanly (CommitConflictError, its files gone, the winner's rows); with retries it
    re-plans on the winner's snapshot and both take effect."""
    from paimon_codec.errors import CommitConflictError
    from paimon_codec.maintenance.orphans import find_orphans
    from paimon_codec.writing import pk_delete

    real = pk_delete.matching_rows

    def table_with_racer(name: str) -> str:
        path = str(create_table(tmp_path / name / "db.db" / "t", ARROW, {"bucket": "-1", "dynamic-bucket."
                                "target-row-num": "6"}, partition_keys=["p"], primary_keys=["id", "p"]))
        upsert_arrow(path, _batch(range(24)))
        upsert_arrow(path, _batch(range(20, 30), tag="b"))
        calls: list[int] = []

        def racing(plan):
            rows = real(plan)
            calls.append(1)
            if len(calls) == 1:
                compact_table(path) if racer == "compaction" else delete(path, "id >= 25")
            return rows
        monkeypatch.setattr(pk_delete, "matching_rows", racing)
        return path

    rows = {**_rows(_batch(range(24))), **_rows(_batch(range(20, 30), tag="b"))}
    winner = rows if racer == "compaction" else _gone(rows, lambda r: r["id"] < 25)
    path = table_with_racer("lost")
    with pytest.raises(CommitConflictError):
        delete(path, "id < 4 OR id = 27", conflict_retries=0)
    assert not find_orphans(path, None).orphans  # the lost attempt's data and hash files are gone
    assert_same_rows(read_table(path), _table(winner))

    path = table_with_racer("won")
    report = delete(path, "id < 4 OR id = 27")
    assert report.attempts == 2 and report.read_snapshot_id == 3 and report.snapshot_id == 4
    assert report.rows_deleted == (5 if racer == "compaction" else 4)  # 27 is already gone after the delete
    assert_same_rows(read_table(path), _table(_gone(winner, lambda r: not (r["id"] < 4 or r["id"] == 27))))
    assert not find_orphans(path, None).orphans
