"""The newest Paimon Java (1.4.2) as a benchmark peer: the project's compiled driver in ``tools/java``.

The test oracle (``tests/oracles/java_newest.py``) drives Paimon Java through JPype one value at a time,
far too slow to write a multi-million-row table or to time Java's own read.  ``tools/java/src`` holds a
small Java program of ours (package ``paimoncodec.bench``) that does both in bulk:

* ``TableBench write``: a primary-key table of generated rows (its javadoc defines the rows; this module
  regenerates them in numpy: :func:`generate`, :func:`expected_fold`);
* ``TableBench read``: Java's own batch read of a table, timed in rounds, with a row count and checksum
  (:func:`fold` computes the same checksum over an Arrow table);
* ``IndexBench``: the index workloads of the anchor's workloads.md on the 1.4.2 API.

:func:`bench_jar` builds the driver with Maven (``tools/java/bench/pom.xml``) into the cache, keyed by the
sha256 of the pom and the sources, once; it runs on :func:`classpath` = the oracle's cached 1.4.2 jars
(``tests/oracles/java_jars.py``) plus that jar.  Run as a script to build it (``run.sh setup_tools``):
it exits non-zero, naming the cause, when it cannot.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "tests"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from oracles.java_jars import NEWEST, OracleUnavailable, cache_dir, newest_java_classpath  # noqa: E402

__all__ = ["IMPL", "OracleUnavailable", "bench_jar", "classpath", "run_driver", "write_table", "read_timed",
           "run_index", "index_records", "TableSpec", "generate", "expected_fold", "fold"]

IMPL = f"paimon-java-{NEWEST}"
BENCH_POM = ROOT / "tools" / "java" / "bench" / "pom.xml"
SOURCES = ROOT / "tools" / "java" / "src" / "main" / "java"
JAR_NAME = "paimon-codec-bench.jar"
JAVA_OPTS = ["-Xmx4g", "-XX:+UseParallelGC"]

SEED_KEY, SEED_KIND, SEED_TARGET, SEED_VALUE, SEED_NULL = 801, 802, 803, 804, 805
PPM = 1_000_000
INSERT, UPDATE, DELETE = 0, 1, 2


# --------------------------------------------------------------------------------------- build
def _source_digest() -> str:
    h = hashlib.sha256()
    for path in [BENCH_POM, *sorted(SOURCES.rglob("*.java"))]:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def bench_jar(build: bool = True) -> Path:
    """The driver's jar for the current sources, built with ``mvn package`` into the cache when missing."""
    if not BENCH_POM.is_file():
        raise OracleUnavailable(f"{BENCH_POM} is missing")
    target = cache_dir() / "bench" / _source_digest()
    jar = target / JAR_NAME
    if jar.is_file():
        return jar
    if not build:
        raise OracleUnavailable(f"the Java benchmark driver is not built ({jar}) and building is disabled")
    mvn = shutil.which("mvn")
    if mvn is None:
        raise OracleUnavailable("Maven (mvn) is not installed: it builds the Java benchmark driver")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if jar.is_file():
            return jar
        out = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
        try:
            cmd = [mvn, "-q", "-B", "-f", str(BENCH_POM), f"-Dbench.out={out}", "package"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
            except subprocess.TimeoutExpired as exc:
                raise OracleUnavailable(f"mvn package of the Java benchmark driver timed out: {exc}") from exc
            if proc.returncode != 0 or not (out / JAR_NAME).is_file():
                tail = " | ".join((proc.stdout + proc.stderr).strip().splitlines()[-8:])
                raise OracleUnavailable(f"mvn package of {BENCH_POM} failed ({proc.returncode}): {tail}")
            target.mkdir(parents=True, exist_ok=True)
            os.replace(out / JAR_NAME, jar)
        finally:
            shutil.rmtree(out, ignore_errors=True)
    return jar


def classpath(build: bool = True) -> list[str]:
    """Paimon 1.4.2's jars (cached by the oracle's fetch) plus the driver's jar."""
    return [*newest_java_classpath(fetch=build), str(bench_jar(build))]


def run_driver(main: str, args: list[str], timeout: float | None = None) -> list[dict]:
    """Run ``paimoncodec.bench.<main> args...`` in a fresh JVM; its JSON lines (stderr is shown on failure)."""
    java = shutil.which("java")
    if java is None:
        raise OracleUnavailable("java is not installed")
    cmd = [java, *JAVA_OPTS, "-cp", os.pathsep.join(classpath()), f"paimoncodec.bench.{main}", *args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise OracleUnavailable(f"{main} {' '.join(args[:1])} timed out after {timeout} s") from exc
    if proc.returncode != 0:
        causes = [x.strip() for x in proc.stderr.splitlines()
                  if "Exception" in x and not x.lstrip().startswith("at ")] or proc.stderr.splitlines()[-5:]
        raise OracleUnavailable(f"{main} {' '.join(args)} failed ({proc.returncode}): " + " | ".join(causes[:6]))
    return [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]


# --------------------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class TableSpec:
    """A generated primary-key table (see ``TableBench``'s javadoc for the rows)."""

    rows: int
    buckets: int
    commits: int
    updates: float = 0.0
    deletes: float = 0.0
    merge_engine: str = "deduplicate"
    options: tuple[tuple[str, str], ...] = ()
    write_only: bool = True  # False: Paimon compacts while writing (first-row needs it, see TableBench)
    compact_first: bool = False  # True: a full compaction after commit 0 (one compacted run + level-0 runs)

    def args(self) -> list[str]:
        out = ["--rows", str(self.rows), "--buckets", str(self.buckets), "--commits", str(self.commits),
               "--updates", repr(self.updates), "--deletes", repr(self.deletes), "--merge-engine", self.merge_engine,
               "--write-only", str(self.write_only).lower(), "--compact-first", str(self.compact_first).lower()]
        for k, v in self.options:
            out += ["--option", f"{k}={v}"]
        return out


def write_table(warehouse: str | Path, table: str, spec: TableSpec, timeout: float | None = None) -> dict:
    """Write ``spec``'s table as ``warehouse/<db>.db/<name>`` with Paimon Java; the driver's report."""
    (rec,) = run_driver("TableBench", ["write", "--warehouse", str(warehouse), "--table", table, *spec.args()],
                        timeout)
    return rec


def read_timed(warehouse: str | Path, table: str, warmup: int = 3, rounds: int = 7,
               timeout: float | None = None) -> dict:
    """Java's own full read of a table, timed: median_ms, rows, checksum, ... (one fresh JVM)."""
    (rec,) = run_driver("TableBench", ["read", "--warehouse", str(warehouse), "--table", table,
                                       "--warmup", str(warmup), "--rounds", str(rounds)], timeout)
    return rec


def run_index(only: list[str] | set[str], warmup: int = 3, rounds: int = 7, timeout: float | None = None
              ) -> dict[str, dict]:
    """The anchor's index workloads on Paimon 1.4.2, one fresh JVM per workload; records by workload."""
    out = {}
    for w in sorted(only):
        args = ["--only", w, "--no-info", "--warmup", str(warmup), "--rounds", str(rounds)]
        out.update({rec["workload"]: rec for rec in run_driver("IndexBench", args, timeout) if "workload" in rec})
    return out


def index_records(only: list[str] | set[str], warmup: int = 3, rounds: int = 7) -> dict[str, dict]:
    """:func:`run_index`, or ``{}`` with a note on stderr when the driver cannot run here (as ``run_java``)."""
    try:
        return run_index(only, warmup, rounds)
    except OracleUnavailable as exc:
        print(f"# Java {NEWEST} driver not available ({exc}); its column stays empty", file=sys.stderr)
        return {}


# --------------------------------------------------------------------------------------- expected rows
def _mix64(z: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _gen_at(seed: int, i: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return _mix64(np.uint64(seed) + (i.astype(np.uint64) + np.uint64(1)) * np.uint64(0x9E3779B97F4A7C15))


def generate(spec: TableSpec) -> dict[str, np.ndarray]:
    """The rows ``TableBench write`` writes, in write order: ``kind``, ``k``, ``v`` (int64), ``s_len``, and
    ``v_null`` / ``s_null`` (a partial-update table's updates leave one of the two null)."""
    i = np.arange(spec.rows, dtype=np.int64)
    starts = np.array([c * spec.rows // spec.commits for c in range(spec.commits + 1)], dtype=np.int64)
    commit = np.searchsorted(starts, i, side="right") - 1
    from_ = starts[commit]
    upd, dele = round(spec.updates * PPM), round(spec.deletes * PPM)
    u = (_gen_at(SEED_KIND, i) % np.uint64(PPM)).astype(np.int64)
    kind = np.where(u < upd, UPDATE, np.where(u < upd + dele, DELETE, INSERT))
    kind[commit == 0] = INSERT
    target = i.copy()
    changed = kind != INSERT
    target[changed] = (_gen_at(SEED_TARGET, i[changed]) % from_[changed].astype(np.uint64)).astype(np.int64)
    digits = np.ones(spec.rows, dtype=np.int64)  # decimal digits of i, exactly
    for power in range(1, 19):
        digits += i >= 10 ** power
    nulled = np.full(spec.rows, -1, dtype=np.int64)
    if spec.merge_engine == "partial-update":
        updated = kind == UPDATE
        nulled[updated] = (_gen_at(SEED_NULL, i[updated]) % np.uint64(2)).astype(np.int64)
    return {"kind": kind, "k": _gen_at(SEED_KEY, target).view(np.int64), "v": _gen_at(SEED_VALUE, i).view(np.int64),
            "s_len": digits + 1, "v_null": nulled == 0, "s_null": nulled == 1}


def _checksum(k: np.ndarray, v: np.ndarray, s_len: np.ndarray) -> int:
    with np.errstate(over="ignore"):
        h = _mix64(k.view(np.uint64) ^ _mix64(v.view(np.uint64))) + s_len.astype(np.uint64)
        return int(h.sum(dtype=np.uint64))


def _last_valid(values: np.ndarray, null: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Per key (``first`` marks each key's first row, rows in write order): its last non-null value (0 when
    every value is null, as the fold counts a null)."""
    pos = np.where(null, -1, np.arange(len(values)))
    key = np.cumsum(first) - 1
    last = np.full(int(first.sum()), -1, dtype=np.int64)
    np.maximum.at(last, key, pos)
    return np.where(last >= 0, values[np.maximum(last, 0)], 0)


def expected_fold(spec: TableSpec) -> tuple[int, str]:
    """Row count and checksum of the table Paimon must read back, from the generator and the merge engine.

    deduplicate: per key the last row written (none when it is a delete); first-row: the first;
    partial-update: per field the last non-null value written; aggregation with
    ``fields.v.aggregate-function = sum``: v summed (wrapping, as Java's long), s of the last row.  Anything
    else is refused (the benchmark must never guess a result).
    """
    g = generate(spec)
    opts = dict(spec.options)
    order = np.argsort(g["k"], kind="stable")  # stable: within a key, write order
    k = g["k"][order]
    first = np.r_[True, k[1:] != k[:-1]]
    last = np.r_[k[1:] != k[:-1], True]
    if spec.merge_engine == "deduplicate":
        pick = order[last]
        pick = pick[g["kind"][pick] != DELETE]
        return len(pick), f"{_checksum(g['k'][pick], g['v'][pick], g['s_len'][pick]):016x}"
    if spec.deletes:
        raise ValueError(f"merge engine {spec.merge_engine!r} with deletes is not modelled")
    if spec.merge_engine == "first-row":
        pick = order[first]
        return len(pick), f"{_checksum(g['k'][pick], g['v'][pick], g['s_len'][pick]):016x}"
    if spec.merge_engine == "partial-update" and not opts:
        v = _last_valid(g["v"][order], g["v_null"][order], first)
        s_len = _last_valid(g["s_len"][order], g["s_null"][order], first)
        return len(v), f"{_checksum(k[last], v, s_len):016x}"
    if spec.merge_engine == "aggregation" and opts == {"fields.v.aggregate-function": "sum"}:
        starts = np.flatnonzero(first)
        with np.errstate(over="ignore"):
            sums = np.add.reduceat(g["v"][order], starts)
        pick = order[last]
        return len(pick), f"{_checksum(g['k'][pick], sums, g['s_len'][pick]):016x}"
    raise ValueError(f"no expected rows for merge engine {spec.merge_engine!r} with options {opts}")


def fold(rows: pa.Table) -> tuple[int, str]:
    """Row count and checksum (as ``TableBench read``) of an Arrow table with columns k, v, s."""
    k = rows.column("k").fill_null(0).to_numpy().astype(np.int64, copy=False)
    v = rows.column("v").fill_null(0).to_numpy().astype(np.int64, copy=False)
    s_len = pc.binary_length(rows.column("s")).fill_null(0).to_numpy().astype(np.int64, copy=False)
    return rows.num_rows, f"{_checksum(k, v, s_len):016x}"


def main() -> int:
    try:
        print(f"paimon {NEWEST} benchmark driver: {bench_jar()}")
    except OracleUnavailable as exc:
        print(f"Java benchmark driver unavailable: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
