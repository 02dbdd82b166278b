#!/usr/bin/env python3
"""Where a primary-key merge read's CPU goes, per engine: file reads, the sort by key, and the merge, with the
merge engines' numpy kernels and their compiled loops (``paimon_codec/reading/merge/kernels.py``) interleaved.

Reads the tables ``benchmarks/merge_read.py --keep DIR`` leaves under ``DIR/bench.db`` (one per case), bucket
by bucket as ``read_merge_group`` does, timing each phase with ``time.process_time`` (CPU of this process: on a
shared machine a ratio, not an absolute); each phase's best of ``--rounds`` rounds, summed over the buckets.

    .venv/bin/python benchmarks/merge_read.py --keep /tmp/mr --no-spark --no-source   # writes the tables once
    .venv/bin/python benchmarks/merge_phases.py /tmp/mr
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from paimon_codec.jit import NO_JIT_ENV
from paimon_codec.planning.plan import plan_scan
from paimon_codec.reading.merge import engines, kernels
from paimon_codec.reading.merge import read as merge_read
from paimon_codec.reading.read import arrow_schema

PHASES = ("read", "sort", "keys", "merge")


def one_round(plan: Any) -> dict[str, float]:
    """CPU seconds per phase of merging every bucket of ``plan`` once."""
    spent = dict.fromkeys(PHASES, 0.0)
    schema = arrow_schema(plan.row_type)

    def clock(phase: str, f: Any, *args: Any) -> Any:
        start = time.process_time()
        out = f(*args)
        spent[phase] += time.process_time() - start
        return out

    for task in plan.groups:
        spec = merge_read.MergeSpec.from_params(task.params)
        table = pa.concat_tables(clock("read", lambda files: [merge_read.read_key_value_file(f, schema)
                                                              for f in files], task.files))
        order = clock("sort", merge_read._sort_indices, table, spec)
        keys = clock("keys", pa.Table.take, table.select([*spec.primary_keys, merge_read.KIND_COLUMN]), order)
        starts = clock("keys", merge_read._group_starts, keys, spec.primary_keys)
        kinds = keys.column(merge_read.KIND_COLUMN).to_numpy(zero_copy_only=False).astype(np.int8)
        clock("merge", engines.merge_sorted, table.select(schema.names), order.to_numpy(), kinds, starts, spec)
    return spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("keep", help="the --keep directory of benchmarks/merge_read.py")
    ap.add_argument("--cases", default="deduplicate,partial_update,aggregation")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    kernels.jit_kernels(1 << 62)   # load the compiled kernels now; NO_JIT_ENV switches them off per round
    for case in args.cases.split(","):
        plan = plan_scan(str(Path(args.keep) / "bench.db" / case))
        best: dict[str, dict[str, float]] = {"numpy": {}, "compiled": {}}
        for r in range(args.rounds * 2):
            side = ("numpy", "compiled")[(r + r // 2) % 2]   # numpy, compiled, compiled, numpy, ...
            os.environ[NO_JIT_ENV] = "1" if side == "numpy" else "0"
            for phase, s in one_round(plan).items():
                best[side][phase] = min(best[side].get(phase, s), s)
        os.environ.pop(NO_JIT_ENV)
        for side, phases in best.items():
            cells = "  ".join(f"{p} {phases[p]:.3f}" for p in PHASES)
            print(f"{case:15s} {side:8s} {cells}  total {sum(phases.values()):.3f} s CPU  "
                  f"(load {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
