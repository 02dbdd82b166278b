"""Fuzz every entry point of paimon-codec that takes untrusted bytes.

    python tools/fuzz.py --list
    python tools/fuzz.py --inputs 2000 --seed 1                      # every target, 2000 inputs each
    python tools/fuzz.py --targets bitmap,dv-file --inputs 1000000 --hours 2 --json report.json
    python tools/fuzz.py --engine atheris --targets bitmap --inputs 100000   # coverage-guided (atheris)

The long run accumulates in one record over as many sittings as it takes (the inputs of a target are a
function of ``(seed, index)``; a resumed segment starts at the recorded next index):

    python tools/fuzz.py --inputs 1000000 --jobs 1 --json fuzz-long.json --resume   # start or continue
    python tools/fuzz.py --report fuzz-long.json --markdown                       # the table in docs/fuzzing.md

The default engine mutates the seeds (golden files written by Paimon Java, our writers' files, the golden
warehouse's metadata) structure-aware: length / count fields, JSON values, Avro records through a widened
writer schema.  Each input runs in a worker process under a time bound (``--time-limit``) and an allocation
bound (50 x input + 10 MB: the input's peak resident memory, or --tracemalloc, and RLIMIT_AS for
reserved address space; tests/fuzz/memory.py) and is classified ok / error
(documented PaimonCodecError) / other / hang / overalloc / crash.  Findings land in ``--out``.  Exit status
1 when any input was classified other, hang, overalloc or crash.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(REPO / "tests"), str(REPO)]  # tests/fuzz is the harness (ahead of this script's dir)

from fuzz import record  # noqa: E402
from fuzz.memory import MEMORY_MODES  # noqa: E402
from fuzz.runner import CLASSES, fuzz_target  # noqa: E402
from fuzz.targets import TARGETS  # noqa: E402

BAD = ("other", "hang", "overalloc", "crash")


def _table(rows: list[tuple[str, dict]]) -> str:
    head = "| entry point | inputs | " + " | ".join(CLASSES) + " | inputs/s |"
    lines = [head, "|" + " --- |" * (len(CLASSES) + 3)]
    for name, r in rows:
        rate = r["inputs"] / r["seconds"] if r["seconds"] else 0
        lines.append(f"| {name} | {r['inputs']:,} | " + " | ".join(f"{r[c]:,}" for c in CLASSES)
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
    ap.add_argument("--targets", default="all", help="comma-separated entry points, run in this order (--list)")
    ap.add_argument("--list", action="store_true", help="list the entry points and their seed counts")
    ap.add_argument("--inputs", type=int, default=2000,
                    help="inputs per entry point (with --resume: run each entry point up to this many in all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input index (reproduce a finding)")
    ap.add_argument("--time-limit", type=float, default=2.0, help="seconds per input before it is a hang")
    ap.add_argument("--hours", type=float, default=None, help="stop after this long (spread over the targets)")
    ap.add_argument("--engine", choices=("mutate", "atheris"), default="mutate")
    ap.add_argument("--jobs", type=int, default=1, help="entry points fuzzed at once (one worker process each)")
    ap.add_argument("--memory", choices=MEMORY_MODES, default="rss",
                    help="allocation meter: peak resident memory per input (default), tracemalloc, or none "
                         "(RLIMIT_AS only, which applies to all three)")
    ap.add_argument("--tracemalloc", action="store_const", const="tracemalloc", dest="memory",
                    help="same as --memory tracemalloc (exact Python-level peak, 3-4x slower)")
    ap.add_argument("--out", default="fuzz-findings", help="directory for findings")
    ap.add_argument("--json", dest="json_out", help="the run's record (JSON; rewritten atomically as it runs)")
    ap.add_argument("--resume", action="store_true",
                    help="continue the record in --json: each entry point from its recorded next input")
    ap.add_argument("--report", metavar="F", help="print the table of record F and exit")
    ap.add_argument("--markdown", action="store_true", help="with --report: the Markdown table of docs/fuzzing.md")
    ap.add_argument("--recheck", metavar="F", help="run every finding of record F again on this library and "
                    "keep the outcomes in F (the run's own counts stay as found)")
    args = ap.parse_args(argv)

    if args.recheck:
        from fuzz.recheck import recheck

        try:
            rows = recheck(args.recheck, memory=args.memory, out_dir=args.out)
        except record.ResumeError as exc:
            print(f"fuzz: {exc}", file=sys.stderr)
            return 2
        return 1 if any(r["now"] in record.BAD for r in rows) else 0

    if args.report:
        rec = record.load(args.report)
        print(record.markdown(rec) if args.markdown else _table(list(rec["targets"].items())))
        return 0
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
    if args.resume and not args.json_out:
        ap.error("--resume continues the record given with --json")
    try:
        book = _Book(args, names)
    except record.ResumeError as exc:
        print(f"fuzz: {exc}", file=sys.stderr)
        return 2
    deadline_total = time.monotonic() + args.hours * 3600 if args.hours else None

    def one(k: int, name: str) -> dict:
        deadline = None
        if deadline_total is not None:  # share what is left evenly among the targets still to run
            deadline = time.monotonic() + (deadline_total - time.monotonic()) * args.jobs / (len(names) - k)
            deadline = min(deadline, deadline_total)
        start = book.start(name)
        stop = args.inputs if args.resume else args.start + args.inputs

        def progress(stats, _name=name):
            book.update(_name, stats)
            if stats.inputs and stats.inputs % 50000 < 2000:
                print(f"  {_name}: {stats.inputs:,} inputs {dict(stats.counts)}", file=sys.stderr, flush=True)

        stats = fuzz_target(name, max(0, stop - start), seed=args.seed, time_limit=args.time_limit,
                            memory=args.memory, out_dir=args.out, start=start, deadline=deadline,
                            on_progress=progress)
        book.update(name, stats, final=True)
        print(f"{name}: {stats.inputs:,} inputs in {stats.seconds:.0f}s (indexes {start:,}..{stats.next - 1:,}) "
              + " ".join(f"{c}={stats.counts.get(c, 0)}" for c in CLASSES), flush=True)
        for idx, kind, detail in stats.findings[:5]:
            print(f"    #{idx} {kind}: {detail}", flush=True)
        return stats.to_dict()

    with ThreadPoolExecutor(max(1, args.jobs)) as pool:  # each target runs in worker processes of its own
        rows = list(pool.map(one, range(len(names)), names))
    book.close()
    print(_table([(r["target"], r) for r in rows]))
    if args.json_out:
        print(f"record: {args.json_out} (all segments: --report {args.json_out} --markdown)")
    return 1 if any(r[c] for r in rows for c in BAD) else 0


class _Book:
    """Keeps the ``--json`` record: the recorded totals of each entry point plus the running segment, written
    atomically at most every ``EVERY`` seconds and at the end of every entry point."""

    EVERY = 10.0

    def __init__(self, args: argparse.Namespace, names: list[str]) -> None:
        self.path, self.names, self.lock, self.written = args.json_out, names, threading.Lock(), 0.0
        self.rec: dict | None = None
        self.first = args.start
        if not self.path:
            return
        harness = record.harness_hash()
        corpora = {n: record.corpus_hash(TARGETS[n]) for n in names}
        self.corpora = corpora
        if Path(self.path).exists():
            if not args.resume:
                raise record.ResumeError(f"{self.path} exists: --resume continues it (or remove it)")
            self.rec = record.load(self.path)
            record.check_resume(self.rec, self.path, args.seed, harness, corpora)
        else:
            if args.start:
                raise record.ResumeError("--start does not go with a --json record (it keeps its own next index)")
            self.rec = {"format": 1, "seed": args.seed, "harness": harness, "goal": args.inputs, "targets": {},
                        "segments": []}
        self.base = {n: self.rec["targets"].get(n) for n in names}
        self.rec["goal"] = max(self.rec.get("goal", 0), args.inputs)
        self.segment = {**record.library_commit(), "started": record.now(), "ended": None,
                        "memory": args.memory, "time_limit": args.time_limit, "ranges": {},
                        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]])}
        self.rec["segments"].append(self.segment)
        self._write()

    def start(self, name: str) -> int:
        """The first input index of ``name`` in this segment: the record's next index when continuing one,
        else ``--start`` (reproducing a finding: ``--start 273007 --inputs 1`` runs just that input)."""
        if self.rec is None:
            return self.first
        base = self.base.get(name)
        return base["next"] if base else 0

    def update(self, name: str, stats, final: bool = False) -> None:
        if self.rec is None:
            return
        with self.lock:
            row = stats.to_dict()
            if row["inputs"] or final:
                self.rec["targets"][name] = record.merged(self.base.get(name), row, self.corpora[name])
                self.segment["ranges"][name] = [self.start(name), stats.next]
            if final or time.monotonic() - self.written > self.EVERY:
                self._write()

    def close(self) -> None:
        if self.rec is not None:
            with self.lock:
                self.segment["ended"] = record.now()
                self._write()

    def _write(self) -> None:
        self.segment["updated"] = record.now()
        record.save(self.path, self.rec)
        self.written = time.monotonic()


if __name__ == "__main__":
    sys.exit(main())
