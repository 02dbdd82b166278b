#!/usr/bin/env python3
"""Table-index benchmark: workloads W5 (deletion vectors) and W6 (hash index) beside Paimon's Java.

Builds exactly the inputs of ``shared/anchors/java-bench/workloads.md`` (splitmix64), times the same
regions (3 warm-up + 7 timed rounds, ``gc.collect()`` before each), checks ``bytes`` / ``crc32`` /
``check`` against the expected values of §4, and - when ``java`` is present and ``--no-java`` is not
given - runs the Java harness (``run.sh --only 'W5*,W6*'``) in the same run and prints ratios
(Java median / Python median: > 1 means paimon-codec is faster).  The markdown table is printed and
written to ``benchmarks/results/table_index.md``.

    .venv/bin/python benchmarks/table_index.py            # with Java when available
    .venv/bin/python benchmarks/table_index.py --no-java  # Python only
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from paimon_codec import __version__  # noqa: E402
from paimon_codec.bucket.hash_index import read_hash_index, write_hash_index  # noqa: E402
from paimon_codec.dv.deletion_vector import DeletionVector  # noqa: E402
from paimon_codec.dv.index_file import read_deletion_vectors, write_dv_index  # noqa: E402

GAMMA = np.uint64(0x9E3779B97F4A7C15)
EXPECTED = {  # workloads.md §4 (Java 0.9.0)
    "W5.build": {"bytes": -1, "crc32": None, "check": 9_950_069},
    "W5.write": {"bytes": 20_048_139, "crc32": "0b189625", "check": 9_950_069},
    "W5.read": {"bytes": 20_048_139, "crc32": "0b189625", "check": 9_950_069},
    "W6.write": {"bytes": 40_000_000, "crc32": "5623001c", "check": None},
    "W6.read": {"bytes": 40_000_000, "crc32": "5623001c", "check": 882_904_197_048},
}
#: Java medians recorded by the anchor on a quiet machine (java-bench/results/2026-11-22-run*.jsonl).
JAVA_TARGET_MS = {"W5.build": 880.0, "W5.write": 1000.0, "W5.read": 78.0, "W6.write": 93.0, "W6.read": 67.0}


def gen(seed: int, start: int, count: int) -> np.ndarray:
    z = np.uint64(seed) + np.arange(start + 1, start + count + 1, dtype=np.uint64) * GAMMA
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def below(seed: int, start: int, count: int, n: int) -> np.ndarray:
    return (gen(seed, start, count) % np.uint64(n)).astype(np.int64)


def timed(fn, warmup: int, rounds: int, setup=None) -> tuple[list[float], object]:
    """Run ``fn`` warmup + rounds times; ``setup`` (untimed) runs before each round."""
    result = None
    for _ in range(warmup):
        if setup:
            setup()
        gc.collect()
        result = fn()
    times = []
    for _ in range(rounds):
        if setup:
            setup()
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return times, result


def line(workload: str, times: list[float], *, nbytes: int, ops: int, check, crc: str | None, what: str) -> dict:
    med = statistics.median(times)
    out = {"workload": workload, "impl": f"paimon-codec-{__version__}", "median_ms": round(med, 3),
           "min_ms": round(min(times), 3), "max_ms": round(max(times), 3), "bytes": nbytes, "ops": ops}
    if ops > 1:
        out["median_us_per_op"] = round(med * 1000 / ops, 4)
    if check is not None:
        out["check"] = check
    if crc is not None:
        out["crc32"] = crc
    out.update({"warmup": WARMUP, "rounds": ROUNDS, "rounds_ms": [round(t, 3) for t in times],
                "variant": "batch", "what": what})
    exp = EXPECTED[workload]
    out["checks_ok"] = (exp["bytes"] == nbytes and exp["crc32"] == crc and exp["check"] == check)
    return out


WARMUP, ROUNDS = 3, 7


def run_python(tmp: Path, only: set[str]) -> list[dict]:
    results = []
    names = [f"data-{f:04d}.parquet" for f in range(1000)]
    positions = below(501, 0, 10_000_000, 1_000_000).reshape(1000, 10_000)
    assert positions[0, :5].tolist() == [350595, 514290, 123667, 562823, 48886]

    def build():
        return [DeletionVector.from_array(positions[f]) for f in range(1000)]

    if "W5.build" in only:
        times, dvs = timed(build, WARMUP, ROUNDS)
        results.append(line("W5.build", times, nbytes=-1, ops=1000, check=sum(d.cardinality for d in dvs),
                            crc=None, what="1000 deletion vectors from 10k positions each (numpy -> roaring)"))

    dv_dir = tmp / "w5"
    metas_holder = {}

    def clean():
        shutil.rmtree(dv_dir, ignore_errors=True)

    def write():
        dvs = build()
        metas_holder["metas"] = write_dv_index(dv_dir, list(zip(names, dvs, strict=True)), target_size="1 gb",
                                               name_factory=lambda n: f"index-w5-{n}")
        return dvs

    if {"W5.write", "W5.read"} & only:
        times, dvs = timed(write, WARMUP, ROUNDS, setup=clean)
        metas = metas_holder["metas"]
        assert len(metas) == 1
        path = dv_dir / metas[0].file_name
        data = path.read_bytes()
        crc = f"{zlib.crc32(data):08x}"
        back = read_deletion_vectors(path, metas[0].ranges)
        check = sum(d.cardinality for d in back.values())
        if "W5.write" in only:
            results.append(line("W5.write", times, nbytes=len(data), ops=1, check=check, crc=crc,
                                what="build 1000 DVs and write one DV index file (size|bin|crc32 each)"))
        if "W5.read" in only:
            ranges = metas[0].ranges
            times, back = timed(lambda: read_deletion_vectors(path, ranges), WARMUP, ROUNDS)
            assert all(back[n] == d for n, d in zip(names, dvs, strict=True))
            results.append(line("W5.read", times, nbytes=len(data), ops=1000,
                                check=sum(d.cardinality for d in back.values()), crc=crc,
                                what="read all 1000 DVs by their ranges, verifying size, magic and CRC-32"))

    if {"W6.write", "W6.read"} & only:
        hashes = gen(601, 0, 10_000_000).astype(np.uint32).view(np.int32)
        assert hashes[:5].tolist() == [-1789939687, -776130134, 1623708913, -136318307, 1566611235]
        hpath = tmp / "w6" / "index-w6-0"
        times, _ = timed(lambda: write_hash_index(hpath, hashes), WARMUP, ROUNDS)
        data = hpath.read_bytes()
        crc = f"{zlib.crc32(data):08x}"
        if "W6.write" in only:
            results.append(line("W6.write", times, nbytes=len(data), ops=1, check=None, crc=crc,
                                what="write 10M int32 hashes as a HASH index file (numpy byteswap)"))
        if "W6.read" in only:
            times, back = timed(lambda: read_hash_index(hpath), WARMUP, ROUNDS)
            assert np.array_equal(back, hashes)
            results.append(line("W6.read", times, nbytes=len(data), ops=10_000_000,
                                check=int(back.astype(np.int64).sum()), crc=crc,
                                what="read a 10M-int HASH index file into an int32 array"))
    return results


def run_java(only: set[str]) -> dict[str, dict]:
    anchor = Path(os.environ.get("PAIMON_ANCHOR", HERE.parent.parent / "shared" / "anchors" / "java-bench"))
    script = anchor / "run.sh"
    if not script.exists() or not shutil.which("java") or not shutil.which("javac"):
        print(f"# Java harness not available ({script}); Python only", file=sys.stderr)
        return {}
    env = dict(os.environ)
    cached = Path.home() / ".cache" / "paimon-codec" / "jars" / "paimon-python-java-bridge-0.9.0.jar"
    if "PAIMON_JAR" not in env and cached.exists():
        env["PAIMON_JAR"] = str(cached)
    wanted = ",".join(sorted(only))
    proc = subprocess.run(["bash", str(script), "--only", wanted], capture_output=True, text=True, env=env,
                          check=False)
    if proc.returncode != 0:
        print(f"# Java harness failed (exit {proc.returncode}): {proc.stderr.strip()[-500:]}", file=sys.stderr)
        return {}
    out = {}
    for text in proc.stdout.splitlines():
        if text.startswith("{"):
            obj = json.loads(text)
            if "workload" in obj:
                out[obj["workload"]] = obj
    return out


def markdown(py: list[dict], java: dict[str, dict]) -> str:
    rows = ["| workload | paimon-codec median ms | Java 0.9 median ms (same run) | speed-up, same run "
            "(Java / Python) | speed-up vs published warmed Java | bytes | crc32 | check | checks match |",
            "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |"]
    for r in py:
        j = java.get(r["workload"])
        jm = f"{j['median_ms']:.1f}" if j else "not run"
        ratio = f"{j['median_ms'] / r['median_ms']:.2f}x" if j else "-"
        ref = JAVA_TARGET_MS[r["workload"]]
        ratio += f" | {ref / r['median_ms']:.2f}x (of {ref:.0f} ms)"
        same = r["checks_ok"] and (j is None or (j.get("bytes") == r["bytes"] and j.get("crc32") == r.get("crc32")
                                                 and j.get("check") == r.get("check")))
        rows.append(f"| {r['workload']} | {r['median_ms']:.1f} | {jm} | {ratio} | {r['bytes']} | "
                    f"{r.get('crc32', '-')} | {r.get('check', '-')} | {'yes' if same else 'NO'} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    global WARMUP, ROUNDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-java", action="store_true", help="skip the Java harness")
    ap.add_argument("--only", default="W5.build,W5.write,W5.read,W6.write,W6.read")
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--warmup", type=int, default=WARMUP)
    ap.add_argument("--output", default=str(HERE / "results" / "table_index.md"))
    args = ap.parse_args(argv)
    WARMUP, ROUNDS = args.warmup, args.rounds
    only = {w.strip() for w in args.only.split(",") if w.strip()}
    unknown = only - set(EXPECTED)
    if unknown:
        ap.error(f"unknown workloads {sorted(unknown)}")
    java = {} if args.no_java else run_java(only)
    for j in java.values():
        print(json.dumps(j))
    with tempfile.TemporaryDirectory(prefix="paimon-codec-bench-") as tmp:
        py = run_python(Path(tmp), only)
    for r in py:
        print(json.dumps(r))
    table = markdown(py, java)
    header = (f"# Table-index workloads (W5, W6)\n\npaimon-codec {__version__}, Python {sys.version.split()[0]}, "
              f"numpy {np.__version__}; {os.cpu_count()} CPUs; {WARMUP} warm-up + {ROUNDS} timed rounds, "
              f"median.  Java = Paimon 0.9.0 via `shared/anchors/java-bench/run.sh` in the same run "
              f"(run first, one JVM per workload){'' if java else ' - not run this time'}; 'published warmed "
              f"Java' = the anchor's recorded medians (java-bench/results, quiet machine).  Speed-up > 1 means "
              f"paimon-codec is faster.  Timings on a shared 2-core machine are noisy; the checks are exact.\n\n")
    print()
    print(table)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(header + table + "\n", encoding="utf-8")
    return 0 if all(r["checks_ok"] for r in py) else 1


if __name__ == "__main__":
    sys.exit(main())
