"""BLOB columns (data-evolution tables, values in ``.blob`` files) read exactly as their writers read them.

Tables are written by Paimon Java 1.4.2 (``Blob.fromData`` values; a small ``blob.target-file-size`` rolls
several blob files per range; partial-column updates of the blob column and of a normal column) and by
pypaimon 2.1 (``blob-field`` on a ``large_binary`` column).  Every read is compared with the writer's own
read: whole rows, projections, predicates on other columns, and the descriptor form under
``blob-as-descriptor``.  Damaged blob files are refused, never read into other values.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import pyarrow as pa
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.cli import main
from paimon_codec.errors import ChecksumMismatchError, UnsupportedTypeError
from paimon_codec.evolution.file_evolution import arrow_schema
from paimon_codec.planning.blob_columns import blob_bunches
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.blob_file import parse_blob_descriptor
from paimon_codec.reading.local_read import read_table
from paimon_codec.reading.read import read_tasks_locally
from paimon_codec.table import PaimonTable
from paimon_codec.table.manifest import DataFileMeta, ManifestEntry
from paimon_codec.table.table import LiveDataFile
from paimon_codec.types import DataType, Field, RowType

DE_OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
ROWS = [{"id": i, "name": f"n{i}", "pic": None if i % 3 == 0 else bytes([i]) * (i * 7)} for i in range(8)]
ROWS[4]["pic"] = b""  # an empty blob is a record of its own, not a null


def _rows(table: pa.Table) -> list[dict]:
    return sorted(table.to_pylist(), key=lambda r: r.get("id", -1) if r.get("id") is not None else -1)


def _projected(path: str, columns: list[str], where=None) -> pa.Table:
    """Our read of ``columns`` only (what a Spark scan's column pruning asks the readers for)."""
    plan = plan_scan(path, where)
    full = arrow_schema(plan.row_type)
    return read_tasks_locally(plan.tasks, pa.schema([full.field(c) for c in columns]), plan.groups)


def _local(uri: str) -> str:
    for prefix in ("file://", "file:"):
        if uri.startswith(prefix):
            return "/" + uri[len(prefix):].lstrip("/")
    return uri


@pytest.fixture(scope="module")
def java_blob_table(tmp_path_factory, java_newest) -> str:
    """Java 1.4.2: 8 rows over several blob files, then partial updates of ``pic`` (rows 0..4, one newer
    blob file over two older ones) and of ``name`` (rows 0..7, a newer normal file)."""
    wh = tmp_path_factory.mktemp("blob_java") / "wh"
    path = java_newest.create_table(wh, "db.t", "id INT, name STRING, pic BLOB",
                                    options=dict(DE_OPTIONS, **{"blob.target-file-size": "60 b"}))
    java_newest.write(path, pa.Table.from_pylist(ROWS, schema=pa.schema(
        [("id", pa.int32()), ("name", pa.string()), ("pic", pa.binary())])))
    # (Java writes no blob column alone: a partial write of the blob column takes a normal column along)
    java_newest.alter(path, [{"op": "set", "key": "blob.target-file-size", "value": "40 b"}])
    java_newest.write_partial(path, [(pa.table({
        "name": [f"m{i}" if i % 2 else None for i in range(8)],
        "pic": pa.array([b"new0", None, b"", b"new3" * 6, None, b"x", b"new6" * 9, None], pa.binary())}), 0)])
    java_newest.write_partial(path, [(pa.table({"name": [f"k{i}" if i % 3 else None for i in range(8)]}), 0)])
    return path


def test_java_blob_table_reads_like_java(java_blob_table, java_newest):
    ours = read_table(java_blob_table)
    theirs = java_newest.read(java_blob_table)
    assert ours.column_names == theirs.column_names == ["id", "name", "pic"]
    assert ours.schema.field("pic").type == pa.binary()
    assert _rows(ours) == _rows(theirs)
    # the updates are really merged: every blob from the newer blob files, names from the newest normal file
    got = {r["id"]: r for r in ours.to_pylist()}
    assert got[0]["pic"] == b"new0" and got[1]["pic"] is None and got[2]["pic"] == b""
    assert got[3]["pic"] == b"new3" * 6 and got[5]["pic"] == b"x" and got[7]["pic"] is None
    assert got[1]["name"] == "k1" and got[3]["name"] is None
    # one row-id range: the newest normal file for name, the oldest for id, the newer blob files (rolled at
    # 40 bytes) for pic; the first write's two blob files are hidden under them
    plan = plan_scan(java_blob_table)
    (group,) = plan.groups
    read_blobs = {f.path for f in group.files if f.file_format == "blob"}
    all_blobs = {f.path for f in PaimonTable(java_blob_table).data_files() if f.file_name.endswith(".blob")}
    assert len(read_blobs) >= 2 and len(all_blobs - read_blobs) == 2


# (Java 1.4.2 fails a read of the blob column alone - "Blob/vector-store files row count exceed the expect
# -1": its scan drops the normal files that give no read column; pypaimon reads it, compared below)
@pytest.mark.parametrize("projection", [["id", "pic"], ["name"], ["pic", "id"], ["name", "pic"]])
def test_java_blob_projection(java_blob_table, java_newest, projection):
    ours = _projected(java_blob_table, projection)
    theirs = java_newest.read(java_blob_table, projection=projection)
    assert ours.column_names == projection
    key = lambda r: tuple((v is None, v) for v in r.values())  # noqa: E731
    assert sorted(ours.to_pylist(), key=key) == sorted(theirs.to_pylist(), key=key)


@pytest.mark.parametrize("where", ["id >= 3", "name IS NULL", "id IN (0, 4, 7)"])
def test_java_blob_predicates_on_other_columns(java_blob_table, java_newest, where):
    ours = read_table(java_blob_table, where)
    theirs = java_newest.read(java_blob_table, where=where)
    assert _rows(ours) == _rows(theirs)
    assert ours.num_rows > 0


def test_java_blob_as_descriptor(java_blob_table, java_newest, tmp_path):
    """Under ``blob-as-descriptor`` a value is Paimon's serialized descriptor: same file, offset, length."""
    path = str(tmp_path / "t")
    shutil.copytree(java_blob_table, path)
    java_newest.alter(path, [{"op": "set", "key": "blob-as-descriptor", "value": "true"}])
    ours, theirs = _rows(read_table(path)), _rows(java_newest.read(path))
    assert [r["id"] for r in ours] == [r["id"] for r in theirs]
    for a, b in zip(ours, theirs, strict=True):
        if b["pic"] is None:
            assert a["pic"] is None
            continue
        assert a["pic"] == b["pic"]  # byte for byte (the table is opened by the same local path)
        ua, oa, la = parse_blob_descriptor(a["pic"])
        with open(_local(ua), "rb") as fh:  # and the descriptor points at the blob's bytes
            fh.seek(oa)
            assert fh.read(la) == _rows(read_table(java_blob_table))[a["id"]]["pic"]


def test_damaged_blob_record_is_refused(java_blob_table, tmp_path):
    path = tmp_path / "t"
    shutil.copytree(java_blob_table, path)
    (group,) = plan_scan(java_blob_table).groups  # a blob file the read uses (the hidden ones are not read)
    used = max((f.path for f in group.files if f.file_format == "blob"), key=lambda p: Path(p).stat().st_size)
    blob = path / Path(used).relative_to(java_blob_table)
    raw = bytearray(blob.read_bytes())
    raw[6] ^= 0xFF  # inside the first record's bytes
    blob.write_bytes(bytes(raw))
    with pytest.raises(ChecksumMismatchError, match="CRC-32"):
        read_table(str(path))


def test_inspect_blob_file(java_blob_table, capsys):
    blob = min(Path(java_blob_table).rglob("*.blob"), key=lambda p: p.stat().st_mtime)
    assert main(["inspect", str(blob), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "blob"
    s = out["structure"]
    assert s["rows"] == len(s["records"]) and s["nulls"] == sum(r["null"] for r in s["records"])
    assert s["index_offset"] + s["index_length"] + 5 == out["size"]


def test_blob_descriptor_field_still_refused(tmp_path, java_newest):
    path = java_newest.create_table(tmp_path / "wh", "db.d", "id INT, pic BLOB",
                                    options=dict(DE_OPTIONS, **{"blob-descriptor-field": "pic"}))
    with pytest.raises(UnsupportedTypeError):
        read_table(path)


def test_pypaimon_blob_table_reads_like_pypaimon(tmp_path, pypaimon21):
    code = '''
import pyarrow as pa
from pypaimon import Schema
cat = catalog(kwargs["wh"])
cat.create_database("db", True)
pa_schema = pa.schema([("id", pa.int32()), ("name", pa.string()), ("pic", pa.large_binary())])
options = dict(kwargs["options"], **{"blob-field": "pic", "blob.target-file-size": "60 b"})
cat.create_table("db.t", Schema.from_pyarrow_schema(pa_schema, options=options), False)
t = cat.get_table("db.t")
for start in (0, 8):
    ids = list(range(start, start + 8))
    commit_write(t, pa.table({"id": pa.array(ids, pa.int32()), "name": [f"n{i}" for i in ids],
                              "pic": pa.array([None if i % 3 == 0 else bytes([i]) * (i * 5) for i in ids],
                                              pa.large_binary())}), False)
result = None
'''
    wh = tmp_path / "wh"
    pypaimon21.run(code, wh=str(wh), options=DE_OPTIONS)
    path = str(wh / "db.db" / "t")
    theirs = pypaimon21.read(path)
    ours = read_table(path)
    assert _rows(ours) == [dict(r, pic=None if r["pic"] is None else bytes(r["pic"])) for r in _rows(theirs)]
    assert sum(f.file_name.endswith(".blob") for f in PaimonTable(path).data_files()) >= 4
    assert _rows(_projected(path, ["pic", "id"])) == [{"pic": r["pic"], "id": r["id"]} for r in _rows(ours)]
    key = lambda r: (r["pic"] is None, r["pic"])  # noqa: E731
    only_pic = sorted(_projected(path, ["pic"]).to_pylist(), key=key)
    assert only_pic == sorted(({"pic": None if r["pic"] is None else bytes(r["pic"])}
                               for r in pypaimon21.read(path, projection=["pic"]).to_pylist()), key=key)
    assert _rows(read_table(path, "id > 9")) == [r for r in _rows(ours) if r["id"] > 9]


def test_pypaimon_blob_table_with_deletes(tmp_path, pypaimon21):
    """Deletion vectors of the normal files pick their rows out of the blob bunches by position."""
    code = '''
import pyarrow as pa
from pypaimon import Schema
cat = catalog(kwargs["wh"])
cat.create_database("db", True)
pa_schema = pa.schema([("id", pa.int32()), ("pic", pa.large_binary())])
options = dict(kwargs["options"], **{"blob-field": "pic", "blob.target-file-size": "50 b",
                                     "deletion-vectors.enabled": "true"})
cat.create_table("db.t", Schema.from_pyarrow_schema(pa_schema, options=options), False)
t = cat.get_table("db.t")
ids = list(range(10))
commit_write(t, pa.table({"id": pa.array(ids, pa.int32()),
                          "pic": pa.array([None if i == 3 else bytes([65 + i]) * (i + 1) for i in ids],
                                          pa.large_binary())}), False)
wb = t.new_batch_write_builder()
msgs = wb.new_update().delete_by_row_id([1, 4, 8])
c = wb.new_commit(); c.commit(msgs); c.close()
result = None
'''
    wh = tmp_path / "wh"
    pypaimon21.run(code, wh=str(wh), options=DE_OPTIONS)
    path = str(wh / "db.db" / "t")
    theirs = [dict(r, pic=None if r["pic"] is None else bytes(r["pic"])) for r in _rows(pypaimon21.read(path))]
    assert [r["id"] for r in theirs] == [0, 2, 3, 5, 6, 7, 9]
    assert _rows(read_table(path)) == theirs
    assert sum(f.file_name.endswith(".blob") for f in PaimonTable(path).data_files()) >= 2


def test_spark_scan_of_blob_table(spark, java_blob_table, java_newest):  # noqa: F811
    from paimon_codec.spark import scan

    theirs = _rows(java_newest.read(java_blob_table))
    for native in (True, False):
        df, _ = scan(spark, java_blob_table, native=native, driver_rows=0 if native else 1 << 30)
        got = [dict(r.asDict(), pic=None if r["pic"] is None else bytes(r["pic"])) for r in df.collect()]
        assert sorted(got, key=lambda r: r["id"]) == theirs
    df, _ = scan(spark, java_blob_table, "id >= 5")
    assert sorted((r["id"], r["pic"] and bytes(r["pic"])) for r in df.collect()) == [
        (r["id"], r["pic"]) for r in theirs if r["id"] >= 5]


# -- how blob files make a bunch (DataEvolutionSplitRead.SpecialFieldBunch's rules) --------------------------
def _blob(tmp_path, name: str, first: int, rows: int, seq: int) -> LiveDataFile:
    meta = DataFileMeta(name, 100, rows, 0, 0, seq, seq, (), None, None, 0, None, b"", b"", first_row_id=first,
                        write_cols=("pic",))
    return LiveDataFile(ManifestEntry(0, b"", 0, -1, meta), (), str(tmp_path / name), None, None)


def _schema_of(_sid):
    return SimpleNamespace(fields=RowType((Field("id", DataType("INTEGER"), 0), Field("pic", DataType("BLOB"), 1))))


def test_blob_bunch_keeps_the_newest_file_of_each_start_and_skips_older_overlaps(tmp_path):
    files = [_blob(tmp_path, "old0.blob", 0, 5, 1), _blob(tmp_path, "old1.blob", 5, 3, 1),
             _blob(tmp_path, "new0.blob", 0, 4, 2), _blob(tmp_path, "new1.blob", 4, 4, 2)]
    (bunch,) = blob_bunches(files, 0, 8, _schema_of).values()
    assert [f.file_name for f in bunch] == ["new0.blob", "new1.blob"]
    files = [_blob(tmp_path, "old0.blob", 0, 5, 1), _blob(tmp_path, "old1.blob", 5, 3, 1),
             _blob(tmp_path, "new0.blob", 0, 5, 2)]
    (bunch,) = blob_bunches(files, 0, 8, _schema_of).values()
    assert [f.file_name for f in bunch] == ["new0.blob", "old1.blob"]


@pytest.mark.parametrize("files, message", [
    ([("a.blob", 0, 3, 1), ("b.blob", 4, 4, 1)], "leave a gap"),
    ([("a.blob", 0, 5, 1), ("b.blob", 3, 5, 2)], "overlap without a decreasing sequence number"),
    ([("a.blob", 0, 5, 1), ("b.blob", 0, 5, 1)], "overlap without a decreasing sequence number"),
    ([("a.blob", 0, 5, 1)], "cover row ids 0.. \\(5 rows\\), their range 0.. has 8"),
    ([("a.blob", 1, 7, 1)], "cover row ids 1.."),
])
def test_blob_bunches_paimon_refuses_are_refused(tmp_path, files, message):
    with pytest.raises(UnsupportedTypeError, match=message):
        blob_bunches([_blob(tmp_path, *f) for f in files], 0, 8, _schema_of)
