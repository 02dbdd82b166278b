"""Runs of deletion vectors and bitmaps (``run_arrays``): exact, and within the fuzz harness's memory bound.

A 32-bit vector's runs are ``uint32`` starts and inclusive ``lasts`` (a run may end at 2**32 - 1, whose
exclusive end does not fit ``uint32``); the worst case, a bitmap container of alternating bits (8 KiB,
32,768 runs), costs 8 bytes a run: 32x its bytes instead of the 64x of ``int64`` ``[start, end)`` pairs,
which crossed issue 12's bound (50x the input + 10 MB).  The reference runs are computed here from every
position with numpy; the bitmaps are built by pyroaring and read back through our deletion-vector codec.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import tracemalloc

import numpy as np
import pytest
from oracles.quick_guard import examples
from pyroaring import BitMap, BitMap64

from paimon_codec.dv.deletion_vector import DeletionVector
from paimon_codec.dv.index_file import encode_entry, read_entry
from paimon_codec.positions import iter_ranges, ranges_of, run_arrays


def _reference(positions: np.ndarray) -> list[list[int]]:
    """``[start, end)`` runs of sorted unique positions, from the positions themselves."""
    p = positions.astype(np.int64)
    if not p.size:
        return []
    breaks = np.flatnonzero(np.diff(p) != 1)
    starts = np.concatenate((p[:1], p[breaks + 1]))
    ends = np.concatenate((p[breaks], p[-1:])) + 1
    return [[int(a), int(b)] for a, b in zip(starts, ends, strict=True)]


def _random_bitmap(rng: np.random.Generator) -> BitMap:
    """Containers of every kind at random keys (first and last included): arrays, bitsets, runs, full
    containers, alternating bits, the container edges - some next to each other so runs cross keys."""
    parts = []
    for _ in range(int(rng.integers(0, 7))):
        key = int(rng.choice([0, 1, 2, 3, 0xFFFE, 0xFFFF, int(rng.integers(0, 0x10000))]))
        base = key << 16
        kind = int(rng.integers(0, 6))
        if kind == 0:  # bitset container
            parts.append(base + rng.choice(65536, int(rng.integers(4097, 65000)), replace=False))
        elif kind == 1:  # array container
            parts.append(base + rng.choice(65536, int(rng.integers(1, 4097)), replace=False))
        elif kind == 2:  # one run
            a = int(rng.integers(0, 65536))
            parts.append(np.arange(base + a, base + int(rng.integers(a + 1, 65537))))
        elif kind == 3:  # alternating bits
            parts.append(np.arange(base + int(rng.integers(0, 2)), base + 65536, 2))
        elif kind == 4:  # full
            parts.append(np.arange(base, base + 65536))
        else:  # both edges
            parts.append(np.array([base, base + 65535]))
    bm = BitMap(np.concatenate(parts).astype(np.uint32)) if parts else BitMap()
    if rng.integers(0, 2):
        bm.run_optimize()
    return bm


def test_runs_of_random_bitmaps_equal_their_positions():
    rng = np.random.default_rng(12)
    kinds = set()
    for _ in range(examples(150)):
        bm = _random_bitmap(rng)
        positions = np.frombuffer(bm.to_array(), dtype=np.uint32)
        want = _reference(positions)
        runs = run_arrays(bm)
        assert runs.starts.dtype == np.uint32 and runs.lasts.dtype == np.uint32
        assert ranges_of(bm) == want
        assert int((runs.lasts.astype(np.int64) - runs.starts + 1).sum()) == len(bm)
        if len(bm) and bm.max() <= 2**31 - 1:  # what a 32-bit vector may hold, through its codec
            dv = DeletionVector.deserialize(DeletionVector.from_bitmap(bm).serialize())
            assert dv.run_arrays().starts.dtype == np.uint32 and dv.ranges() == want
            kinds.add("dv")
        kinds.add("top" if len(bm) and bm.max() == 2**32 - 1 else "other")
    assert kinds == {"dv", "top", "other"}


@pytest.mark.parametrize("optimize", [False, True])
def test_runs_ending_at_the_last_32_bit_position(optimize):
    """An exclusive end of 2**32 does not fit uint32: the last position does, and ranges end at 2**32."""
    cases = {
        "one": ([2**32 - 1], [[2**32 - 1, 2**32]]),
        "top container, full": (np.arange(2**32 - 65536, 2**32), [[2**32 - 65536, 2**32]]),
        "two containers": (np.arange(2**32 - 70000, 2**32), [[2**32 - 70000, 2**32]]),
        "alternating, last set": (np.arange(2**32 - 65535, 2**32, 2), None),
    }
    for name, (positions, want) in cases.items():
        bm = BitMap(np.asarray(positions, dtype=np.uint64).astype(np.uint32))
        if optimize:
            bm.run_optimize()
        runs = run_arrays(bm)
        assert runs.lasts.dtype == np.uint32 and int(runs.lasts[-1]) == 2**32 - 1, name
        got = ranges_of(bm)
        assert got == (want or _reference(np.asarray(positions))), name
        assert got[-1][1] == 2**32, name
        dv = DeletionVector()  # a 32-bit vector read from hostile bytes may hold it (Java never asks)
        dv._parts[0] = bm
        assert dv.ranges() == got, name
    everything = BitMap()
    everything.add_range(0, 2**32)
    assert ranges_of(everything) == [[0, 2**32]]
    assert len(run_arrays(everything)) == 1


def test_empty_and_full_containers():
    assert ranges_of(BitMap()) == [] and len(run_arrays(BitMap())) == 0
    empty = DeletionVector()
    assert empty.run_arrays().starts.dtype == np.uint32 and empty.ranges() == []
    assert DeletionVector(bitmap64=True).run_arrays().starts.dtype == np.int64
    full = BitMap()
    for key in (0, 1, 2, 5, 6):  # touching full containers are one run, a gap splits
        full.add_range(key << 16, (key + 1) << 16)
    optimized = BitMap(full)
    optimized.run_optimize()
    for bm in (full, optimized):
        assert ranges_of(bm) == [[0, 3 << 16], [5 << 16, 7 << 16]]
        dv = DeletionVector.deserialize(DeletionVector.from_bitmap(bm).serialize())
        assert dv.ranges() == [[0, 3 << 16], [5 << 16, 7 << 16]]
    no_run = BitMap(np.arange(0, 3 << 16, dtype=np.uint32))  # bitset containers, not run-optimised
    assert ranges_of(no_run) == [[0, 3 << 16]]


def test_64_bit_vectors_keep_int64_runs():
    low = BitMap(np.arange(2**32 - 5, 2**32, dtype=np.uint64).astype(np.uint32))
    low.update([7, 8, 9])
    high = BitMap(np.arange(0, 70000, dtype=np.uint32))
    dv = DeletionVector.from_parts({0: low, 1: high, 3: BitMap([1, 3])})
    dv = DeletionVector.deserialize(dv.serialize())
    runs = dv.run_arrays()
    assert runs.starts.dtype == np.int64 and runs.lasts.dtype == np.int64
    want = [[7, 10], [2**32 - 5, 2**32 + 70000], [3 << 32 | 1, 3 << 32 | 2], [3 << 32 | 3, 3 << 32 | 4]]
    assert dv.ranges() == want
    wide = BitMap64(np.array([2**32 - 1, 2**32, 2**40], dtype=np.uint64))
    assert run_arrays(wide).starts.dtype == np.int64 and ranges_of(wide) == [[2**32 - 1, 2**32 + 1],
                                                                             [2**40, 2**40 + 1]]
    assert list(iter_ranges(np.array([5, 3, 4, 9]))) == [(3, 6), (9, 10)]


def test_runs_cannot_be_unpacked_as_start_end_pairs():
    """The second array holds last positions, not exclusive ends: unpacking it as ``(starts, ends)`` fails."""
    with pytest.raises(TypeError):
        starts, ends = run_arrays(BitMap([1, 2, 3]))  # noqa: F841


def _alternating_vector(containers: int, top: bool) -> DeletionVector:
    """Every other position of ``containers`` bitset containers (the first ones, or the last ones of the
    32-bit space, so that the last run ends at 2**32 - 1)."""
    first = (1 << 32) - (containers << 16) + 1 if top else 1
    bm = BitMap(np.arange(first, first + (containers << 16) - 1, 2, dtype=np.uint64).astype(np.uint32))
    dv = DeletionVector()
    dv._parts[0] = bm
    return dv


@pytest.mark.parametrize("top", [False, True], ids=["low", "ending-at-2^32"])
def test_worst_case_runs_stay_within_the_bound(top):
    """256 bitset containers of alternating bits (2 MiB): 8,388,608 runs.  Traced peak of ``run_arrays``:
    the 8 bytes a run it returns (32x the input) + at most 2x the input + 2 MiB of scratch: below 34x + 2 MiB,
    and so below the harness's 50x + 10 MB (before: 96x, 201 MB)."""
    dv = _alternating_vector(256, top)
    size = len(dv.serialize())
    tracemalloc.start()
    try:
        runs = dv.run_arrays()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(runs) == 256 * 32768 and runs.starts.dtype == np.uint32
    assert int(runs.lasts[-1]) == (2**32 - 1 if top else (256 << 16) - 1)
    assert peak <= 34 * size + (2 << 20), (peak, size, peak / size)


def _classify_entry(data: bytes, queue) -> None:
    from fuzz import runner
    from fuzz.memory import Meter, tune_allocator
    from fuzz.targets import TARGETS

    signal.signal(signal.SIGALRM, runner._alarm)
    tune_allocator()
    meter = Meter("rss", rlimit=True)
    meter.open()
    queue.put(runner.classify_one(TARGETS["dv-entry"], data, {}, 60.0, meter))


def test_fuzz_harness_classifies_the_worst_case_entry_ok():
    """The harness's own dv-entry target and RSS meter, in a forked worker as in the fuzz loop: a 4 MiB
    entry of alternating bits (16.8M runs; 402 MB traced before, over its 220 MB bound) is ``ok``."""
    data = encode_entry(_alternating_vector(512, top=False))
    assert len(read_entry(data).dv) == 512 * 32768
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=_classify_entry, args=(data, queue))
    proc.start()
    outcome, detail = queue.get(timeout=300)
    proc.join(30)
    assert (outcome, detail) == ("ok", "")
