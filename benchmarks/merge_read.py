#!/usr/bin/env python3
"""Merge-read benchmark: a primary-key table with several sorted runs per bucket, read by paimon-codec and
by Paimon Java 1.4.2 in the same run.

Paimon Java 1.4.2 writes the table (``tools/java`` driver, ``benchmarks/_java_newest.py``): ``--rows``
generated rows (default 5M) in ``--buckets`` buckets (4) over ``--commits`` batch commits (5) without
compaction, so every bucket holds one sorted run per commit that the reader must merge by key; from the
second commit on, ``--updates`` (30 %) of the rows rewrite and ``--deletes`` (5 %) delete a key of an
earlier commit.  Cases: ``deduplicate`` (the default engine) at ``--rows``, and ``first-row`` (no deletes)
at ``--small-rows``; ``compacted+l0`` (deduplicate, a full compaction after the first commit: one big
compacted run plus small level-0 runs per bucket, the shape of a table that keeps taking updates) at
``--small-rows``; ``aggregation`` (``sum`` of v) on request.

Each reader reads the whole latest snapshot, timed in rounds (``--warmup`` + ``--rounds``, ``gc.collect()``
before each, median):

* ``paimon-codec``: ``plan_scan`` + ``read_plan_locally`` (one process, Arrow);
* ``paimon-codec + Spark``: ``paimon_codec.spark.scan`` in a ``local[2]`` session, every row pulled
  through ``mapInArrow`` into a per-partition count + checksum;
* ``Paimon Java 1.4.2``: ``ReadBuilder`` -> ``RecordReader`` over every split, in its own JVM (``TableBench
  read``), folding each row into the count + checksum.

A timing counts only when the reader's row count and checksum equal Java's, and Java's equal what the
generator and the merge engine say the table holds (:func:`_java_newest.expected_fold`).
A reader that refuses the table (``paimon_codec.errors``) is reported as such.  Results are printed as
JSON lines and a markdown table, written to ``benchmarks/results/merge_read.md``.

    .venv/bin/python benchmarks/merge_read.py                 # 5M rows, a few minutes on 2 cores
    .venv/bin/python benchmarks/merge_read.py --rows 200000 --no-spark
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import _java_newest as jn
from _harness import IMPL, RESULTS, environment, markdown_table, result_line, timed, write_result

from paimon_codec.errors import PaimonCodecError

CASES = ("deduplicate", "compacted+l0", "first-row", "aggregation")
DEFAULT_CASES = "deduplicate,compacted+l0,first-row"


def spec_for(case: str, rows: int, args: argparse.Namespace) -> jn.TableSpec:
    if case == "deduplicate":
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, args.deletes)
    if case == "compacted+l0":  # deduplicate, fully compacted after commit 0, later commits left in level 0
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, args.deletes, compact_first=True)
    if case == "first-row":
        # a batch read of a first-row table skips level-0 files: let Paimon compact as it writes
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, 0.0, "first-row", write_only=False)
    return jn.TableSpec(rows, args.buckets, args.commits, args.updates, 0.0, "aggregation",
                        (("fields.v.aggregate-function", "sum"),))


def sorted_runs(path: str) -> tuple[int, int, int]:
    """(min, max) sorted runs per bucket in the latest snapshot (each level-0 file is one run, each other
    level one) and the number of data files."""
    from paimon_codec.table import PaimonTable

    files = PaimonTable(path).data_files()
    runs: dict[int, set] = {}
    for f in files:
        runs.setdefault(f.bucket, set()).add(("l0", f.path) if f.level == 0 else f.level)
    counts = [len(r) for r in runs.values()] or [0]
    return min(counts), max(counts), len(files)


def read_local(path: str):
    """The whole table as an Arrow table (the timed region; the fold comes after)."""
    from paimon_codec.planning.plan import plan_scan
    from paimon_codec.reading.read import read_plan_locally

    return read_plan_locally(plan_scan(path))


def read_spark(spark: Any, path: str) -> tuple[int, str]:
    """Every row through Spark (``scan`` -> ``mapInArrow``), folded per partition, combined on the driver."""
    from paimon_codec.spark import scan

    df, _ = scan(spark, path)

    def partial(batches):  # runs in the Python workers: nothing from this module, only numpy / pyarrow
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        def mix(z):
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            return z ^ (z >> np.uint64(31))

        n, h = 0, np.uint64(0)
        with np.errstate(over="ignore"):
            for b in batches:
                k = b.column("k").fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64).view(np.uint64)
                v = b.column("v").fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64).view(np.uint64)
                s_len = pc.binary_length(b.column("s")).fill_null(0).to_numpy(zero_copy_only=False)
                h += (mix(k ^ mix(v)) + s_len.astype(np.uint64)).sum(dtype=np.uint64)
                n += b.num_rows
        yield pa.RecordBatch.from_pydict({"n": [n], "h": [int(h.view(np.int64))]})

    parts = df.mapInArrow(partial, "n long, h long").collect()
    total = sum(int(r.h) % (1 << 64) for r in parts) % (1 << 64)
    return sum(int(r.n) for r in parts), f"{total:016x}"


def measure(reader: Callable[[], Any], folder: Callable[[Any], tuple[int, str]], expected: tuple[int, str],
            warmup: int, rounds: int) -> tuple[list[float] | None, tuple[int, str] | None, str]:
    """Timed rounds of ``reader`` (``folder`` turns its result into count + checksum, untimed); (times, fold,
    status) - no times when it refuses or disagrees with ``expected`` (Java's answer)."""
    try:
        got = folder(reader())  # first a checked read (it is the first warm-up round): never time a wrong answer
    except PaimonCodecError as exc:
        return None, None, f"refused: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    if got != expected:
        return None, got, f"WRONG: {got[0]} rows / {got[1]}, Java read {expected[0]} / {expected[1]}"
    times, last = timed(reader, max(warmup - 1, 0), rounds)
    got = folder(last)
    if got != expected:
        return None, got, f"WRONG in a timed round: {got}"
    return times, got, "ok"


def run_case(case: str, rows: int, args: argparse.Namespace, warehouse: Path, spark: Any) -> list[dict]:
    spec = spec_for(case, rows, args)
    ident = case.replace("-", "_").replace("+", "_")
    name = f"bench.{ident}"
    path = str(warehouse / "bench.db" / ident)
    written = jn.write_table(warehouse, name, spec)
    print(json.dumps(written), flush=True)
    expected = jn.expected_fold(spec)
    low, high, nfiles = sorted_runs(path)
    base = {"case": case, "rows_written": rows, "buckets": spec.buckets, "commits": spec.commits,
            "sorted_runs_per_bucket": f"{low}" if low == high else f"{low}-{high}", "data_files": nfiles,
            "updates": spec.updates, "deletes": spec.deletes, "expected_rows": expected[0],
            "expected_checksum": expected[1], "write_s": round(written["ms"] / 1000, 1)}
    out = []

    java = jn.read_timed(warehouse, name, args.warmup, args.rounds)
    truth = (java["rows"], java["checksum"])  # Paimon's own answer is the reference for ours
    out.append({**java, **base, "impl": jn.IMPL, "status": "ok" if truth == expected else
                f"MODEL MISMATCH: Java read {truth[0]} rows / {truth[1]}"})
    print(json.dumps(out[-1]), flush=True)

    readers: list[tuple[str, Callable[[], Any], Callable[[Any], tuple[int, str]]]] = [
        ("local", lambda: read_local(path), jn.fold)]
    if spark is not None:
        readers.append(("spark", lambda: read_spark(spark, path), lambda folded: folded))
    for variant, reader, folder in readers:
        times, got, status = measure(reader, folder, truth, args.warmup, args.rounds)
        if times is None:
            rec = {"workload": "read", "impl": IMPL, "variant": variant, **base, "status": status}
        else:
            rec = result_line("read", times, ops=expected[0], variant=variant, warmup=args.warmup,
                              rounds=args.rounds, what=f"plan + read every row ({variant})", rows=got[0],
                              checksum=got[1], **base, status=status)
        out.append(rec)
        print(json.dumps(rec), flush=True)
    return out


def markdown(records: list[dict]) -> str:
    rows = []
    for case in dict.fromkeys(r["case"] for r in records):
        recs = [r for r in records if r["case"] == case]
        java = next(r for r in recs if r["impl"] == jn.IMPL)
        java_ms = java["median_ms"] if java["status"] == "ok" else None
        for r in recs:
            label = "Paimon Java 1.4.2" if r["impl"] == jn.IMPL else f"paimon-codec ({r['variant']})"
            med = r.get("median_ms") if r["status"] == "ok" else None
            ratio = f"{med / java_ms:.2f}" if med is not None and java_ms else "-"
            spread = f"{r['min_ms'] / 1000:.2f}-{r['max_ms'] / 1000:.2f} s" if med is not None else "-"
            rows.append([case, f"{r['rows_written']:,}", f"{r['commits']}",
                         f"{r['buckets']} x {r['sorted_runs_per_bucket']} ({r['data_files']} files)",
                         f"{r['expected_rows']:,}", label, f"{med / 1000:.2f} s" if med is not None else "-",
                         spread, ratio, r["status"]])
    return markdown_table(["case", "rows written", "commits", "buckets x sorted runs", "rows read", "reader",
                           "median", "min-max", "/ Java", "rows + checksum"],
                          ["---", "---:", "---:", "---", "---:", "---", "---:", "---:", "---:", "---"], rows)


def report(records: list[dict], args: argparse.Namespace, elapsed_s: float) -> str:
    """The results file: header, table, method notes."""
    table = markdown(records)
    header = (f"# Merge read: primary-key tables with sorted runs to merge, paimon-codec vs Paimon Java 1.4.2\n\n"
              f"{environment()} at the end; {args.warmup} warm-up + {args.rounds} timed rounds, median "
              f"(whole run {elapsed_s:.0f} s).  Tables written by Paimon Java "
              f"1.4.2 ({args.commits} batch commits, {args.updates:.0%} updates and {args.deletes:.0%} deletes of earlier "
              f"keys per later commit; no compaction, except a full one after the first commit for compacted+l0 and "
              f"Paimon's own for first-row, whose batch read skips level 0; "
              f"first-row/aggregation: no deletes).  "
              f"\"/ Java\" = median / Java's median (< 1: paimon-codec is faster).  A time counts only when the "
              f"row count and checksum equal Java's, and Java's the generator's model of the merge.\n\n")
    writes = "; ".join(f"{r['case']} {r['write_s']:.0f} s" for r in records if r["impl"] == jn.IMPL)
    notes = ("\n\nMethod: Java times `ReadBuilder.newScan().plan()` + one `RecordReader` over every split, folding "
             "each row into the count and checksum (`sum(mix64(k ^ mix64(v)) + len(s))`), in a fresh JVM of its own "
             "(its warm-up rounds there, then the timed ones); paimon-codec (local) times `plan_scan` + "
             "`read_plan_locally` to an Arrow table in this process (the checksum is computed after the clock "
             "stops); Spark times `scan` + `mapInArrow` folding every row on the executors.  The first read of "
             "each of ours is checked before any round is timed.  Java's bulk write (untimed here, "
             f"`TableBench write`): {writes}.  On a shared machine the rounds spread widely (min-max); the "
             "per-round times are in the JSON lines.\n")
    return header + table + notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000_000, help="rows written for the deduplicate case")
    ap.add_argument("--small-rows", type=int, default=1_000_000, help="rows written for the other cases")
    ap.add_argument("--buckets", type=int, default=4)
    ap.add_argument("--commits", type=int, default=5, help="batch commits = sorted runs per bucket")
    ap.add_argument("--updates", type=float, default=0.3)
    ap.add_argument("--deletes", type=float, default=0.05)
    ap.add_argument("--cases", default=DEFAULT_CASES, help=f"comma list of {', '.join(CASES)}")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-spark", action="store_true", help="skip the Spark reader")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--keep", help="write the tables under this directory and keep them")
    ap.add_argument("--output", default=str(RESULTS / "merge_read.md"))
    args = ap.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    if not cases or set(cases) - set(CASES):
        ap.error(f"--cases: choose from {', '.join(CASES)}")
    if args.rounds < 1 or args.warmup < 0:
        ap.error("--rounds >= 1 and --warmup >= 0")

    warehouse = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="paimon-codec-merge-read-"))
    spark = None
    if not args.no_spark:
        from paimon_codec.spark import get_spark

        spark = get_spark(args.master)
    t0 = time.perf_counter()
    records: list[dict] = []
    try:
        for case in cases:
            records += run_case(case, args.rows if case == "deduplicate" else args.small_rows, args, warehouse,
                                spark)
    finally:
        if not args.keep:
            shutil.rmtree(warehouse, ignore_errors=True)
    text = report(records, args, time.perf_counter() - t0)
    print()
    print(text)
    write_result(args.output, text)
    return 0 if all(r["status"] == "ok" or r["status"].startswith("refused") for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
