"""Walks of a B-tree global index written by Paimon Java 1.4.2: how long a scan's index answer takes.

Workload: one Java-written B-tree global-index file per column over 200,000 rows (row ids 0..199,999):
``v BIGINT`` with 200,000 distinct keys (1 in 50 null) and ``name STRING`` with 20,000 distinct keys
(10 rows each). Java writes them once through the test oracle (``write_global_index``: its own
``GlobalIndexBuilderUtils`` writer) into ``--cache`` and they are reused.

* full walk   - ``IS NOT NULL`` (every key's rows: what ``<>``, ``NOT IN`` and open ranges cost);
* wide range  - ``v >= median`` (half the keys);
* equality    - 1,000 ``v = x`` lookups on a freshly opened reader each (footer, index block, one block).

Each answer is checked against brute force over the written values. Medians of ``--rounds`` runs,
each on a freshly opened reader (no decoded block cached). Prints a markdown table.

    PYTHONPATH=. .venv/bin/python benchmarks/global_index_walk.py [--rounds 3] [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

from _harness import markdown_table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from paimon_codec.fileio import ByteSource  # noqa: E402
from paimon_codec.globalindex.meta import read_sorted_meta  # noqa: E402
from paimon_codec.globalindex.table_files import GlobalIndexFile, open_reader  # noqa: E402
from paimon_codec.types import parse_type  # noqa: E402

ROWS = 200_000
log = logging.getLogger("global_index_walk")


def values() -> dict[str, list]:
    longs = [None if i % 50 == 0 else (i * 7919) % 1_000_003 - 500_000 for i in range(ROWS)]
    names = [f"name-{(i * 31) % 20_000:05d}" for i in range(ROWS)]
    return {"v": longs, "name": names}


def java_files(cache: Path, vals: dict[str, list]) -> dict[str, dict]:
    """``{column: writer entry}`` of Java 1.4.2's B-tree files (written once into ``cache``)."""
    done = cache / "written.json"
    if done.exists():
        return json.loads(done.read_text())
    from oracles.java_newest import NEWEST, JavaPaimon  # noqa: PLC0415

    java = JavaPaimon(NEWEST)
    try:
        path = java.create_table(str(cache), "db.t", "id INT, name STRING, v BIGINT",
                                 options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
        out = {}
        for column in ("v", "name"):
            (entry,) = java.write_global_index(path, column, "btree", vals[column])
            out[column] = {**entry, "path": str(Path(path) / "index" / entry["file_name"])}
    finally:
        java.close()
    done.write_text(json.dumps(out))
    return out


def reader(entry: dict, type_name: str):
    file = Path(entry["path"])
    f = GlobalIndexFile("btree", str(file), file.name, file.stat().st_size, 0, ROWS - 1, 0,
                        read_sorted_meta(bytes.fromhex(entry["meta"])))
    return open_reader(f, parse_type(type_name), ByteSource(str(file), path=str(file)))


def median_seconds(fn, rounds: int):
    times, out = [], None
    for _ in range(rounds):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cache", default="/tmp/paimon-codec-bench/global_index_walk")
    args = ap.parse_args()
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    vals = values()
    files = java_files(cache, vals)
    v = vals["v"]
    median = sorted(x for x in v if x is not None)[len(v) // 2]
    probes = [v[i] for i in range(1, ROWS, ROWS // 1000)][:1000]
    rows_of: dict = {}
    for i, x in enumerate(v):
        rows_of.setdefault(x, []).append(i)
    workloads = [
        ("v BIGINT: IS NOT NULL (full walk)", lambda: reader(files["v"], "BIGINT").not_null_rows(),
         {i for i, x in enumerate(v) if x is not None}),
        ("v BIGINT: v >= median (half)", lambda: reader(files["v"], "BIGINT").range(median, True, None, True),
         {i for i, x in enumerate(v) if x is not None and x >= median}),
        ("name STRING: IS NOT NULL (full walk)", lambda: reader(files["name"], "STRING").not_null_rows(),
         set(range(ROWS))),
        ("v BIGINT: 1,000 equalities (reader opened each)",
         lambda: [reader(files["v"], "BIGINT").equal(x) for x in probes], None),
    ]
    rows = []
    for what, fn, expected in workloads:
        secs, out = median_seconds(fn, args.rounds)
        if expected is not None and set(out) != expected:
            raise SystemExit(f"{what}: wrong answer ({len(out)} rows, expected {len(expected)})")
        if expected is None and any(list(o) != rows_of[x] for o, x in zip(out, probes, strict=True)):
            raise SystemExit(f"{what}: wrong answer")
        n = len(out) if expected is not None else len(probes)
        rows.append((what, f"{n:,}", f"{secs * 1000:,.1f}"))
    print(markdown_table(("workload", "rows / lookups", "median ms"), ("---", "---:", "---:"), rows))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
