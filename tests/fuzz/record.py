"""The long run's record: one JSON file that accumulates over segments (``tools/fuzz.py --json F --resume``).

A run is too long for one sitting (17 entry points x 1M inputs is hours on one core), so the record holds,
per entry point, the counts so far and ``next`` - the first input index not yet run; a resumed segment starts
there with the same seed, so the inputs of all segments together are exactly ``0 .. next-1`` of one run.  That
only holds while the inputs are generated the same way: the record keeps a hash of the generating code
(``harness``) and of each entry point's seeds (``corpus``), and resuming with either changed is refused.
Each segment names the library commit it ran on.  The file is replaced atomically (temp + fsync + rename),
so a killed run leaves the last complete record behind.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import inspect
import json
import os
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["harness_hash", "corpus_hash", "library_commit", "load", "save", "markdown", "ResumeError"]

HERE = Path(__file__).resolve().parent
_GENERATORS = ("mutate.py", "targets.py", "targets_table.py")
BAD = ("other", "hang", "overalloc", "crash")
LABELS = {"error": "documented error", "overalloc": "over-alloc"}


class ResumeError(Exception):
    """The record cannot be continued by this harness (one line)."""


def harness_hash() -> str:
    """sha256 of the code that turns ``(seed, index)`` into an input: the mutators, the targets (their seed
    loading and ``mutate``) and ``runner.input_for``."""
    from fuzz import runner

    h = hashlib.sha256()
    for name in _GENERATORS:
        h.update((HERE / name).read_bytes())
    h.update(inspect.getsource(runner.input_for).encode())
    return h.hexdigest()[:16]


def corpus_hash(target: Any) -> str:
    """sha256 of an entry point's seeds (the golden files, and seeds our writers make) and their metadata."""
    h = hashlib.sha256()
    for s in target.corpus():
        h.update(len(s.data).to_bytes(8, "little") + s.data)
        meta = {k: v for k, v in s.meta.items() if k not in ("wide", "records")}  # both derive from the data
        h.update(json.dumps(meta, sort_keys=True, default=repr).encode())
    return h.hexdigest()[:16]


def library_commit() -> dict:
    """The commit of the paimon_codec that is imported (and whether its tree had local changes)."""
    import paimon_codec

    root = Path(paimon_codec.__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "paimon_codec", "tests/fuzz"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None, "path": str(root)}
    return {"commit": head, "dirty": bool(dirty), "path": str(root)}


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def load(path: str | Path) -> dict:
    with open(path, encoding="utf-8") as fh:
        rec = json.load(fh)
    if not isinstance(rec, dict) or rec.get("format") != 1:
        raise ResumeError(f"{path}: not a fuzz record of format 1 (written by tools/fuzz.py --json)")
    return rec


def check_resume(rec: dict, path: str, seed: int, harness: str, corpora: dict[str, str]) -> None:
    """Refuse (one line) to continue a record whose inputs this harness would not generate again."""
    if rec["seed"] != seed:
        raise ResumeError(f"{path}: recorded with --seed {rec['seed']}, not {seed}")
    if rec["harness"] != harness:
        raise ResumeError(f"{path}: input generation changed since the record began (harness {rec['harness']}, "
                          f"now {harness}: mutate.py / targets*.py / input_for); start a new record")
    for name, digest in corpora.items():
        old = rec["targets"].get(name, {}).get("corpus")
        if old is not None and old != digest:
            raise ResumeError(f"{path}: the seeds of {name} changed since the record began (corpus {old}, now "
                              f"{digest}: golden files or a seed writer); start a new record")


def save(path: str | Path, rec: dict) -> None:
    """Replace ``path`` atomically: a reader (or a kill) sees the old record or the new one."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(rec, fh, indent=1)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def merged(base: dict | None, stats: dict, corpus: str) -> dict:
    """An entry point's recorded totals plus one segment's stats."""
    from fuzz.runner import CLASSES

    out = dict(base or {"inputs": 0, **{c: 0 for c in CLASSES}, "error_classes": {}, "findings": [],
                        "seconds": 0.0, "next": 0, "notes": {}})
    out["inputs"] = out["inputs"] + stats["inputs"]
    for c in CLASSES:
        out[c] = out.get(c, 0) + stats[c]
    for key in ("error_classes", "notes"):
        acc = dict(out.get(key, {}))
        for k, v in stats[key].items():
            acc[k] = acc.get(k, 0) + v
        out[key] = dict(sorted(acc.items(), key=lambda kv: -kv[1]))
    out["findings"] = (list(out.get("findings", [])) + [list(f) for f in stats["findings"]])[:200]
    out["seconds"] = round(out.get("seconds", 0.0) + stats["seconds"], 1)
    out["next"] = stats["next"]
    out["meter"] = stats["meter"] or out.get("meter", "")
    out["corpus"] = corpus
    return out


def markdown(rec: dict, goal: int | None = None) -> str:
    """The table of a record in docs/fuzzing.md, with what it covers underneath."""
    from fuzz.runner import CLASSES

    goal = goal or rec.get("goal") or 0
    head = ["entry point", "inputs", *(LABELS.get(c, c) for c in CLASSES), "inputs/s", "meter"]
    lines = ["| " + " | ".join(head) + " |", "| --- |" + " ---: |" * (len(head) - 2) + " --- |"]
    reached, short = [], []
    for name, t in rec["targets"].items():
        rate = t["inputs"] / t["seconds"] if t.get("seconds") else 0
        lines.append(f"| {name} | {t['inputs']:,} | " + " | ".join(f"{t.get(c, 0):,}" for c in CLASSES)
                     + f" | {rate:,.0f} | {t.get('meter', '')} |")
        (reached if goal and t["inputs"] >= goal else short).append(name)
    total = sum(t["inputs"] for t in rec["targets"].values())
    bad = sum(t.get(c, 0) for t in rec["targets"].values() for c in BAD)
    commits = sorted({s["commit"][:10] + ("+local changes" if s.get("dirty") else "")
                      for s in rec["segments"] if s.get("commit")})
    lines += ["", f"{total:,} inputs in {len(rec['segments'])} segment(s), seed {rec['seed']}, harness "
                  f"{rec['harness']}, library commit(s) {', '.join(commits) or '?'}; other + hang + over-alloc "
                  f"+ crash: {bad:,}."]
    checks = rec.get("rechecks") or []
    if checks:
        still = [c for c in checks if c["now"] in BAD]
        where = sorted({(c["commit"] or "?")[:10] + ("+local changes" if c.get("dirty") else "") for c in checks})
        lines.append(f"Every finding re-run on library commit {', '.join(where)} (`--recheck`): {len(still)} of "
                     f"{len(checks)} still fail; " + "; ".join(
                         f"{c['target']} #{c['index']:,} {LABELS.get(c['found'], c['found'])} -> "
                         f"{LABELS.get(c['now'], c['now'])}" for c in checks) + ".")
    if goal:
        from fuzz.targets import TARGETS

        unstarted = [n for n in TARGETS if n not in rec["targets"]]
        lines.append(f"Reached {goal:,}: {', '.join(reached) or 'none'}. Not yet: {', '.join(short) or 'none'}"
                     + (f"; not started: {', '.join(unstarted)}." if unstarted else "."))
    return "\n".join(lines)
