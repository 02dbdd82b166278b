"""Planning of the scale table's queries, and each query's physical floor - no Spark, no JVM.

For every filter query of :data:`scale.QUERIES` on ``bench.scale`` / ``bench.scale_dv`` (the table
:mod:`_scale_table` builds, 200 files x 50,000 rows by default; reused when built): ``plan_scan``'s wall time
and the process CPU time it took (all threads), median of ``--rounds`` after a warm-up, with the load
average; the files the plan reads and the compressed bytes of the Parquet row groups holding its selected rows
(the key column, what the scan returns); and the **floor**: the compressed bytes of the row groups that hold
a matching row (found by reading the predicate's columns and filtering them - no index), plus the planning.
``plan / floor`` = the plan's row-group bytes over the floor's: 1.0 when the index answers select exactly the
row groups that must be read.  Nothing here runs against another system, so there is nothing to interleave;
the CPU time is the number that does not move with the machine's load.

    python benchmarks/planning.py [--files 200] [--rows 50000] [--rounds 7] [--kinds range] [--readme]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Any

from _harness import RESULTS, environment, markdown_table, replace_readme_section, write_result


def row_group_bytes(path: str, columns: set[str], wanted) -> int:
    """Compressed bytes of ``columns`` in the row groups of ``path`` for which ``wanted(first, end)`` holds."""
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    total, start = 0, 0
    for g in range(meta.num_row_groups):
        rg = meta.row_group(g)
        end = start + rg.num_rows
        if wanted(start, end):
            total += sum(rg.column(c).total_compressed_size for c in range(rg.num_columns)
                         if rg.column(c).path_in_schema.split(".", 1)[0] in columns)
        start = end
    return total


def floor_bytes(table, where: str, key: str) -> tuple[int, int]:
    """(bytes, rows): the key column's compressed bytes in the row groups holding a row matching ``where``,
    and the matching rows - by reading the predicate's columns of every live file and filtering them (deleted
    rows of a file with a deletion vector are dropped first)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyroaring import BitMap

    from paimon_codec.planning.plan import as_predicate
    from paimon_codec.reading.arrow_filter import filter_table

    plan = _plan(table, None)
    row_type = plan.row_type
    pred = as_predicate(where, row_type)
    columns = sorted({leaf.column for leaf in pred.leaves()})
    total = rows = 0
    for t in plan.tasks:
        data = pq.read_table(t.path, columns=columns)
        data = data.append_column("__pos", pa.array(np.arange(data.num_rows)))
        if t.selection is not None:  # the deletion vector's survivors (no predicate: no index answer)
            data = data.take(np.frombuffer(t.selection.to_array(), dtype=np.uint32).astype(np.int64))
        hit = filter_table(data, pred, row_type, "paimon").column("__pos").to_numpy()
        if not len(hit):
            continue
        rows += len(hit)
        matched = BitMap(hit.astype(np.uint32))
        total += row_group_bytes(t.path, {key}, lambda s, e, m=matched: m.range_cardinality(s, e) > 0)
    return total, rows


def _plan(table, where):
    from paimon_codec.planning.plan import plan_scan

    return plan_scan(table, where)


def plan_bytes(plan, key: str) -> int:
    """The key column's compressed bytes in the row groups holding rows the plan selected."""
    return sum(row_group_bytes(t.path, {key}, lambda s, e, sel=t.selection: sel is None
                               or sel.range_cardinality(s, e) > 0) for t in plan.tasks)


def measure(queries: list[tuple[Any, str]], rounds: int) -> list[dict]:
    """Plan every query once (warm-up), then ``rounds`` rounds of one plan of each query in turn: a phase of
    the shared machine (another tenant's burst) lands on every query alike instead of on one query's block of
    plans.  Per query: median / min / max of wall and CPU ms, the load after its last plan, its last plan."""
    for table, where in queries:
        _plan(table, where)
    walls: list[list[float]] = [[] for _ in queries]
    cpus: list[list[float]] = [[] for _ in queries]
    plans: list[Any] = [None] * len(queries)
    loads = [0.0] * len(queries)
    for _ in range(rounds):
        for i, (table, where) in enumerate(queries):
            w0, c0 = time.perf_counter(), time.process_time()
            plans[i] = _plan(table, where)
            cpus[i].append((time.process_time() - c0) * 1000)
            walls[i].append((time.perf_counter() - w0) * 1000)
            loads[i] = os.getloadavg()[0]
    return [{"wall_ms": statistics.median(w), "wall_min_ms": min(w), "wall_max_ms": max(w),
             "cpu_ms": statistics.median(c), "cpu_min_ms": min(c), "cpu_max_ms": max(c), "load": load, "plan": plan}
            for w, c, load, plan in zip(walls, cpus, loads, plans, strict=True)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--rows", type=int, default=50_000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--kinds", default=None, help="comma list of query kinds (e.g. 'range,DV + range')")
    ap.add_argument("--warehouse", default=None)
    ap.add_argument("--output", default=str(RESULTS / "planning.md"))
    ap.add_argument("--readme", action="store_true", help="also replace the table in benchmarks/README.md")
    args = ap.parse_args(argv)
    # steady-state planning, as a long-lived planner sees it: the range-bitmap kernels loaded from the first
    # comparison (a process left to itself loads them after 2^27 rows compared on pyroaring, ~13 plans here)
    os.environ.setdefault("PAIMON_CODEC_JIT", "1")
    import _scale_table
    from scale import QUERIES

    from paimon_codec.table import PaimonTable

    warehouse = args.warehouse or os.path.join(os.path.expanduser("~"), ".cache", "paimon-codec", "bench", "scale-wh")
    tables = _scale_table.build(warehouse, args.files, args.rows, log=print)
    kinds = None if not args.kinds else {k.strip() for k in args.kinds.split(";")}
    picked = []
    for kind, sel, suffix, where, _order, limit in QUERIES:
        if where is None or limit is not None or (kinds is not None and kind not in kinds):
            continue
        picked.append((kind, sel, suffix, where.format(mid=args.files * args.rows // 2 + 17),
                       PaimonTable(tables["scale" + suffix])))
    cells = []
    measured = measure([(table, where) for _, _, _, where, table in picked], args.rounds)
    for (kind, sel, suffix, where, table), m in zip(picked, measured, strict=True):
        plan = m.pop("plan")
        fb, frows = floor_bytes(table, where, "id")
        pb = plan_bytes(plan, "id")
        rep = plan.report
        print({"kind": kind, "where": where, **m, "floor_bytes": fb, "plan_bytes": pb, "rows": frows}, flush=True)
        cells.append([f"{kind}: `{where}`" + (" (DV table)" if suffix else ""), "-" if sel is None else f"{sel:.2%}",
                      f"{frows:,}", f"{m['wall_ms']:.0f} ({m['wall_min_ms']:.0f}-{m['wall_max_ms']:.0f})",
                      f"{m['cpu_ms']:.0f} ({m['cpu_min_ms']:.0f}-{m['cpu_max_ms']:.0f})", f"{m['load']:.1f}",
                      f"{rep.files_read}/{rep.files_total}", f"{rep.index_bytes_read:,}", f"{pb:,}", f"{fb:,}",
                      f"{pb / fb:.2f}" if fb else ("1.00" if not pb else "-")])
    text = (f"{environment()}; `bench.scale`: {args.files} files x {args.rows:,} rows; median of {args.rounds} "
            "plans after a warm-up (min-max), the queries planned in turn (one plan of each per round); CPU = process CPU time of the plan (every judging thread); load = "
            "1-minute load average after the query's last plan.  Bytes: compressed `id` column (what the scan returns) "
            "in the row groups holding the plan's selected rows / holding a matching row (the floor).\n\n"
            + markdown_table(["query", "selectivity", "rows", "planning wall ms", "planning CPU ms", "load",
                              "files read", "index bytes", "row-group bytes: plan", "floor", "plan / floor"],
                             ["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:"],
                             cells))
    print(text)
    write_result(args.output, "# Planning the scale table's queries, and their floor\n\n" + text + "\n")
    if args.readme:
        replace_readme_section("planning", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
