"""The quick run (``./run.sh test --quick``) is honest: every test needing Spark, a JVM, pypaimon or the S3
server carries its marker, and under ``PAIMON_CODEC_QUICK=1`` each of those refuses to start, so a test that
reaches one unmarked fails the quick run instead of slowing it down."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from oracles.quick_guard import QUICK_ENV, HeavyResourceInQuickRun

REPO = Path(__file__).resolve().parent.parent
QUICK = "not spark and not java and not pypaimon and not s3 and not browser and not slow"


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setenv(QUICK_ENV, "1")


def test_java_worker_refuses(quick):
    from oracles.java_newest import JavaPaimon

    with pytest.raises(HeavyResourceInQuickRun, match="mark.java"):
        JavaPaimon()


def test_java09_jvm_refuses(quick):
    import jpype

    if jpype.isJVMStarted():  # the full run started it in-process already: nothing left to refuse
        pytest.xfail("the in-process JVM of Paimon 0.9 is already running in this session")
    from oracles.java09 import paimon_java

    with pytest.raises(HeavyResourceInQuickRun, match="mark.java"):
        paimon_java()


def test_pypaimon_refuses(quick):
    from oracles.pypaimon21 import PyPaimon, pypaimon_venv

    with pytest.raises(HeavyResourceInQuickRun, match="mark.pypaimon"):
        PyPaimon()
    with pytest.raises(HeavyResourceInQuickRun, match="mark.pypaimon"):
        pypaimon_venv()


def test_s3_server_refuses(quick):
    from oracles.s3_server import running_server

    with pytest.raises(HeavyResourceInQuickRun, match="mark.s3"), running_server():
        pass


def test_spark_session_refuses(quick):
    from paimon_codec.spark.session import get_spark

    with pytest.raises(RuntimeError, match="mark.spark"):
        get_spark("local[1]")


def _collected(*args: str) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    r = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                       capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    assert r.returncode in (0, 5), r.stdout + r.stderr  # 5: nothing collected
    return [line for line in r.stdout.splitlines() if "::" in line]


def test_markers_come_from_fixtures():
    """Modules without explicit marks whose tests use the spark / java_newest / pypaimon21 / s3_server
    fixtures (directly, through another fixture, or as the ``table_location`` s3 case) leave the quick run."""
    files = ["tests/test_spark_rewrite.py",           # spark + java_newest + pypaimon21, no module mark
             "tests/test_storage_index_get.py",       # s3_server through a module fixture
             "tests/test_oracle_pypaimon.py",         # pypaimon21
             "tests/test_table_merge_read.py",        # java_newest; spark
             "tests/test_compat_matrix.py"]           # oracles by the writer parameter (DYNAMIC_FIXTURES)
    located_files = ["tests/test_spark_scan_store.py", "tests/test_topn_threshold.py"]
    everything = _collected(*files)
    # one collection for the quick selection of both file sets (each collection imports pyspark & co.)
    quick_all = _collected("-m", QUICK, *files, *located_files)
    quick = [t for t in quick_all if t.split("::")[0] in files]
    located = [t for t in quick_all if t.split("::")[0] in located_files]
    assert everything and quick and len(quick) < len(everything) and located
    for name in ("test_spark_rewrite_matches_java", "test_planning_on_s3_prunes_as_on_local_disk",
                 "test_create_write_read_round_trip", "test_merge_across_schema_evolution",
                 "test_cell_reads_exactly_or_refuses[java-0.9", "test_cell_reads_exactly_or_refuses[pypaimon-2.1"):
        assert any(name in t for t in everything) and not any(name in t for t in quick), name
    assert not any("[s3" in t or "-s3" in t for t in located), located


def test_run_sh_quick_runs_under_the_guard():
    text = (REPO / "run.sh").read_text()
    quick = text[text.index('if [ "${2:-}" = --quick ]'):text.index("preflight\n    setup_tools")]
    assert f"{QUICK_ENV}=1" in quick and f'-m "{QUICK}"' in quick
    # the generator check, ruff and mypy (run.sh's gates(): tests/test_ci_strict.py, tests/test_run_sh_steps.py)
    assert quick.index("\n      gates\n") < quick.index('-m pytest')
    assert "--quick" not in (REPO / ".ci" / "run").read_text()  # CI: the full, strict run
