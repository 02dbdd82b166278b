"""Table metadata against the Paimon 0.9 golden warehouse (no Spark needed)."""

from __future__ import annotations

import json
import os
import shutil
import struct

import fastavro
import pytest
from conftest import GOLDEN_09, load_json

from paimon_codec.errors import CorruptDataError, MissingFileError, PaimonCodecError, UnsupportedVersionError
from paimon_codec.table import PaimonTable, decode_binary_row, decode_serialized_row, list_tables
from paimon_codec.types import parse_type
from paimon_codec.values import Timestamp

WAREHOUSE_JSON = GOLDEN_09 / "warehouse" / "warehouse.json"
WAREHOUSE = GOLDEN_09 / "warehouse" / "warehouse"

pytestmark = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")


def _tables():
    return load_json(WAREHOUSE_JSON)["tables"] if WAREHOUSE_JSON.exists() else []


def _table_dir(name: str) -> str:
    db, table = name.split(".")
    return str(WAREHOUSE / f"{db}.db" / table)


def test_list_tables_finds_every_golden_table():
    found = sorted(os.path.basename(p) for p in list_tables(WAREHOUSE))
    assert found == sorted(t["table"].split(".")[1] for t in _tables())


@pytest.mark.parametrize("spec", _tables(), ids=lambda t: t["table"])
def test_schema_matches_sidecar(spec):
    table = PaimonTable(_table_dir(spec["table"]))
    assert table.name == spec["table"]
    assert [(f.id, f.name, f.type) for f in table.schema.fields] == [
        (c["id"], c["name"], parse_type(c["type"])) for c in spec["schema"]]
    assert table.schema.options == spec["options"]
    assert table.schema.is_primary_key_table == spec["kind"].startswith("primary_key")
    assert table.schema.deletion_vectors_enabled == ("dv" in spec["kind"])


@pytest.mark.parametrize("spec", _tables(), ids=lambda t: t["table"])
def test_snapshots_match_sidecar(spec):
    table = PaimonTable(_table_dir(spec["table"]))
    want = spec["index_manifest"]["snapshots"]
    assert table.snapshot_ids() == [s["id"] for s in want]
    for s in want:
        snap = table.snapshot(s["id"])
        assert (snap.commit_kind, snap.total_record_count, snap.index_manifest) == (
            s["commit_kind"], s["total_record_count"], s["index_manifest"])
    assert table.snapshot().id == spec["index_manifest"]["snapshot_id"]


@pytest.mark.parametrize("spec", _tables(), ids=lambda t: t["table"])
def test_live_data_files_match_sidecar(spec):
    table = PaimonTable(_table_dir(spec["table"]))
    got = {os.path.relpath(f.path, table.path): f for f in table.data_files()}
    want = {f["path"]: f for f in spec["files"]["data_files"]}
    assert set(got) == set(want)
    for rel, w in want.items():
        f = got[rel]
        assert os.path.exists(f.path)
        assert (f.bucket, f.level, f.row_count, f.meta.file_size) == (w["bucket"], w["level"], w["row_count"],
                                                                      w["file_size"])
        assert list(f.meta.extra_files) == w["extra_files"]
        if "embedded_index_hex" in w:
            assert f.embedded_index.hex() == w["embedded_index_hex"]
        else:
            assert not f.embedded_index
        if w["extra_files"]:
            assert f.index_path == os.path.join(os.path.dirname(f.path), w["extra_files"][0])
            assert os.path.exists(f.index_path)
        else:
            assert f.index_path is None
        if "deletion_file" in w:
            d = w["deletion_file"]
            assert os.path.relpath(f.deletion_file.path, table.path) == d["path"]
            assert (f.deletion_file.offset, f.deletion_file.length) == (d["offset"], d["length"])
        else:
            assert f.deletion_file is None


@pytest.mark.parametrize("spec", _tables(), ids=lambda t: t["table"])
def test_index_manifest_matches_sidecar(spec):
    table = PaimonTable(_table_dir(spec["table"]))
    got = {(f.entry.index_file.file_name): f for f in table.index_files()}
    want = spec["index_manifest"]["entries"]
    assert set(got) == {e["file_name"] for e in want}
    for e in want:
        f = got[e["file_name"]]
        meta = f.entry.index_file
        assert (f.bucket, meta.index_type, meta.file_size, meta.row_count) == (
            e["bucket"], e["index_type"], e["file_size"], e["row_count"])
        assert os.path.getsize(f.path) == meta.file_size
        if "deletion_vectors_ranges" in e:
            assert [[r.data_file, r.offset, r.length] for r in meta.dv_ranges] == e["deletion_vectors_ranges"]


def test_unpartitioned_partition_row_decodes_empty():
    table = PaimonTable(_table_dir("golden.pk_dv_fixed"))
    assert {f.partition for f in table.data_files()} == {()}


def _long_string_row() -> bytes:
    # fields: INT 7, STRING 'ab' (inline), STRING 'a longer value' (variable part), BIGINT null,
    # DATE 19000, TIMESTAMP(3) 1700000000123
    arity = 6
    head = bytearray(8)
    head[(3 + 8) >> 3] |= 1 << ((3 + 8) & 7)
    long_text = b"a longer value"
    var_offset = 8 + 8 * arity
    slots = [
        struct.pack("<i", 7) + b"\0" * 4,
        b"ab" + b"\0" * 5 + bytes([0x80 | 2]),
        struct.pack("<Q", (var_offset << 32) | len(long_text)),
        b"\0" * 8,
        struct.pack("<i", 19000) + b"\0" * 4,
        struct.pack("<q", 1700000000123),
    ]
    var = long_text + b"\0" * (-len(long_text) % 8)
    return bytes(head) + b"".join(slots) + var


def test_binary_row_decoding_covers_inline_variable_and_null_fields():
    types = [parse_type(t) for t in ("INT", "STRING", "STRING", "BIGINT", "DATE", "TIMESTAMP(3)")]
    row = _long_string_row()
    assert decode_binary_row(row, types) == (7, "ab", "a longer value", None, 19000, Timestamp(1700000000123, 0))
    assert decode_serialized_row(struct.pack(">i", 6) + row, types)[0] == 7
    with pytest.raises(CorruptDataError):
        decode_serialized_row(struct.pack(">i", 5) + row, types)
    with pytest.raises(PaimonCodecError):
        decode_binary_row(row[:20], types)


def _copy_table(tmp_path, name="golden.pk_dv_fixed") -> str:
    dst = tmp_path / name.split(".")[1]
    shutil.copytree(_table_dir(name), dst)
    return str(dst)


def test_unknown_snapshot_version_is_a_clear_error(tmp_path):
    path = _copy_table(tmp_path)
    table = PaimonTable(path)
    snap_file = os.path.join(path, "snapshot", f"snapshot-{table.snapshot().id}")
    obj = json.load(open(snap_file))
    obj["version"] = 99
    json.dump(obj, open(snap_file, "w"))
    with pytest.raises(UnsupportedVersionError, match="snapshot version 99"):
        PaimonTable(path).data_files()


def test_unknown_schema_version_is_a_clear_error(tmp_path):
    path = _copy_table(tmp_path)
    f = os.path.join(path, "schema", "schema-0")
    obj = json.load(open(f))
    obj["version"] = 7
    json.dump(obj, open(f, "w"))
    with pytest.raises(UnsupportedVersionError, match="schema version 7"):
        PaimonTable(path)


@pytest.mark.parametrize("which", ["manifest", "index-manifest"])
def test_unknown_manifest_record_version_is_a_clear_error(tmp_path, which):
    path = _copy_table(tmp_path)
    table = PaimonTable(path)
    snap = table.snapshot()
    if which == "manifest":
        name = table.manifest_file_names(snap)[0]
    else:
        name = snap.index_manifest
    file = os.path.join(path, "manifest", name)
    with open(file, "rb") as fh:
        reader = fastavro.reader(fh)
        schema, records = reader.writer_schema, list(reader)
    for r in records:
        r["_VERSION"] = 42
    with open(file, "wb") as fh:
        fastavro.writer(fh, schema, records)
    with pytest.raises(UnsupportedVersionError, match="version 42"):
        PaimonTable(path).data_files()


def test_corrupt_manifest_is_a_clear_error(tmp_path):
    path = _copy_table(tmp_path)
    table = PaimonTable(path)
    name = table.manifest_file_names(table.snapshot())[0]
    file = os.path.join(path, "manifest", name)
    data = open(file, "rb").read()
    open(file, "wb").write(data[: len(data) // 2])
    with pytest.raises(CorruptDataError):
        PaimonTable(path).data_files()


def test_given_snapshot_id_reads_that_snapshot():
    table = PaimonTable(_table_dir("golden.append_indexed"))
    counts = [sum(f.row_count for f in table.data_files(s)) for s in table.snapshot_ids()]
    spec = next(t for t in _tables() if t["table"] == "golden.append_indexed")
    assert counts == [s["total_record_count"] for s in spec["index_manifest"]["snapshots"]]
    with pytest.raises(MissingFileError, match="snapshot-99"):  # no such snapshot: its file is not there
        table.data_files(99)


@pytest.mark.parametrize("hint", [b"--5", "\u00b2".encode(), b"\xff\xfe", b"abc", b"99"])
def test_unusable_snapshot_hints_fall_back_to_listing(tmp_path, hint):
    from paimon_codec.table import earliest_snapshot_id, latest_snapshot_id, snapshot_ids

    path = _copy_table(tmp_path)
    ids = snapshot_ids(path)
    for name in ("LATEST", "EARLIEST"):
        with open(os.path.join(path, "snapshot", name), "wb") as fh:
            fh.write(hint)
    open(os.path.join(path, "snapshot", "snapshot-\u00b2"), "w").close()  # not a snapshot id
    assert snapshot_ids(path) == ids
    assert latest_snapshot_id(path) == ids[-1]
    assert earliest_snapshot_id(path) == ids[0]


@pytest.mark.parametrize("text", ["[" * 100_000, "[1, 2]", "{not json"])
def test_malformed_snapshot_and_schema_files_are_corrupt_data(tmp_path, text):
    path = _copy_table(tmp_path)
    table = PaimonTable(path)
    snap_file = os.path.join(path, "snapshot", f"snapshot-{table.snapshot().id}")
    with open(snap_file, "w") as fh:
        fh.write(text)
    with pytest.raises(CorruptDataError, match="snapshot file"):
        PaimonTable(path).data_files()
    with open(os.path.join(path, "schema", "schema-0"), "w") as fh:
        fh.write(text)
    with pytest.raises(CorruptDataError, match="schema file"):
        PaimonTable(path)


def test_avro_metadata_whose_values_are_not_records_is_corrupt(tmp_path):
    """A manifest written as an Avro file of plain ints (not records) is refused as corrupt, naming the file
    (the ints used to come back as if they were records)."""
    import fastavro

    from paimon_codec.errors import CorruptDataError
    from paimon_codec.table.metadata_records import read_metadata_records

    path = tmp_path / "manifest-ints"
    with open(path, "wb") as fh:
        fastavro.writer(fh, "int", [1, 2, 3])
    with pytest.raises(CorruptDataError, match="not records") as exc:
        read_metadata_records(str(path), "manifest")
    assert exc.value.path and "manifest-ints" in exc.value.path



@pytest.mark.parametrize("how", ["missing", "directory"])
def test_missing_deletion_vector_file_is_a_clear_error(tmp_path, how):
    """The index manifest names deletion-vector files that are gone (or are directories): planning refuses in
    one line naming one, on one judging thread and on several (fuzz finding table #1802)."""
    from paimon_codec.errors import CorruptDataError
    from paimon_codec.planning import judge
    from paimon_codec.planning.plan import plan_scan

    path = _copy_table(tmp_path)
    assert any(t.has_deletions for t in plan_scan(path, None).tasks)
    index_dir = os.path.join(path, "index")
    names = sorted(os.listdir(index_dir))
    for name in names:
        os.remove(os.path.join(index_dir, name))
        if how == "directory":
            os.mkdir(os.path.join(index_dir, name))
    old = judge.JUDGE_THREADS, judge.LOCAL_JUDGE_THREADS
    try:
        for threads in (1, 4):
            judge.JUDGE_THREADS = judge.LOCAL_JUDGE_THREADS = threads
            with pytest.raises(CorruptDataError) as exc:
                plan_scan(path, None)
            msg = str(exc.value)
            assert "deletion-vector index file" in msg and "\n" not in msg
            assert any(n in msg for n in names)
    finally:
        judge.JUDGE_THREADS, judge.LOCAL_JUDGE_THREADS = old


def test_declared_row_count_costs_nothing_with_a_deletion_vector(tmp_path):
    """A manifest declaring 2^31-1 rows for a file with a deletion vector: planning builds the file's
    selection as one run, not one slot per declared row (fuzz finding table #112824: 8 GiB)."""
    import glob
    import tracemalloc

    import fastavro

    from paimon_codec.planning.plan import plan_scan

    path = _copy_table(tmp_path)
    before = {t.path: t.row_count for t in plan_scan(path, None).tasks if t.has_deletions}
    assert before
    changed = 0
    for name in glob.glob(os.path.join(path, "manifest", "manifest-*")):
        if "manifest-list" in name:
            continue
        with open(name, "rb") as fh:
            reader = fastavro.reader(fh)
            schema, records = reader.writer_schema, list(reader)
        for rec in records:
            if os.path.join(path, "bucket-" + str(rec["_BUCKET"]), rec["_FILE"]["_FILE_NAME"]) in before:
                rec["_FILE"]["_ROW_COUNT"] = 2**31 - 1
                changed += 1
        with open(name, "wb") as fh:
            fastavro.writer(fh, schema, records)
    assert changed
    tracemalloc.start()
    try:
        plan = plan_scan(path, None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, peak
    big = [t for t in plan.tasks if t.row_count == 2**31 - 1]
    assert big and all(t.selection is not None and len(t.selection) > 2**31 - 1 - 10**6 for t in big)


def test_schema_without_fields_is_refused(tmp_path):
    """A schema file declaring no columns is refused in one line (fuzz finding table #261,152: planning
    reached a table of no columns)."""
    from paimon_codec.errors import CorruptDataError
    from paimon_codec.planning.plan import plan_scan

    path = _copy_table(tmp_path)
    for name in os.listdir(os.path.join(path, "schema")):
        f = os.path.join(path, "schema", name)
        obj = json.load(open(f))
        obj["fields"] = []
        json.dump(obj, open(f, "w"))
    with pytest.raises(CorruptDataError, match="no fields") as exc:
        plan_scan(path, None)
    assert "\n" not in str(exc.value) and "schema" in str(exc.value)
