"""Command-line conventions shared by every subcommand: --version, exit statuses, schema printing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import paimon_codec
from paimon_codec.cli import EXIT_BAD_INPUT, EXIT_USAGE, main

REPO = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "paimon_codec", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=120)


def test_version():
    out = _run("--version")
    assert out.returncode == 0
    assert out.stdout.strip() == f"paimon-codec {paimon_codec.__version__}"


@pytest.mark.parametrize("argv", [["no-such-command"], ["inspect"], ["index", "query", "--no-such-option"],
                                  ["dv"], ["formats", "--json", "extra"]])
def test_usage_errors_exit_3(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == EXIT_USAGE == 3
    assert "usage:" in capsys.readouterr().err


def test_bad_input_exits_2(tmp_path, capsys):
    bad = tmp_path / "bad.index"
    bad.write_bytes(b"\x00" * 3)
    assert main(["inspect", str(bad), "--format", "file-index"]) == EXIT_BAD_INPUT == 2
    err = capsys.readouterr().err
    assert err.startswith("paimon-codec: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("name,sid", [("bitmap", "bitmap_index"), ("deletion-vectors", "deletion_vectors"),
                                      ("paimon_key", "paimon_key"), ("puffin", "puffin")])
def test_formats_prints_a_schema(name, sid, capsys):
    assert main(["formats", "--schema", name]) == 0
    assert capsys.readouterr().out == (REPO / "schemas" / f"{sid}.ksy").read_text(encoding="utf-8")


def test_formats_refuses_an_unknown_schema(capsys):
    assert main(["formats", "--schema", "../pyproject"]) == EXIT_BAD_INPUT
    assert "no schema" in capsys.readouterr().err


def test_the_package_is_typed():
    assert (Path(paimon_codec.__file__).parent / "py.typed").is_file()
    assert "py.typed" in (REPO / "pyproject.toml").read_text()
