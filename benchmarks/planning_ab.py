"""A/B of planning the scale table's filters between two source trees, plan by plan - no Spark, no JVM.

Two long-lived planner processes, one per tree (``PYTHONPATH=<tree>:<extra>``), plan the same filter in turn
(A B, then B A, ...) on the table :mod:`_scale_table` built (``benchmarks/planning.py`` builds it): on a machine
shared with other jobs the load moves within seconds, so processes run one after the other see different machines,
while plans alternated a few milliseconds apart see the same one.  Each plan's process CPU time is taken in its
process (``time.process_time`` around ``plan_scan``); both sides must select the same files and rows.  Prints the
medians (and minima) per filter and B / A.

    python benchmarks/planning_ab.py --a /work/main --b . [--extra /work/devsite] [--rounds 21] [--where "amount < 100"]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys


def range_wheres() -> list[str]:
    """The scale benchmark's range filters (``scale.QUERIES``), "DV:" before those of the table with deletion
    vectors."""
    from scale import QUERIES

    return [("DV:" if suffix else "") + where for kind, _sel, suffix, where, _order, limit in QUERIES
            if kind in ("range", "DV + range") and limit is None]

_WORKER = """
import os, sys, time
os.environ.setdefault("PAIMON_CODEC_JIT", "1")  # the kernels from the first comparison, as planning.py runs
import paimon_codec
from paimon_codec.planning.plan import plan_scan
from paimon_codec.table import PaimonTable
print(os.path.dirname(os.path.dirname(os.path.abspath(paimon_codec.__file__))), flush=True)
tables = {}
for line in sys.stdin:
    where = line.strip()
    name = "scale_dv" if where.startswith("DV:") else "scale"
    table = tables.get(name) or tables.setdefault(name, PaimonTable(os.path.join(sys.argv[1], "bench.db", name)))
    c0 = time.process_time()
    plan = plan_scan(table, where.removeprefix("DV:"))
    cpu = (time.process_time() - c0) * 1000
    rows = sum(-1 if t.selection is None else len(t.selection) for t in plan.tasks)
    print(cpu, len(plan.tasks), rows, flush=True)
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--a", required=True, help="source tree A (e.g. /work/main)")
    ap.add_argument("--b", required=True, help="source tree B (e.g. this worktree)")
    ap.add_argument("--extra", default="", help="more PYTHONPATH entries after each tree")
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--where", action="append", help="filters (default: the range filters, DV: for the DV table)")
    ap.add_argument("--warehouse", default=os.path.join(os.path.expanduser("~"), ".cache", "paimon-codec", "bench",
                                                        "scale-wh"))
    args = ap.parse_args(argv)
    sides = {"A": os.path.abspath(args.a), "B": os.path.abspath(args.b)}
    procs = {}
    for name, tree in sides.items():
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (tree, args.extra) if p), PAIMON_CODEC_TREE=tree)
        # run in the tree: ``python -c`` puts the working directory first on sys.path, ahead of PYTHONPATH
        procs[name] = subprocess.Popen([sys.executable, "-c", _WORKER, args.warehouse], env=env, text=True, cwd=tree,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def plan(name: str, where: str) -> tuple[float, str]:
        p = procs[name]
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(where + "\n")
        p.stdin.flush()
        cpu, files, rows = p.stdout.readline().split()
        return float(cpu), f"{files} files, {rows} rows"

    for name, tree in sides.items():  # the tree each side's package was imported from (never the other's)
        p = procs[name]
        assert p.stdout is not None
        loaded = p.stdout.readline().strip()
        if loaded != tree:
            raise SystemExit(f"side {name} imported paimon_codec from {loaded}, not {tree}")
    print(f"A = {sides['A']}, B = {sides['B']}; load average {os.getloadavg()[0]:.1f}")
    try:
        for where in args.where or range_wheres():
            answers = {name: [plan(name, where)[1] for _ in range(3)][-1] for name in sides}  # warm-up
            if answers["A"] != answers["B"]:
                raise SystemExit(f"{where}: A selects {answers['A']}, B {answers['B']}")
            cpu: dict[str, list[float]] = {name: [] for name in sides}
            for r in range(args.rounds):
                for name in (("A", "B") if r % 2 == 0 else ("B", "A")):
                    cpu[name].append(plan(name, where)[0])
            a, b = statistics.median(cpu["A"]), statistics.median(cpu["B"])
            print(f"{where:20s} CPU ms median (min): A {a:5.1f} ({min(cpu['A']):5.1f})  B {b:5.1f} "
                  f"({min(cpu['B']):5.1f})  B/A {b / a:.2f}  [{answers['A']}]", flush=True)
    finally:
        for p in procs.values():
            assert p.stdin is not None
            p.stdin.close()
            p.wait()
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
