"""``inspect`` on global-index files written by Java 1.4.2 and pypaimon 2.1 (no ``--format``).

Java's bitmap global index is a bare bitmap file-index payload: decoded as ``bitmap`` given the
column type, and asked for it otherwise.  B-tree files (both writers) and pypaimon's own bitmap layout
are decoded whole (every CRC checked; keys decoded with ``--type``); a damaged block is refused in one
line naming the file and offset.
"""

from __future__ import annotations

import json
import subprocess
import textwrap
from pathlib import Path

import pytest
from oracles.pypaimon21 import pypaimon_venv

from paimon_codec.cli import main


def _inspect(capsys, *argv) -> tuple[int, str, str]:
    code = main(["inspect", *[str(a) for a in argv]])
    out, err = capsys.readouterr()
    return code, out, err


def _index_files(table: Path) -> dict[str, Path]:
    return {p.name.split("-global-index-")[0]: p for p in (table / "index").glob("*-global-index-*.index")}


@pytest.fixture(scope="module")
def java_files(tmp_path_factory, java_newest):
    path = java_newest.create_table(tmp_path_factory.mktemp("java142_global_index"), "db.t", "id INT, name STRING",
                                    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    for kind in ("btree", "bitmap"):
        java_newest.write_global_index(path, "name", kind, ["a", "b", "a", None])
    return _index_files(Path(path))


@pytest.fixture(scope="module")
def pypaimon_files(tmp_path_factory):
    warehouse = tmp_path_factory.mktemp("pypaimon21_global_index")
    script = textwrap.dedent(f"""
        import pyarrow as pa
        from pypaimon import CatalogFactory, Schema
        cat = CatalogFactory.create({{"warehouse": {str(warehouse)!r}}})
        cat.create_database("db", True)
        s = pa.schema([("id", pa.int32()), ("name", pa.string())])
        cat.create_table("db.t", Schema.from_pyarrow_schema(s, options={{
            "row-tracking.enabled": "true", "data-evolution.enabled": "true"}}), False)
        t = cat.get_table("db.t")
        wb = t.new_batch_write_builder(); w = wb.new_write(); c = wb.new_commit()
        w.write_arrow(pa.table({{"id": [1, 2, 3, 4], "name": ["a", "b", "a", None]}}, schema=s))
        c.commit(w.prepare_commit()); w.close(); c.close()
        for kind in ("btree", "bitmap"):
            cat.get_table("db.t").create_global_index("name", index_type=kind)
    """)
    proc = subprocess.run([str(pypaimon_venv()), "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return _index_files(warehouse / "db.db" / "t")


def test_java_bitmap_global_index_decodes_as_a_bitmap_payload(java_files, capsys):
    code, out, err = _inspect(capsys, java_files["bitmap"], "--type", "STRING", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["format"] == "bitmap", report
    assert '"row_count":4' in out  # the bitmap head's row count (4 rows written), wherever the report nests it


def test_java_bitmap_global_index_without_type_asks_for_it(java_files, capsys):
    code, _, err = _inspect(capsys, java_files["bitmap"])
    assert code == 2
    assert "bitmap global-index file" in err and "--type" in err and len(err.strip().splitlines()) == 1


@pytest.mark.pypaimon  # pypaimon_files runs the pypaimon venv itself
@pytest.mark.parametrize("writer", ["java", "pypaimon"])
def test_btree_global_index_decodes(writer, java_files, pypaimon_files, capsys):
    files = java_files if writer == "java" else pypaimon_files
    code, out, err = _inspect(capsys, files["btree"], "--type", "STRING", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["format"] == "btree-global-index"
    st = report["structure"]
    # values a, b, a, NULL: two keys over three rows, one null row
    assert (st["keys"], st["row_ids"], st["null_rows"]) == (2, 3, 1), st
    assert (st["data_blocks"][0]["first_key"], st["data_blocks"][-1]["last_key"]) == ("a", "b")
    code, out, err = _inspect(capsys, files["btree"], "--json")  # without a type: keys as bytes
    assert code == 0, err
    assert json.loads(out)["structure"]["data_blocks"][0]["first_key"]["hex"] == "61"


@pytest.mark.pypaimon  # pypaimon_files runs the pypaimon venv itself
def test_pypaimon_bitmap_global_index_decodes(pypaimon_files, capsys):
    code, out, err = _inspect(capsys, pypaimon_files["bitmap"], "--type", "STRING", "--json")
    assert code == 0, err
    st = json.loads(out)["structure"]
    assert json.loads(out)["format"] == "bitmap-global-index"
    assert (st["keys"], st["row_ids"], st["null_rows"], st["non_null_rows"]) == (2, 3, 1, 3), st


@pytest.mark.pypaimon  # pypaimon_files runs the pypaimon venv itself
@pytest.mark.parametrize("writer", ["java", "pypaimon"])
def test_damaged_btree_block_is_refused_with_its_offset(writer, java_files, pypaimon_files, capsys, tmp_path):
    src = (java_files if writer == "java" else pypaimon_files)["btree"]
    data = bytearray(src.read_bytes())
    data[2] ^= 0xFF  # inside the first data block (it starts the file)
    bad = tmp_path / src.name
    bad.write_bytes(bytes(data))
    code, _, err = _inspect(capsys, bad)
    assert code == 2
    assert "CRC-32" in err and "offset 0" in err and len(err.strip().splitlines()) == 1, err
