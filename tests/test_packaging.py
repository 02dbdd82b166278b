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
    for name in ("paimon_codec", "schemas", "generated", "pyproject.toml", "README.md"):
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
    schemas = {p.name for p in (REPO / "schemas").glob("*.ksy")}
    assert {f"paimon_codec/schemas/{s}" for s in schemas} <= names
    generated = {p.name for p in (REPO / "generated" / "construct").glob("*.py")}
    assert {f"paimon_codec/generated/construct/{g}" for g in generated} <= names
    assert "paimon_codec/py.typed" in names
    assert not [n for n in names if "_testing" in n or "/tests/" in n or n.startswith("tests/")]
    # the top-level folders are mapped into the package, never shipped as top-level packages of their own
    assert not [n for n in names if n.startswith(("generated/", "schemas/"))]
    assert "paimon_codec/generated/__init__.py" in names
    # the explorer's page loads only what the wheel holds: its static files, the parsers, the JS runtime
    js = sorted(p.name for p in (REPO / "generated" / "javascript").glob("*.js"))
    assert "KaitaiStream.js" in js and {f"paimon_codec/generated/javascript/{j}" for j in js} <= names
    static = sorted(p.name for p in (REPO / "paimon_codec" / "explore" / "static").iterdir())
    assert {f"paimon_codec/explore/static/{f}" for f in static} <= names


def test_top_level_is_the_design_card():
    """The card's top level: ``schemas/`` and ``generated/`` are real folders beside the package, not symlinks,
    and the package holds neither."""
    for name in ("schemas", "generated"):
        assert (REPO / name).is_dir() and not (REPO / name).is_symlink(), name
        assert not (REPO / "paimon_codec" / name).exists(), f"paimon_codec/{name} is back inside the package"
    assert list((REPO / "schemas").glob("*.ksy")) and (REPO / "generated" / "construct" / "__init__.py").is_file()


def test_declared_packages_are_the_folders_on_disk():
    """pyproject's explicit package list (needed beside ``package-dir``) names every package folder, no more."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]  # tomllib is 3.11+; tomli is its backport
    conf = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = conf["package-dir"]
    on_disk = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "paimon_codec").rglob("__init__.py")}
    for pkg, folder in mapped.items():
        root = REPO / folder
        inits = [p.parent.relative_to(root).parts for p in root.rglob("__init__.py")]
        on_disk |= {".".join((pkg, *parts)) for parts in inits} | {pkg}
    on_disk = {p for p in on_disk if "__pycache__" not in p}
    assert set(conf["packages"]) == on_disk


def test_installed_package_finds_generated_and_schemas():
    """Through the (editable) install, ``paimon_codec.generated`` is the top-level ``generated/`` folder and the
    schemas are found for ``formats --schema``."""
    import paimon_codec.generated.construct as construct
    from paimon_codec import formats

    assert Path(construct.__file__).resolve().parent == (REPO / "generated" / "construct").resolve()
    assert (formats.REPO_SCHEMAS / "bitmap_index.ksy").is_file()
