"""``run.sh test``'s own steps, run for real on a copy of the script with a stand-in venv python (a shell
script logging what it is asked): the install is redone only when ``pyproject.toml`` (or the tree) changed or
``./run.sh setup`` asks, ``npm ci`` only when the lock file changed, and the three gates (generator check, ruff,
mypy) run before pytest, side by side, each one's output shown and any failing one failing the run before a
test starts."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# the stand-in python: logs its arguments; a gate fails when FAIL names it (its output says so)
FAKE_PYTHON = """#!/bin/sh
echo "$*" >>"$RUN_LOG"
case "$*" in
  "-m pip"*) exit 0 ;;
  "tools/generate.py --check") gate=generate ;;
  "-m ruff check"*) gate=ruff ;;
  "-m mypy paimon_codec") gate=mypy ;;
  "-m pytest"*) echo "pytest ran"; exit 0 ;;
  *) echo "unexpected: $*" >&2; exit 99 ;;
esac
case " $FAIL " in
  *" $gate "*) echo "$gate found a problem"; echo "$gate: details on stderr" >&2; exit 1 ;;
esac
echo "$gate is clean"
"""

FAKE_NPM = """#!/bin/sh
echo "npm $*" >>"$RUN_LOG"
rm -rf tools/node_modules && mkdir -p tools/node_modules
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of run.sh and pyproject.toml (run.sh works in its own folder) with tools/package*.json."""
    root = tmp_path / "tree"
    (root / "tools").mkdir(parents=True)
    shutil.copy(REPO / "run.sh", root / "run.sh")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    (root / "tools" / "package.json").write_text('{"name": "t"}\n')
    (root / "tools" / "package-lock.json").write_text('{"lockfileVersion": 3}\n')
    venv_bin = tmp_path / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for path, text in ((venv_bin / "python", FAKE_PYTHON), (stubs / "npm", FAKE_NPM), (stubs / "dot", "#!/bin/sh\n")):
        path.write_text(text)
        path.chmod(0o755)
    return root


def _run(tree: Path, *args: str, fail: str = "") -> tuple[subprocess.CompletedProcess, list[str]]:
    log = tree.parent / "log"
    log.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAIMON_CODEC")}
    env.update(PATH=f"{tree.parent / 'stubs'}{os.pathsep}{os.environ['PATH']}", RUN_LOG=str(log), FAIL=fail,
               PAIMON_CODEC_VENV=str(tree.parent / "venv"), PAIMON_GOLDEN=str(tree.parent / "golden"))
    out = subprocess.run(["bash", str(tree / "run.sh"), *args], env=env, capture_output=True, text=True,
                         timeout=120, cwd=tree)
    return out, log.read_text().splitlines() if log.exists() else []


def _pip(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("-m pip")]


def test_install_is_redone_only_when_pyproject_changes_or_setup_asks(tree):
    out, calls = _run(tree, "test", "--quick")
    assert out.returncode == 0, out.stderr
    assert _pip(calls) == ["-m pip install --quiet --disable-pip-version-check --upgrade pip setuptools wheel",
                           '-m pip install --quiet --disable-pip-version-check -e .[test]']
    out, calls = _run(tree, "test", "--quick")
    assert out.returncode == 0 and not _pip(calls) and "-m mypy paimon_codec" in calls, calls
    pyproject = tree / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# a new dependency would be here\n")
    out, calls = _run(tree, "test", "--quick")
    assert out.returncode == 0 and len(_pip(calls)) == 2, calls
    out, calls = _run(tree, "setup")  # asked for: installs even though nothing changed
    assert out.returncode == 0 and len(_pip(calls)) == 2 and calls == _pip(calls), calls
    # a venv whose install failed half way has no stamp: the next run installs again
    (tree.parent / "venv" / ".paimon-codec-setup").unlink()
    out, calls = _run(tree, "test", "--quick")
    assert out.returncode == 0 and len(_pip(calls)) == 2, calls


def test_npm_ci_runs_only_when_the_lock_file_changes(tree):
    _, calls = _run(tree, "test", "--quick")
    assert [c for c in calls if c.startswith("npm")] == ["npm ci --prefix tools --silent --no-audit --no-fund"]
    _, calls = _run(tree, "test", "--quick")
    assert not [c for c in calls if c.startswith("npm")], calls
    (tree / "tools" / "package-lock.json").write_text('{"lockfileVersion": 3, "packages": {}}\n')
    _, calls = _run(tree, "test", "--quick")
    assert [c for c in calls if c.startswith("npm")] == ["npm ci --prefix tools --silent --no-audit --no-fund"]
    shutil.rmtree(tree / "tools" / "node_modules")  # removed by hand: installed again
    _, calls = _run(tree, "test", "--quick")
    assert len([c for c in calls if c.startswith("npm")]) == 1, calls


def test_gates_run_before_pytest_and_their_output_is_shown_in_order(tree):
    out, calls = _run(tree, "test", "--quick", "-k", "x")
    assert out.returncode == 0, out.stderr
    shown = [line for line in out.stdout.splitlines() if line.endswith(" is clean") or line == "pytest ran"]
    assert shown == ["generate is clean", "ruff is clean", "mypy is clean", "pytest ran"], out.stdout
    gate_calls = {"tools/generate.py --check", "-m ruff check paimon_codec tools tests benchmarks",
                  "-m mypy paimon_codec"}
    assert gate_calls <= set(calls)
    (pytest_call,) = [i for i, c in enumerate(calls) if c.startswith("-m pytest")]
    assert {calls.index(c) for c in gate_calls} < set(range(pytest_call))  # all three done before it starts
    assert calls[pytest_call].endswith("not browser and not slow -k x"), calls[pytest_call]


@pytest.mark.parametrize("failing", ["generate", "ruff", "mypy", "generate mypy"])
def test_a_failing_gate_fails_the_run_with_its_output_and_no_test_runs(tree, failing):
    out, calls = _run(tree, "test", "--quick", fail=failing)
    assert out.returncode == 1, (out.returncode, out.stdout, out.stderr)
    for gate in ("generate", "ruff", "mypy"):  # every gate ran, and says what it found
        if gate in failing.split():
            assert f"{gate} found a problem" in out.stdout and f"{gate}: details on stderr" in out.stderr
        else:
            assert f"{gate} is clean" in out.stdout
    assert "pytest ran" not in out.stdout and not [c for c in calls if c.startswith("-m pytest")]
