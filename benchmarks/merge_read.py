"""Merge read of a primary-key table: ``plan_scan`` + ``read_plan_locally`` vs. newest Paimon Java's read.

Newest Paimon Java (1.4.2, a small driver of our own: ``benchmarks/java/MergeReadBench.java``, compiled
here with ``javac`` against the oracle's cached jars) writes a deduplicate table of ``--rows`` keys in
``--buckets`` buckets: one insert commit, a full compaction, then ``--updates`` commits of upserts and
deletes left in level 0, so each bucket holds ``1 + updates`` sorted runs.  Then, in the same run, Java
reads the whole table (timed inside the JVM: warm-up rounds, then timed rounds) and so do we (one
process, no Spark); both must return the same number of rows.  Prints medians and the ratio, and
writes ``benchmarks/results/merge_read.md``.

    python benchmarks/merge_read.py [--rows 5000000] [--buckets 4] [--updates 3] [--update-rows 500000]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _harness import RESULTS, ROOT, environment, markdown_table, timed, write_result

JAVA_SOURCE = Path(__file__).resolve().parent / "java" / "MergeReadBench.java"


def _classpath() -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from oracles.java_jars import NEWEST, classpath

    return classpath(NEWEST)


def _compile(build: Path, cp: list[str]) -> None:
    subprocess.run(["javac", "-d", str(build), "-cp", os.pathsep.join(cp), str(JAVA_SOURCE)], check=True)


def _java(build: Path, cp: list[str], *args: object, timeout: float = 3600) -> str:
    proc = subprocess.run(["java", "-Xmx6g", "-cp", os.pathsep.join([str(build), *cp]), "MergeReadBench",
                           *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if proc.returncode:
        raise RuntimeError(f"Java driver failed: {proc.stderr[-2000:]}")
    return proc.stdout


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000_000)
    ap.add_argument("--buckets", type=int, default=4)
    ap.add_argument("--updates", type=int, default=3, help="update commits left in level 0")
    ap.add_argument("--update-rows", type=int, default=500_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--output", default=str(RESULTS / "merge_read.md"))
    args = ap.parse_args(argv)

    from paimon_codec.table import PaimonTable
    from paimon_codec.table.plan import plan_scan
    from paimon_codec.table.read import read_plan_locally

    cp = _classpath()
    work = Path(tempfile.mkdtemp(prefix="paimon-codec-merge-bench-"))
    try:
        build = work / "classes"
        _compile(build, cp)
        warehouse = work / "wh"
        t0 = time.perf_counter()
        _java(build, cp, "write", warehouse, args.rows, args.buckets, args.updates, args.update_rows, 42)
        write_s = time.perf_counter() - t0
        path = str(warehouse / "db.db" / "t")
        table = PaimonTable(path)
        files = table.live_files(table.snapshot())
        runs = {}
        for f in files:
            runs.setdefault(f.bucket, set()).add(("L0", f.file_name) if f.level == 0 else ("L", f.level))
        java = json.loads(_java(build, cp, "read", warehouse, 1, args.rounds).strip().splitlines()[-1])

        def ours() -> int:
            return read_plan_locally(plan_scan(path)).num_rows

        times, count = timed(ours, warmup=1, rounds=args.rounds)
        if count != java["rows"]:
            raise SystemExit(f"row counts differ: ours {count}, Java {java['rows']}")
        ours_ms, java_ms = statistics.median(times), statistics.median(java["ms"])
        ratio = java_ms / ours_ms
        records = len(files) and sum(f.row_count for f in files)
        print(f"table: {args.rows} keys, {args.buckets} buckets, {len(files)} files, {records} records, "
              f"sorted runs per bucket {sorted(len(r) for r in runs.values())}; Java write {write_s:.1f} s")
        print(f"ours {ours_ms:.0f} ms, Java 1.4.2 {java_ms:.0f} ms (median of {args.rounds}); "
              f"rows {count}; speed-up {ratio:.2f}x")
        text = "\n".join([
            "# Merge read of a primary-key table (deduplicate)",
            "",
            f"`python benchmarks/merge_read.py --rows {args.rows} --buckets {args.buckets} --updates {args.updates} "
            f"--update-rows {args.update_rows} --rounds {args.rounds}`",
            "",
            f"Table written by Paimon Java 1.4.2: {args.rows} keys in {args.buckets} buckets, {len(files)} data files, "
            f"{records} records; sorted runs per bucket: {sorted(len(r) for r in runs.values())} (one compacted run + "
            "level-0 update runs).  Both sides read every row of the latest snapshot (merged by key); "
            "Java timed inside its JVM (`ReadBuilder` batch read, rows iterated), ours in one Python process "
            "(`plan_scan` + `read_plan_locally`, no Spark).",
            "",
            markdown_table(["reader", "median ms", "rows"], ["---", "---:", "---:"],
                           [["paimon-codec merge read", f"{ours_ms:.0f}", count],
                            ["Paimon Java 1.4.2", f"{java_ms:.0f}", java["rows"]]]),
            "",
            f"Speed-up (Java / ours): **{ratio:.2f}x**",
            "",
            environment(),
        ])
        write_result(args.output, text)
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
