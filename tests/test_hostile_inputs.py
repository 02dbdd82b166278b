"""Regression tests for what the fuzzer (tools/fuzz.py) and the hostile-input review found.

Each test builds the hostile input from real bytes (the golden warehouse written by Paimon 0.9, files our
writers make) and asserts the one documented outcome: a :class:`PaimonCodecError` subclass naming the file
and what was expected - or, for declared sizes, an answer computed in memory proportional to the bytes.
"""

from __future__ import annotations

import json
import shutil
import tracemalloc
from pathlib import Path

import fastavro
import pytest
from golden_warehouse import WAREHOUSE, WAREHOUSE_JSON
from pyroaring import BitMap, BitMap64

from paimon_codec import formats
from paimon_codec.cli import main
from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.errors import (
    CorruptDataError,
    InvalidSchemaError,
    MissingFileError,
    PaimonCodecError,
    UnsupportedTypeError,
)
from paimon_codec.fileindex.bloom import MAX_HASH_FUNCTIONS, BloomFilterReader, BloomFilterWriter
from paimon_codec.fileindex.result import BitmapResult
from paimon_codec.planning.plan import plan_scan
from paimon_codec.positions import ranges_of
from paimon_codec.types import parse_row_type, parse_type

needs_warehouse = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")


def _peak(fn):
    """(result, peak traced bytes) of ``fn()``."""
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# ------------------------------------------------------------------ declared sizes cost what is present
def test_ranges_of_a_huge_run_bitmap_come_from_its_containers():
    """A range bitmap's 2**31-1 rows: one run, not 16 GiB of int64 positions."""
    bm = BitMap()
    bm.add_range(0, 2**31 - 1)
    bm.run_optimize()
    rs, peak = _peak(lambda: ranges_of(bm))
    assert rs == [[0, 2**31 - 1]]
    assert peak < 10 << 20
    out, peak = _peak(lambda: BitmapResult(bm).to_dict())
    assert out == {"kind": "BITMAP", "cardinality": 2**31 - 1, "ranges": [[0, 2**31 - 1]]} and peak < 10 << 20


def test_dv_of_full_run_containers_is_read_as_runs():
    """A DV entry of 200 full run containers (2.8 KB): the ranges cost the containers, not 13M positions;
    and a 64-bit vector of 3 full 2**32 buckets is 2 runs."""
    part = BitMap()
    for key in range(0, 400, 2):
        part.add_range(key << 16, (key + 1) << 16)
    part.run_optimize()
    data = DeletionVector.from_bitmap(part).serialize()
    assert len(data) < 3000
    dv = DeletionVector.deserialize(data)
    rs, peak = _peak(dv.ranges)
    assert len(rs) == 200 and rs[0] == [0, 1 << 16] and rs[-1] == [398 << 16, 399 << 16]
    assert peak < 10 << 20
    full = BitMap()
    full.add_range(0, 2**32)
    wide = DeletionVector.from_parts({0: full, 1: full, 3: full})
    assert wide.ranges() == [[0, 2 << 32], [3 << 32, 4 << 32]]


def test_ranges_merge_across_containers_and_64_bit_parts():
    bm = BitMap64()
    bm.add_range(2**32 - 5, 2**32 + 70000)
    bm.add(2**40)
    assert ranges_of(bm) == [[2**32 - 5, 2**32 + 70000], [2**40, 2**40 + 1]]


def test_bloom_hash_count_beyond_paimons_sizing_is_refused():
    w = BloomFilterWriter("INT", {"items": 10, "fpp": 0.01})
    w.write(5)
    data = bytearray(w.serialize())
    data[0:4] = (MAX_HASH_FUNCTIONS + 1).to_bytes(4, "big")
    data += bytes(1 << 16)  # enough bits that only the Paimon bound refuses it
    with pytest.raises(CorruptDataError, match="hash functions") as exc:
        BloomFilterReader(bytes(data), "INT")
    assert f"at most {MAX_HASH_FUNCTIONS}" in str(exc.value)


# ------------------------------------------------------------------ the type parser
def test_deep_type_text_is_refused_not_recursion():
    with pytest.raises(UnsupportedTypeError, match="nested deeper"):
        parse_type("ARRAY<" * 1000 + "INT" + ">" * 1000)
    with pytest.raises(InvalidSchemaError, match="a number below 2"):
        parse_type("DECIMAL(" + "9" * 5000 + ", 2)")
    assert parse_type("INT" + " " * 200_000) == parse_type("INT")  # one pass, not a re-scan per token


def test_cli_schema_nested_1000_deep_is_one_line(tmp_path, capsys):
    p = tmp_path / "x.index"
    p.write_bytes(b"\x00" * 16)
    rc = main(["index", "query", str(p), "--schema", "a " + "ARRAY<" * 1000 + "INT" + ">" * 1000,
               "--where", "a IS NULL"])
    err = capsys.readouterr().err.strip()
    assert rc == 2 and err.count("\n") == 0 and "nested deeper" in err, err


def test_translate_error_lets_bugs_be_bugs():
    for bug in (TypeError("x"), KeyError("x"), IndexError("x")):
        with pytest.raises(type(bug)):
            raise formats.translate_error(bug, "f", "thing")
    assert isinstance(formats.translate_error(ValueError("bad"), "f", "thing"), CorruptDataError)


# ------------------------------------------------------------------ table metadata is untrusted
def _table(tmp_path: Path, name: str = "append_indexed") -> Path:
    dst = tmp_path / name
    shutil.copytree(WAREHOUSE / "golden.db" / name, dst)
    return dst


def _latest_snapshot(table: Path) -> Path:
    return table / "snapshot" / f"snapshot-{(table / 'snapshot' / 'LATEST').read_text().strip()}"


def _edit_json(path: Path, **changes) -> None:
    obj = json.loads(path.read_text())
    obj.update(changes)
    path.write_text(json.dumps(obj))


def _rewrite_avro(path: Path, edit, widen: dict[str, object] | None = None) -> None:
    """Rewrite an Avro metadata file with ``edit(records)``; ``widen`` swaps top-level field types so the
    file's own writer schema admits the hostile value (as an attacker's writer would)."""
    with open(path, "rb") as fh:
        reader = fastavro.reader(fh)
        schema, records = reader.writer_schema, list(reader)
    for f in schema["fields"]:
        if widen and f["name"] in widen:
            f["type"] = widen[f["name"]]
    edit(records)
    with open(path, "wb") as fh:
        fastavro.writer(fh, fastavro.parse_schema(schema), records)


def _plan_error(table: Path) -> PaimonCodecError:
    with pytest.raises(PaimonCodecError) as exc:
        plan_scan(str(table))
    return exc.value


@needs_warehouse
@pytest.mark.parametrize(("key", "value", "match"), [
    ("schemaId", 1e308, "schemaId is float"),
    ("schemaId", -1, "out of range"),
    ("id", True, "snapshot id is bool"),
    ("baseManifestList", "../../../etc/passwd", "not a plain file name"),
    ("baseManifestList", "", "not a plain file name"),
    ("baseManifestList", "ARRAY<" * 60, "not a plain file name"),  # fuzz: 360 bytes, ENAMETOOLONG before
    ("deltaManifestList", ["x"], "deltaManifestList is list"),
    ("indexManifest", {"a": 1}, "indexManifest is dict"),
])
def test_snapshot_fields_are_checked(tmp_path, key, value, match):
    table = _table(tmp_path)
    _edit_json(_latest_snapshot(table), **{key: value})
    err = _plan_error(table)
    assert isinstance(err, CorruptDataError) and match in str(err) and "snapshot-" in str(err)


@needs_warehouse
@pytest.mark.parametrize("text", ['{"version": 3, "id": Infinity}', '{"id": NaN}',
                                  "[" * 1000 + "]" * 1000, '{"id": 1' + "0" * 400 + "}"])
def test_snapshot_json_constants_depth_and_digits(tmp_path, text):
    table = _table(tmp_path)
    _latest_snapshot(table).write_text(text)
    err = _plan_error(table)
    assert isinstance(err, CorruptDataError) and "snapshot" in str(err)


@needs_warehouse
def test_schema_type_nested_1000_deep(tmp_path):
    table = _table(tmp_path)
    schema = table / "schema" / "schema-0"
    obj = json.loads(schema.read_text())
    obj["fields"][0]["type"] = "@DEEP@"
    deep = '{"type": "ARRAY", "element": ' * 1000 + '"INT"' + "}" * 1000
    schema.write_text(json.dumps(obj).replace('"@DEEP@"', deep))
    err = _plan_error(table)
    assert "schema-0" in str(err) and ("nests" in str(err) or "nested" in str(err))


@needs_warehouse
def test_missing_and_directory_metadata_files(tmp_path):
    table = _table(tmp_path)
    snap = json.loads(_latest_snapshot(table).read_text())
    (table / "manifest" / snap["baseManifestList"]).unlink()
    err = _plan_error(table)
    assert isinstance(err, MissingFileError) and isinstance(err, FileNotFoundError)
    (table / "manifest" / snap["baseManifestList"]).mkdir()
    assert isinstance(_plan_error(table), MissingFileError)


def _manifest_list(table: Path) -> Path:
    return table / "manifest" / json.loads(_latest_snapshot(table).read_text())["baseManifestList"]


@needs_warehouse
@pytest.mark.parametrize(("field", "value", "avro_type", "match"), [
    ("_FILE_SIZE", "12", ["string"], "_FILE_SIZE is str"),
    ("_FILE_SIZE", None, ["null"], "_FILE_SIZE is null"),
    ("_FILE_SIZE", float("nan"), ["double"], "_FILE_SIZE is float"),
    ("_FILE_NAME", 7, ["long"], "_FILE_NAME is int"),
    ("_FILE_NAME", "../../escape", ["string"], "not a plain file name"),
    ("_SCHEMA_ID", {"k": 1}, [{"type": "map", "values": "long"}], "_SCHEMA_ID is dict"),
    ("_SCHEMA_ID", -5, ["long"], "out of range"),
    ("_NUM_ADDED_FILES", 2**63 - 1, ["long"], None),  # in range: reads
])
def test_manifest_list_records_are_checked_against_paimons_shape(tmp_path, field, value, avro_type, match):
    table = _table(tmp_path)
    path = _manifest_list(table)

    def edit(records):
        for r in records:
            r[field] = value
    _rewrite_avro(path, edit, {field: avro_type})
    if match is None:
        assert plan_scan(str(table)).tasks is not None
        return
    err = _plan_error(table)
    assert isinstance(err, CorruptDataError), err
    assert match in str(err) and "manifest list record 0" in str(err) and path.name in str(err)


@needs_warehouse
def test_manifest_entry_file_record_is_checked(tmp_path):
    table = _table(tmp_path)
    lst = _manifest_list(table)
    with open(lst, "rb") as fh:
        manifest = table / "manifest" / next(iter(fastavro.reader(fh)))["_FILE_NAME"]

    def edit(records):
        records[0]["_FILE"]["_EXTRA_FILES"] = ["../../../x.index"]
    _rewrite_avro(manifest, edit)
    err = _plan_error(table)
    assert "_FILE._EXTRA_FILES[0]" in str(err) and "not a plain file name" in str(err)

    def partition(records):
        for r in records:
            r["_PARTITION"] = 1.5
    _table(tmp_path / "b")
    table = tmp_path / "b" / "append_indexed"
    lst = _manifest_list(table)
    _rewrite_avro(table / "manifest" / manifest.name, partition, {"_PARTITION": ["double"]})
    err = _plan_error(table)
    assert "_PARTITION is float" in str(err)


def test_row_type_json_is_bounded():
    with pytest.raises(UnsupportedTypeError):
        parse_row_type("[" + '{"name": "a", "type": "' + "ARRAY<" * 100 + "INT" + ">" * 100 + '"}]')


# ------------------------------------------------------------------ index payloads
def test_zero_length_v2_bitmap_entry_is_corrupt_data():
    """Found by the fuzzer: a V2 block entry of length 0 made pyroaring raise IndexError."""
    import struct

    from conftest import GOLDEN_LATEST

    from paimon_codec.fileindex.bitmap import BitmapIndexReader

    data = (GOLDEN_LATEST / "bitmap" / "bitmap_v2_int.bin").read_bytes()
    entry = struct.pack(">iii", -737, 38, 22)  # (key, body offset, length) of one V2 entry
    assert data.count(entry) == 1
    bad = data.replace(entry, struct.pack(">iii", -737, 38, 0))
    with pytest.raises(CorruptDataError, match="cannot hold a roaring bitmap"):
        BitmapIndexReader(bad, "INT").visit_equal(-737).to_dict()


def test_range_bitmap_declaring_2_31_rows_costs_its_bytes():
    """A 119-byte range bitmap whose header claims 2**31-1 rows: the audit's full decode (verify) and the
    null query cost what the bytes hold; the per-row structure dump is refused, not attempted."""
    import struct

    from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter

    w = RangeBitmapWriter("INT")
    for v in (None, None, 5):
        w.write(v)
    data = bytearray(w.serialize())
    struct.pack_into(">i", data, 5, 2**31 - 1)  # row_count, after the header length and the version byte
    reader = RangeBitmapReader(bytes(data), "INT")
    assert reader.row_count == 2**31 - 1
    _, peak = _peak(reader.verify)
    assert peak < 10 << 20
    out, peak = _peak(lambda: reader.visit_is_null().to_dict())
    assert out["ranges"] == [[0, 2], [3, 2**31 - 1]] and peak < 10 << 20
    with pytest.raises(CorruptDataError, match="row codes"):
        reader.describe()
