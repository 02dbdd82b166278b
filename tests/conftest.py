"""Shared test fixtures: where the golden vectors live and how to load them."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

pytest_plugins = ["strict_skips"]

REPO = Path(__file__).resolve().parent.parent
GOLDEN = Path(os.environ.get("PAIMON_GOLDEN", REPO.parent / "shared" / "golden")).resolve()
GOLDEN_09 = GOLDEN / "paimon-0.9"
GOLDEN_LATEST = GOLDEN / "paimon-latest"


def load_json(path: Path):
    """Load a sidecar (``.json`` or ``.json.gz``)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            return json.load(fh)
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def latest_cases(kind: str | None = None) -> list[dict]:
    """Cases of ``paimon-latest/index.json`` (optionally of one kind), paths made absolute."""
    index = load_json(GOLDEN_LATEST / "index.json")
    out = []
    for case in index["cases"]:
        if kind is None or case["kind"] == kind:
            out.append(dict(case, file=GOLDEN_LATEST / case["file"], json=GOLDEN_LATEST / case["json"]))
    return out


@pytest.fixture(scope="session")
def golden() -> Path:
    if not GOLDEN.is_dir():
        pytest.skip(f"golden vectors not found at {GOLDEN}")
    return GOLDEN


# -- pypaimon 2.1 oracle (tests/oracles/pypaimon21.py): its own venv, one worker per session -------------
@pytest.fixture(scope="session")
def pypaimon21():
    """pypaimon 2.1.0 (+ pypaimon-rust) in its own venv; a venv that cannot be made is an error, not a skip."""
    from oracles.pypaimon21 import PyPaimon

    with PyPaimon() as oracle:
        yield oracle
