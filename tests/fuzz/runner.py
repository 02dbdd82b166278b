"""The fuzz loop: inputs generated from ``(seed, index)``, run in a worker process with a time bound, an
allocation bound and a classification; the parent restarts a worker that died or hung.

Classes of outcome (per input):

* ``ok`` - the entry point and its queries returned;
* ``error`` - a :class:`~paimon_codec.errors.PaimonCodecError` (the documented refusal);
* ``other`` - any other exception (a finding);
* ``hang`` - over the time bound (SIGALRM in the worker; the parent's watchdog for C code);
* ``overalloc`` - more than ``50 x input + 10 MB`` allocated (tracemalloc peak; ``RLIMIT_AS`` stops
  allocations in C code the tracer does not see, confirmed by a traced re-run);
* ``crash`` - the worker process died (signal).

Findings are written to ``<out>/<target>/<class>-<index>.bin`` (+ ``.txt`` with the traceback).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import resource
import signal
import time
import traceback
import tracemalloc
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from fuzz.targets import TARGETS, Target

__all__ = ["Stats", "fuzz_target", "input_for", "classify_one", "CLASSES"]

CLASSES = ("ok", "error", "other", "hang", "overalloc", "crash")
_PAGE = os.sysconf("SC_PAGE_SIZE")


def alloc_bound(size: int) -> int:
    return 50 * size + 10 * 2**20


class _Hang(BaseException):  # a BaseException: no ``except Exception`` in the library can swallow it
    pass


_ARMED = [False]


def _alarm(signum, frame):  # noqa: ARG001
    if _ARMED[0]:  # a timer that fires while it is being cancelled is ignored
        _ARMED[0] = False
        raise _Hang()


@dataclass
class Stats:
    target: str
    inputs: int = 0
    counts: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)  # documented error classes
    findings: list = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: dict) -> None:
        self.inputs += other["inputs"]
        self.counts.update(other["counts"])
        self.errors.update(other["errors"])
        self.findings += other["findings"]

    def to_json(self) -> dict:
        return {"target": self.target, "inputs": self.inputs, **{c: self.counts.get(c, 0) for c in CLASSES},
                "error_classes": dict(self.errors.most_common(8)), "findings": self.findings[:50],
                "seconds": round(self.seconds, 1)}


def input_for(target: Target, seed: int, index: int) -> tuple[bytes, dict]:
    """The ``index``-th input of a run: reproducible from ``(target, seed, index)`` alone."""
    rnd = random.Random((seed << 40) ^ (zlib.crc32(target.name.encode()) << 8) ^ index)
    corpus = target.corpus()
    s = corpus[rnd.randrange(len(corpus))]
    data = s.data if rnd.random() < 0.02 else target.mutate(s, rnd)
    return data, s.meta


def _vm_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[0]) * _PAGE


def classify_one(target: Target, data: bytes, meta: dict, time_limit: float, *, rlimit: bool = True,
                 trace: bool = True) -> tuple[str, str]:
    """Run one input; ``(class, detail)``."""
    bound = alloc_bound(len(data))
    if rlimit:
        limit = _vm_bytes() + bound + 64 * 2**20  # + room for interpreter arenas and thread stacks
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
    if trace:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
    outcome, detail = "ok", ""
    try:
        _ARMED[0] = True
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        target.run(data, meta)
        _ARMED[0] = False
    except _Hang:
        outcome, detail = "hang", f"over {time_limit}s"
    except MemoryError:
        outcome, detail = "overalloc", "MemoryError under RLIMIT_AS"
    except Exception as exc:  # noqa: BLE001 - classifying every outcome is the point
        from paimon_codec.errors import PaimonCodecError

        if isinstance(exc, PaimonCodecError):
            outcome, detail = "error", type(exc).__name__
        else:
            outcome, detail = "other", "".join(traceback.format_exception(exc))[-4000:]
    finally:
        _ARMED[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        if rlimit:
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    if trace and outcome in ("ok", "error"):
        peak = tracemalloc.get_traced_memory()[1] - base
        if peak > bound:
            outcome, detail = "overalloc", f"traced peak {peak} > bound {bound} (input {len(data)} bytes)"
    return outcome, detail


def _worker(name: str, seed: int, start: int, stop: int, time_limit: float, rlimit: bool, trace: bool,
            out_dir: str, progress, queue) -> None:
    target = TARGETS[name]
    signal.signal(signal.SIGALRM, _alarm)
    for s in target.corpus():  # warm up: imports, thread pools, caches - not counted against inputs
        try:
            target.run(s.data, s.meta)
        except Exception:  # noqa: BLE001,S110 - a seed may itself be refused (e.g. an unsupported case)
            pass
    if trace:
        tracemalloc.start()
    batch = {"inputs": 0, "counts": Counter(), "errors": Counter(), "findings": []}
    last = time.monotonic()
    for i in range(start, stop):
        progress.value = i
        try:
            data, meta = input_for(target, seed, i)
        except Exception:  # noqa: BLE001 - a generator bug is the harness's, never counted as the library's
            batch["counts"]["harness_error"] += 1
            continue
        outcome, detail = classify_one(target, data, meta, time_limit, rlimit=rlimit, trace=trace)
        if outcome == "overalloc" and detail.startswith("MemoryError"):  # confirm with the tracer alone
            outcome, detail = classify_one(target, data, meta, time_limit * 4, rlimit=False, trace=True)
            if outcome != "overalloc":
                batch["counts"]["rlimit_false_alarm"] += 1
        batch["inputs"] += 1
        batch["counts"][outcome] += 1
        if outcome == "error":
            batch["errors"][detail] += 1
        elif outcome != "ok":
            _save(out_dir, name, outcome, i, data, detail)
            batch["findings"].append((i, outcome, detail.strip().splitlines()[-1][:200] if detail else ""))
        if batch["inputs"] >= 2000 or time.monotonic() - last > 5:
            queue.put(batch)
            batch = {"inputs": 0, "counts": Counter(), "errors": Counter(), "findings": []}
            last = time.monotonic()
    progress.value = stop
    queue.put(batch)
    queue.put(None)


def _save(out_dir: str, name: str, outcome: str, index: int, data: bytes, detail: str) -> None:
    d = Path(out_dir) / name
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{outcome}-{index}.bin").write_bytes(data)
    (d / f"{outcome}-{index}.txt").write_text(detail)


def fuzz_target(name: str, inputs: int, *, seed: int = 1, time_limit: float = 2.0, rlimit: bool = True,
                trace: bool = True, out_dir: str = "fuzz-findings", start: int = 0,
                deadline: float | None = None, on_progress=None) -> Stats:
    """Run ``inputs`` inputs of one target (indexes ``start ..``) in worker processes; ``deadline`` (a
    ``time.monotonic()`` value) stops early - the stats say how many inputs really ran."""
    ctx = mp.get_context("fork")
    stats = Stats(name)
    t0 = time.monotonic()
    index, stop = start, start + inputs
    watchdog = max(30.0, time_limit * 10)
    while index < stop and (deadline is None or time.monotonic() < deadline):
        progress = ctx.Value("q", index)
        queue = ctx.Queue()
        proc = ctx.Process(target=_worker, args=(name, seed, index, stop, time_limit, rlimit, trace, out_dir,
                                                 progress, queue), daemon=True)
        proc.start()
        seen, stamp, done = progress.value, time.monotonic(), False
        while not done:
            try:
                batch = queue.get(timeout=1.0)
            except Exception:  # noqa: BLE001 - queue.Empty
                batch = "idle"
            if batch is None:
                done = True
                break
            if batch != "idle":
                stats.add(batch)
                if on_progress:
                    on_progress(stats)
            if progress.value != seen:
                seen, stamp = progress.value, time.monotonic()
            stuck = time.monotonic() - stamp > watchdog
            late = deadline is not None and time.monotonic() > deadline
            if not proc.is_alive() or stuck or late:
                done = _drain(queue, stats) and progress.value >= stop
                break
        if done:
            proc.join(10)
            index = stop
            continue
        bad = progress.value
        if proc.is_alive():
            proc.kill()
        proc.join(10)
        if deadline is not None and time.monotonic() > deadline:
            break
        kind = "hang" if proc.exitcode in (-signal.SIGKILL,) else "crash"
        try:
            data, _ = input_for(TARGETS[name], seed, bad)
            _save(out_dir, name, kind, bad, data, f"worker exit code {proc.exitcode}")
        except Exception:  # noqa: BLE001 - the input cannot be regenerated: the finding keeps its index
            pass
        stats.inputs += 1
        stats.counts[kind] += 1
        stats.findings.append((bad, kind, f"worker exit code {proc.exitcode}"))
        index = bad + 1
    stats.seconds = time.monotonic() - t0
    return stats


def _drain(queue, stats: Stats) -> bool:
    """Take what a stopped worker left in the queue; True when it had finished (its end marker)."""
    while True:
        try:
            batch = queue.get(timeout=0.5)
        except Exception:  # noqa: BLE001 - queue.Empty
            return False
        if batch is None:
            return True
        stats.add(batch)
