"""CI cannot be green by skipping: ``run.sh``'s preflight fails (exit 3, naming what is missing) when a tool
or the golden files are absent, the local opt-out is refused by ``.ci/run``, and a test whose Java jar
cannot be fetched fails instead of skipping.

Each case runs the real script / pytest in a subprocess whose ``PATH`` lacks one tool (a directory of
links to every other executable), so what is proven is what CI would do on such a machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUN_SH = REPO / "run.sh"
CI_RUN = REPO / ".ci" / "run"
GOLDEN = Path(os.environ.get("PAIMON_GOLDEN", REPO.parent / "shared" / "golden")).resolve()


def _path_without(tmp_path: Path, *missing: str) -> str:
    """A PATH of one directory linking every executable of the current PATH except ``missing``."""
    bin_dir = Path(tempfile.mkdtemp(prefix="bin-", dir=tmp_path))
    for d in os.environ.get("PATH", "").split(os.pathsep):
        p = Path(d)
        if not p.is_dir():
            continue
        for exe in p.iterdir():
            link = bin_dir / exe.name
            if exe.name in missing or link.exists() or link.is_symlink():
                continue
            if exe.is_file() and os.access(exe, os.X_OK):
                link.symlink_to(exe.resolve())
    return str(bin_dir)


def _env(tmp_path: Path, *missing: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PAIMON_CODEC_ALLOW_MISSING_TOOLS", "PAIMON_CODEC_CI", "JAVA_HOME")}
    env["PATH"] = _path_without(tmp_path, *missing)
    env["PAIMON_CODEC_VENV"] = str(Path(sys.prefix))
    env["PAIMON_GOLDEN"] = str(GOLDEN)
    env.update(extra)
    return env


def _preflight(env: dict[str, str], script: Path = RUN_SH, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(script), *args], env=env, capture_output=True, text=True, timeout=120,
                          cwd=REPO)


def test_preflight_passes_on_this_machine(tmp_path):
    """The set-up this suite runs in has everything (else the cases below prove nothing)."""
    out = _preflight(_env(tmp_path), RUN_SH, "preflight")
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("tool", ["java", "node", "npm", "mvn", "chromium"])
def test_preflight_fails_without_a_tool(tmp_path, tool):
    out = _preflight(_env(tmp_path, tool), RUN_SH, "preflight")
    assert out.returncode == 3, (out.returncode, out.stderr)
    err = out.stderr.strip()
    assert err.count("\n") == 0 and f"missing {tool}" in err, err


def test_preflight_fails_without_pyspark(tmp_path):
    """A venv whose python cannot import pyspark (site-packages off) is refused."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text(f"#!/bin/sh\nexec {sys.executable} -S -I \"$@\"\n")
    py.chmod(0o755)
    out = _preflight(_env(tmp_path, PAIMON_CODEC_VENV=str(venv)), RUN_SH, "preflight")
    assert out.returncode == 3 and "pyspark" in out.stderr, out.stderr


@pytest.mark.parametrize("tool", ["ruff", "mypy"])
def test_preflight_fails_without_a_python_gate(tmp_path, tool):
    """A venv whose python cannot run the lint / type gate (the module shadowed by one that fails to import)
    is refused like a missing oracle: the run would otherwise be green without checking."""
    shadow = tmp_path / "shadow" / tool
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text(f"raise ImportError('{tool} removed for this test')\n")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text(f"#!/bin/sh\nPYTHONPATH={tmp_path / 'shadow'} exec {sys.executable} \"$@\"\n")
    py.chmod(0o755)
    out = _preflight(_env(tmp_path, PAIMON_CODEC_VENV=str(venv)), RUN_SH, "preflight")
    assert out.returncode == 3, (out.returncode, out.stderr)
    err = out.stderr.strip()
    assert err.count("\n") == 0 and f"missing {tool}" in err and "pyspark" not in err, err


def test_run_sh_gates_ruff_and_mypy():
    """``./run.sh test`` (full and quick) runs the generator check, ruff and mypy (``gates``, whose failure fails
    the run under ``set -e``; tests/test_run_sh_steps.py runs it) before pytest; mypy is clean, so the gate
    holds on main."""
    text = RUN_SH.read_text()
    gates = text[text.index("\ngates() {"):text.index("\n}\n", text.index("\ngates() {"))]
    assert "set -euo pipefail" in text
    for gate in ('"$PY" tools/generate.py --check', '"$PY" -m ruff check paimon_codec tools tests benchmarks',
                 '"$PY" -m mypy paimon_codec'):
        assert gate in gates, gate
    test_branch = text[text.index("\n  test)"):]
    quick, full = test_branch.split("\n    fi\n", 1)
    assert quick.index("\n      gates\n") < quick.index('exec "$PY" -m pytest'), quick
    assert full.index("\n    gates\n") < full.index('exec "$PY" -m pytest'), full
    out = subprocess.run([sys.executable, "-m", "mypy", "paimon_codec"], capture_output=True, text=True,
                         timeout=600, cwd=REPO)
    assert out.returncode == 0, out.stdout[-4000:]


def test_type_ignores_name_their_code_and_reason():
    """Every ``# type: ignore`` in the library names its error code and says why (a comment after it on the
    line, or a comment line right above): an unexplained ignore hides whatever error comes next."""
    import re

    pattern = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[a-z-]+(?:,\s*[a-z-]+)*\])?(?P<rest>.*)$")
    bad = []
    for path in sorted((REPO / "paimon_codec").rglob("*.py")):
        if "generated" in path.relative_to(REPO).parts:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = pattern.search(line)
            if m is None:
                continue
            reason_after = m.group("rest").strip().startswith("#") and len(m.group("rest").strip()) > 2
            reason_above = i > 0 and lines[i - 1].strip().startswith("#")
            if not m.group("codes") or not (reason_after or reason_above):
                bad.append(f"{path.relative_to(REPO)}:{i + 1}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_preflight_fails_without_golden_files(tmp_path):
    out = _preflight(_env(tmp_path, PAIMON_GOLDEN=str(tmp_path / "nowhere")), RUN_SH, "preflight")
    assert out.returncode == 3 and "golden files" in out.stderr, out.stderr


def test_opt_out_is_local_only(tmp_path):
    """``PAIMON_CODEC_ALLOW_MISSING_TOOLS=1`` turns the failure into a warning locally, never in CI."""
    local = _preflight(_env(tmp_path, "java", PAIMON_CODEC_ALLOW_MISSING_TOOLS="1"), RUN_SH, "preflight")
    assert local.returncode == 0 and "WARNING" in local.stderr and "java" in local.stderr
    ci = _preflight(_env(tmp_path, "java", PAIMON_CODEC_ALLOW_MISSING_TOOLS="1", PAIMON_CODEC_CI="1"),
                    RUN_SH, "preflight")
    assert ci.returncode == 3 and "missing java" in ci.stderr
    # .ci/run refuses the variable before doing anything (no set-up, no tests)
    refused = _preflight(_env(tmp_path, PAIMON_CODEC_ALLOW_MISSING_TOOLS="1"), CI_RUN)
    assert refused.returncode == 3 and "local runs only" in refused.stderr


def _pytest(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], env=env,
                          capture_output=True, text=True, timeout=600, cwd=REPO)


def test_java_test_fails_when_the_jar_fetch_is_disabled(tmp_path):
    """No jar in the cache and no way to fetch one (no mvn, pip offline): the Java interop test FAILS."""
    env = _env(tmp_path, "mvn", XDG_CACHE_HOME=str(tmp_path / "cache"), PIP_NO_INDEX="1",
               PIP_FIND_LINKS=str(tmp_path), PAIMON_CODEC_STRICT="1", PYTHONPATH=str(REPO))
    env.pop("PAIMON_JAR", None)
    out = _pytest(["tests/test_java_interop.py::test_bridge_hash_index_and_binary_rows"], env)
    assert out.returncode != 0, out.stdout[-2000:]
    assert "1 failed" in out.stdout or "1 error" in out.stdout, out.stdout[-2000:]
    assert "skipped" not in out.stdout.splitlines()[-1]


def test_a_skip_fails_under_strict(tmp_path):
    """Any skip (here: Spark without Java) is a failure when ``PAIMON_CODEC_STRICT=1``."""
    test = tmp_path / "test_needs_spark.py"
    test.write_text("import pytest\n\ndef test_skips():\n    pytest.skip('no oracle')\n")
    conftest = tmp_path / "conftest.py"
    conftest.write_text(f"import sys\nsys.path.insert(0, {str(REPO / 'tests')!r})\n"
                        "pytest_plugins = ['strict_skips']\n")
    env = _env(tmp_path, PAIMON_CODEC_STRICT="1")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)], env=env,
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 1 and "1 failed" in out.stdout, out.stdout
