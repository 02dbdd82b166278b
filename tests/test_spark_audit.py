"""Warehouse audit, the paimon_index data source and the scan/audit/demo CLI on Spark."""

from __future__ import annotations

import io
import json
import os
import shutil
from contextlib import redirect_stdout

import pytest
from golden_warehouse import WAREHOUSE, WAREHOUSE_JSON, table_at, table_dir, tables
from spark_fixtures import spark  # noqa: F401

pytestmark = [pytest.mark.spark,
              pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")]


def test_golden_warehouse_audits_clean(spark, table_location):  # noqa: F811
    from paimon_codec.spark import audit

    df, summary = audit(spark, table_location(str(WAREHOUSE)))
    assert summary["findings"] == [] and summary["clean"]
    assert set(summary["tables"]) == {t["table"] for t in tables()}
    rows = df.collect()
    assert rows and all(r.status == "ok" and r.finding is None for r in rows)
    # every index file of the latest snapshots was decoded
    paths = {table_location.local(r.path) for r in rows}
    for spec in tables():
        for e in spec["index_manifest"]["entries"]:
            assert os.path.join(table_dir(spec["table"]), "index", e["file_name"]) in paths
        for f in spec["files"]["data_files"]:
            for extra in f["extra_files"]:
                assert os.path.join(table_dir(spec["table"]), os.path.dirname(f["path"]), extra) in paths


def test_audit_reports_each_damage_as_its_own_finding(spark, tmp_path, table_location):  # noqa: F811
    from paimon_codec.spark import audit

    wh = tmp_path / "wh"
    shutil.copytree(WAREHOUSE, wh)
    fixed = next(t for t in tables() if t["table"] == "golden.pk_dv_fixed")
    dv_name = fixed["index_manifest"]["entries"][0]["file_name"]
    dv_path = wh / "golden.db" / "pk_dv_fixed" / "index" / dv_name
    data = bytearray(dv_path.read_bytes())
    data[12] ^= 0x04  # a bit inside the first bitmap: the CRC no longer matches
    dv_path.write_bytes(bytes(data))
    append = next(t for t in tables() if t["table"] == "golden.append_indexed")
    with_index = next(f for f in append["files"]["data_files"] if f["extra_files"])
    missing = wh / "golden.db" / "append_indexed" / os.path.dirname(with_index["path"]) / with_index["extra_files"][0]
    missing.unlink()
    stray = wh / "golden.db" / "pk_dv_dynamic" / "index" / "index-00000000-0000-0000-0000-000000000000-0"
    stray.write_bytes(b"\x01")

    df, summary = audit(spark, table_location(wh))
    kinds = {(f["finding"], os.path.realpath(table_location.local(f["path"]))) for f in summary["findings"]}
    assert ("checksum", os.path.realpath(dv_path)) in kinds
    assert ("missing", os.path.realpath(missing)) in kinds
    assert ("orphan", os.path.realpath(stray)) in kinds
    assert len(summary["findings"]) == 3
    assert summary["tables"]["golden.pk_dv_fixed"]["findings"] == 1
    assert {r.finding for r in df.collect() if r.finding} == {"checksum", "missing", "orphan"}


def test_data_source_returns_golden_dv_positions(spark, table_location):  # noqa: F811
    for spec in tables():
        want = {f["file_name"]: f["deletion_file"]["deleted_positions"]
                for f in spec["files"]["data_files"] if "deletion_file" in f}
        if not want:
            continue
        df = (spark.read.format("paimon_index").option("table", table_at(table_location, spec["table"]))
              .options(**table_location.spark_options).option("kind", "deletion-vectors").load())
        got: dict[str, list[int]] = {}
        for r in df.collect():
            got.setdefault(r.data_file, []).append(r.position)
        assert {k: sorted(v) for k, v in got.items()} == want
        dv_files = {e["file_name"] for e in spec["index_manifest"]["entries"]
                    if e["index_type"] == "DELETION_VECTORS"}
        assert df.rdd.getNumPartitions() == len(dv_files)


def test_data_source_returns_golden_hashes(spark, table_location):  # noqa: F811
    spec = next(t for t in tables() if t["table"] == "golden.pk_dv_dynamic")
    df = (spark.read.format("paimon_index").option("table", table_at(table_location, spec["table"]))
          .options(**table_location.spark_options).option("kind", "hash").load())
    got: dict[str, list[int]] = {}
    for r in df.collect():
        got.setdefault(os.path.basename(r.index_file), []).append(r.hash)
    want = {e["file_name"]: e["hashes_in_file_order"] for e in spec["index_manifest"]["entries"]
            if e["index_type"] == "HASH"}
    assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in want.items()}


def test_data_source_lists_file_index_keys(spark):  # noqa: F811
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    df = (spark.read.format("paimon_index").option("table", table_dir(spec["table"]))
          .option("kind", "file-index").load())
    rows = df.filter("column = 'cat' AND key = 'A'").collect()
    # rows of every file with cat = 'A', as position ranges inside each file
    by_file = {f["file_name"]: f["rows_in_file_order"] for f in spec["files"]["data_files"]}
    assert rows
    for r in rows:
        positions = [p for s, e in r.row_ranges for p in range(s, e)]
        assert positions == [i for i, row in enumerate(by_file[r.data_file]) if row[1] == "A"]


def _run_cli(argv: list[str]) -> tuple[int, str]:
    from paimon_codec.cli import main

    buf = io.StringIO()
    with redirect_stdout(buf):
        status = main(argv)
    return status, buf.getvalue()


def test_cli_scan_json(spark):  # noqa: F811
    spec = next(t for t in tables() if t["table"] == "golden.append_indexed")
    status, out = _run_cli(["scan", table_dir(spec["table"]), "--where", "code = 1001", "--json"])
    assert status == 0
    obj = json.loads(out)
    assert sorted(r["id"] for r in obj["rows"]) == sorted(spec["query_results"]["q3"]["ids_read_with_executeFilter"])
    for key in ("files_total", "files_skipped_by_index", "files_read", "rows_selected", "bytes_read"):
        assert key in obj["report"]
    assert obj["report"]["files_skipped_by_index"] + obj["report"]["files_pruned_by_stats"] == 2
    status, out = _run_cli(["scan", table_dir(spec["table"]), "--predicate-json",
                            json.dumps(spec["queries"][0]["pred"]), "--json"])
    assert status == 0 and len(json.loads(out)["rows"]) == len(spec["query_results"]["q1"]["ids_read_with_executeFilter"])


def test_cli_audit_exit_status(spark, tmp_path):  # noqa: F811
    status, out = _run_cli(["audit", str(WAREHOUSE), "--json"])
    assert status == 0 and json.loads(out)["findings"] == []
    wh = tmp_path / "wh"
    shutil.copytree(WAREHOUSE / "golden.db" / "pk_dv_fixed", wh / "golden.db" / "pk_dv_fixed")
    (wh / "golden.db" / "pk_dv_fixed" / "index" / "index-stray-0").write_bytes(b"\x01")
    status, out = _run_cli(["audit", str(wh), "--json"])
    assert status == 1 and [f["finding"] for f in json.loads(out)["findings"]] == ["orphan"]


def test_cli_demo_runs_end_to_end(spark, tmp_path):  # noqa: F811
    status, out = _run_cli(["demo", "--warehouse", str(tmp_path)])
    assert status == 0
    assert "plan report:" in out and "files_skipped_by_index" in out and "0 findings" in out
    assert "REFUNDED" in out


def test_data_source_carries_options_registered_before_register(spark, s3_server):  # noqa: F811
    """Options registered on the driver before ``register(spark)`` reach the Python workers running the reader."""
    from storage_fixtures import on_s3

    from paimon_codec.spark import register

    spec = next(t for t in tables() if t["table"] == "golden.pk_dv_dynamic")
    register(spark)  # the s3_server fixture has registered its options by now
    uri = table_at(on_s3(s3_server), spec["table"])
    df = spark.read.format("paimon_index").option("table", uri).option("kind", "hash").load()
    want = sum(len(e["hashes_in_file_order"]) for e in spec["index_manifest"]["entries"] if e["index_type"] == "HASH")
    assert df.count() == want > 0
