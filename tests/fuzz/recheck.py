"""Re-running a record's findings on the library as it is now (``tools/fuzz.py --recheck F``).

A long run's findings are fixed at their root and the record keeps them as found; what a reader of docs/fuzzing.md
needs next is whether each still fails.  Every finding of the record is regenerated from ``(seed, index)``
(refused if the inputs would not be the same: the harness or that entry point's seeds changed) and classified
again in a worker, under the record's own time bound and the same allocation meter.  The outcomes are kept in
the record under ``rechecks``, with the commit they ran on; the counts of the run itself are never rewritten.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import record
from .runner import fuzz_target
from .targets import TARGETS

__all__ = ["recheck"]


def recheck(path: str | Path, *, memory: str = "rss", time_limit: float | None = None, out_dir: str,
            log: Any = print) -> list[dict]:
    """Classify every finding of record ``path`` again; store and return the outcomes (one dict each)."""
    rec = record.load(path)
    todo = [(name, int(f[0]), str(f[1])) for name, t in rec["targets"].items() for f in t.get("findings", [])]
    if not todo:
        return []
    names = sorted({n for n, _, _ in todo})
    record.check_resume(rec, str(path), rec["seed"], record.harness_hash(),
                        {n: record.corpus_hash(TARGETS[n]) for n in names})
    limit = time_limit or max((s.get("time_limit") or 0 for s in rec["segments"]), default=0) or 2.0
    lib = record.library_commit()
    out = []
    for name, index, kind in todo:
        stats = fuzz_target(name, 1, seed=rec["seed"], time_limit=limit, memory=memory, out_dir=out_dir,
                            start=index)
        now = next((c for c, n in stats.counts.items() if n), "none")
        # what a reader needs: the finding, or the documented error it became; nothing for an input now ok
        detail = stats.findings[0][2] if stats.findings else ", ".join(stats.errors) if now == "error" else ""
        row = {"target": name, "index": index, "found": kind, "now": now, "detail": detail,
               "commit": lib["commit"], "dirty": lib["dirty"], "at": record.now(), "time_limit": limit}
        log(f"{name} #{index}: found {kind}, now {now}" + (f" ({detail})" if detail else ""))
        out.append(row)
    rec = record.load(path)  # unchanged meanwhile unless a run shares the file: take its latest state
    rec["rechecks"] = out
    record.save(path, rec)
    return out
