"""Fuzz every entry point of paimon-codec that takes untrusted bytes.

    python tools/fuzz.py --list
    python tools/fuzz.py --inputs 2000 --seed 1                      # every target, 2000 inputs each
    python tools/fuzz.py --targets bitmap,dv-file --inputs 1000000 --hours 2 --json report.json
    python tools/fuzz.py --engine atheris --targets bitmap --inputs 100000   # coverage-guided (atheris)

The default engine mutates the seeds (golden files written by Paimon Java, our writers' files, the golden
warehouse's metadata) structure-aware: length / count fields, JSON values, Avro records through a widened
writer schema.  Each input runs in a worker process under a time bound (``--time-limit``) and an allocation
bound (50 x input + 10 MB: tracemalloc, and RLIMIT_AS for C allocations) and is classified ok / error
(documented PaimonCodecError) / other / hang / overalloc / crash.  Findings land in ``--out``.  Exit status
1 when any input was classified other, hang, overalloc or crash.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests"), str(REPO)]  # tests/fuzz is the harness (ahead of this script's dir)

from fuzz.runner import CLASSES, fuzz_target  # noqa: E402
from fuzz.targets import TARGETS  # noqa: E402

BAD = ("other", "hang", "overalloc", "crash")


def _table(rows: list[dict]) -> str:
    head = "| entry point | inputs | " + " | ".join(CLASSES) + " | inputs/s |"
    lines = [head, "|" + " --- |" * (len(CLASSES) + 3)]
    for r in rows:
        rate = r["inputs"] / r["seconds"] if r["seconds"] else 0
        lines.append(f"| {r['target']} | {r['inputs']:,} | " + " | ".join(f"{r[c]:,}" for c in CLASSES)
                     + f" | {rate:,.0f} |")
    return "\n".join(lines)


def _atheris(args: argparse.Namespace, names: list[str]) -> int:
    rc = 0
    for name in names:
        cmd = [sys.executable, str(REPO / "tests" / "fuzz" / "atheris_main.py"), name, f"-runs={args.inputs}",
               f"-timeout={max(1, int(args.time_limit))}", "-rss_limit_mb=2048", f"-seed={args.seed}",
               f"-artifact_prefix={Path(args.out) / name}/"]
        if args.hours:
            cmd.append(f"-max_total_time={int(args.hours * 3600 / len(names))}")
        (Path(args.out) / name).mkdir(parents=True, exist_ok=True)
        print(" ".join(cmd), flush=True)
        rc |= subprocess.call(cmd, env=dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "tests"), str(REPO)])))
    return 1 if rc else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="all", help="comma-separated entry points (default: all; --list)")
    ap.add_argument("--list", action="store_true", help="list the entry points and their seed counts")
    ap.add_argument("--inputs", type=int, default=2000, help="inputs per entry point")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input index (resume a run)")
    ap.add_argument("--time-limit", type=float, default=2.0, help="seconds per input before it is a hang")
    ap.add_argument("--hours", type=float, default=None, help="stop after this long (spread over the targets)")
    ap.add_argument("--engine", choices=("mutate", "atheris"), default="mutate")
    ap.add_argument("--jobs", type=int, default=1, help="entry points fuzzed at once (one worker process each)")
    ap.add_argument("--no-tracemalloc", action="store_true", help="allocation bound by RLIMIT_AS only (faster)")
    ap.add_argument("--out", default="fuzz-findings", help="directory for findings")
    ap.add_argument("--json", dest="json_out", help="write the report as JSON here")
    args = ap.parse_args(argv)

    names = list(TARGETS) if args.targets == "all" else [t.strip() for t in args.targets.split(",") if t.strip()]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        ap.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    if args.list:
        for n in names:
            print(f"{n:16} {len(TARGETS[n].corpus()):4} seeds")
        return 0
    if args.engine == "atheris":
        return _atheris(args, names)
    deadline_total = time.monotonic() + args.hours * 3600 if args.hours else None
    rows: list[dict] = []

    def one(k: int, name: str) -> dict:
        deadline = None
        if deadline_total is not None:  # share what is left evenly among the targets still to run
            deadline = time.monotonic() + (deadline_total - time.monotonic()) * args.jobs / (len(names) - k)
            deadline = min(deadline, deadline_total)

        def progress(stats, _name=name):
            if stats.inputs and stats.inputs % 50000 < 2000:
                print(f"  {_name}: {stats.inputs:,} inputs {dict(stats.counts)}", file=sys.stderr, flush=True)

        stats = fuzz_target(name, args.inputs, seed=args.seed, time_limit=args.time_limit,
                            trace=not args.no_tracemalloc, out_dir=args.out, start=args.start, deadline=deadline,
                            on_progress=progress)
        print(f"{name}: {stats.inputs:,} inputs in {stats.seconds:.0f}s "
              + " ".join(f"{c}={stats.counts.get(c, 0)}" for c in CLASSES), flush=True)
        for idx, kind, detail in stats.findings[:5]:
            print(f"    #{idx} {kind}: {detail}", flush=True)
        rows.append(stats.to_json())
        if args.json_out:  # rewritten after every target: a long run reports what it finished
            Path(args.json_out).write_text(json.dumps({"seed": args.seed, "targets": rows}, indent=1))
        return rows[-1]

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:  # each target runs in worker processes of its own
        list(pool.map(one, range(len(names)), names))
    print(_table(rows))
    return 1 if any(r[c] for r in rows for c in BAD) else 0


if __name__ == "__main__":
    sys.exit(main())
