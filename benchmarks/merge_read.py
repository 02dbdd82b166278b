#!/usr/bin/env python3
"""Merge-read benchmark: primary-key tables with several sorted runs per bucket, read by paimon-codec (locally
and through Spark) and by Paimon Java 1.4.2, interleaved in one run.

Paimon Java 1.4.2 writes the tables (``tools/java`` driver, ``benchmarks/_java_newest.py``): ``--rows``
generated rows (default 5M) in ``--buckets`` buckets (4) over ``--commits`` batch commits (5) without
compaction, so every bucket holds one sorted run per commit that the reader must merge by key; from the
second commit on, ``--updates`` (30 %) of the rows rewrite and ``--deletes`` (5 %) delete a key of an
earlier commit.  Cases (``--cases``): ``deduplicate`` (the default engine), ``first-row`` (no deletes;
written with Paimon's own compaction, as its batch read skips level-0 files), ``partial-update`` (no deletes;
each update sets one of v / s and leaves the other null), ``aggregation`` (``sum`` of v, no deletes), and on
request ``compacted+l0`` (deduplicate, a full compaction after the first commit: one big compacted run plus
small level-0 runs per bucket).

Each reader reads the whole latest snapshot; the sides run interleaved (:func:`_harness.interleave`: Java,
local, Spark, source, then local, Spark, source, Java, ... ``--repeats`` times), each run doing its ``--warmup`` + ``--rounds``
(``gc.collect()`` before each); a side's time is the median of all its timed rounds, with their min-max:

* ``paimon-codec``: ``plan_scan`` + ``read_plan_locally`` (one process, Arrow);
* ``paimon-codec + Spark``: ``paimon_codec.spark.scan`` in a ``local[2]`` session, its DataFrame folded by
  Spark SQL in the JVM (:func:`jvm_fold`: ``count(*)`` and ``sum`` of the checksum expression, collected), as
  a Spark user's aggregate, join or write would consume the rows;
* ``paimon-codec Spark source`` (``--no-source`` to skip): ``spark.read.format("paimon_codec").load(path)``,
  folded the same way;
* ``Paimon Java 1.4.2``: ``ReadBuilder`` -> ``RecordReader`` over every split, in its own JVM (``TableBench
  read``), folding each row into the count + checksum.

A timing counts only when the reader's row count and checksum equal Java's, and Java's equal what the
generator and the merge engine say the table holds (:func:`_java_newest.expected_fold`).
A reader that refuses the table (``paimon_codec.errors``) is reported as such.  Results are printed as
JSON lines and a markdown table, written to ``benchmarks/results/merge_read.md`` and (``--readme``) into
``benchmarks/README.md``.

    .venv/bin/python benchmarks/merge_read.py --readme          # 5M rows, tens of minutes on 2 cores
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
from _harness import (
    IMPL,
    RESULTS,
    environment,
    interleave,
    load_summary,
    markdown_table,
    replace_readme_section,
    result_line,
    timed,
    write_result,
)

from paimon_codec.errors import PaimonCodecError

CASES = ("deduplicate", "first-row", "partial-update", "aggregation", "compacted+l0")
DEFAULT_CASES = "deduplicate,first-row,partial-update,aggregation"


def spec_for(case: str, rows: int, args: argparse.Namespace) -> jn.TableSpec:
    if case == "deduplicate":
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, args.deletes)
    if case == "compacted+l0":  # deduplicate, fully compacted after commit 0, later commits left in level 0
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, args.deletes, compact_first=True)
    if case == "first-row":
        # a batch read of a first-row table skips level-0 files: let Paimon compact as it writes
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, 0.0, "first-row", write_only=False)
    if case == "partial-update":  # each update sets one of v / s, the other stays null
        return jn.TableSpec(rows, args.buckets, args.commits, args.updates, 0.0, "partial-update")
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


#: splitmix64's finalizer multipliers as Spark (signed) longs
_MIX_MULTIPLIERS = (0xBF58476D1CE4E5B9 - (1 << 64), 0x94D049BB133111EB - (1 << 64))


def _mix64_column(z: Any) -> Any:
    """splitmix64's finalizer as a Spark column expression: unsigned shifts and xors, and long multiplies that wrap
    (the query runs with ``spark.sql.ansi.enabled=false``, where Spark's long ``*`` wraps as Java's does)."""
    from pyspark.sql import functions as F

    z = z.bitwiseXOR(F.shiftrightunsigned(z, 30)) * F.lit(_MIX_MULTIPLIERS[0])
    z = z.bitwiseXOR(F.shiftrightunsigned(z, 27)) * F.lit(_MIX_MULTIPLIERS[1])
    return z.bitwiseXOR(F.shiftrightunsigned(z, 31))


def jvm_fold(df: Any) -> tuple[int, str]:
    """Row count and checksum of a DataFrame of k, v, s, computed by Spark in the JVM (a plain aggregate: what a
    Spark user's query does with the rows): ``count(*)`` and ``sum(mix64(k ^ mix64(v)) + octet_length(s))``,
    nulls counting 0, summed with wrapping (ANSI off for this query only)."""
    from pyspark.sql import functions as F

    from paimon_codec.spark.handoff import session_conf

    k = F.coalesce(F.col("k"), F.lit(0).cast("long"))
    v = F.coalesce(F.col("v"), F.lit(0).cast("long"))
    s_len = F.coalesce(F.octet_length(F.col("s")), F.lit(0)).cast("long")
    with session_conf(df.sparkSession, {"spark.sql.ansi.enabled": "false"}):
        row = df.agg(F.count(F.lit(1)).alias("n"), F.sum(_mix64_column(k.bitwiseXOR(_mix64_column(v))) + s_len)
                     .alias("h")).collect()[0]
    h = 0 if row.h is None else int(row.h) % (1 << 64)
    return int(row.n), f"{h:016x}"


def read_spark(spark: Any, path: str) -> tuple[int, str]:
    """Every row of ``paimon_codec.spark.scan`` folded into count + checksum by Spark SQL, in the JVM."""
    from paimon_codec.spark import scan

    df, _ = scan(spark, path)
    return jvm_fold(df)


def read_source(spark: Any, path: str) -> tuple[int, str]:
    """Every row of the ``paimon_codec`` DataFrame source folded as :func:`read_spark` folds."""
    return jvm_fold(spark.read.format("paimon_codec").load(path))


def planned_files(path: str) -> list[str]:
    """Every data file Paimon's read of the table opens (the plan's raw files and its merge groups' runs)."""
    from paimon_codec.planning.plan import plan_scan

    plan = plan_scan(path)
    return [t.path for t in plan.tasks] + [f.path for g in plan.groups for f in g.files]


def read_plain_spark(spark: Any, paths: list[str]) -> tuple[int, str]:
    """Spark's own Parquet reader over the files Paimon's read opens, folded as :func:`read_spark` folds: no
    Paimon at all, so no merge - the floor of any read of these bytes through Spark (for first-row, whose files
    are read without a merge, the same rows)."""
    return jvm_fold(spark.read.parquet(*paths).select("k", "v", "s"))


def checked(reader: Callable[[], Any], folder: Callable[[Any], tuple[int, str]], expected: tuple[int, str],
            warmup: int, rounds: int) -> tuple[list[float] | None, str]:
    """Timed rounds of ``reader`` (``folder`` turns its result into count + checksum, untimed); (times, status)
    - no times when it refuses or disagrees with ``expected`` (Java's answer) in any round."""
    try:
        got = folder(reader())  # first a checked read (it is the first warm-up round): never time a wrong answer
    except PaimonCodecError as exc:
        return None, f"refused: {type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    if got != expected:
        return None, f"WRONG: {got[0]} rows / {got[1]}, Java read {expected[0]} / {expected[1]}"
    times, last = timed(reader, max(warmup - 1, 0), rounds)
    got = folder(last)
    if got != expected:
        return None, f"WRONG in a timed round: {got}"
    return times, "ok"


def write_or_reuse(case: str, spec: jn.TableSpec, warehouse: Path, name: str, path: str, reuse: bool) -> float:
    """Write the case's table with Paimon Java (seconds taken), or keep the one ``--reuse`` finds (0)."""
    if reuse and (Path(path) / "snapshot").is_dir():
        print(json.dumps({"case": case, "reused": path}), flush=True)
        return 0.0
    written = jn.write_table(warehouse, name, spec)
    print(json.dumps(written), flush=True)
    return written["ms"] / 1000


def run_case(case: str, rows: int, args: argparse.Namespace, warehouse: Path, spark: Any) -> list[dict]:
    """One case: the table written, then Java, local and Spark reads interleaved ``--repeats`` times; one
    record per reader (all its timed rounds; the load average each of its runs started at)."""
    spec = spec_for(case, rows, args)
    ident = case.replace("-", "_").replace("+", "_")
    name = f"bench.{ident}"
    path = str(warehouse / "bench.db" / ident)
    write_s = write_or_reuse(case, spec, warehouse, name, path, args.reuse)
    expected = jn.expected_fold(spec)
    low, high, nfiles = sorted_runs(path)
    base = {"case": case, "rows_written": rows, "buckets": spec.buckets, "commits": spec.commits,
            "sorted_runs_per_bucket": f"{low}" if low == high else f"{low}-{high}", "data_files": nfiles,
            "updates": spec.updates, "deletes": spec.deletes, "expected_rows": expected[0],
            "expected_checksum": expected[1], "write_s": round(write_s, 1)}

    java_truth: list[tuple[int, str]] = []

    def java_side() -> list[dict]:
        rec = jn.read_timed(warehouse, name, args.warmup, args.rounds)
        java_truth.append((rec["rows"], rec["checksum"]))
        return [{**rec, **base, "impl": jn.IMPL, "status": "ok" if java_truth[-1] == expected else
                 f"MODEL MISMATCH: Java read {rec['rows']} rows / {rec['checksum']}"}]

    def ours(variant: str, reader: Callable[[], Any], folder: Callable[[Any], tuple[int, str]]):
        def side() -> list[dict]:
            truth = java_truth[0] if java_truth else expected  # Paimon's own answer is the reference for ours
            times, status = checked(reader, folder, truth, args.warmup, args.rounds)
            if times is None:
                return [{"workload": "read", "impl": IMPL, "variant": variant, **base, "status": status}]
            return [result_line("read", times, ops=expected[0], variant=variant, warmup=args.warmup,
                                rounds=args.rounds, what=f"plan + read every row ({variant})", rows=truth[0],
                                checksum=truth[1], **base, status=status)]
        return side

    sides = [("java", java_side), ("local", ours("local", lambda: read_local(path), jn.fold))]
    if spark is not None:
        sides.append(("spark", ours("spark", lambda: read_spark(spark, path), lambda folded: folded)))
        if args.source:
            sides.append(("source", ours("source", lambda: read_source(spark, path), lambda folded: folded)))
        if args.plain:
            files = planned_files(path)
            sides.append(("plain", floor_side(lambda: read_plain_spark(spark, files), base, args)))
    results, loads = interleave(sides, args.repeats, log=lambda rec: print(json.dumps(rec), flush=True))
    return [combined(results[side], loads[side]) for side, _ in sides]


def floor_side(reader: Callable[[], tuple[int, str]], base: dict, args: argparse.Namespace) -> Callable[[], list[dict]]:
    """The plain-Spark floor: timed like the other sides; its rows are not the merged table's (no merge), so
    they are reported, not checked."""
    def side() -> list[dict]:
        times, last = timed(reader, args.warmup, args.rounds)
        return [result_line("read", times, ops=last[0], variant="plain", warmup=args.warmup, rounds=args.rounds,
                            what="Spark's Parquet read of the planned files, no merge", rows=last[0], checksum=last[1], **base,
                            status="ok")]
    return side


def combined(runs: list[list[dict]], loads: list[float]) -> dict:
    """One side's record over its interleaved runs: every timed round pooled (median, min, max), the worst
    status (a run that disagreed or refused makes the side's time not count)."""
    recs = [r[0] for r in runs]
    bad = [r["status"] for r in recs if r["status"] != "ok"]
    out = {k: v for k, v in recs[0].items() if k not in ("median_ms", "min_ms", "max_ms", "rounds_ms")}
    out["load"] = [round(x, 1) for x in loads]
    if bad:
        return {**out, "status": bad[0]}
    times = [t for r in recs for t in r["rounds_ms"]]
    times.sort()
    mid = len(times) // 2
    med = times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2
    return {**out, "median_ms": round(med, 3), "min_ms": times[0], "max_ms": times[-1], "rounds_ms": times,
            "status": "ok"}


def _cell(rec: dict | None, java_ms: float | None) -> tuple[str, str]:
    """(median with min-max, ratio to Java) of one reader's record."""
    if rec is None:
        return "-", "-"
    if rec["status"] != "ok":
        return rec["status"].split(":")[0], "-"
    med = rec["median_ms"]
    text = f"{med / 1000:.2f} s ({rec['min_ms'] / 1000:.2f}-{rec['max_ms'] / 1000:.2f})"
    return text, f"{med / java_ms:.2f}" if java_ms else "-"


def markdown(records: list[dict]) -> str:
    """One row per case: Java, local and Spark medians (min-max of all timed rounds) and the ratios."""
    rows = []
    for case in dict.fromkeys(r["case"] for r in records):
        recs = [r for r in records if r["case"] == case]
        java = next(r for r in recs if r["impl"] == jn.IMPL)
        java_ms = java["median_ms"] if java["status"] == "ok" else None
        local = next((r for r in recs if r.get("variant") == "local"), None)
        spark = next((r for r in recs if r.get("variant") == "spark"), None)
        source = next((r for r in recs if r.get("variant") == "source"), None)
        plain = next((r for r in recs if r.get("variant") == "plain"), None)
        java_cell, _ = _cell(java, java_ms)
        local_cell, local_ratio = _cell(local, java_ms)
        spark_cell, spark_ratio = _cell(spark, java_ms)
        source_cell, source_ratio = _cell(source, java_ms)
        plain_cell, plain_ratio = _cell(plain, java_ms)
        if plain is not None and plain["status"] == "ok" and plain["rows"] != java["expected_rows"]:
            plain_cell += f" ({plain['rows']:,} rows unmerged)"
        recs = [r for r in recs if r.get("variant") != "plain"]
        agree = "all agree" if all(r["status"] == "ok" for r in recs) else "; ".join(
            f"{r.get('variant', 'java')}: {r['status']}" for r in recs if r["status"] != "ok")
        rows.append([case, f"{java['rows_written']:,}",
                     f"{java['buckets']} x {java['sorted_runs_per_bucket']} ({java['data_files']} files)",
                     f"{java['expected_rows']:,}", java_cell, local_cell, local_ratio, spark_cell, spark_ratio, source_cell, source_ratio, plain_cell, plain_ratio, agree])
    return markdown_table(["case", "rows written", "buckets x sorted runs", "rows read", "Paimon Java 1.4.2",
                           "paimon-codec (local)", "/ Java", "paimon-codec (Spark `scan`)", "/ Java",
                           "paimon-codec (Spark source)", "/ Java", "plain Spark, same files", "/ Java",
                           "rows + checksum"],
                          ["---", "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
                           "---:", "---"],
                          rows)


def report(records: list[dict], args: argparse.Namespace, elapsed_s: float) -> str:
    """The results section: header, table, method notes."""
    loads: dict[str, list[float]] = {}
    for r in records:
        loads.setdefault(r.get("variant", "java"), []).extend(r.get("load", []))
    header = (f"Tables written by Paimon Java 1.4.2 (`TableBench write`: splitmix64 rows, {args.commits} batch "
              f"commits without compaction, so every bucket holds {args.commits} sorted runs to merge by key; from "
              f"the 2nd commit on {args.updates:.0%} of rows update and (deduplicate) {args.deletes:.0%} delete a key "
              "of an earlier commit; first-row is written with Paimon's compaction, as its batch read skips level-0 "
              "files; partial-update: each update sets one of v / s, the other null; aggregation: `sum` of v).  "
              f"Sides interleaved (Java, local, Spark `scan`, Spark source, then rotated; {args.repeats} repeats of {args.warmup} "
              f"warm-up + {args.rounds} timed rounds each): median of all timed rounds, min-max in brackets.  "
              "A time counts only when the reader's row count and checksum "
              "(`sum(mix64(k ^ mix64(v)) + len(s))`) equal Java's, and Java's the generator's model of the merge "
              "engine.  Java = `ReadBuilder` plan + one `RecordReader` over all splits folding each row in Java, "
              "in its own JVM; local = `plan_scan` + `read_plan_locally` to one Arrow table (the fold after the "
              "clock); Spark `scan` = `paimon_codec.spark.scan(spark, path)` and source = "
              "`spark.read.format(\"paimon_codec\").load(path)`, each folded by one Spark SQL aggregate in the "
              "JVM (`count(*)`, `sum(mix64(k ^ mix64(v)) + octet_length(s))` with wrapping long arithmetic: "
              f"`spark.sql.ansi.enabled=false` for that query) and collected (`{args.master}`; merged buckets are "
              "read and merged in Python workers and handed to the JVM as Arrow batches, buckets Paimon reads "
              "without a merge go to Spark's Parquet reader); plain Spark = `spark.read.parquet` of the files Paimon's plan "
              "opens, folded alike: no Paimon and no merge, the floor of reading these bytes through Spark (for "
              "first-row the same rows; elsewhere the unmerged rows, not checked).  \"/ Java\" < 1: paimon-codec is faster.\n\n"
              f"{environment()} at the end; load average at each side's runs: {load_summary(loads)} "
              f"(whole run {elapsed_s:.0f} s).\n\n")
    return header + markdown(records) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5_000_000, help="rows written per case")
    ap.add_argument("--buckets", type=int, default=4)
    ap.add_argument("--commits", type=int, default=5, help="batch commits = sorted runs per bucket")
    ap.add_argument("--updates", type=float, default=0.3)
    ap.add_argument("--deletes", type=float, default=0.05)
    ap.add_argument("--cases", default=DEFAULT_CASES, help=f"comma list of {', '.join(CASES)}")
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=2, help="interleaved runs of every side")
    ap.add_argument("--no-spark", action="store_true", help="skip the Spark reader")
    ap.add_argument("--no-source", dest="source", action="store_false",
                    help="skip the DataFrame source (spark.read.format('paimon_codec')) reader")
    ap.add_argument("--no-plain", dest="plain", action="store_false",
                    help="skip the plain-Spark floor (spark.read.parquet of the planned files, no merge)")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--keep", help="write the tables under this directory and keep them")
    ap.add_argument("--reuse", action="store_true", help="with --keep: read a case's table found there, unwritten "
                    "(its rows and checksum are still checked against the model)")
    ap.add_argument("--output", default=str(RESULTS / "merge_read.md"))
    ap.add_argument("--readme", action="store_true", help="also replace the table in benchmarks/README.md")
    args = ap.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    if not cases or set(cases) - set(CASES):
        ap.error(f"--cases: choose from {', '.join(CASES)}")
    if args.rounds < 1 or args.warmup < 0 or args.repeats < 1:
        ap.error("--rounds >= 1, --repeats >= 1 and --warmup >= 0")
    if args.reuse and not args.keep:
        ap.error("--reuse needs --keep DIR")

    warehouse = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="paimon-codec-merge-read-"))
    spark = None
    if not args.no_spark:
        from paimon_codec.spark import get_spark

        spark = get_spark(args.master)
    t0 = time.perf_counter()
    records: list[dict] = []
    try:
        for case in cases:
            records += run_case(case, args.rows, args, warehouse, spark)
    finally:
        if not args.keep:
            shutil.rmtree(warehouse, ignore_errors=True)
    text = report(records, args, time.perf_counter() - t0)
    print()
    print(text)
    write_result(args.output, "# Merge read: primary-key tables with sorted runs to merge, paimon-codec vs Paimon "
                 "Java 1.4.2\n\n" + text)
    if args.readme:
        replace_readme_section("merge_read", text)
    return 0 if all(r["status"] == "ok" or r["status"].startswith("refused") for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())
