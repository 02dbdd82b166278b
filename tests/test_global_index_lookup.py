"""Lookups on B-tree and bitmap global-index files written by pypaimon 2.1 and Paimon Java 1.4.2: our
readers' row ids equal brute force over the written values AND Java 1.4.2's own ``GlobalIndexReader``
answer (``global_index_lookup`` in the JVM oracle) for equality, IN, ranges and nulls."""

from __future__ import annotations

import random
import subprocess
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from oracles.pypaimon21 import pypaimon_venv

from paimon_codec.errors import CorruptDataError
from paimon_codec.fileio import ByteSource
from paimon_codec.globalindex.blocks import Block
from paimon_codec.globalindex.btree import row_ids_of
from paimon_codec.globalindex.lookup import answer
from paimon_codec.globalindex.meta import read_sorted_meta
from paimon_codec.globalindex.table_files import GlobalIndexFile, global_index_files, open_reader
from paimon_codec.table.table import PaimonTable
from paimon_codec.types import parse_type

ROWS = 6000


def _names(n: int, seed: int) -> list[str | None]:
    rnd = random.Random(seed)
    return [None if i % 13 == 0 else f"n{rnd.randint(0, 400):04d}" for i in range(n)]


def _longs(n: int, seed: int) -> list[int | None]:
    rnd = random.Random(seed)
    return [None if i % 17 == 0 else rnd.randint(-1000, 1000) for i in range(n)]


def _brute(values: list, op: str, lits: list) -> list[int]:
    def ok(v):
        if op == "is_null":
            return v is None
        if v is None:
            return False
        return {"is_not_null": lambda: True, "equal": lambda: v == lits[0], "not_equal": lambda: v != lits[0],
                "less_than": lambda: v < lits[0], "less_or_equal": lambda: v <= lits[0],
                "greater_than": lambda: v > lits[0], "greater_or_equal": lambda: v >= lits[0],
                "in": lambda: v in lits, "not_in": lambda: v not in lits}[op]()
    return [i for i, v in enumerate(values) if ok(v)]


def _cases(values: list) -> list[tuple[str, list]]:
    present = sorted({v for v in values if v is not None})
    mid, lo, hi = present[len(present) // 2], present[0], present[-1]
    absent = "n0000x" if isinstance(lo, str) else 5000
    return [("equal", [mid]), ("equal", [lo]), ("equal", [hi]), ("equal", [absent]), ("not_equal", [mid]),
            ("in", [lo, mid, absent]), ("not_in", [mid, hi]), ("less_than", [mid]), ("less_or_equal", [mid]),
            ("greater_than", [mid]), ("greater_or_equal", [mid]), ("less_than", [lo]), ("greater_than", [hi]),
            ("is_null", []), ("is_not_null", [])]


# ------------------------------------------------------------------------------------------ pypaimon 2.1
@pytest.fixture(scope="module")
def pypaimon_table(tmp_path_factory) -> Path:
    warehouse = tmp_path_factory.mktemp("pypaimon21_global_lookup")
    script = textwrap.dedent(f"""
        import random
        import pyarrow as pa
        from pypaimon import CatalogFactory, Schema
        cat = CatalogFactory.create({{"warehouse": {str(warehouse)!r}}})
        cat.create_database("db", True)
        s = pa.schema([("id", pa.int32()), ("name", pa.string()), ("v", pa.int64())])
        cat.create_table("db.t", Schema.from_pyarrow_schema(s, options={{
            "row-tracking.enabled": "true", "data-evolution.enabled": "true"}}), False)
        t = cat.get_table("db.t")
        names = {_names(ROWS, 1)!r}
        vs = {_longs(ROWS, 2)!r}
        for part in range(2):
            sl = slice(part * {ROWS // 2}, (part + 1) * {ROWS // 2})
            wb = t.new_batch_write_builder(); w = wb.new_write(); c = wb.new_commit()
            w.write_arrow(pa.table({{"id": list(range({ROWS}))[sl], "name": names[sl], "v": vs[sl]}}, schema=s))
            c.commit(w.prepare_commit()); w.close(); c.close()
        for col in ("name", "v"):
            for kind in ("btree", "bitmap"):
                cat.get_table("db.t").create_global_index(col, index_type=kind)
    """)
    proc = subprocess.run([str(pypaimon_venv()), "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return warehouse / "db.db" / "t"


def _column_values(table: PaimonTable, column: str) -> list:
    """Every row's value by absolute row id (data files placed by their first row id)."""
    out: dict[int, object] = {}
    for f in table.data_files():
        col = pq.read_table(f.path, columns=[column]).column(0).to_pylist()
        for i, v in enumerate(col):
            out[f.meta.first_row_id + i] = v
    return [out[i] for i in range(len(out))]


@pytest.mark.parametrize("column", ["name", "v"])
@pytest.mark.parametrize("index_type", ["btree", "bitmap"])
def test_pypaimon_global_index_lookups_equal_brute_force_and_java(pypaimon_table, java_newest, column, index_type):
    table = PaimonTable(pypaimon_table)
    schema = table.schema
    fld = next(f for f in schema.fields if f.name == column)
    files = [f for f in global_index_files(table, table.snapshot()) if f.field_id == fld.id and f.index_type == index_type]
    assert len(files) == 1 and files[0].row_start == 0 and files[0].row_end == ROWS - 1, files
    values = _column_values(table, column)
    reader = open_reader(files[0], fld.type)
    meta = files[0].meta
    assert meta is not None and meta.has_nulls
    key = reader.codec.decode
    assert (key(meta.first_key), key(meta.last_key)) == (min(v for v in values if v is not None),
                                                         max(v for v in values if v is not None))
    java_files = [{"file_name": files[0].file_name, "file_size": files[0].file_size,
                   "meta": _index_meta_hex(table, files[0])}]
    for op, lits in _cases(values):
        ours = sorted(answer(reader, op, lits))
        assert ours == _brute(values, op, lits), (op, lits)
        if index_type == "btree":  # Java 1.4.2 has no reader for pypaimon's bitmap layout
            assert java_newest.global_index_lookup(pypaimon_table, column, "btree", java_files, op, lits) == ours, \
                (op, lits)


def _index_meta_hex(table: PaimonTable, f: GlobalIndexFile) -> str:
    for e in table.index_files(table.snapshot()):
        if e.entry.index_file.file_name == f.file_name:
            return bytes(e.entry.index_file.global_index.index_meta).hex()
    raise AssertionError(f.file_name)


# ------------------------------------------------------------------------------------------ Java 1.4.2
@pytest.fixture(scope="module")
def java_btree(tmp_path_factory, java_newest):
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_btree_lookup"), "db.t",
                                    "id INT, name STRING, v BIGINT",
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    # enough distinct long keys for several 64 KiB data blocks (binary search across blocks)
    names, longs = _names(ROWS, 3), [None if i % 17 == 0 else i * 7919 % 100003 - 50000 for i in range(40000)]
    written = {c: java_newest.write_global_index(path, c, "btree", vals)
               for c, vals in (("name", names), ("v", longs))}
    return Path(path), {"name": names, "v": longs}, written


@pytest.mark.parametrize("column", ["name", "v"])
def test_java_btree_lookups_equal_brute_force_and_java(java_btree, java_newest, column):
    path, values, written = java_btree
    (entry,) = written[column]
    file = path / "index" / entry["file_name"]
    meta = read_sorted_meta(bytes.fromhex(entry["meta"]))
    typ = parse_type("STRING" if column == "name" else "BIGINT")
    f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, len(values[column]) - 1, 0, meta)
    src = ByteSource(str(file), path=str(file))
    reader = open_reader(f, typ, src)
    vals = values[column]
    if column == "v":
        assert len(reader.index_block()) > 1  # several data blocks
    java_files = [{"file_name": file.name, "file_size": file.stat().st_size, "meta": entry["meta"]}]
    for op, lits in _cases(vals):
        ours = sorted(answer(reader, op, lits))
        assert ours == _brute(vals, op, lits), (op, lits)
        assert java_newest.global_index_lookup(path, column, "btree", java_files, op, lits) == ours, (op, lits)


def test_bulk_row_ids_equal_the_generated_entry_codec(java_btree):
    """Walks decode a block's row ids in bulk (numpy varints); each entry parsed by the generated codec
    gives the same ids, in every data block of Java's multi-block file, also for slices of a block."""
    path, values, written = java_btree
    for column, type_name in (("v", "BIGINT"), ("name", "STRING")):
        (entry,) = written[column]
        file = path / "index" / entry["file_name"]
        f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, 0, 0, None)
        reader = open_reader(f, parse_type(type_name), ByteSource(str(file), path=str(file)))
        for b in range(len(reader.index_block())):
            block = reader.data_block(b)
            per_entry = [row_ids_of(block.entry(i)[1]) for i in range(len(block))]
            assert block.row_ids().tolist() == [r for ids in per_entry for r in ids]
            mid = len(block) // 2
            assert block.row_ids(1, mid).tolist() == [r for ids in per_entry[1:mid] for r in ids]


def test_corrupt_row_id_count_is_refused(java_btree):
    path, values, written = java_btree
    (entry,) = written["v"]
    file = path / "index" / entry["file_name"]
    f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, 0, 0, None)
    block = open_reader(f, parse_type("BIGINT"), ByteSource(str(file), path=str(file))).data_block(0)
    data = bytearray(block.data)
    value_at = int(block._value_spans()[0][3])
    data[value_at] = 2  # entry 3 now declares 2 row ids but stores 1
    with pytest.raises(CorruptDataError, match="2 row ids declared, 1 stored"):
        Block(bytes(data), "B-tree data block 0").row_ids()


def test_equality_reads_one_data_block(java_btree):
    path, values, written = java_btree
    (entry,) = written["v"]
    file = path / "index" / entry["file_name"]
    f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, 0, 0, None)
    src = ByteSource(str(file), path=str(file))
    reader = open_reader(f, parse_type("BIGINT"), src)
    reader.equal(values["v"][5])
    blocks = len(reader.index_block())
    assert blocks > 1 and len(reader._blocks) == 1
    assert src.bytes_read < file.stat().st_size / blocks * 1.5  # footer + index block + one data block
