"""The README's examples run as written, on the table its first command keeps (``./run.sh demo --warehouse wh``).

The demo writes its table with :func:`paimon_codec.spark.sample.write_sample_table` (``paimon_version="latest"``);
so does the fixture here, into ``wh/`` of a temporary working directory.  The Python quickstart is executed
as it stands in README.md and its rows are checked against the sample's own rows; each line of the command-line
block runs through ``bash`` with ``paimon-codec`` being this checkout's ``python -m paimon_codec``; the Spark
quickstart runs on the tests' Spark session (with the table's absolute path: that session's Python workers
keep the directory it started in).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow.compute as pc
import pytest
from spark_fixtures import spark  # noqa: F401

from paimon_codec.spark.sample import write_sample_table

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    return README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


@pytest.fixture
def demo_cwd(tmp_path, monkeypatch):
    table = write_sample_table(tmp_path / "wh", paimon_version="latest")
    assert Path(table) == tmp_path / "wh" / "demo.db" / "orders"  # the path the README names
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run_block(code: str) -> dict:
    scope: dict = {"__name__": "__readme__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), scope)  # noqa: S102 - the README's own example
    scope["__stdout__"] = out.getvalue()
    return scope


def test_python_quickstart(demo_cwd):
    (code,) = re.findall(r"```python\n(.*?)```", section("Quickstart: Python"), re.S)
    scope = run_block(code)
    rows = scope["rows"]
    whole = scope["read_table"]("wh/demo.db/orders")
    expected = whole.filter(pc.and_(pc.equal(whole["status"], "NEW"), pc.greater(whole["amount"], 99000)))
    assert rows.num_rows == expected.num_rows > 0
    assert sorted(rows["id"].to_pylist()) == sorted(expected["id"].to_pylist())
    printed = scope["__stdout__"].splitlines()
    assert "'columns'" in printed[0] and "'kind'" in printed[1]


@pytest.mark.spark  # `audit` runs on Spark
@pytest.mark.slow
def test_command_line_lines(demo_cwd):
    shim = demo_cwd / "bin" / "paimon-codec"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m paimon_codec "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = dict(os.environ, PATH=f"{shim.parent}{os.pathsep}{os.environ['PATH']}",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    (code,) = re.findall(r"```bash\n(.*?)```", section("Command line"), re.S)
    lines = [line.split("  #", 1)[0].strip() for line in code.splitlines() if line.strip()]
    assert [line.split()[1] for line in lines] == ["--help", "inspect", "plan", "audit", "remove-orphans", "explore"]
    for line in lines:
        if line.split()[1] == "explore":  # serves until stopped: its first line is the page's address
            proc = subprocess.Popen(["bash", "-c", f"exec {line}"], cwd=demo_cwd, env=env, stdout=subprocess.PIPE,
                                    text=True)
            try:
                first = proc.stdout.readline()
            finally:
                proc.terminate()
                proc.wait(timeout=30)
            assert first.startswith("paimon-codec explore: http://127.0.0.1:"), first
            continue
        out = subprocess.run(["bash", "-c", line], cwd=demo_cwd, env=env, capture_output=True, text=True,
                             timeout=600)
        assert out.returncode == 0, (line, out.stderr[-2000:])
        if "--json" in line:
            json.loads(out.stdout)


@pytest.mark.spark
def test_spark_quickstart(demo_cwd, spark):  # noqa: F811
    (code,) = re.findall(r"```python\n(.*?)```", section("Quickstart: Spark"), re.S)
    # the session's Python workers keep the working directory the session started in (not this test's):
    # the table path is made absolute, as a relative one resolves in each process's own directory
    scope = run_block(code.replace('"wh/demo.db/orders"', f'"{demo_cwd / "wh/demo.db/orders"}"'))
    report = scope["report"]
    assert report.files_skipped_by_index > 0 and report.rows_selected == scope["df"].count() > 0
    again, _ = scope["scan"](spark, str(demo_cwd / "wh/demo.db/orders"), "status = 'REFUNDED' AND region = 'EU'")
    assert again.count() == 2 * report.rows_selected  # write() appended the selected rows once
