"""The long run's record accumulates over segments exactly as one uninterrupted run would count."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from fuzz import record
from fuzz.targets import GOLDEN

pytestmark = pytest.mark.skipif(not GOLDEN.is_dir(), reason=f"golden files (the seeds) not found at {GOLDEN}")

_spec = importlib.util.spec_from_file_location("fuzz_tool", Path(__file__).resolve().parents[2] / "tools" / "fuzz.py")
fuzz_tool = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_tool)

ARGS = ["--targets", "hash-index,delete-map", "--seed", "5"]


def _run(tmp_path: Path, json_path: Path, inputs: int, *extra: str) -> int:
    return fuzz_tool.main([*ARGS, "--inputs", str(inputs), "--json", str(json_path), "--out",
                           str(tmp_path / "findings"), *extra])


def test_resumed_segments_add_up_to_one_run(tmp_path):
    split, whole = tmp_path / "split.json", tmp_path / "whole.json"
    assert _run(tmp_path, split, 150, "--resume") == 0
    assert _run(tmp_path, split, 400, "--resume") == 0
    assert _run(tmp_path, split, 400, "--resume") == 0  # nothing left to run: a third, empty segment
    assert _run(tmp_path, whole, 400) == 0
    a, b = record.load(split), record.load(whole)
    assert len(a["segments"]) == 3 and len(b["segments"]) == 1
    assert a["segments"][0]["ranges"] == {"hash-index": [0, 150], "delete-map": [0, 150]}
    assert a["segments"][1]["ranges"] == {"hash-index": [150, 400], "delete-map": [150, 400]}
    assert all(len(s["commit"]) == 40 for s in a["segments"])
    for name in ("hash-index", "delete-map"):
        ta, tb = a["targets"][name], b["targets"][name]
        assert ta["next"] == tb["next"] == 400 and ta["inputs"] == 400
        for key in ("ok", "error", "other", "hang", "overalloc", "crash", "error_classes"):
            assert ta[key] == tb[key], (name, key)
    table = record.markdown(a)
    assert "| hash-index | 400 |" in table and "Reached 400: hash-index, delete-map" in table


def test_refuses_to_resume_a_changed_harness(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert _run(tmp_path, path, 50, "--resume") == 0
    assert _run(tmp_path, path, 100) == 2  # an existing record is continued only with --resume
    rec = json.loads(path.read_text())
    rec["harness"] = "0" * 16
    path.write_text(json.dumps(rec))
    capsys.readouterr()
    assert _run(tmp_path, path, 100, "--resume") == 2
    err = capsys.readouterr().err.strip()
    assert "input generation changed" in err and "\n" not in err
    assert json.loads(path.read_text()) == rec  # untouched
    rec["harness"] = record.harness_hash()
    rec["targets"]["hash-index"]["corpus"] = "f" * 16
    path.write_text(json.dumps(rec))
    assert _run(tmp_path, path, 100, "--resume") == 2
    assert "seeds of hash-index changed" in capsys.readouterr().err


def test_start_reproduces_one_input(tmp_path, capsys):
    """``--start N --inputs 1`` (how a finding is reproduced) runs input N alone, not 0..N."""
    assert fuzz_tool.main(["--targets", "hash-index", "--seed", "5", "--start", "37", "--inputs", "1",
                           "--out", str(tmp_path / "f")]) == 0
    out = capsys.readouterr().out
    assert "hash-index: 1 inputs" in out and "(indexes 37..37)" in out


def test_recheck_reruns_each_finding_and_keeps_the_counts(tmp_path):
    from fuzz.runner import fuzz_target

    path = tmp_path / "r.json"
    assert _run(tmp_path, path, 60, "--resume") == 0
    rec = record.load(path)
    found = rec["targets"]["hash-index"]
    # a finding as the record keeps one (index, class, detail), for an input the library handles today
    found["findings"] = [[11, "hang", "over 2.0s"]]
    found["hang"] = 1
    record.save(path, rec)
    assert fuzz_tool.main(["--recheck", str(path), "--out", str(tmp_path / "f")]) == 0
    after = record.load(path)
    assert after["targets"] == rec["targets"]  # the run's own counts are never rewritten
    (row,) = after["rechecks"]
    alone = fuzz_target("hash-index", 1, seed=5, start=11, out_dir=str(tmp_path / "g"))
    assert alone.inputs == 1 and alone.counts[row["now"]] == 1
    assert (row["target"], row["index"], row["found"]) == ("hash-index", 11, "hang")
    assert len(row["commit"]) == 40
    # the detail says what still goes wrong (or the documented error); an input now ok has none
    assert (row["detail"] == "") == (row["now"] == "ok"), row
    assert "0 of 1 still fail; hash-index #11 hang -> " in record.markdown(after)


def test_recheck_refuses_changed_seeds(tmp_path, capsys):
    path = tmp_path / "r.json"
    assert _run(tmp_path, path, 20, "--resume") == 0
    rec = record.load(path)
    rec["targets"]["delete-map"]["findings"] = [[3, "crash", "worker exit code -11"]]
    rec["targets"]["delete-map"]["corpus"] = "e" * 16
    record.save(path, rec)
    capsys.readouterr()
    assert fuzz_tool.main(["--recheck", str(path), "--out", str(tmp_path / "f")]) == 2
    assert "seeds of delete-map changed" in capsys.readouterr().err
    assert "rechecks" not in record.load(path)


_PROBE = """
import hashlib, sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
from fuzz import record
from fuzz.runner import input_for
from fuzz.targets import TARGETS
for name in ("manifest", "manifest-list", "index-manifest", "table"):
    t = TARGETS[name]
    inputs = hashlib.sha256(b"".join(input_for(t, 3, i)[0] for i in range(40))).hexdigest()[:16]
    print(name, record.corpus_hash(t), inputs)
"""


def test_seeds_and_inputs_are_the_same_in_every_process():
    """A resumed segment, a recheck and ``--start`` regenerate inputs in a new process: Avro seeds and Avro
    mutations must not carry fastavro's random sync marker (it made the record refuse to resume)."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    runs = [subprocess.run([sys.executable, "-c", _PROBE, str(repo / "tests"), str(repo)], capture_output=True,
                           text=True, check=True, env=dict(os.environ)).stdout for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0].splitlines()) == 4
