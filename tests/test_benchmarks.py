"""The benchmark scripts' shared harness, and quick runs proving the W4 checks still hold."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import _harness  # noqa: E402
import file_index  # noqa: E402
from spark_fixtures import spark  # noqa: E402,F401


def test_result_line_checks_and_optional_fields():
    exp = {"bytes": 3, "crc32": _harness.crc32_hex(b"abc"), "check": 7}
    rec = _harness.result_line("X", [2.0, 1.0, 3.0], ops=4, nbytes=3, check=7, crc=_harness.crc32_hex(b"abc"),
                               expected=exp, variant="batch", what="w")
    assert rec["median_ms"] == 2.0 and rec["min_ms"] == 1.0 and rec["median_us_per_op"] == 500.0
    assert rec["checks_ok"] is True
    bad = _harness.result_line("X", [1.0], ops=1, nbytes=3, check=8, crc=exp["crc32"], expected=exp)
    assert bad["checks_ok"] is False and "median_us_per_op" not in bad
    bare = _harness.result_line("Y", [1.0], ops=1)
    assert "check" not in bare and "crc32" not in bare and "checks_ok" not in bare
    assert json.loads(json.dumps(rec)) == rec


def test_timed_and_alternate_run_counts():
    calls = []
    cpu: list[float] = []
    times, out = _harness.timed(lambda: calls.append(1) or len(calls), warmup=2, rounds=3,
                                setup=lambda: calls.append(0), cpu=cpu)
    assert len(times) == 3 and out == len(calls) and calls.count(0) == 5
    assert len(cpu) == 3 and all(c >= 0 for c in cpu)  # one process-CPU reading per timed round
    order = []
    (ta, tb), outs = _harness.alternate([lambda: order.append("a") or 1, lambda: order.append("b") or 2], 3)
    assert order == ["a", "b"] * 3 and len(ta) == len(tb) == 3 and outs == [1, 2]


def test_generator_is_splitmix64():
    def splitmix(seed, i):
        m = (1 << 64) - 1
        z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & m
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        return z ^ (z >> 31)

    got = _harness.gen(401, 5, 10).tolist()
    assert got == [splitmix(401, i) for i in range(5, 15)]
    assert _harness.below(7, 0, 50, 13).tolist() == [splitmix(7, i) % 13 for i in range(50)]


def test_markdown_table_shape():
    text = _harness.markdown_table(["a", "b"], ["---", "---:"], [[1, "x"], [2, "y"]])
    assert text.splitlines() == ["| a | b |", "| --- | ---: |", "| 1 | x |", "| 2 | y |"]


def test_file_index_w4_checks_hold(tmp_path, capsys):
    out = tmp_path / "w4.md"
    status = file_index.main(["--no-java", "--only", "W4.build,W4.probe", "--rounds", "1", "--warmup", "0",
                              "--output", str(out)])
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert status == 0 and {r["workload"] for r in records} == {"W4.build", "W4.probe"}
    assert all(r["checks_ok"] for r in records)
    assert all(r["cpu_median_ms"] > 0 for r in records)  # the bloom kernels' CPU, beside the wall time
    assert "| W4.probe |" in out.read_text() and np.isfinite(records[0]["median_ms"])


@pytest.mark.spark
def test_merge_read_runs_and_every_reader_agrees(tmp_path, capsys, spark):  # noqa: F811
    """merge_read at a tiny size: Java 1.4.2 writes each case, its own read returns exactly the rows the
    generator and the merge engine predict, and our readers (local and Spark) return the same rows."""
    import merge_read

    out = tmp_path / "merge_read.md"
    status = merge_read.main(["--rows", "3000", "--buckets", "2", "--commits", "3",
                              "--cases", "deduplicate,compacted+l0,first-row,aggregation", "--warmup", "0", "--rounds", "1",
                              "--repeats", "1", "--keep", str(tmp_path / "wh"), "--output", str(out)])
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    reads = [r for r in records if r.get("workload") == "read"]
    assert status == 0
    java = {r["case"]: r for r in reads if r["impl"].startswith("paimon-java-1.4")}
    assert set(java) == {"deduplicate", "compacted+l0", "first-row", "aggregation"}
    for r in java.values():
        assert r["status"] == "ok" and r["rows"] == r["expected_rows"] and r["checksum"] == r["expected_checksum"]
    # 3 commits: 3 level-0 runs per bucket; compacted+l0: one compacted run + 2 level-0 runs
    assert java["deduplicate"]["sorted_runs_per_bucket"] == java["compacted+l0"]["sorted_runs_per_bucket"] == "3"
    dedup = java["deduplicate"]
    assert 0 < dedup["rows"] < 3000 and dedup["splits"] >= 2  # updates and deletes merged away, 2 buckets
    ours = [r for r in reads if r["impl"].startswith("paimon-codec") and r["variant"] != "plain"]
    # every reader ran every case (each timed round is a record: the sides are interleaved)
    sides = ("local", "spark", "source")
    assert {(r["case"], r["variant"]) for r in ours} == {(c, v) for c in java for v in sides}
    for r in ours:
        assert r["status"] == "ok", r
        assert (r["rows"], r["checksum"]) == (java[r["case"]]["rows"], java[r["case"]]["checksum"])
    # the plain-Spark floor reads the planned files unmerged: first-row's are read without a merge (the same
    # rows as Java's); the merged cases' files hold more records than the merge leaves
    plain = {r["case"]: r for r in reads if r.get("variant") == "plain"}
    assert set(plain) == set(java)
    assert (plain["first-row"]["rows"], plain["first-row"]["checksum"]) == (java["first-row"]["rows"],
                                                                            java["first-row"]["checksum"])
    assert plain["deduplicate"]["rows"] > java["deduplicate"]["rows"]
    text = out.read_text()
    assert "| deduplicate | 3,000 | 2 x 3 (" in text and "Paimon Java 1.4.2" in text
    assert "plain Spark, same files" in text and "rows unmerged)" in text


@pytest.mark.spark
def test_index_build_runs_small_and_matches_java(tmp_path, capsys, spark):  # noqa: F811
    """index_build at a tiny size: the table is written, Java 1.4.2's rewrite step and ours build
    byte-identical containers for every file, and the index-aware lookup returns the plain read's rows
    while reading fewer files."""
    import index_build

    out = tmp_path / "index_build.md"
    status = index_build.main(["--rows", "40000", "--files", "4", "--block-size", "64kb", "--rounds", "1",
                               "--master", "local[2]", "--output", str(out)])
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines() if x.startswith("{")]
    assert status == 0 and records[-1] == {"done": True}
    rewrites = {r["impl"]: r for r in records if r.get("workload") == "rewrite"}
    java, ours = rewrites["paimon-java-1.4.2"], rewrites["paimon-codec"]
    assert (java["files"], java["container_bytes"], java["crc32"]) == (ours["files"], ours["container_bytes"],
                                                                        ours["crc32"]) and ours["files"] == 4
    (scan,) = [r for r in records if r.get("workload") == "scan"]
    assert scan["rows"] == 40 and scan["files_read"] < scan["files_total"]
    assert scan["scan_data_bytes"] < scan["table_bytes"]
    assert "| index every data file (4 files) |" in out.read_text()
