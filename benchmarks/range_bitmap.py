"""Range-bitmap index vs a numpy scan of the same column, measured in the same run.

Workload: one BIGINT column of 1,000,000 rows (uniform in [0, 10^9): ~1M distinct values, the
range bitmap's hardest case, 20 bit slices; plus a low-cardinality variant with 1,000 distinct
values), default options (16 kb chunks).

* build     - ``RangeBitmapWriter`` on the column -> payload bytes; baseline: ``np.unique`` with
              inverse (the dictionary-encoding floor any such index pays) - reported for scale.
* open      - a fresh ``RangeBitmapReader`` on the payload (header only).
* 1,000 ranges - BETWEEN a AND b, < x, >= x mixed (random literals, present or not), each answered
              as a row bitmap; baseline: a numpy scan ``np.flatnonzero((col >= a) & (col <= b))``.
              Results are checked equal (cardinalities and, for a sample, positions).
* top-100   - ``ORDER BY col DESC LIMIT 100`` (strict) via O'Neil over the slices; baseline:
              ``np.argpartition`` + tie handling.  Checked equal.

Medians of several rounds, ours and the baseline timed alternately.  Prints a markdown table and writes ``benchmarks/results/range_bitmap.md``.
There is no Java workload for range bitmaps in the anchor harness (W1-W7 cover bitmap, bloom, DV,
hash and container), so no Java column.

    .venv/bin/python benchmarks/range_bitmap.py [--quick] [--output PATH]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from _harness import RESULTS, alternate, markdown_table, timed, write_result

from paimon_codec.fileindex.range_bitmap import RangeBitmapReader, RangeBitmapWriter
from paimon_codec.fileindex.topn import top_n_rows
from paimon_codec.fileio import ByteSource

N = 1_000_000
QUERIES = 1_000
K = 100


def median_time(fn, rounds: int) -> tuple[float, object]:
    """Median seconds of ``rounds`` runs (no warm-up) and the last result."""
    times, out = timed(fn, warmup=0, rounds=rounds, collect=False)
    return statistics.median(times) / 1000, out


def paired(ours, base, rounds: int) -> tuple[float, object, float, object]:
    """Medians (seconds) of ``ours`` and ``base`` timed alternately (the machine is shared: alternating
    keeps both exposed to the same load), with their last results."""
    (t_o, t_b), (out_o, out_b) = alternate([ours, base], rounds)
    return statistics.median(t_o) / 1000, out_o, statistics.median(t_b) / 1000, out_b


def make_queries(rng: np.random.Generator, col: np.ndarray) -> list[tuple[str, int, int]]:
    lo, hi = int(col.min()), int(col.max())
    out = []
    for i in range(QUERIES):
        a, b = sorted(int(x) for x in rng.integers(lo - 10, hi + 10, 2))
        if rng.random() < 0.5:  # a literal that is present
            a = int(col[rng.integers(0, col.size)])
            b = max(a, b)
        out.append((("between", "lt", "gte")[i % 3], a, b))
    return out


def scan(col: np.ndarray, q: tuple[str, int, int]) -> np.ndarray:
    op, a, b = q
    if op == "between":
        return np.flatnonzero((col >= a) & (col <= b))
    if op == "lt":
        return np.flatnonzero(col < a)
    return np.flatnonzero(col >= a)


def answer(reader: RangeBitmapReader, q: tuple[str, int, int]):
    op, a, b = q
    if op == "between":
        return reader.visit_between(a, b).bitmap
    if op == "lt":
        return reader.visit_lt(a).bitmap
    return reader.visit_gte(a).bitmap


def numpy_top(col: np.ndarray, k: int) -> np.ndarray:
    """Strict top-k by value, ties broken like the index (largest positions kept)."""
    part = np.argpartition(-col, k - 1)[:k]
    vk = col[part].min()
    better = np.flatnonzero(col > vk)
    ties = np.flatnonzero(col == vk)
    return np.sort(np.concatenate([better, ties[len(ties) - (k - better.size):]]))


def run_case(name: str, col: np.ndarray, rounds: int, rng: np.random.Generator) -> list[dict]:
    rows = []
    build_t, payload, uniq_t, _ = paired(lambda: _build(col), lambda: np.unique(col, return_inverse=True),
                                         rounds)
    rows.append({"case": name, "op": "build 1M rows", "ours": build_t, "base": uniq_t,
                 "base_name": "np.unique(return_inverse)", "note": f"{len(payload):,} bytes"})
    open_t, reader = median_time(lambda: RangeBitmapReader(ByteSource(payload), "BIGINT"), rounds)
    rows.append({"case": name, "op": "open reader", "ours": open_t, "base": None, "base_name": "-",
                 "note": f"{reader.cardinality:,} keys, {reader.slice_count} slices"})

    queries = make_queries(rng, col)
    # warm the reader (slices and directory loaded once; every query still walks the slices)
    for q in queries[:3]:
        answer(reader, q)
    q_t, ours, s_t, base = paired(lambda: [answer(reader, q) for q in queries],
                                  lambda: [scan(col, q) for q in queries], rounds)
    for o, b in zip(ours, base, strict=True):
        assert len(o) == b.size
    for o, b in list(zip(ours, base, strict=True))[:20]:
        assert np.array_equal(np.frombuffer(o.to_array(), dtype=np.uint32), b)
    rows.append({"case": name, "op": f"{QUERIES:,} range predicates", "ours": q_t, "base": s_t,
                 "base_name": "numpy scan (flatnonzero)",
                 "note": f"{sum(len(o) for o in ours) / len(ours):,.0f} rows/answer"})

    fresh_t, _ = median_time(lambda: [answer(RangeBitmapReader(payload, "BIGINT"), q)
                                      for q in queries[:50]], max(1, rounds // 2))
    rows.append({"case": name, "op": "50 predicates, fresh reader each", "ours": fresh_t,
                 "base": None, "base_name": "-", "note": "open + directory + slices per query"})

    top_t, top, np_t, ref = paired(lambda: top_n_rows(reader, K, True, False, True),
                                   lambda: numpy_top(col, K), rounds)
    assert np.array_equal(np.frombuffer(top.to_array(), dtype=np.uint32), ref)
    rows.append({"case": name, "op": f"top-{K} (DESC, strict)", "ours": top_t, "base": np_t,
                 "base_name": "np.argpartition", "note": "same rows"})
    return rows


def _build(col: np.ndarray) -> bytes:
    w = RangeBitmapWriter("BIGINT")
    w.write_batch(col)
    return w.serialize()


def fmt(t: float | None) -> str:
    if t is None:
        return "-"
    return f"{t * 1e3:,.2f} ms" if t >= 1e-3 else f"{t * 1e6:,.1f} µs"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument("--output", default=str(RESULTS / "range_bitmap.md"))
    args = ap.parse_args(argv)
    rounds = 3 if args.quick else 5
    rng = np.random.default_rng(20260601)
    high = rng.integers(0, 10**9, N, dtype=np.int64)
    low = rng.integers(0, 1000, N, dtype=np.int64) * 1_000_003 - 500_000_000
    rows = run_case("high-card (~1M distinct)", high, rounds, rng)
    rows += run_case("low-card (1,000 distinct)", low, rounds, rng)

    intro = [
        "# Range-bitmap index vs numpy scan (1M BIGINT rows)",
        "",
        f"Medians of {rounds} rounds (ours and numpy timed alternately), same run, same machine. Ratio = numpy / ours (> 1: the index is faster).",
        "",
    ]
    cells = [[r["case"], r["op"], fmt(r["ours"]), fmt(r["base"]), r["base_name"],
              f"{r['base'] / r['ours']:.2f}x" if r["base"] else "-", r["note"]] for r in rows]
    table = "\n".join(intro) + "\n" + markdown_table(
        ["column", "operation", "range bitmap", "numpy baseline", "baseline", "ratio", "note"],
        ["---", "---", "---:", "---:", "---", "---:", "---"], cells) + "\n"
    print(table)
    write_result(args.output, table)


if __name__ == "__main__":
    main()
