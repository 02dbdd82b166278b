"""Data-evolution tables (row tracking + partial-column files) read exactly as their writers read them.

Tables are written by newest Paimon Java (``withWriteType`` + ``assignFirstRowId``, the way Paimon's own
tests write partial-column updates; Java refuses deletion vectors on such tables) and by pypaimon 2.1
(``update_by_arrow_with_row_id`` and ``delete_by_row_id``, which keeps deletion vectors for the oldest
file of a row-id range).  Each scan is compared row for row with the writer's own read of the same
snapshot and predicate.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pyarrow as pa
import pytest
from oracles.java_newest import JavaError
from oracles.pypaimon21 import PyPaimon
from spark_fixtures import spark  # noqa: F401

from paimon_codec.errors import CorruptDataError, UnsupportedTypeError
from paimon_codec.planning.data_evolution import plan_row_id_groups
from paimon_codec.planning.plan import as_predicate, plan_scan
from paimon_codec.reading.arrow_filter import filter_table
from paimon_codec.reading.local_read import read_table
from paimon_codec.reading.read import read_plan_locally
from paimon_codec.table import PaimonTable
from paimon_codec.table.manifest import DataFileMeta, ManifestEntry
from paimon_codec.table.table import LiveDataFile
from paimon_codec.types import parse_row_type

DE_OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}


def _sorted_rows(table: pa.Table, names: list[str]) -> list[tuple]:
    rows = [tuple(r[n] for n in names) for r in table.to_pylist()]
    return sorted(rows, key=lambda r: tuple((v is None, v) for v in r))


def _ours(path: str, where=None, snapshot_id: int | None = None) -> pa.Table:
    return read_table(path, where, snapshot_id)


# -- newest Paimon Java --------------------------------------------------------------------------------
def _java_table(java, tmp_path: Path, name: str, fields: list, steps: list, *, partition_keys=(),
                options=None, read: bool = True) -> dict:
    """Newest Paimon Java (the session's oracle) writes a data-evolution table step by step: a write
    ``{"cols", "rows", "first_row_id"}`` (``first_row_id`` set = a partial-column update of the rows from
    that id), several writes in one commit (``{"together": [...]}``) or a schema change (``rename``,
    ``drop``, ``add``, ``retype``).  Returns ``{"path", "fields", "rows"}`` of Java's read of the latest
    snapshot (``rows`` None when ``read`` is false)."""
    path = java.create_table(tmp_path / "wh", f"db.{name}", ", ".join(f"{n} {t}" for n, t in fields),
                             partition_keys=partition_keys, options=dict(DE_OPTIONS, **(options or {})))
    for step in steps:
        if "rename" in step:
            java.alter(path, [{"op": "rename", "from": step["rename"][0], "to": step["rename"][1]}])
        elif "drop" in step:
            java.alter(path, [{"op": "drop", "name": step["drop"]}])
        elif "add" in step:
            java.alter(path, [{"op": "add", "name": step["add"][0], "type": step["add"][1]}])
        elif "retype" in step:
            java.alter(path, [{"op": "type", "name": step["retype"][0], "type": step["retype"][1]}])
        else:
            java.write_partial(path, [(pa.table({c: [r[i] for r in w["rows"]] for i, c in enumerate(w["cols"])}),
                                       w.get("first_row_id")) for w in step.get("together", [step])])
    if not read:
        return {"path": path, "fields": [f.name for f in parse_row_type(java.schema(path))], "rows": None}
    table = java.read(path)
    return {"path": path, "fields": table.column_names, "rows": [list(r.values()) for r in table.to_pylist()]}


JAVA_FIELDS = [["id", "INT"], ["name", "STRING"], ["score", "DOUBLE"]]
# (Java's writer takes a partial write type only on unpartitioned tables: partitions come from pypaimon below)
JAVA_STEPS = [
    {"cols": ["id", "name", "score"], "rows": [[1, "a", 1.0], [2, "b", 2.0], [3, "c", None]]},
    {"cols": ["id", "name", "score"], "rows": [[4, "d", 4.0], [5, "e", 5.0]]},
    # partial-column updates of row ids 0..2: score, then name, then score again (newest wins)
    {"cols": ["score"], "rows": [[10.0], [None], [30.0]], "first_row_id": 0},
    {"cols": ["name"], "rows": [["A"], ["B"], [None]], "first_row_id": 0},
    {"cols": ["score"], "rows": [[100.0], [200.0], [300.0]], "first_row_id": 0},
    # ids 3..4: a partial file, then a rename, then the renamed column written again
    {"cols": ["name"], "rows": [["D"], ["E"]], "first_row_id": 3},
    {"rename": ["name", "label"]},
    {"cols": ["label"], "rows": [["DD"], [None]], "first_row_id": 3},
    {"cols": ["id", "label", "score"], "rows": [[6, "f", 6.0]]},
    # a first write of some columns only: the others are null until written
    {"cols": ["id"], "rows": [[7], [8]]},
    {"cols": ["score"], "rows": [[70.0], [None]], "first_row_id": 6},
    {"cols": ["id"], "rows": [[9]]},  # a range of one partial file
]


@pytest.fixture(scope="module")
def java_table(tmp_path_factory, java_newest) -> dict:
    return _java_table(java_newest, tmp_path_factory.mktemp("de_java"), "t", JAVA_FIELDS, JAVA_STEPS)


def test_java_partial_column_updates_read_like_java(java_table, table_location):
    names = java_table["fields"]
    assert names == ["id", "label", "score"]
    ours = _ours(table_location(java_table["path"]))  # local disk, and a copy on the S3 server
    assert ours.column_names == names
    assert _sorted_rows(ours, names) == sorted(map(tuple, java_table["rows"]),
                                                key=lambda r: tuple((v is None, v) for v in r))
    # the updates really are merged: ids 0..2 from 4 files (the oldest score file hidden by the newest),
    # ids 3..4 from 2 (the first name file hidden by the renamed one), ids 6..7 from 2; ids 5 and 8 stand
    # alone (8 in a file of one column)
    plan = plan_scan(java_table["path"])
    assert sorted((g.label, len(g.files)) for g in plan.groups) == [
        ("row ids 0..2", 3), ("row ids 3..4", 2), ("row ids 6..7", 2)]
    assert len(plan.tasks) == 2


@pytest.mark.parametrize("where", ["score > 150", "label IS NULL", "id = 4 OR label = 'A'", "score IS NULL"])
def test_java_predicates(java_table, where):
    names = java_table["fields"]
    ours = _ours(java_table["path"], where)
    row_type = PaimonTable(java_table["path"]).schema.fields
    java = filter_table(pa.table({n: [r[i] for r in java_table["rows"]] for i, n in enumerate(names)},
                                 schema=pa.schema([(n, ours.schema.field(n).type) for n in names])),
                        as_predicate(where, row_type), row_type)
    assert _sorted_rows(ours, names) == _sorted_rows(java, names)


def test_spark_scan_merges_row_id_ranges(spark, java_table):  # noqa: F811
    from paimon_codec.spark import scan

    names = java_table["fields"]
    for native in (True, False):  # single files by Spark's own reader, and by pyarrow
        df, _ = scan(spark, java_table["path"], native=native, driver_rows=0 if native else 1 << 30)
        got = pa.Table.from_pylist([r.asDict() for r in df.collect()])
        assert _sorted_rows(got, names) == sorted(map(tuple, java_table["rows"]),
                                                   key=lambda r: tuple((v is None, v) for v in r))
    df, _ = scan(spark, java_table["path"], "score > 150")
    assert sorted(r["id"] for r in df.collect()) == [2, 3]  # scores 200 and 300 by the newest file


def test_java_partial_files_across_type_change_drop_and_re_add(tmp_path, java_newest):
    """Columns resolve by field id through each file's schema: a widened column is cast, a dropped and
    re-added column is not revived from the files that wrote the old one."""
    steps = [{"cols": ["id", "n", "s"], "rows": [[1, 10, "a"], [2, 20, "b"], [3, None, "c"]]},
             {"cols": ["n"], "rows": [[11], [None], [33]], "first_row_id": 0},
             {"retype": ["n", "BIGINT"]},
             {"cols": ["id", "n", "s"], "rows": [[4, 2 ** 40, "d"], [5, 50, "e"]]},
             {"cols": ["n"], "rows": [[2 ** 41], [None]], "first_row_id": 3},
             {"drop": "s"},
             {"add": ["s", "STRING"]},
             {"cols": ["s"], "rows": [["X"], [None]], "first_row_id": 3},
             {"cols": ["id"], "rows": [[6]]}]
    out = _java_table(java_newest, tmp_path, "evolved", [["id", "INT"], ["n", "INT"], ["s", "STRING"]], steps)
    names = out["fields"]
    assert names == ["id", "n", "s"]
    ours = _ours(out["path"])
    assert ours.schema.field("n").type == pa.int64()
    assert _sorted_rows(ours, names) == sorted(map(tuple, out["rows"]), key=lambda r: tuple((v is None, v) for v in r))
    assert [r[2] for r in sorted(out["rows"])][:3] == [None, None, None]  # the old s is gone for ids 1..3


def test_partially_overlapping_row_id_ranges_are_refused(tmp_path, java_newest):
    steps = [{"cols": ["id", "name"], "rows": [[1, "a"], [2, "b"], [3, "c"]]},
             {"cols": ["name"], "rows": [["B"], ["C"]], "first_row_id": 1},
             {"cols": ["name"], "rows": [["X"], ["Y"]], "first_row_id": 2}]
    out = _java_table(java_newest, tmp_path, "overlap", [["id", "INT"], ["name", "STRING"]], steps, read=False)
    with pytest.raises(UnsupportedTypeError, match="partially overlapping row-id ranges"):
        plan_scan(out["path"])


def test_one_column_written_twice_with_one_sequence_number_is_refused(tmp_path, java_newest):
    steps = [{"cols": ["id", "name"], "rows": [[1, "a"], [2, "b"]]},
             {"together": [{"cols": ["name"], "rows": [["X"], ["Y"]], "first_row_id": 0},
                           {"cols": ["name"], "rows": [["P"], ["Q"]], "first_row_id": 0}]}]
    out = _java_table(java_newest, tmp_path, "tie", [["id", "INT"], ["name", "STRING"]], steps, read=False)
    with pytest.raises(UnsupportedTypeError, match="write column 'name' with the same sequence number"):
        plan_scan(out["path"])


def test_partition_columns_written_by_every_part_of_one_commit_read_like_java(tmp_path, java_newest):
    """Parts of one commit, each with the partition column (as paimon-cpp's corpus tables are written): the
    files share a sequence number, and the partition column's value is the partition's in each."""
    steps = [{"together": [{"cols": ["k", "a"], "rows": [[1, "x"], [1, "y"]], "first_row_id": 0},
                           {"cols": ["k", "b"], "rows": [[1, 5], [1, None]], "first_row_id": 0}]}]
    out = _java_table(java_newest, tmp_path, "pt_parts", [["k", "INT"], ["a", "STRING"], ["b", "INT"]], steps,
                      partition_keys=["k"])
    assert sorted(map(tuple, out["rows"]), key=str) == [(1, "x", 5), (1, "y", None)]
    assert _sorted_rows(_ours(out["path"]), out["fields"]) == _sorted_rows(java_newest.read(out["path"]), out["fields"])


def test_predicate_on_a_column_whose_type_changed_is_refused(tmp_path, java_newest):
    """Paimon prunes a row-id range by the statistics of the file that wrote a column, read uncast: after
    STRING -> INT, ``c < 150`` skips rows 100..140 (Java 1.4.2 returns none of them); we refuse by name."""
    steps = [{"cols": ["id", "c"], "rows": [[i, str(100 + 10 * i)] for i in range(5)]}, {"retype": ["c", "INT"]}]
    out = _java_table(java_newest, tmp_path, "uncast", [["id", "INT"], ["c", "STRING"]], steps)
    assert sorted(r[1] for r in out["rows"]) == [100, 110, 120, 130, 140]
    assert java_newest.read(out["path"], where="c < 150").num_rows < 5  # Paimon's own answer misses rows
    with pytest.raises(UnsupportedTypeError, match="statistics uncast"):
        _ours(out["path"], "c < 150")
    assert _ours(out["path"], "c IS NOT NULL").num_rows == java_newest.read(out["path"], where="c IS NOT NULL").num_rows
    assert _ours(out["path"], "id < 2").num_rows == 2  # a column of its written type still filters


@pytest.mark.parametrize("fmt", ["parquet", "orc", "avro"])
def test_a_lone_file_without_a_not_null_column_reads_as_in_java(tmp_path, java_newest, fmt):
    """A first write of some columns only leaves a NOT NULL column unwritten: Java's Parquet read fails
    ("Required column is missing in data file"), its ORC / Avro reads hand out NULLs.  Ours returned NULLs
    for Parquet too; it now fails naming the column there."""
    out = _java_table(java_newest, tmp_path, "nn", [["id", "INT"], ["v", "STRING NOT NULL"]],
                      [{"cols": ["id"], "rows": [[1], [2]]}], options={"file.format": fmt}, read=False)
    if fmt == "parquet":
        with pytest.raises(JavaError, match="Required column is missing"):
            java_newest.read(out["path"])
        with pytest.raises(CorruptDataError, match="NOT NULL column 'v' is written by no file"):
            _ours(out["path"])
    else:
        assert _sorted_rows(_ours(out["path"]), ["id", "v"]) == _sorted_rows(java_newest.read(out["path"]), ["id", "v"])


@pytest.mark.parametrize("name", ["data-1.blob", "data-1.video", "data-1.vector.lance"])
def test_lone_blob_video_and_vector_store_files_are_refused(tmp_path, name):
    """A .blob file is read with the normal file of its row ids (test_table_blob.py), never alone."""
    meta = DataFileMeta(name, 10, 2, 0, 0, 1, 1, (), None, None, 0, None, b"", b"", first_row_id=0,
                        write_cols=("b",))
    f = LiveDataFile(ManifestEntry(0, b"", 0, -1, meta), (), str(tmp_path / name), None, None)
    with pytest.raises(UnsupportedTypeError, match="(video|vector-store) files of data-evolution tables|blob files "
                       "without a normal data file"):
        plan_row_id_groups(None, None, [f], None, SimpleNamespace(semantics="paimon"))


# -- pypaimon 2.1 --------------------------------------------------------------------------------------
UPDATE = """
t = table(kwargs["path"])
wb = t.new_batch_write_builder()
u = wb.new_update().with_update_type(kwargs["cols"])
data = {"_ROW_ID": pa.array(kwargs["row_ids"], pa.int64())}
for c in kwargs["cols"]:
    data[c] = kwargs["values"][c]
msgs = u.update_by_arrow_with_row_id(pa.table(data))
c = wb.new_commit(); c.commit(msgs); c.close()
result = type(u.new_update_by_row_id()).__name__
"""
DELETE = """
t = table(kwargs["path"])
wb = t.new_batch_write_builder()
msgs = wb.new_update().delete_by_row_id(kwargs["row_ids"])
c = wb.new_commit(); c.commit(msgs); c.close()
"""


@pytest.fixture(scope="module", params=[False, True], ids=["python-writer", "rust-writer"])
def pypaimon_table(request, tmp_path_factory):
    """A partitioned data-evolution table with deletion vectors: whole-row commits, partial-column updates
    (one column twice), deletes before and after updates, by pypaimon's Python or its Rust
    (``write.native.enabled``) writer and updater; yields ``(oracle, path, snapshot ids)``."""
    native = request.param
    with PyPaimon() as oracle:
        options = dict(DE_OPTIONS, **{"deletion-vectors.enabled": "true", "write.native.enabled": str(native).lower()})
        path = oracle.create_table(tmp_path_factory.mktemp("de_py"), "t",
                                   "id INT, name STRING, score DOUBLE, dt STRING", partition_keys=["dt"],
                                   options=options)
        snapshots = []

        def write(rows):
            snapshots.append(oracle.write(path, pa.table(rows, schema=pa.schema(
                [("id", pa.int32()), ("name", pa.string()), ("score", pa.float64()), ("dt", pa.string())])),
                native=native))

        def update(row_ids, **values):
            updater = oracle.run(UPDATE, path=path, cols=list(values), row_ids=row_ids, values=values)
            assert updater == ("NativeTableUpdateByRowId" if native else "TableUpdateByRowId")
            snapshots.append(PaimonTable(path).snapshot().id)

        def delete(row_ids):
            oracle.run(DELETE, path=path, row_ids=row_ids)
            snapshots.append(PaimonTable(path).snapshot().id)

        write({"id": [1, 2, 3, 4], "name": ["a", "b", "c", "d"], "score": [1.0, 2.0, 3.0, 4.0],
               "dt": ["x", "x", "y", "y"]})                                   # row ids 0,1 (x) and 2,3 (y)
        write({"id": [5, 6, 7], "name": ["e", "f", "g"], "score": [5.0, None, 7.0], "dt": ["x"] * 3})  # 4..6
        delete([6])                                   # a deletion vector on a file of its own
        update([0, 1, 5], score=[10.0, 20.0, 60.0])
        update([1, 4, 5], name=["B", "E", None])
        update([0, 2], score=[100.0, 300.0])          # score of ids 0..1 a second time
        delete([1, 2])                                # deletion vectors on merged ranges
        update([3], name=["D"])
        write({"id": [8], "name": ["h"], "score": [8.0], "dt": ["y"]})
        delete([4, 5])                                # every row of a merged range
        yield oracle, path, snapshots


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
def test_pypaimon_every_snapshot_reads_like_pypaimon(pypaimon_table):
    oracle, path, snapshots = pypaimon_table
    names = ["id", "name", "score", "dt"]
    assert len(snapshots) == 10
    for sid in snapshots:
        ours = _ours(path, snapshot_id=sid)
        theirs = oracle.read(path, snapshot_id=sid)
        assert _sorted_rows(ours, names) == _sorted_rows(theirs, names), f"snapshot {sid}"


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
@pytest.mark.parametrize("where", ["dt = 'x'", "dt = 'y'", "score >= 100", "name IS NULL", "id IN (1, 4, 7)"])
def test_pypaimon_predicates(pypaimon_table, where):
    oracle, path, _ = pypaimon_table
    names = ["id", "name", "score", "dt"]
    assert _sorted_rows(_ours(path, where), names) == _sorted_rows(oracle.read(path, where=where), names)


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
def test_partition_predicate_prunes_whole_row_id_ranges(pypaimon_table):
    _, path, _ = pypaimon_table
    plan = plan_scan(path, "dt = 'y'")
    y_files = [f.path for f in PaimonTable(path).data_files() if f"{os.sep}dt=y{os.sep}" in f.path]
    read = [f.path for g in plan.groups for f in g.files] + [t.path for t in plan.tasks]
    assert plan.groups and set(read) <= set(y_files)
    assert plan.report.files_skipped_by_partition == plan.report.files_total - len(y_files)


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
def test_pypaimon_plan_uses_the_anchor_deletion_vector(pypaimon_table):
    _, path, _ = pypaimon_table
    plan = plan_scan(path)
    # the ranges of ids 1, 2 and of ids 3, 4 lose one row each (three files read per range, each file's
    # position 0 or 1); ids 5, 6, 7 lost every row: no read at all
    assert len(plan.groups) == 2
    assert [[len(f.selection) for f in g.files] for g in plan.groups] == [[1, 1, 1], [1, 1, 1]]
    assert plan.report.files_skipped_by_deletion_vectors == 3


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
def test_spark_scan_of_pypaimon_table(spark, pypaimon_table):  # noqa: F811
    from paimon_codec.spark import scan

    oracle, path, _ = pypaimon_table
    names = ["id", "name", "score", "dt"]
    df, _ = scan(spark, path)
    got = pa.Table.from_pylist([r.asDict() for r in df.collect()])
    assert _sorted_rows(got, names) == _sorted_rows(oracle.read(path), names)


@pytest.mark.pypaimon  # PyPaimon started by the test or pypaimon_table, not the pypaimon21 fixture
def test_tables_without_data_evolution_are_planned_as_before(tmp_path):
    with PyPaimon() as oracle:
        path = oracle.create_table(tmp_path, "t", "id INT, v STRING", options={"row-tracking.enabled": "true"})
        oracle.write(path, pa.table({"id": pa.array([1, 2], pa.int32()), "v": ["a", "b"]}))
        oracle.write(path, pa.table({"id": pa.array([3], pa.int32()), "v": ["c"]}))
        plan = plan_scan(path)
        assert not plan.groups and len(plan.tasks) == 2
        assert _sorted_rows(read_plan_locally(plan), ["id", "v"]) == _sorted_rows(oracle.read(path), ["id", "v"])
    assert os.path.isdir(path)


def test_java_partial_files_across_casts_paimon_allows(tmp_path, java_newest):
    """Row-id ranges whose files were written under TIMESTAMP(3) / BOOLEAN / STRING and read as STRING /
    INT / BYTES (the casts of tests/test_read_evolution_casts.py), merged by row id as Java merges them."""
    import datetime

    t = datetime.datetime
    steps = [{"cols": ["id", "ts", "b", "s"], "rows": [[1, t(2024, 1, 2, 3, 4, 5, 6000), True, "x"],
                                                     [2, t(1969, 12, 31, 23, 59, 59), False, "yz"],
                                                     [3, None, None, None]]},
             {"cols": ["ts", "b"], "rows": [[t(2000, 1, 1), None], [None, True], [t(1999, 9, 9, 9, 9, 9, 90000),
                                                                                 False]], "first_row_id": 0},
             {"retype": ["ts", "STRING"]},
             {"retype": ["b", "INT"]},
             {"retype": ["s", "BYTES"]},
             {"cols": ["id", "ts", "b", "s"], "rows": [[4, "free text", 7, b"\x01"], [5, None, -1, None]]},
             {"cols": ["b"], "rows": [[70], [None]], "first_row_id": 3},
             {"cols": ["ts"], "rows": [["late"], [None]], "first_row_id": 3}]
    out = _java_table(java_newest, tmp_path, "casts", [["id", "INT"], ["ts", "TIMESTAMP(3)"], ["b", "BOOLEAN"],
                                                       ["s", "STRING"]], steps)
    names = out["fields"]
    ours = _ours(out["path"])
    assert ours.schema.field("ts").type == pa.string() and ours.schema.field("s").type == pa.binary()
    assert _sorted_rows(ours, names) == sorted(map(tuple, out["rows"]), key=lambda r: tuple((v is None, v) for v in r))
    assert any(isinstance(r[1], str) and r[1].startswith("1999-09-09 09:09:09.09") for r in out["rows"])
