"""``paimon-codec plan``: the scan plan without Spark, against the plans Paimon 0.9 made of the golden
warehouse (the files its scan kept per query), and one-line errors (exit 2) on bad metadata."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from golden_warehouse import WAREHOUSE_JSON, table_dir, tables

from paimon_codec.cli import main
from paimon_codec.planning.plan import plan_scan
from paimon_codec.positions import ranges_of

pytestmark = pytest.mark.skipif(not WAREHOUSE_JSON.exists(), reason="golden warehouse not available")


def _spec(name: str) -> dict:
    return next(t for t in tables() if t["table"] == name)


def _sql(pred: dict) -> str:
    if pred["op"] == "and":
        return " AND ".join(_sql(c) for c in pred["children"])
    lit = pred.get("literal")
    text = f"'{lit}'" if isinstance(lit, str) else str(lit)
    assert pred["op"] == "equal"
    return f"{pred['col']} = {text}"


def _plan(capsys, *argv: str) -> dict:
    assert main(["plan", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("qid", ["q1", "q2", "q3", "q4", "q8"])
def test_plan_keeps_the_files_paimon_kept(qid, capsys):
    """Append table with bitmap / bloom indexes: the plan reads a subset of the files Paimon 0.9's scan kept
    for the same predicate (its bitmap answers are exact, so a file without a match can go), and keeps at
    least as many rows as match (an index may keep extra rows, never drop a match)."""
    spec = _spec("golden.append_indexed")
    query = next(q for q in spec["queries"] if q["id"] == qid)
    want = set(spec["query_results"][qid]["scan_kept_data_files"])
    matches = len(spec["query_results"][qid]["ids_read_with_executeFilter"])
    path = table_dir("golden.append_indexed")
    got = _plan(capsys, path, "--where", _sql(query["pred"]))
    kept = {os.path.relpath(t["path"], path) for t in got["tasks"]}
    assert kept <= want
    assert bool(kept) == bool(matches) or not matches
    assert got["report"]["files_read"] == len(kept)
    assert got["report"]["rows_selected"] == sum(t["selected_rows"] for t in got["tasks"]) >= matches


def test_plan_json_is_plan_scan(capsys):
    """Deletion vectors applied: each file's selection is plan_scan's, rows = rows total - rows deleted."""
    path = table_dir("golden.pk_dv_fixed")
    got = _plan(capsys, path)
    plan = plan_scan(path)
    assert [t["path"] for t in got["tasks"]] == [t.path for t in plan.tasks]
    assert [t["selection"] for t in got["tasks"]] == [None if t.selection is None else ranges_of(t.selection)
                                                      for t in plan.tasks]
    rep = got["report"]
    assert rep["rows_selected"] == rep["rows_total"] - rep["rows_deleted"] > 0
    assert got["snapshot_id"] == plan.snapshot_id


def test_plan_time_travel_and_text(capsys):
    path = table_dir("golden.append_indexed")
    first = _plan(capsys, path, "--snapshot", "1")
    assert first["snapshot_id"] == 1
    latest = _plan(capsys, path)
    assert latest["report"]["rows_total"] > first["report"]["rows_total"]
    assert main(["plan", path, "--where", "cat = 'A'"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("plan of golden.append_indexed @ snapshot") and "files_read" in text


@pytest.mark.parametrize("damage", ["infinity", "missing-manifest-list", "escape", "no-snapshot"])
def test_plan_bad_metadata_is_one_line_exit_2(tmp_path, capsys, damage):
    src = table_dir("golden.append_indexed")
    path = tmp_path / "t"
    shutil.copytree(src, path)
    latest = path / "snapshot" / f"snapshot-{(path / 'snapshot' / 'LATEST').read_text().strip()}"
    snap = json.loads(latest.read_text())
    argv = ["plan", str(path)]
    if damage == "infinity":
        latest.write_text(latest.read_text().replace('"schemaId" : 0', '"schemaId" : Infinity'))
    elif damage == "missing-manifest-list":
        (path / "manifest" / snap["deltaManifestList"]).unlink()
    elif damage == "escape":
        snap["baseManifestList"] = "../../../../etc/passwd"
        latest.write_text(json.dumps(snap))
    else:
        argv += ["--snapshot", "99"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("paimon-codec: error:") and err.count("\n") == 0 and "Traceback" not in err, err
