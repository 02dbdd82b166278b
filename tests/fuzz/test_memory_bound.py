"""The harness's allocation bound measures what an input really allocates.

The default meter is the input's peak resident memory (``VmHWM`` after ``clear_refs`` reset it, minus the
resident memory before); these tests allocate in a forked worker, as the fuzz loop does, and check the
classification: a big Python buffer, a touched numpy array, a flood of small Python objects and a C-level
allocation (pyroaring, invisible to tracemalloc) are ``overalloc``, a small input is ``ok``.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import zlib

import numpy as np
import pytest
from pyroaring import BitMap

from fuzz import runner
from fuzz.memory import Meter, alloc_bound, tune_allocator
from fuzz.targets import TARGETS, Seed, Target


def _bytearray(_: bytes, __: dict) -> None:
    buf = bytearray(100 * 2**20)
    buf[-1] = 1


def _numpy(_: bytes, __: dict) -> None:
    arr = np.ones(100 * 2**20 // 8, dtype=np.int64)  # np.ones writes every page
    assert arr[-1] == 1


def _objects(_: bytes, __: dict) -> None:
    flood = [[i] for i in range(2_000_000)]
    assert len(flood) == 2_000_000


def _roaring(_: bytes, __: dict) -> None:
    bm = BitMap(range(0, 2**30, 2))  # 16,384 bitset containers of 8 KiB, allocated by CRoaring
    assert len(bm) == 2**29


def _small(data: bytes, _: dict) -> None:
    assert sum(bytearray(data) * 100) >= 0


ALLOCATORS = {"bytearray": _bytearray, "numpy": _numpy, "objects": _objects, "roaring": _roaring}


def _classify_in_worker(run, mode: str, rlimit: bool) -> tuple[str, str]:
    """Classify one 1,000-byte input in a forked process set up like a fuzz worker."""
    ctx = mp.get_context("fork")
    queue = ctx.Queue()

    def child() -> None:
        signal.signal(signal.SIGALRM, runner._alarm)
        tune_allocator()
        meter = Meter(mode, rlimit=rlimit)
        meter.open()
        target = Target("alloc", lambda: [Seed(bytes(1000))], run)
        queue.put((meter.mode, *runner.classify_one(target, bytes(1000), {}, 30.0, meter)))

    proc = ctx.Process(target=child)
    proc.start()
    mode_used, outcome, detail = queue.get(timeout=120)
    proc.join(30)
    assert mode_used == mode, "the meter fell back: /proc/self/clear_refs does not reset VmHWM here"
    return outcome, detail


@pytest.mark.parametrize("name", list(ALLOCATORS))
def test_rss_meter_sees_the_allocation(name):
    # without RLIMIT_AS: the resident peak alone must catch it
    outcome, detail = _classify_in_worker(ALLOCATORS[name], "rss", rlimit=False)
    assert outcome == "overalloc" and detail.startswith("rss peak"), detail
    peak = int(detail.split()[2])
    assert peak > 5 * alloc_bound(1000)  # ~100 MB allocated; the exact resident figure varies by allocator


@pytest.mark.parametrize("name", list(ALLOCATORS))
def test_default_bounds_classify_overalloc(name):
    outcome, detail = _classify_in_worker(ALLOCATORS[name], "rss", rlimit=True)
    assert outcome == "overalloc", detail


def test_rlimit_stops_untouched_reservations():
    def reserve(_: bytes, __: dict) -> None:
        arr = np.zeros(2**31, dtype=np.uint8)  # calloc: address space, no resident pages
        assert arr.shape == (2**31,)

    assert _classify_in_worker(reserve, "rss", rlimit=True)[0] == "overalloc"
    assert _classify_in_worker(reserve, "rss", rlimit=False)[0] == "ok"  # what RLIMIT_AS is there for


@pytest.mark.parametrize("mode", ["rss", "tracemalloc"])
def test_small_input_is_ok(mode):
    assert _classify_in_worker(_small, mode, rlimit=True) == ("ok", "")


def test_meters_differ_where_documented():
    # the unmetered run and tracemalloc miss a C-level allocation that the resident peak sees
    assert _classify_in_worker(_roaring, "none", rlimit=False)[0] == "ok"
    assert _classify_in_worker(_roaring, "tracemalloc", rlimit=False)[0] == "ok"
    assert _classify_in_worker(_numpy, "tracemalloc", rlimit=False)[0] == "overalloc"


def _crashy(data: bytes, _: dict) -> None:
    if zlib.crc32(data) % 23 == 0:
        os.kill(os.getpid(), signal.SIGSEGV)
    if zlib.crc32(data) % 29 == 0:
        bytearray(30 * 2**20)  # over 10 MB + 50 x input; measured (RLIMIT_AS leaves room for it)


@pytest.mark.slow  # a fuzz loop of every index target: left to the full run
def test_loop_counts_every_index_once(monkeypatch, tmp_path):
    """Workers that die are replaced; inputs they had not reported run again; every index counts once."""
    target = Target("crashy", lambda: [Seed(b"seed-bytes" * 8), Seed(b"\x00\x01\x02\x03" * 20)], _crashy)
    monkeypatch.setitem(TARGETS, "crashy", target)
    n = 200
    datas = [runner.input_for(target, 7, i)[0] for i in range(n)]
    crashes = {i for i, d in enumerate(datas) if zlib.crc32(d) % 23 == 0}
    over = {i for i, d in enumerate(datas) if zlib.crc32(d) % 29 == 0} - crashes
    assert crashes and over
    stats = runner.fuzz_target("crashy", n, seed=7, out_dir=str(tmp_path))
    assert stats.inputs == n and stats.next == n
    assert {i for i, kind, _ in stats.findings if kind == "crash"} == crashes
    assert {i for i, kind, _ in stats.findings if kind == "overalloc"} == over
    assert stats.counts["ok"] == n - len(crashes) - len(over)
    assert (tmp_path / "crashy" / f"crash-{min(crashes)}.bin").read_bytes() == datas[min(crashes)]
