"""The wheel ships what the library needs and nothing test-only: the schemas (``formats --schema``), the
generated codecs inside the package, ``py.typed``; no Java test drivers."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_wheel_contents(tmp_path):
    src = tmp_path / "src"
    for name in ("paimon_codec", "pyproject.toml", "README.md"):
        p = REPO / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy(p, src / name)
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                          str(src), "-w", str(tmp_path / "dist")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    schemas = {p.name for p in (REPO / "paimon_codec" / "schemas").glob("*.ksy")}
    assert {f"paimon_codec/schemas/{s}" for s in schemas} <= names
    generated = {p.name for p in (REPO / "paimon_codec" / "generated" / "construct").glob("*.py")}
    assert {f"paimon_codec/generated/construct/{g}" for g in generated} <= names
    assert "paimon_codec/py.typed" in names
    assert not [n for n in names if "_testing" in n or "/tests/" in n or n.startswith("tests/")]
