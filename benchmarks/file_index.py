#!/usr/bin/env python3
"""File-index benchmark: workloads W1-W4 and W7 (bitmap, bloom filter, container) beside Paimon's Java.

Builds exactly the inputs of ``shared/anchors/java-bench/workloads.md`` (splitmix64), times the same
regions (3 warm-up + 7 timed rounds, ``gc.collect()`` before each), checks ``bytes`` / ``crc32`` /
``check`` against workloads.md §4 (the crc32s of W1, W2 and W7 prove the bitmap writer and container
are byte-identical to Java 0.9, whose only bitmap layout is V1), and - when ``java`` is present and
``--no-java`` is not given - runs the Java harness (``run.sh --only ...``) in the same run.  Prints
one JSON line per workload and a markdown table of medians with the ratio *ours / Java* per
operation (< 1 means paimon-codec is faster), written to ``benchmarks/results/file_index.md``.

The sides run **interleaved** (:func:`_harness.interleave`): ``--repeats`` times Python, Java 0.9, Java
1.4.2 in turn, the order rotated each repeat, each run with its own warm-up and rounds, so on a shared
machine every side sees the same load; a cell is the median of the per-repeat medians with their min-max,
and the load average at each run's start is reported.  W3a.reuse / W3b.reuse are timed twice: through the
batched ``lookup_many`` (``batch``) and one ``visit_equal`` call per lookup (``per-item``).

    .venv/bin/python benchmarks/file_index.py                          # with Java when available
    .venv/bin/python benchmarks/file_index.py --no-java-09 --readme    # Python vs Java 1.4.2, README table
    .venv/bin/python benchmarks/file_index.py --no-java                # Python only
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from typing import Any

import _java_newest
import numpy as np
import pyarrow as pa
from _harness import (
    IMPL,
    RESULTS,
    below,
    crc32_hex,
    environment,
    gen,
    interleave,
    load_summary,
    markdown_table,
    parse_only,
    replace_readme_section,
    result_line,
    run_java,
    same_as_java,
    timed,
    write_result,
)

from paimon_codec.fileindex.bitmap import BitmapIndexReader, BitmapIndexWriter
from paimon_codec.fileindex.bloom import BloomFilterReader, BloomFilterWriter
from paimon_codec.fileindex.container import FileIndexContainerReader, write_container

W1_BLOB = {"bytes": 2_152_900, "crc32": "2d3d1360"}
W2_BLOB = {"bytes": 8_000_010, "crc32": "c315d408"}
W4_BLOB = {"bytes": 1_198_137, "crc32": "402a312f"}
W7_BLOB = {"bytes": 104_724, "crc32": "b0b71a85"}
EXPECTED = {  # workloads.md §4 (Java 0.9.0)
    "W1": {**W1_BLOB, "check": None},
    "W2": {**W2_BLOB, "check": None},
    "W3a": {**W2_BLOB, "check": 20},
    "W3b": {**W1_BLOB, "check": 1_000_807},
    "W3a.reuse": {**W2_BLOB, "check": 1_000},
    "W3b.reuse": {**W1_BLOB, "check": 1_000_807},
    "W4.build": {**W4_BLOB, "check": None},
    "W4.probe": {**W4_BLOB, "check": 505_066},
    "W7.write": {**W7_BLOB, "check": None},
    "W7.lookup": {**W7_BLOB, "check": 795},
}
# medians of shared/anchors/java-bench/README.md (run 1), shown when Java cannot run here
JAVA_REF_MS = {"W1": 89.8, "W2": 1549.6, "W3a": 4060.5, "W3b": 127.6, "W3a.reuse": 207.6, "W3b.reuse": 11.4,
               "W4.build": 33.6, "W4.probe": 35.1, "W7.write": 93.6, "W7.lookup": 9.5}
JAVA_REF_OPS = {"W3a": 20, "W3b": 1000, "W3a.reuse": 1000, "W3b.reuse": 1000, "W4.probe": 1_000_000,
                "W7.write": 1000, "W7.lookup": 1000}
WARMUP, ROUNDS = 3, 7


#: process CPU ms of each timed round of the last :func:`_timed` call (what :func:`line` reports beside the wall)
_LAST_CPU: list[float] = []


def _timed(fn: Callable[[], Any]) -> tuple[list[float], Any]:
    """:func:`_harness.timed` with this run's warm-up and rounds, keeping each round's process CPU time."""
    _LAST_CPU.clear()
    return timed(fn, WARMUP, ROUNDS, cpu=_LAST_CPU)


def line(workload: str, times: list[float], *, blob: bytes, ops: int, check, variant: str, what: str) -> dict:
    """The result record; ``cpu_median_ms``: the median process CPU time of the rounds just timed (every
    thread's: W4 runs on the machine's cores), the counterpart of the Java driver's JVM CPU time."""
    return result_line(workload, times, ops=ops, nbytes=len(blob), check=check, crc=crc32_hex(blob),
                       variant=variant, what=what, warmup=WARMUP, rounds=ROUNDS, impl=IMPL,
                       expected=EXPECTED[workload], cpu_median_ms=round(statistics.median(_LAST_CPU), 3))


def build_bitmap(dtype: str, values) -> bytes:
    w = BitmapIndexWriter(dtype, {"version": "1"})  # Paimon 0.9 writes bitmap V1 only
    w.write_array(values)
    return w.serialize()


def run_python(only: set[str]) -> list[dict]:
    res: list[dict] = []
    strings = [f"value-{k}" for k in range(1000)]
    w1_idx = below(101, 0, 1_000_000, 1000)
    assert w1_idx[:8].tolist() == [511, 571, 282, 975, 329, 503, 889, 747]
    w1_rows = pa.array(np.array(strings, dtype=object)[w1_idx].tolist(), type=pa.string())
    w2_rows = (np.arange(1_000_000, dtype=np.uint32) * np.uint32(2654435761)).view(np.int32)
    assert w2_rows[:5].tolist() == [0, -1640531535, 1013904226, -626627309, 2027808452]

    if "W1" in only:
        times, blob = _timed(lambda: build_bitmap("STRING", w1_rows))
        res.append(line("W1", times, blob=blob, ops=1, check=None, variant="batch",
                        what="bitmap index V1, STRING, 1M rows (pyarrow array), 1000 distinct, + serialize"))
    if "W2" in only:
        times, blob = _timed(lambda: build_bitmap("INT", w2_rows))
        res.append(line("W2", times, blob=blob, ops=1, check=None, variant="batch",
                        what="bitmap index V1, INT, 1M distinct rows (numpy array), + serialize"))

    w1_blob = build_bitmap("STRING", w1_rows) if only & {"W3b", "W3b.reuse"} else b""
    w2_blob = build_bitmap("INT", w2_rows) if only & {"W3a", "W3a.reuse"} else b""
    w3a_lits = [int(v) for v in w2_rows[below(301, 0, 1000, 1_000_000)]]
    w3b_lits = [strings[k] for k in below(302, 0, 1000, 1000)]

    def fresh(blob: bytes, dtype: str, lits: list) -> int:
        total = 0
        for lit in lits:
            total += len(BitmapIndexReader(blob, dtype).visit_equal(lit).bitmap)
        return total

    def reuse(blob: bytes, dtype: str, lits: list) -> int:
        reader = BitmapIndexReader(blob, dtype)
        return sum(len(reader.visit_equal(lit).bitmap) for lit in lits)

    def reuse_many(blob: bytes, dtype: str, lits: list) -> int:
        """The same lookups through the batched API (``lookup_many``: one call, one vectorised pass)."""
        return sum(len(bm) for bm in BitmapIndexReader(blob, dtype).lookup_many(lits))

    if "W3a" in only:
        times, check = _timed(lambda: fresh(w2_blob, "INT", w3a_lits[:20]))
        res.append(line("W3a", times, blob=w2_blob, ops=20, check=check, variant="per-item",
                        what="20 Equal lookups on W2's index, fresh reader per lookup"))
    if "W3b" in only:
        times, check = _timed(lambda: fresh(w1_blob, "STRING", w3b_lits))
        res.append(line("W3b", times, blob=w1_blob, ops=1000, check=check, variant="per-item",
                        what="1000 Equal lookups on W1's index, fresh reader per lookup"))
    for name, blob, dtype, lits, w in (("W3a.reuse", w2_blob, "INT", w3a_lits, "W2"),
                                       ("W3b.reuse", w1_blob, "STRING", w3b_lits, "W1")):
        if name in only:
            times, check = _timed(lambda b=blob, d=dtype, li=lits: reuse_many(b, d, li))
            res.append(line(name, times, blob=blob, ops=1000, check=check, variant="batch",
                            what=f"1000 Equal lookups on {w}'s index, one reader per round, one lookup_many call"))
            times, check = _timed(lambda b=blob, d=dtype, li=lits: reuse(b, d, li))
            res.append(line(name, times, blob=blob, ops=1000, check=check, variant="per-item",
                            what=f"1000 Equal lookups on {w}'s index, one reader per round, one call each"))

    if only & {"W4.build", "W4.probe"}:
        values = gen(401, 0, 1_000_000).view(np.int64)
        assert values[:3].tolist() == [-6433523696223287796, -7390299893240013488, -1641029261889020441]
        probes = values.copy()
        probes[1::2] = gen(402, 0, 1_000_000).view(np.int64)[1::2]

        def bloom_build() -> bytes:
            w = BloomFilterWriter("BIGINT", {"items": "1000000", "fpp": "0.01"})
            w.write_array(values)
            return w.serialize()

        times, blob = _timed(bloom_build)
        if "W4.build" in only:
            res.append(line("W4.build", times, blob=blob, ops=1, check=None, variant="batch",
                            what="bloom filter, 1M BIGINT (numpy), items=1M, fpp=0.01, + serialize"))
        if "W4.probe" in only:
            times, check = _timed(lambda: int(BloomFilterReader(blob, "BIGINT").might_contain_many(probes).sum()))
            res.append(line("W4.probe", times, blob=blob, ops=1_000_000, check=check, variant="batch",
                            what="new reader + 1M Equal tests (1/2 present) as one vectorised batch probe"))

    if only & {"W7.write", "W7.lookup"}:
        names = [f"c{k:02d}" for k in range(20)]
        cols = below(701, 0, 40_000, 50).reshape(20, 2000).astype(np.int32)
        assert cols[0, :5].tolist() == [8, 17, 24, 22, 18]
        blobs = [build_bitmap("INT", cols[k]) for k in range(20)]
        entries = [(names[k], [("bitmap", blobs[k])]) for k in range(20)]

        def write_many() -> bytes:
            out = b""
            for _ in range(1000):
                out = write_container(entries)
            return out

        times, container = _timed(write_many)
        if "W7.write" in only:
            res.append(line("W7.write", times, blob=container, ops=1000, check=None, variant="per-item",
                            what="encode the 20-column container from prebuilt blobs, 1000 times"))
        if "W7.lookup" in only:
            lits = below(702, 0, 1000, 64).tolist()
            assert lits[:5] == [13, 28, 36, 38, 30]
            try:
                from paimon_codec.expressions import col
                from paimon_codec.fileindex import evaluate
                from paimon_codec.types import parse_row_type
                schema = parse_row_type(", ".join(f"{n} INT" for n in names))

                def lookup() -> int:
                    reader = FileIndexContainerReader(container)
                    return sum(evaluate(col("c07") == lit, reader, schema).remain() for lit in lits)
                variant, what = "per-item", "open container once, 1000 evaluate(c07 = lit) via the predicate API"
            except ImportError:  # evaluator not available: ask the column's readers directly
                def lookup() -> int:
                    reader = FileIndexContainerReader(container)
                    total = 0
                    for lit in lits:
                        r = reader.readers_for("c07", "INT")[0]
                        total += r.visit_equal(lit).remain()
                    return total
                variant, what = "per-item", "open container once, 1000 Equal tests on c07's bitmap reader"
            times, check = _timed(lookup)
            res.append(line("W7.lookup", times, blob=container, ops=1000, check=check, variant=variant, what=what))
    return res


def _per_op_ms(median_ms: float, ops: int) -> float:
    return median_ms / max(ops, 1)


def _spread(values: list[float]) -> str:
    """``median (min-max)`` of the per-repeat medians, in ms."""
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.1f} ms"
    return f"{med:.1f} ms ({min(values):.1f}-{max(values):.1f})"


def _medians(runs: list[dict[Any, dict]], key: Any) -> list[float]:
    return [run[key]["median_ms"] for run in runs if key in run]


def markdown(py_runs: list[list[dict]], java_runs: list[dict[str, dict]], newest_runs: list[dict[str, dict]]) -> str:
    """One row per Python workload / variant: each side's median of its per-repeat medians (min-max over the
    repeats), ratios per operation of those medians, and whether every repeat's checks agree."""
    rows = []
    by_key = [{(r["workload"], r["variant"]): r for r in run} for run in py_runs]
    for r in py_runs[-1]:
        w, key = r["workload"], (r["workload"], r["variant"])
        ours_ms = _medians(by_key, key)
        ours = _per_op_ms(statistics.median(ours_ms), r["ops"])
        cells = [w, r["variant"], r["ops"], _spread(ours_ms)]
        agree = all(same_as_java(run[key], None) for run in by_key if key in run)
        for runs, ref in ((java_runs, True), (newest_runs, False)):
            theirs_ms = _medians(runs, w)
            if theirs_ms:
                ops = next(run[w]["ops"] for run in runs if w in run)
                cells += [_spread(theirs_ms), f"{ours / _per_op_ms(statistics.median(theirs_ms), ops):.3f}"]
                agree = agree and all(same_as_java(r, run[w]) for run in runs if w in run)
            elif ref:
                theirs = JAVA_REF_MS[w] / JAVA_REF_OPS.get(w, 1)
                cells += [f"({JAVA_REF_MS[w]:.1f} ms ref.)", f"({ours / theirs:.3f} vs ref.)"]
            else:
                cells += ["not run", "-"]
        cells += _cpu_cells(by_key, key, newest_runs, w)
        cells += [r["bytes"], r["crc32"], r.get("check", "-"), "yes" if agree else "NO"]
        rows.append(cells)
    return markdown_table(["workload", "variant", "ops", "paimon-codec", "Java 0.9", "ours / Java 0.9 (per op)",
                           "Java 1.4.2", "ours / Java 1.4.2 (per op)", "CPU: paimon-codec", "CPU: Java 1.4.2",
                           "CPU ours / Java 1.4.2", "bytes", "crc32", "check", "checks match"],
                          ["---", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
                           "---:", "---", "---:", "---"], rows)


def _cpu_cells(by_key: list[dict], key: tuple, newest_runs: list[dict[str, dict]], w: str) -> list[str]:
    """Process CPU time of each side (median of the per-repeat medians, min-max) and their ratio per op:
    the work each side did, which the machine's load moves far less than the wall time."""
    ours = [run[key]["cpu_median_ms"] for run in by_key if key in run and "cpu_median_ms" in run[key]]
    theirs = [run[w]["cpu_median_ms"] for run in newest_runs if w in run and "cpu_median_ms" in run[w]]
    if not ours or not theirs:
        return [_spread(ours) if ours else "-", _spread(theirs) if theirs else "-", "-"]
    ops_ours = next(run[key]["ops"] for run in by_key if key in run)
    ops_theirs = next(run[w]["ops"] for run in newest_runs if w in run)
    ratio = (statistics.median(ours) / ops_ours) / (statistics.median(theirs) / ops_theirs)
    return [_spread(ours), _spread(theirs), f"{ratio:.3f}"]


def _sides(args: argparse.Namespace, only: set[str]) -> list[tuple[str, Callable[[], Any]]]:
    sides: list[tuple[str, Callable[[], Any]]] = [("python", lambda: run_python(only))]
    if not args.no_java and not args.no_java_09:
        sides.append(("java-0.9", lambda: run_java(only)))
    if not args.no_java and not args.no_java_newest:
        sides.append(("java-1.4.2", lambda: _java_newest.index_records(only)))
    return sides


def main(argv: list[str] | None = None) -> int:
    global WARMUP, ROUNDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-java", action="store_true", help="skip both Java harnesses")
    ap.add_argument("--no-java-09", action="store_true", help="skip the Java 0.9 anchor harness (run.sh)")
    ap.add_argument("--no-java-newest", action="store_true", help="skip the Java 1.4.2 driver (tools/java)")
    ap.add_argument("--only", default=",".join(EXPECTED))
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--warmup", type=int, default=WARMUP)
    ap.add_argument("--repeats", type=int, default=3,
                    help="interleaved repeats: each side runs once per repeat (own warm-up + rounds), in turn")
    ap.add_argument("--output", default=str(RESULTS / "file_index.md"))
    ap.add_argument("--readme", action="store_true", help="also replace the table in benchmarks/README.md")
    args = ap.parse_args(argv)
    WARMUP, ROUNDS = args.warmup, args.rounds
    only = parse_only(args.only, EXPECTED, ap.error)
    sides = _sides(args, only)
    results, loads = interleave(sides, args.repeats, log=lambda rec: print(json.dumps(rec), flush=True))
    py_runs, java_runs, newest_runs = results["python"], results.get("java-0.9", []), results.get("java-1.4.2", [])
    table = markdown(py_runs, java_runs, newest_runs)
    names = ", ".join(name for name, _ in sides)
    header = (f"{environment()} at the end; sides interleaved ({names}), {args.repeats} repeats, the order "
              f"rotated each repeat; each side's run = {WARMUP} warm-up + {ROUNDS} timed rounds, median; cells: "
              f"median of the per-repeat medians (min-max).  Load average (1 min) at each side's start: "
              f"{load_summary(loads)}.  Java 0.9 = `shared/anchors/java-bench/run.sh`"
              f"{'' if java_runs else ' (not run: reference medians from its README in parentheses)'}; Java 1.4.2 = "
              f"the same workloads on Paimon 1.4.2's API (`tools/java` IndexBench, bitmap version 1 as "
              f"workloads.md says, one JVM per workload){'' if newest_runs else ' - not run this time'}.  "
              "Ratio < 1: paimon-codec is faster.  `batch` = the lookups through `lookup_many` (one call), "
              "`per-item` = one `visit_equal` call each.")
    print()
    print(table)
    write_result(args.output, "# File-index workloads (W1-W4, W7)\n\n" + header + "\n\n" + table + "\n")
    if args.readme:
        replace_readme_section("file_index", header + "\n\n" + table)
    return 0 if all(r["checks_ok"] for run in py_runs for r in run) else 1


if __name__ == "__main__":
    sys.exit(main())
