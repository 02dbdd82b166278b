"""End to end: ``paimon-codec index query --predicates-json SIDECAR`` answers every golden range-bitmap
and BSI query (comparisons and top-N) exactly as the sidecar records."""

from __future__ import annotations

import json

import pytest
from conftest import latest_cases, load_json

from paimon_codec import cli
from paimon_codec.positions import positions_from_json

CASES = latest_cases("range-bitmap") + latest_cases("bsi")


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_index_query_answers_sidecar(case, capsys):
    sidecar = load_json(case["json"])
    argv = ["index", "query", str(case["file"]), "--index-type", case["kind"], "--type", sidecar["type"],
            "--predicates-json", str(case["json"]), "--json"]
    status = cli.main(argv)
    assert status in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert len(out) == len(sidecar["queries"])
    for got, q in zip(out, sidecar["queries"], strict=True):
        # Java's answer exactly, ±0.0 / NaN literals on FLOAT / DOUBLE too (the index layer does not widen)
        assert got["kind"] == "BITMAP", q
        assert positions_from_json(got) == positions_from_json(q["result"]), q
