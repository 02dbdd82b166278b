"""Shared pieces of the benchmark scripts in ``benchmarks/``.

* the splitmix64 input generator of ``shared/anchors/java-bench/workloads.md`` (:func:`gen`,
  :func:`below`) so every script builds exactly the anchor's inputs;
* timing: :func:`timed` (warm-up + timed rounds, ``gc.collect()`` before each, optional untimed
  setup), :func:`alternate` (several implementations timed in turn, round by round, so that on a
  shared machine they all see the same load) and :func:`interleave` (whole runs of several sides - a
  Java process among them - in turn, repeat after repeat);
* one result record per measured workload (:func:`result_line`, printed as a JSON line);
* the Java anchor harness runner (:func:`run_java`, ``run.sh --only ...``);
* markdown output (:func:`markdown_table`, :func:`write_result`, :func:`environment`,
  :func:`replace_readme_section`).

Scripts run as ``python benchmarks/<name>.py``, so this module is imported as ``_harness``.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from paimon_codec import __version__  # noqa: E402
from paimon_codec.fileio import atomic_write_bytes  # noqa: E402

IMPL = f"paimon-codec-{__version__}"
_GAMMA = np.uint64(0x9E3779B97F4A7C15)


# --------------------------------------------------------------------------------------- inputs
def gen(seed: int, start: int, count: int) -> np.ndarray:
    """splitmix64 outputs ``start .. start + count - 1`` of stream ``seed`` (uint64), workloads.md §1."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(start + 1, start + count + 1, dtype=np.uint64) * _GAMMA
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def below(seed: int, start: int, count: int, n: int) -> np.ndarray:
    """``gen(...) % n`` as int64 (workloads.md ``below``)."""
    return (gen(seed, start, count) % np.uint64(n)).astype(np.int64)


def crc32_hex(data: bytes) -> str:
    return f"{zlib.crc32(data):08x}"


# --------------------------------------------------------------------------------------- timing
def timed(fn: Callable[[], Any], warmup: int = 3, rounds: int = 7, setup: Callable[[], Any] | None = None,
          collect: bool = True, cpu: list[float] | None = None) -> tuple[list[float], Any]:
    """Run ``fn`` ``warmup`` + ``rounds`` times; milliseconds of the timed rounds and the last result.

    ``setup`` (untimed) runs before every round; ``collect`` runs ``gc.collect()`` before each; ``cpu`` (a
    list) gets the process CPU milliseconds of each timed round (every thread's, as the wall time's work).
    """
    result = None
    for _ in range(warmup):
        if setup:
            setup()
        if collect:
            gc.collect()
        result = fn()
    times = []
    for _ in range(rounds):
        if setup:
            setup()
        if collect:
            gc.collect()
        c0, t0 = time.process_time(), time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c0) * 1000)
    return times, result


def alternate(fns: Sequence[Callable[[], Any]], rounds: int) -> tuple[list[list[float]], list[Any]]:
    """Time every function once per round, in turn; per-function milliseconds and last results."""
    times: list[list[float]] = [[] for _ in fns]
    outs: list[Any] = [None] * len(fns)
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            outs[i] = fn()
            times[i].append((time.perf_counter() - t0) * 1000)
    return times, outs


def interleave(sides: Sequence[tuple[str, Callable[[], Any]]], repeats: int,
               log: Callable[[dict], Any] | None = None) -> tuple[dict[str, list[Any]], dict[str, list[float]]]:
    """Run every side once per repeat, in turn (A B C, then B C A, ...): on a shared machine a ratio counts
    only when the sides saw the same load.  Each side's call does its own warm-up and rounds and returns its
    records (a list, or a dict by workload); ``log`` gets every record as it comes.  Returns each side's
    results per repeat and the 1-minute load average at the start of each of its runs."""
    results: dict[str, list[Any]] = {name: [] for name, _ in sides}
    loads: dict[str, list[float]] = {name: [] for name, _ in sides}
    for rep in range(repeats):
        for k in range(len(sides)):
            name, fn = sides[(k + rep) % len(sides)]
            loads[name].append(os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"))
            out = fn()
            results[name].append(out)
            if log is not None:
                for rec in out if isinstance(out, list) else out.values():
                    log({**rec, "repeat": rep})
    return results, loads


def load_summary(loads: dict[str, list[float]]) -> str:
    """``python 3.1-5.2, java-1.4.2 2.9-6.0`` (min-max of the load averages each side started at)."""
    return ", ".join(f"{name} {min(v):.1f}-{max(v):.1f}" for name, v in loads.items() if v)


# --------------------------------------------------------------------------------------- records
def result_line(workload: str, times: list[float], *, ops: int, nbytes: int = -1, check: Any = None,
                crc: str | None = None, variant: str | None = None, what: str = "", warmup: int | None = None,
                rounds: int | None = None, impl: str = IMPL, expected: dict | None = None,
                **extra: Any) -> dict:
    """One measured workload in the anchor harness's JSON shape (median/min/max ms, per-op µs, ...).

    ``check`` and ``crc`` are omitted when None.  With ``expected`` (``{"bytes", "crc32", "check"}``
    of workloads.md §4) the record gets ``checks_ok``.
    """
    med = statistics.median(times)
    out: dict[str, Any] = {"workload": workload, "impl": impl, "median_ms": round(med, 3),
                           "min_ms": round(min(times), 3), "max_ms": round(max(times), 3), "bytes": nbytes,
                           "ops": ops}
    if ops > 1:
        out["median_us_per_op"] = round(med * 1000 / ops, 4)
    if check is not None:
        out["check"] = check
    if crc is not None:
        out["crc32"] = crc
    if warmup is not None:
        out["warmup"] = warmup
    if rounds is not None:
        out["rounds"] = rounds
    out["rounds_ms"] = [round(t, 3) for t in times]
    if variant is not None:
        out["variant"] = variant
    out["what"] = what
    out.update(extra)
    if expected is not None:
        out["checks_ok"] = (expected["bytes"] == nbytes and expected["crc32"] == crc
                            and expected["check"] == check)
    return out


def emit(record: dict) -> dict:
    """Print one record as a JSON line (flushed) and return it."""
    print(json.dumps(record), flush=True)
    return record


def same_as_java(record: dict, java: dict | None) -> bool:
    """Our record's checks hold and, when Java ran, its bytes / crc32 / check equal ours."""
    return bool(record.get("checks_ok", True)) and (
        java is None or (java.get("bytes") == record["bytes"] and java.get("crc32") == record.get("crc32")
                         and java.get("check") == record.get("check")))


# --------------------------------------------------------------------------------------- Java
def java_anchor() -> Path:
    """Directory of the Java harness (``PAIMON_ANCHOR`` / ``PAIMON_JAVA_BENCH`` override it)."""
    env = os.environ.get("PAIMON_ANCHOR") or os.environ.get("PAIMON_JAVA_BENCH")
    return Path(env) if env else ROOT.parent / "shared" / "anchors" / "java-bench"


def run_java(only: Iterable[str], timeout: float | None = None) -> dict[str, dict]:
    """Run the anchor's ``run.sh --only <workloads>``; its JSON records by workload ({} if unavailable)."""
    script = java_anchor() / "run.sh"
    if not script.exists() or not shutil.which("java") or not shutil.which("javac"):
        print(f"# Java harness not available ({script}); Python only", file=sys.stderr)
        return {}
    env = dict(os.environ)
    cached = Path.home() / ".cache" / "paimon-codec" / "jars" / "paimon-python-java-bridge-0.9.0.jar"
    if "PAIMON_JAR" not in env and cached.exists():
        env["PAIMON_JAR"] = str(cached)
    try:
        proc = subprocess.run(["bash", str(script), "--only", ",".join(sorted(only))], capture_output=True,
                              text=True, env=env, check=False, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"# Java harness timed out after {timeout} s", file=sys.stderr)
        return {}
    if proc.returncode != 0:
        print(f"# Java harness failed (exit {proc.returncode}): {proc.stderr.strip()[-500:]}", file=sys.stderr)
        return {}
    out = {}
    for text in proc.stdout.splitlines():
        text = text.strip()
        if text.startswith("{"):
            obj = json.loads(text)
            if "workload" in obj:
                out[obj["workload"]] = obj
    return out


# --------------------------------------------------------------------------------------- output
def markdown_table(header: Sequence[str], align: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A markdown table; ``align`` holds one ``---`` / ``---:`` separator cell per column."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def environment() -> str:
    """``paimon-codec X, Python Y, numpy Z; N CPUs, load average L``."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"paimon-codec {__version__}, Python {sys.version.split()[0]}, numpy {np.__version__}; "
            f"{os.cpu_count()} CPUs, load average {load:.1f}")


def write_result(path: str | Path, text: str) -> None:
    """Write a results file atomically (``text`` gets a final newline if missing)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (text if text.endswith("\n") else text + "\n").encode("utf-8"))


def replace_readme_section(name: str, text: str, readme: Path = HERE / "README.md") -> None:
    """Replace what lies between ``<!-- <name>:begin -->`` and ``<!-- <name>:end -->`` in the benchmarks
    README (the benchmark regenerates its own table there)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    body = readme.read_text(encoding="utf-8")
    if begin not in body or end not in body:
        raise SystemExit(f"{readme} has no {begin} ... {end} markers")
    head, rest = body.split(begin, 1)
    _, tail = rest.split(end, 1)
    write_result(readme, f"{head}{begin}\n{text.strip()}\n{end}{tail}")


def parse_only(text: str, known: Iterable[str], error: Callable[[str], Any]) -> set[str]:
    """The ``--only`` comma list as a set; unknown names go to ``error`` (``ArgumentParser.error``)."""
    only = {w.strip() for w in text.split(",") if w.strip()}
    unknown = only - set(known)
    if unknown:
        error(f"unknown workloads {sorted(unknown)}")
    return only
