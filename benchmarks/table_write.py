#!/usr/bin/env python3
"""Table-write benchmarks against Paimon Java 1.4.2 in the same run.

Upsert + compaction (``--only upsert``): Paimon Java 1.4.2 writes a dynamic-bucket (``bucket = -1``)
primary-key table of ``--base-rows`` rows once (``TableBench write``, ``benchmarks/_java_newest.py``: commits
of ``--upsert-rows`` rows each, write-only, so the base holds several sorted runs per bucket).  Then
``--repeats`` times, the sides interleaved (``_harness.interleave``), each side copies the base (data files
hard-linked) and writes the same next commit of ``--upsert-rows`` rows (``--updates`` of them rewrite a key
of an earlier commit, ``--deletes`` delete one, the rest are new keys) - Java with its ``HashBucketAssigner``
loading the partition's hash index, paimon-codec with ``upsert_arrow`` (hash index loaded, keys assigned,
level-0 files + new HASH files, one commit) - and then fully compacts its copy (Java:
``BatchTableWrite.compact(partition, bucket, true)`` for every bucket; paimon-codec: ``compact_table``).  A
time counts only when Java's own read of that copy after each step returns the row count and checksum the
generator and the merge engine say it holds (:func:`_java_newest.expected_fold`).  Java's times are its
commit loop inside a fresh JVM (JVM start and table loading excluded); ours are the Python call
(interpreter start excluded).  The table lands in ``benchmarks/results/table_write_upsert.md`` and between
the ``table_write`` markers of ``benchmarks/README.md``.

    .venv/bin/python benchmarks/table_write.py --only upsert                   # 2M + 200k rows
    .venv/bin/python benchmarks/table_write.py --only upsert --base-rows 10000000 --upsert-rows 1000000 --repeats 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import _java_newest as jn
import numpy as np
import pyarrow as pa
from _harness import (
    RESULTS,
    environment,
    interleave,
    load_summary,
    markdown_table,
    replace_readme_section,
    write_result,
)


# ------------------------------------------------------------------------------------------ upsert + compaction
def upsert_spec(args: argparse.Namespace) -> jn.TableSpec:
    """Commits of ``upsert_rows`` each: the base is all but the last, the upsert is the last."""
    commits = max(args.base_rows // args.upsert_rows, 1) + 1
    return jn.TableSpec(args.upsert_rows * commits, -1, commits, args.updates, args.deletes)


def upsert_rows(spec: jn.TableSpec, commit: int) -> tuple[pa.Table, np.ndarray]:
    """Commit ``commit``'s rows as ``TableBench`` writes them (k, v, s = "r" + i) and their row kinds."""
    g = jn.generate(spec)
    start, end = commit * spec.rows // spec.commits, (commit + 1) * spec.rows // spec.commits
    i = np.arange(start, end)
    rows = pa.table({"k": pa.array(g["k"][start:end], pa.int64()), "v": pa.array(g["v"][start:end], pa.int64()),
                     "s": pa.array([f"r{x}" for x in i.tolist()], pa.string())})
    kinds = np.where(g["kind"][start:end] == jn.DELETE, 3, 0).astype(np.int8)
    return rows, kinds


def _java_fold(warehouse: Path, table: str) -> tuple[int, str]:
    rec = jn.read_timed(warehouse, table, warmup=0, rounds=1)
    return int(rec["rows"]), str(rec["checksum"])


def _partial_fold(spec: jn.TableSpec, commits: int) -> tuple[int, str]:
    """The expected table after the first ``commits`` commits (a spec cut to those rows)."""
    cut = jn.TableSpec(spec.rows * commits // spec.commits, spec.buckets, commits, spec.updates, spec.deletes)
    return jn.expected_fold(cut)


def _copy_table(src: Path, dst: Path) -> Path:
    """A copy of the table at ``src``: data files hard-linked (immutable), every other file copied."""
    shutil.rmtree(dst, ignore_errors=True)
    for root, _dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            s, d = Path(root) / name, dst / rel / name
            if Path(root).name.startswith("bucket-"):
                os.link(s, d)
            else:
                shutil.copy2(s, d)
    return dst


def _checked(wh: Path, name: str, expected: tuple[int, str], step: str) -> None:
    got = _java_fold(wh, f"db.{name}")
    assert got == expected, f"{name} after the {step}: Java reads {got}, the generator says {expected}"


def run_upsert(args: argparse.Namespace, work: Path) -> tuple[list[dict], dict[str, list[float]]]:
    """Java writes the base once; then, ``--repeats`` times and interleaved (``_harness.interleave``), each side
    upserts the last commit into its own fresh copy of the base and fully compacts it.  A side's record counts
    only after Java's read of its table returns the expected rows after each step."""
    from paimon_codec.writing import compact_table, upsert_arrow

    spec = upsert_spec(args)
    last = spec.commits - 1
    wh = work / "wh"
    spec_args = spec.args()
    jn.run_driver("TableBench", ["write", "--warehouse", str(wh), "--table", "db.base", *spec_args,
                                 "--stop-after", str(last)])
    base_path = wh / "db.db" / "base"
    base = _partial_fold(spec, last)
    assert _java_fold(wh, "db.base") == base, "the base table reads as the generator says"
    expected = jn.expected_fold(spec)
    rows, kinds = upsert_rows(spec, last)
    runs = {"java": 0, "ours": 0}

    def fresh(side: str) -> str:
        runs[side] += 1
        name = f"{side}{runs[side]}"
        _copy_table(base_path, wh / "db.db" / name)
        return name

    def java_side() -> list[dict]:
        name = fresh("java")
        (write,) = jn.run_driver("TableBench", ["write", "--warehouse", str(wh), "--table", f"db.{name}",
                                                *spec_args, "--resume-at", str(last)])
        _checked(wh, name, expected, "upsert")
        (compact,) = jn.run_driver("TableBench", ["compact", "--warehouse", str(wh), "--table", f"db.{name}"])
        _checked(wh, name, expected, "compaction")
        shutil.rmtree(wh / "db.db" / name)
        return [{"workload": "upsert", "side": "java", "ms": float(write["commit_ms"][0])},
                {"workload": "compact", "side": "java", "ms": float(compact["ms"]),
                 "buckets_compacted": int(compact["buckets"])}]

    def ours_side() -> list[dict]:
        name = fresh("ours")
        path = wh / "db.db" / name
        t0 = time.perf_counter()
        upsert_arrow(path, rows, row_kinds=kinds)
        upsert_ms = (time.perf_counter() - t0) * 1e3
        _checked(wh, name, expected, "upsert")  # level 0 of a table without deletion vectors is read by merge
        t0 = time.perf_counter()
        compact_table(path)
        compact_ms = (time.perf_counter() - t0) * 1e3
        _checked(wh, name, expected, "compaction")
        shutil.rmtree(path)
        return [{"workload": "upsert", "side": "ours", "ms": round(upsert_ms, 1)},
                {"workload": "compact", "side": "ours", "ms": round(compact_ms, 1)}]

    results, loads = interleave([("ours", ours_side), ("java", java_side)], args.repeats,
                                log=lambda rec: print(json.dumps(rec), flush=True))
    common = {"base_rows": spec.rows - args.upsert_rows, "upsert_rows": args.upsert_rows, "updates": args.updates,
              "deletes": args.deletes, "rows_after": expected[0], "checksum": expected[1], "checks_match": True,
              "repeats": args.repeats}
    records = []
    for i, workload in enumerate(("upsert", "compact")):
        ours = [run[i]["ms"] for run in results["ours"]]
        java = [run[i]["ms"] for run in results["java"]]
        records.append({"workload": workload, "paimon_codec_ms": statistics.median(ours), "java_ms":
                        statistics.median(java), "paimon_codec_runs_ms": ours, "java_runs_ms": java, **common})
    return records, loads


def _cell(med: float, runs: list[float]) -> str:
    return f"{med:,.0f} ({min(runs):,.0f}-{max(runs):,.0f})" if len(runs) > 1 else f"{med:,.0f}"


def upsert_markdown(records: list[dict]) -> str:
    rows = [(r["workload"], f"{r['base_rows']:,}", f"{r['upsert_rows']:,}",
             _cell(r["paimon_codec_ms"], r["paimon_codec_runs_ms"]), _cell(r["java_ms"], r["java_runs_ms"]),
             f"{r['paimon_codec_ms'] / r['java_ms']:.2f}", f"{r['rows_after']:,}",
             "yes" if r["checks_match"] else "no") for r in records]
    return markdown_table(["workload", "base rows", "upsert rows", "paimon-codec ms", "Java 1.4.2 ms",
                           "ours / Java", "rows after", "Java reads the expected rows"],
                          ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---"], rows)


# ------------------------------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="upsert", help="comma-separated parts (upsert)")
    ap.add_argument("--base-rows", type=int, default=2_000_000)
    ap.add_argument("--upsert-rows", type=int, default=200_000)
    ap.add_argument("--updates", type=float, default=0.5, help="fraction of the upsert rewriting existing keys")
    ap.add_argument("--deletes", type=float, default=0.05, help="fraction of the upsert deleting existing keys")
    ap.add_argument("--repeats", type=int, default=2, help="interleaved runs of each side (a fresh copy each)")
    ap.add_argument("--no-write", action="store_true", help="do not write benchmarks/results/ or the README")
    args = ap.parse_args(argv)
    parts = {p.strip() for p in args.only.split(",") if p.strip()}
    command = (f"python benchmarks/table_write.py --only upsert --base-rows {args.base_rows} "
               f"--upsert-rows {args.upsert_rows} --repeats {args.repeats}")
    text = [f"# Table writes vs Paimon Java {jn.NEWEST}", "", environment(), ""]
    section: list[str] = []
    with tempfile.TemporaryDirectory(prefix="paimon-codec-table-write-") as work:
        if "upsert" in parts:
            records, loads = run_upsert(args, Path(work))
            for r in records:
                print(json.dumps(r), flush=True)
            section += [f"Command: `{command}`.  {environment()} at the end; sides interleaved (ours, java), "
                        f"{args.repeats} repeats, each on a fresh copy of the base; cells: median (min-max) of "
                        f"the repeats.  Load average (1 min) at each side's start: {load_summary(loads)}.", "",
                        upsert_markdown(records)]
            text += ["## Upsert into a dynamic-bucket table, then full compaction", "", *section, ""]
    print("\n".join(text))
    if not args.no_write:
        write_result(RESULTS / f"table_write_{'_'.join(sorted(parts))}.md", "\n".join(text) + "\n")
        if section:
            replace_readme_section("table_write", "\n".join(section))
    return 0


if __name__ == "__main__":
    sys.exit(main())
