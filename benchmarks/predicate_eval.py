"""Benchmark: predicate evaluation over file-index containers (paimon_codec.fileindex.evaluate).

Workloads (inputs from the splitmix64 generator of shared/anchors/java-bench/workloads.md):

* **W7.lookup** - open a container reader on W7's 20-column container (c00..c19, INT, 2,000 rows,
  bitmap V1) once per round, then evaluate ``Equal(c07, lit_j)`` for 1,000 literals and count the
  files that may hold a match (check = 795).  Variants: ``reuse`` (our default: a column's readers are
  kept on the container reader) and ``fresh`` (a new reader per predicate, as Java does).
  Baselines in the same run: Paimon 0.9 Java (``run.sh --only W7``, when java is present) and a
  numpy scan of the raw column (``(c07 == lit).any()``).
* **P1.prune** - a 1,000,000-row data file with bitmap indexes on ``status`` (W1's 1,000 strings)
  and ``region`` (8 strings): evaluate ``status IN (3 values) AND region = 'r3' OR status IS NULL``
  on a fresh container reader, 100 times per round; baseline: pyarrow.compute on the raw columns.
* **P2.parse** - parse 1,000 SQL-like predicates (``parse_where``) and bind them; baseline: parse
  the same predicates' JSON with ``json.loads`` only (no predicate objects).

3 warm-up + 7 timed rounds, ``gc.collect()`` before each round; prints a markdown table of medians and
ratios (ours / baseline) and writes it to ``benchmarks/results/predicate_eval.md``.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from _harness import (
    RESULTS,
    below,
    crc32_hex,
    emit,
    markdown_table,
    result_line,
    run_java,
    timed,
    write_result,
)

from paimon_codec.expressions import make_leaf, parse_where
from paimon_codec.fileindex import FileIndexContainerReader, FileIndexWriter, evaluate
from paimon_codec.types import parse_row_type


def line(workload: str, impl: str, times: list[float], ops: int, check, data: bytes | None, what: str,
         **extra) -> dict:
    """Print and return one record (``bytes`` -1 / no ``crc32`` for baselines without a blob)."""
    return emit(result_line(workload, times, ops=ops, nbytes=-1 if data is None else len(data), check=check,
                            crc=None if data is None else crc32_hex(data), what=what, impl=impl, **extra))


# ------------------------------------------------------------------------------------------ W7
def w7_inputs() -> tuple[bytes, np.ndarray, list[int]]:
    schema = parse_row_type(", ".join(f"c{k:02d} INT" for k in range(20)))
    columns = {f"c{k:02d}": below(701, k * 2000, 2000, 50).astype(np.int32) for k in range(20)}
    writer = FileIndexWriter(schema, [(f"c{k:02d}", "bitmap", {"version": "1"}) for k in range(20)])
    writer.write_table(columns)
    lits = below(702, 0, 1000, 64).tolist()
    return writer.serialize(), columns["c07"], lits


def bench_w7() -> list[dict]:
    data, c07, lits = w7_inputs()
    schema = parse_row_type(", ".join(f"c{k:02d} INT" for k in range(20)))
    preds = [make_leaf("eq", "c07", (int(v),)) for v in lits]

    def lookup(reuse: bool):
        def run():
            container = FileIndexContainerReader(data)
            return sum(evaluate(p, container, schema, reuse_readers=reuse).remain() for p in preds)
        return run

    def scan():
        return sum(bool((c07 == v).any()) for v in lits)

    out = []
    for variant, fn in (("reuse", lookup(True)), ("fresh", lookup(False))):
        times, check = timed(fn)
        out.append(line("W7.lookup", "paimon-codec", times, 1000, check, data,
                        "open the container, 1000 Equal(c07, lit) evaluations", variant=variant))
    times, check = timed(scan)
    out.append(line("W7.lookup", "numpy-scan", times, 1000, check, None,
                    "(c07 == lit).any() over the raw 2000-row column, 1000 literals"))
    return out


# ------------------------------------------------------------------------------------------ P1
def bench_p1() -> list[dict]:
    n = 1_000_000
    strings = np.array([f"value-{k}" for k in range(1000)], dtype=object)
    status_idx = below(101, 0, n, 1000)
    status = strings[status_idx].tolist()
    for i in range(0, n, 997):
        status[i] = None
    regions = np.array([f"r{k}" for k in range(8)], dtype=object)
    region = regions[below(103, 0, n, 8)].tolist()
    schema = parse_row_type("status STRING, region STRING")
    writer = FileIndexWriter(schema, {"file-index.bitmap.columns": "status,region"})
    table = pa.table({"status": pa.array(status, pa.string()), "region": pa.array(region, pa.string())})
    writer.write_table(table)
    data = writer.serialize()
    pred = parse_where("status IN ('value-7', 'value-70', 'value-700') AND region = 'r3' OR status IS NULL")

    def ours():
        total = 0
        for _ in range(100):
            total += len(evaluate(pred, FileIndexContainerReader(data), schema).bitmap)
        return total

    value_set = pa.array(["value-7", "value-70", "value-700"])

    def arrow():
        total = 0
        for _ in range(100):
            st, rg = table.column("status"), table.column("region")
            mask = pc.or_(pc.and_(pc.is_in(st, value_set=value_set), pc.equal(rg, "r3")), pc.is_null(st))
            total += pc.sum(mask).as_py()
        return total

    out = []
    times, check = timed(ours)
    out.append(line("P1.prune", "paimon-codec", times, 100, check, data,
                    "fresh container reader + evaluate on 1M rows (bitmap V2 on status, region)"))
    times, check2 = timed(arrow)
    out.append(line("P1.prune", "pyarrow-scan", times, 100, check2, None,
                    "pyarrow.compute is_in/equal/is_null over the 1M raw rows"))
    assert check == check2, (check, check2)
    return out


# ------------------------------------------------------------------------------------------ P2
def bench_p2() -> list[dict]:
    schema = parse_row_type("a INT, s STRING, d DATE, ts TIMESTAMP(6)")
    k = below(201, 0, 1000, 10_000).tolist()
    texts = [f"a = {v} AND s IN ('x{v}', 'y{v}') OR d >= DATE '2024-01-01' AND ts < TIMESTAMP '2024-05-01 10:00:00.{v:06d}'"
             for v in k]
    docs = [json.dumps({"or": [{"and": [{"op": "eq", "field": "a", "literal": v},
                                        {"op": "in", "field": "s", "literals": [f"x{v}", f"y{v}"]}]},
                               {"and": [{"op": "gte", "field": "d", "literal": 19723},
                                        {"op": "lt", "field": "ts", "literal": {"millis": 1714557600000 + v // 1000,
                                                                                 "nanos_of_milli": (v % 1000) * 1000}}]}]})
            for v in k]

    def ours():
        return sum(len(parse_where(t).bind(schema).columns()) for t in texts)

    def baseline():
        return sum(len(json.loads(d)) for d in docs)

    out = []
    times, check = timed(ours)
    out.append(line("P2.parse", "paimon-codec", times, 1000, check, None, "parse_where + bind, 1000 predicates"))
    times, check = timed(baseline)
    out.append(line("P2.parse", "json.loads", times, 1000, check, None, "json.loads of the same predicates' JSON"))
    return out


# ------------------------------------------------------------------------------------------ Java
def java_w7() -> list[dict]:
    rec = run_java(["W7.lookup"], timeout=900).get("W7.lookup")
    return [emit(rec)] if rec else []


def table(records: list[dict]) -> str:
    base_impl = {"W7.lookup": ["paimon-java-0.9", "numpy-scan"], "P1.prune": ["pyarrow-scan"],
                 "P2.parse": ["json.loads"]}
    rows = []
    for rec in records:
        ratios = []
        if rec["impl"] == "paimon-codec":
            for b in base_impl.get(rec["workload"], []):
                base = next((r for r in records if r["workload"] == rec["workload"] and r["impl"] == b), None)
                if base:
                    ratios.append(f"{rec['median_ms'] / base['median_ms']:.2f}x vs {b}")
        rows.append([rec["workload"], rec["impl"], rec.get("variant", ""), f"{rec['median_ms']:.3f}",
                     f"{rec['median_us_per_op']:.2f}", rec.get("check"), "; ".join(ratios)])
    return markdown_table(["workload", "impl", "variant", "median ms", "µs/op", "check",
                           "ratio vs baseline (ours / base)"],
                          ["---", "---", "---", "---:", "---:", "---", "---"], rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-java", action="store_true", help="skip the Paimon Java baseline")
    ap.add_argument("--only", default="W7,P1,P2", help="comma list of W7, P1, P2")
    ap.add_argument("--output", default=str(RESULTS / "predicate_eval.md"))
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    records: list[dict] = []
    if "W7" in only:
        records += bench_w7()
        ours = [r for r in records if r["workload"] == "W7.lookup" and r["impl"] == "paimon-codec"]
        ok = all(r["check"] == 795 and r["crc32"] == "b0b71a85" and r["bytes"] == 104724 for r in ours)
        print(f"W7 checks {'match' if ok else 'DO NOT match'} workloads.md (bytes 104724, crc32 b0b71a85, "
              "check 795)", file=sys.stderr)
        if not args.no_java:
            records += java_w7()
    if "P1" in only:
        records += bench_p1()
    if "P2" in only:
        records += bench_p2()
    md = table(records)
    print()
    print(md)
    header = ("# Predicate evaluation benchmark\n\n`python benchmarks/predicate_eval.py` - medians of 7 rounds "
              "after 3 warm-ups, same machine and run for every row.\n\n")
    write_result(args.output, header + md + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
