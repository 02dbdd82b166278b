"""A quick run of ``benchmarks/merge_read.py``: Java writes a small PK table, both sides read it, counts agree."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import merge_read  # noqa: E402


def test_merge_read_benchmark_runs_and_rows_agree(tmp_path, capsys):
    out = tmp_path / "merge_read.md"
    status = merge_read.main(["--rows", "20000", "--buckets", "2", "--updates", "2", "--update-rows", "3000",
                              "--rounds", "1", "--output", str(out)])
    assert status == 0
    text = out.read_text()
    assert "Paimon Java 1.4.2" in text and "Speed-up" in text
    printed = capsys.readouterr().out
    assert "sorted runs per bucket [3, 3]" in printed
