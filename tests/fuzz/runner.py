"""The fuzz loop: inputs generated from ``(seed, index)``, run in a worker process with a time bound, an
allocation bound and a classification; the parent restarts a worker that died or hung.

Classes of outcome (per input):

* ``ok`` - the entry point and its queries returned;
* ``error`` - a :class:`~paimon_codec.errors.PaimonCodecError` (the documented refusal);
* ``other`` - any other exception (a finding);
* ``hang`` - over the time bound (SIGALRM in the worker; the parent's watchdog for C code);
* ``overalloc`` - more than ``50 x input + 10 MB`` allocated: the input's peak resident memory (default) or
  its tracemalloc peak, and ``RLIMIT_AS`` for address space reserved but not touched (``fuzz.memory``);
  confirmed by a second run;
* ``crash`` - the worker process died (signal).

Findings are written to ``<out>/<target>/<class>-<index>.bin`` (+ ``.txt`` with the traceback).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
import signal
import time
import traceback
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from fuzz.memory import Meter, alloc_bound, tune_allocator
from fuzz.targets import TARGETS, Target

__all__ = ["Stats", "fuzz_target", "input_for", "classify_one", "classify_confirmed", "CLASSES"]

CLASSES = ("ok", "error", "other", "hang", "overalloc", "crash")


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
    next: int = 0  # the first input index not yet accounted for (a resumed run starts here)
    notes: Counter = field(default_factory=Counter)  # harness_error, *_false_alarm, trims
    meter: str = ""

    def add(self, other: dict) -> None:
        self.inputs += other["inputs"]
        self.counts.update(other["counts"])
        self.errors.update(other["errors"])
        self.notes.update(other.get("notes", {}))
        self.findings += other["findings"]
        self.next = max(self.next, other.get("next", self.next))
        self.meter = other.get("meter", self.meter)

    def to_dict(self) -> dict:
        return {"target": self.target, "inputs": self.inputs, **{c: self.counts.get(c, 0) for c in CLASSES},
                "error_classes": dict(self.errors.most_common()), "findings": self.findings[:50],
                "seconds": round(self.seconds, 1), "next": self.next, "notes": dict(self.notes),
                "meter": self.meter}


def input_for(target: Target, seed: int, index: int) -> tuple[bytes, dict]:
    """The ``index``-th input of a run: reproducible from ``(target, seed, index)`` alone."""
    rnd = random.Random((seed << 40) ^ (zlib.crc32(target.name.encode()) << 8) ^ index)
    corpus = target.corpus()
    s = corpus[rnd.randrange(len(corpus))]
    data = s.data if rnd.random() < 0.02 else target.mutate(s, rnd)
    return data, s.meta


def classify_one(target: Target, data: bytes, meta: dict, time_limit: float, meter: Meter, *,
                 room: int | None = None) -> tuple[str, str]:
    """Run one input under the time bound and ``meter``'s allocation bound; ``(class, detail)``."""
    bound = alloc_bound(len(data))
    outcome, detail = "ok", ""
    meter.start(bound, room)
    try:
        _ARMED[0] = True
        signal.setitimer(signal.ITIMER_REAL, time_limit)
        target.run(data, meta)
        _ARMED[0] = False
    except _Hang:
        outcome, detail = "hang", f"over {time_limit}s"
    except MemoryError:
        outcome, detail = "overalloc", f"MemoryError under RLIMIT_AS (bound {bound} + room)"
    except Exception as exc:  # noqa: BLE001 - classifying every outcome is the point
        from paimon_codec.errors import PaimonCodecError

        if isinstance(exc, PaimonCodecError):
            outcome, detail = "error", type(exc).__name__
        else:
            outcome, detail = "other", "".join(traceback.format_exception(exc))[-4000:]
    finally:
        _ARMED[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        peak = meter.stop()
    if outcome in ("ok", "error") and peak > bound:
        outcome, detail = "overalloc", f"{meter.mode} peak {peak} > bound {bound} (input {len(data)} bytes)"
    return outcome, detail


def classify_confirmed(target: Target, data: bytes, meta: dict, time_limit: float, meter: Meter,
                       notes: Counter) -> tuple[str, str]:
    """:func:`classify_one`, with a hang confirmed by a second run under 4x the time bound, and an over-allocation confirmed by a second run after giving free memory back
    (a one-time cache or import must not count): under RLIMIT_AS with 1 GiB more room (an input that still
    cannot get its address space is over; one that can is measured), or, for an RSS peak, the same meter again."""
    outcome, detail = classify_one(target, data, meta, time_limit, meter)
    if outcome == "hang":
        # a time bound is a wall-clock bound: on a loaded machine a slow but finite input can cross it, so a
        # hang counts only if it also runs past 4x the bound (a real loop or blow-up does; a stall does not)
        again, again_detail = classify_one(target, data, meta, time_limit * 4, meter)
        if again == "hang":
            return "hang", f"{detail}; confirmed: {again_detail}"
        notes["hang_false_alarm"] += 1
        return again, again_detail
    if outcome != "overalloc":
        return outcome, detail
    meter.trim()
    room = 2**30 if detail.startswith("MemoryError") else None
    again, again_detail = classify_one(target, data, meta, time_limit * 4, meter, room=room)
    if again != "overalloc" and again != "hang":
        notes["rlimit_false_alarm" if detail.startswith("MemoryError") else "rss_false_alarm"] += 1
        return again, again_detail
    return "overalloc", detail + (f"; confirmed: {again_detail}" if again == "overalloc" else "; re-run: hang")


def _new_batch(start: int) -> dict:
    return {"inputs": 0, "counts": Counter(), "errors": Counter(), "notes": Counter(), "findings": [],
            "next": start}


def _worker(name: str, seed: int, start: int, stop: int, time_limit: float, memory: str, rlimit: bool,
            out_dir: str, progress, queue) -> None:
    target = TARGETS[name]
    parent = os.getppid()
    signal.signal(signal.SIGALRM, _alarm)
    tuned = tune_allocator()  # before the warm-up: every allocation from here on follows the same rules
    target.warm_up()  # imports, thread pools, caches, compiled kernels - not counted against inputs
    meter = Meter(memory, rlimit=rlimit)
    meter.open()
    batch = _new_batch(start)
    batch["meter"] = meter.mode + ("" if tuned or meter.mode != "rss" else " (glibc not tuned)")
    last = time.monotonic()
    for i in range(start, stop):
        progress.value = i
        try:
            data, meta = input_for(target, seed, i)
        except Exception:  # noqa: BLE001 - a generator bug is the harness's, never counted as the library's
            batch["notes"]["harness_error"] += 1
            batch["next"] = i + 1
            continue
        outcome, detail = classify_confirmed(target, data, meta, time_limit, meter, batch["notes"])
        batch["inputs"] += 1
        batch["next"] = i + 1
        batch["counts"][outcome] += 1
        if outcome == "error":
            batch["errors"][detail] += 1
        elif outcome != "ok":
            _save(out_dir, name, outcome, i, data, detail)
            batch["findings"].append((i, outcome, detail.strip().splitlines()[-1][:200] if detail else ""))
        if batch["inputs"] >= 2000 or time.monotonic() - last > 5:
            batch["notes"]["trims"] += meter.trims
            meter.trims = 0
            queue.put(batch)
            batch = _new_batch(i + 1)
            last = time.monotonic()
            if os.getppid() != parent:  # the run was killed: nobody counts these inputs any more
                os._exit(3)
    progress.value = stop
    batch["notes"]["trims"] += meter.trims
    queue.put(batch)
    queue.put(None)

def _save(out_dir: str, name: str, outcome: str, index: int, data: bytes, detail: str) -> None:
    d = Path(out_dir) / name
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{outcome}-{index}.bin").write_bytes(data)
    (d / f"{outcome}-{index}.txt").write_text(detail)


def fuzz_target(name: str, inputs: int, *, seed: int = 1, time_limit: float = 2.0, memory: str = "rss",
                rlimit: bool = True, out_dir: str = "fuzz-findings", start: int = 0,
                deadline: float | None = None, on_progress=None) -> Stats:
    """Run the inputs ``start .. start + inputs`` of one target in worker processes; ``deadline`` (a
    ``time.monotonic()`` value) stops early.  ``Stats.next`` is the first index not accounted for: every
    index below it was counted exactly once (a worker that dies re-runs the stretch it had not reported)."""
    stats = Stats(name, next=start)
    t0 = time.monotonic()
    stop = start + inputs
    report = on_progress

    def on_progress(st: Stats) -> None:
        st.seconds = time.monotonic() - t0
        if report:
            report(st)

    while stats.next < stop and (deadline is None or time.monotonic() < deadline):
        bad, code = _run_worker(name, seed, stats.next, stop, time_limit, memory, rlimit, out_dir, deadline,
                                stats, on_progress)
        if bad is None:  # finished, or stopped at the deadline
            continue
        if stats.next < bad:  # the worker died before reporting inputs ahead of the bad one: run those again
            again, _ = _run_worker(name, seed, stats.next, bad, time_limit, memory, rlimit, out_dir, deadline,
                                   stats, on_progress)
            if again is not None or stats.next < bad:
                continue  # another input died first (or the deadline came): the loop takes it from there
        kind = "hang" if code == -signal.SIGKILL else "crash"
        why = f"worker exit code {code}" + (" (C code given NULL by malloc under RLIMIT_AS may end so too)"
                                              if kind == "crash" else "")
        try:
            data, _ = input_for(TARGETS[name], seed, bad)
            _save(out_dir, name, kind, bad, data, why)
        except Exception:  # noqa: BLE001 - the input cannot be regenerated: the finding keeps its index
            pass
        stats.add({"inputs": 1, "counts": {kind: 1}, "errors": {}, "notes": {},
                   "findings": [(bad, kind, why)], "next": bad + 1})
        if on_progress:
            on_progress(stats)
    stats.seconds = time.monotonic() - t0
    return stats


def _run_worker(name, seed, start, stop, time_limit, memory, rlimit, out_dir, deadline, stats, on_progress):
    """One worker over ``start .. stop``; ``(None, None)`` when it finished or the deadline stopped it, else
    ``(index it died on, exit code)``."""
    ctx = mp.get_context("fork")
    progress = ctx.Value("q", start)
    queue = ctx.Queue()
    proc = ctx.Process(target=_worker, args=(name, seed, start, stop, time_limit, memory, rlimit, out_dir,
                                             progress, queue), daemon=True)
    proc.start()
    watchdog = max(30.0, time_limit * 10)
    seen, stamp = progress.value, time.monotonic()
    while True:
        try:
            batch = queue.get(timeout=0.25)
        except Exception:  # noqa: BLE001 - queue.Empty
            batch = "idle"
        if batch is None:
            proc.join(10)
            return None, None
        if batch != "idle":
            stats.add(batch)
            if on_progress:
                on_progress(stats)
        if progress.value != seen:
            seen, stamp = progress.value, time.monotonic()
        stuck = time.monotonic() - stamp > watchdog
        late = deadline is not None and time.monotonic() > deadline
        if not proc.is_alive() or stuck or late:
            break
    finished = _drain(queue, stats)
    if on_progress:
        on_progress(stats)
    bad = progress.value
    if proc.is_alive():
        proc.kill()
    proc.join(10)
    if finished or late:
        return None, None
    return bad, proc.exitcode


def _drain(queue, stats: Stats) -> bool:
    """Take what a stopped worker left in the queue; True when it had finished (its end marker)."""
    while True:
        try:
            batch = queue.get(timeout=0.25)
        except Exception:  # noqa: BLE001 - queue.Empty
            return False
        if batch is None:
            return True
        stats.add(batch)
