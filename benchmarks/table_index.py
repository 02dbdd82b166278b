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
import json
import shutil
import sys
import tempfile
from pathlib import Path

import _java_newest
import numpy as np
from _harness import (
    IMPL,
    RESULTS,
    below,
    crc32_hex,
    environment,
    gen,
    markdown_table,
    parse_only,
    result_line,
    run_java,
    same_as_java,
    timed,
    write_result,
)

from paimon_codec.bucket.hash_index import read_hash_index, write_hash_index
from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import read_deletion_vectors, write_dv_index

EXPECTED = {  # workloads.md §4 (Java 0.9.0)
    "W5.build": {"bytes": -1, "crc32": None, "check": 9_950_069},
    "W5.write": {"bytes": 20_048_139, "crc32": "0b189625", "check": 9_950_069},
    "W5.read": {"bytes": 20_048_139, "crc32": "0b189625", "check": 9_950_069},
    "W6.write": {"bytes": 40_000_000, "crc32": "5623001c", "check": None},
    "W6.read": {"bytes": 40_000_000, "crc32": "5623001c", "check": 882_904_197_048},
}
#: Java medians recorded by the anchor on a quiet machine (java-bench/results/2026-11-22-run*.jsonl).
JAVA_TARGET_MS = {"W5.build": 880.0, "W5.write": 1000.0, "W5.read": 78.0, "W6.write": 93.0, "W6.read": 67.0}


def line(workload: str, times: list[float], *, nbytes: int, ops: int, check, crc: str | None, what: str) -> dict:
    return result_line(workload, times, ops=ops, nbytes=nbytes, check=check, crc=crc, variant="batch", what=what,
                       warmup=WARMUP, rounds=ROUNDS, impl=IMPL, expected=EXPECTED[workload])


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
        crc = crc32_hex(data)
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
        crc = crc32_hex(data)
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


def markdown(py: list[dict], java: dict[str, dict], newest: dict[str, dict] | None = None) -> str:
    newest = newest or {}
    rows = []
    for r in py:
        j = java.get(r["workload"])
        n = newest.get(r["workload"])
        jm = f"{j['median_ms']:.1f}" if j else "not run"
        ratio = f"{j['median_ms'] / r['median_ms']:.2f}x" if j else "-"
        ref = JAVA_TARGET_MS[r["workload"]]
        nm = f"{n['median_ms']:.1f}" if n else "not run"
        nratio = f"{n['median_ms'] / r['median_ms']:.2f}x" if n else "-"
        rows.append([r["workload"], f"{r['median_ms']:.1f}", jm, ratio, nm, nratio,
                     f"{ref / r['median_ms']:.2f}x (of {ref:.0f} ms)", r["bytes"], r.get("crc32", "-"),
                     r.get("check", "-"), "yes" if same_as_java(r, j) and same_as_java(r, n) else "NO"])
    return markdown_table(["workload", "paimon-codec median ms", "Java 0.9 median ms (same run)",
                           "speed-up, same run (Java 0.9 / Python)", "Java 1.4.2 median ms (same run)",
                           "speed-up, same run (Java 1.4.2 / Python)", "speed-up vs published warmed Java 0.9",
                           "bytes", "crc32", "check", "checks match"],
                          ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---", "---:", "---"],
                          rows)


def main(argv: list[str] | None = None) -> int:
    global WARMUP, ROUNDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-java", action="store_true", help="skip both Java harnesses")
    ap.add_argument("--no-java-newest", action="store_true", help="skip the Java 1.4.2 driver (tools/java)")
    ap.add_argument("--only", default="W5.build,W5.write,W5.read,W6.write,W6.read")
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--warmup", type=int, default=WARMUP)
    ap.add_argument("--output", default=str(RESULTS / "table_index.md"))
    args = ap.parse_args(argv)
    WARMUP, ROUNDS = args.warmup, args.rounds
    only = parse_only(args.only, EXPECTED, ap.error)
    java = {} if args.no_java else run_java(only)
    for j in java.values():
        print(json.dumps(j))
    newest = {} if args.no_java or args.no_java_newest else _java_newest.index_records(only)
    for n in newest.values():
        print(json.dumps(n))
    with tempfile.TemporaryDirectory(prefix="paimon-codec-bench-") as tmp:
        py = run_python(Path(tmp), only)
    for r in py:
        print(json.dumps(r))
    table = markdown(py, java, newest)
    header = (f"# Table-index workloads (W5, W6)\n\n{environment()}; {WARMUP} warm-up + {ROUNDS} timed rounds, "
              f"median.  Java = Paimon 0.9.0 via `shared/anchors/java-bench/run.sh` in the same run "
              f"(run first, one JVM per workload){'' if java else ' - not run this time'}; Java 1.4.2 = the same "
              f"workloads on Paimon 1.4.2's API (`tools/java` IndexBench, 32-bit DVs, one JVM per workload, run "
              f"first){'' if newest else ' - not run this time'}; 'published warmed "
              f"Java' = the anchor's recorded medians (java-bench/results, quiet machine).  Speed-up > 1 means "
              f"paimon-codec is faster.  Timings on a shared 2-core machine are noisy; the checks are exact.\n\n")
    print()
    print(table)
    write_result(args.output, header + table + "\n")
    return 0 if all(r["checks_ok"] for r in py) else 1


if __name__ == "__main__":
    sys.exit(main())
