"""Shared test fixtures: where the golden vectors live and how to load them."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

pytest_plugins = ["strict_skips", "storage_fixtures", "spark_cluster"]  # storage_fixtures: s3_server, table_location;
# spark_cluster: spark_cluster (a standalone cluster on loopback)

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


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium (Debian's package) for the session, driven over DevTools; missing: the test FAILS."""
    from browser import Browser, chromium_binary

    binary = chromium_binary()
    if binary is None:
        pytest.fail("chromium not found (./run.sh test installs Debian's chromium)", pytrace=False)
    browser = Browser(binary)
    yield browser
    browser.close()


# ------------------------------------------------------------------ Paimon Java oracles (subprocess JVMs)

def _java_oracle(version: str):
    """One worker JVM of a Paimon Java version for the whole session; a missing oracle FAILS the test."""
    from oracles.java_newest import JavaPaimon, OracleUnavailable

    try:
        oracle = JavaPaimon(version, jvm_args=["-XX:TieredStopAtLevel=1"])
    except OracleUnavailable as exc:
        pytest.fail(f"Paimon Java {version} oracle unavailable: {exc}", pytrace=False)
    return oracle


@pytest.fixture(scope="session")
def java_newest():
    """:class:`oracles.java_newest.JavaPaimon` of the newest Paimon Java release (1.4.2)."""
    from oracles.java_newest import NEWEST

    oracle = _java_oracle(NEWEST)
    yield oracle
    oracle.close()


@pytest.fixture(scope="session")
def java09_tables():
    """The same oracle API driven by Paimon 0.9 (its own worker JVM)."""
    oracle = _java_oracle("0.9")
    yield oracle
    oracle.close()


# -- pypaimon 2.1 oracle (tests/oracles/pypaimon21.py): its own venv, one worker per session -------------
@pytest.fixture(scope="session")
def pypaimon21():
    """pypaimon 2.1.0 (+ pypaimon-rust) in its own venv; a venv that cannot be made FAILS the test, never skips."""
    from oracles.pypaimon21 import OracleError, PyPaimon

    try:
        oracle = PyPaimon()
    except (OracleError, RuntimeError, OSError) as exc:
        pytest.fail(f"pypaimon 2.1 oracle unavailable: {exc}", pytrace=False)
    yield oracle
    oracle.close()


# -- the generated JavaScript / Java parsers (tests/oracles/kaitai_langs.py): a missing one FAILS the test --------
@pytest.fixture(scope="session")
def kaitai_js():
    """Command of the JavaScript dumper (node + the npm Kaitai runtime in tools/node_modules)."""
    from oracles.kaitai_langs import LanguageUnavailable, js_command

    try:
        return js_command()
    except LanguageUnavailable as exc:
        pytest.fail(f"generated JavaScript parsers unavailable: {exc}", pytrace=False)


@pytest.fixture(scope="session")
def kaitai_java():
    """Command of the Java dumper (generated/java + the Kaitai runtime, built by Maven into the cache)."""
    from oracles.kaitai_langs import LanguageUnavailable, java_command
    from oracles.quick_guard import refuse_in_quick_run

    refuse_in_quick_run("java", "the generated Java parsers' JVM")
    try:
        return java_command()
    except LanguageUnavailable as exc:
        pytest.fail(f"generated Java parsers unavailable: {exc}", pytrace=False)


# -- markers derived from the fixtures a test uses (a test's fixture closure includes indirect ones) ------
# ``./run.sh test --quick`` runs ``-m "not spark and not java and not pypaimon and not s3"`` with
# PAIMON_CODEC_QUICK=1, under which every one of these resources refuses to start
# (tests/oracles/quick_guard.py): a test reaching one without its marker fails there, loudly.
HEAVY_FIXTURES = {
    "spark": "spark",
    "spark_cluster": "spark",
    "spark_connect": "spark",
    "java_newest": "java",
    "java09_tables": "java",
    "kaitai_java": "java",
    "kaitai_js": "node",
    "pypaimon21": "pypaimon",
    "s3_server": "s3",
    "chromium": "browser",
}


def heavy_markers(item) -> set[str]:
    """The resource markers a collected test needs, from its fixtures and its ``table_location`` param."""
    names = set(getattr(item, "fixturenames", ()))
    found = {marker for fixture, marker in HEAVY_FIXTURES.items() if fixture in names}
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        if callspec.params.get("table_location") == "s3":
            found.add("s3")  # the s3 case requests s3_server at run time (getfixturevalue)
        # a module requesting fixtures at run time by a parameter's value says which: DYNAMIC_FIXTURES
        dynamic = getattr(getattr(item, "module", None), "DYNAMIC_FIXTURES", {})
        for value in callspec.params.values():
            if isinstance(value, str) and HEAVY_FIXTURES.get(dynamic.get(value, "")):
                found.add(HEAVY_FIXTURES[dynamic[value]])
    return found


def pytest_collection_modifyitems(config, items) -> None:
    for item in items:
        have = {m.name for m in item.iter_markers()}
        for marker in sorted(heavy_markers(item) - have):
            item.add_marker(getattr(pytest.mark, marker))

