"""The audit decodes ``_GLOBAL_INDEX`` files (pypaimon 2.1's B-tree and bitmap layouts) whole: a clean
table is clean, a damaged block is a ``checksum`` finding naming the file, a file whose row count
disagrees with its manifest entry a ``count-mismatch``."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from oracles.pypaimon21 import pypaimon_venv

from paimon_codec.maintenance.inventory import check_index_task, table_inventory

pytestmark = pytest.mark.pypaimon  # table_dir writes with the pypaimon venv, not the pypaimon21 fixture


@pytest.fixture(scope="module")
def table_dir(tmp_path_factory) -> Path:
    warehouse = tmp_path_factory.mktemp("pypaimon21_global_audit")
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
        w.write_arrow(pa.table({{"id": list(range(500)), "name": [None if i % 7 == 0 else f"k{{i % 50}}"
                                                                   for i in range(500)]}}, schema=s))
        c.commit(w.prepare_commit()); w.close(); c.close()
        for kind in ("btree", "bitmap"):
            cat.get_table("db.t").create_global_index("name", index_type=kind)
    """)
    proc = subprocess.run([str(pypaimon_venv()), "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return warehouse / "db.db" / "t"


def _results(path: Path) -> dict[str, dict]:
    tasks, findings = table_inventory(str(path))
    assert not findings, findings
    return {t.index_type: check_index_task(t.to_row()) for t in tasks if t.kind == "global-index"}


def test_clean_global_indexes_are_decoded(table_dir):
    results = _results(table_dir)
    assert set(results) == {"btree", "bitmap"}
    for r in results.values():
        assert r["status"] == "ok" and r["entries"] == 50, r


def test_damaged_block_and_wrong_count_are_findings(table_dir, tmp_path):
    copy = tmp_path / "t"
    shutil.copytree(table_dir, copy)
    btree = next((copy / "index").glob("btree-global-index-*.index"))
    data = bytearray(btree.read_bytes())
    data[3] ^= 0x01  # inside the first data block
    btree.write_bytes(bytes(data))
    results = _results(copy)
    (f,) = results["btree"]["findings"]
    assert f["finding"] == "checksum" and btree.name in f["message"], f
    assert results["bitmap"]["status"] == "ok"
    tasks, _ = table_inventory(str(copy))
    task = next(t for t in tasks if t.index_type == "bitmap").to_row()
    task["row_count"] += 1
    (f,) = check_index_task(task)["findings"]
    assert f["finding"] == "count-mismatch", f
