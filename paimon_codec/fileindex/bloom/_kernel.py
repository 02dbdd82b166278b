"""Bloom-filter bit positions in bulk: compiled loops when numba is there, else chunked numpy kernels.

Large builds and probes (``JIT_MIN_POSITIONS`` bit positions and more) run the fused loops of :mod:`._jit`
(numba, imported on the first such call: see :func:`jit_kernels`); the numpy kernels below are the reference
and the path without numba or with ``PAIMON_CODEC_NO_JIT=1``, and tests hold both to the same bytes.

No per-value Python work: :class:`_PositionKernel` computes the k positions of a chunk of hashes in
preallocated buffers.  A large build is split over up to ``_MAX_THREADS`` threads (numpy releases
the GIL in every kernel call, including the scatter), which all store into one byte-per-bit array;
its cost is dominated by those random stores (about 60% of a single-threaded build of 1M values),
so extra cores are the one lever numpy leaves.  A large probe is split the same way, each thread
filling its own slice of the answer.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import numpy as np

from ...jit import LazyKernels
from .hashing import _M64, _wang_inplace

_CHUNK = 16384  # values per kernel pass: the (k, chunk) uint32 / intp blocks stay within L2/L3
_PARALLEL_MIN = 1 << 17  # values from which a dense build is split across threads
_MAX_THREADS = 4
#: bit positions (values x hash functions) from which a build or probe runs the compiled loops.  The first such
#: call in a process imports numba and loads the kernels from numba's disk cache (~0.45 s of CPU; ~0.9 s the
#: first time after an install or a change of ``_jit.py``, when they compile) - about what eight numpy builds of this
#: size cost - so a process that only ever builds small filters never pays it; once loaded, every size runs them
JIT_MIN_POSITIONS = 1 << 22
#: the compiled loops (:mod:`._jit`), loaded by :mod:`paimon_codec.jit`'s rules
KERNELS = LazyKernels(f"{__package__}._jit", "bloom-filter kernels fall back to numpy", min_call=JIT_MIN_POSITIONS)


def jit_kernels(positions: int) -> ModuleType | None:
    """The compiled kernels (:mod:`._jit`) for a call touching ``positions`` bit positions, or None for numpy
    (a small call while they are not loaded, ``PAIMON_CODEC_NO_JIT``, numba missing or failing)."""
    return KERNELS.get(positions)


def _check_room(bits: np.ndarray, num_bits: int) -> None:
    """The compiled loops index without bounds checks: every position (< ``num_bits``) must fall in ``bits``."""
    if not 0 < num_bits <= bits.size * 8:
        raise ValueError(f"{num_bits} bit positions do not fit a bit set of {bits.size} bytes")


def _readonly_int64(values: np.ndarray) -> np.ndarray:
    """``values`` as the C-contiguous, read-only int64 array the compiled kernels are typed for (a view when it
    already is contiguous int64, else one copy)."""
    v = np.ascontiguousarray(values, dtype=np.int64).view()
    v.flags.writeable = False
    return v


def _scalar_positions(h: int, k: int, num_bits: int) -> list[int]:
    """Bit positions of one hash, in pure ints (one value does not pay numpy's call overhead)."""
    h &= _M64
    c, h2 = h & 0xFFFFFFFF, h >> 32
    out = []
    for _ in range(k):
        c = (c + h2) & 0xFFFFFFFF
        out.append((c ^ 0xFFFFFFFF if c & 0x80000000 else c) % num_bits)
    return out


_LO, _HI = (0, 1) if sys.byteorder == "little" else (1, 0)  # uint32 halves of an int64


class _PositionKernel:
    """Bit positions of many hashes, a chunk at a time, in preallocated buffers.

    For a hash h: ``h1`` = low 32 bits, ``h2`` = high 32 bits; for i in 1..k ``c = h1 + i * h2``
    wraps like a Java int, a negative ``c`` becomes ``~c``, and the position is ``c % num_bits``.
    In uint32, ``c`` is negative as an int exactly when ``c >= 2**31``, and then ``~c < 2**31 <= c``:
    the folded value is ``min(c, ~c)``.  It is non-negative, so the remainder runs in uint32 as
    ``c - (c // n) * n`` (numpy divides uint32 by a scalar with a precomputed reciprocal; its
    remainder loop is several times slower).  The k rows of a chunk live in one ``(k, m)`` uint32
    block, so the fold and the remainder are five whole-block calls rather than five per row; the
    block is then widened to intp, shape ``(k, m)``, which is what fancy indexing wants.
    """

    def __init__(self, k: int, num_bits: int, size: int) -> None:
        self.k = k
        self.nb = np.uint32(num_bits)
        self.chunk = max(1, min(_CHUNK, size))
        c = self.chunk
        self._h = np.empty(c, dtype=np.int64)
        self._t = np.empty(c, dtype=np.int64)
        self._h2 = np.empty(c, dtype=np.uint32)
        self._c = np.empty((k, c), dtype=np.uint32)
        self._f = np.empty((k, c), dtype=np.uint32)
        self._pos = np.empty((k, c), dtype=np.intp)

    def chunks(self, values: np.ndarray, mixed: bool, *, wide: bool = True) -> Iterator[tuple[int, np.ndarray]]:
        """``(start, positions)`` per chunk of ``values`` (int64 hashes, or keys when ``mixed``).

        ``positions`` is a view of an internal buffer, valid until the next chunk: intp (what fancy
        indexing wants) or, not ``wide``, the uint32 block itself (a probe splits it into byte index and
        bit shift in uint32, one widening pass less).
        """
        n = len(values)
        for start in range(0, n, self.chunk):
            m = min(self.chunk, n - start)
            h = self._h[:m]
            if mixed:
                _wang_inplace(h, self._t[:m], values[start:start + m])
            else:
                h[...] = values[start:start + m]
            yield start, self._positions(h, wide)

    def _positions(self, h: np.ndarray, wide: bool) -> np.ndarray:
        m = len(h)
        halves = h.view(np.uint32)
        c, f, h2 = self._c[:, :m], self._f[:, :m], self._h2[:m]
        h2[...] = halves[_HI::2]
        np.add(halves[_LO::2], h2, out=c[0])
        for i in range(1, self.k):
            np.add(c[i - 1], h2, out=c[i])
        nb = self.nb
        np.invert(c, out=f)
        np.minimum(c, f, out=c)
        np.floor_divide(c, nb, out=f)
        f *= nb
        c -= f
        if not wide:
            return c
        pos = self._pos[:, :m]
        np.copyto(pos, c, casting="unsafe")
        return pos


def _build_threads() -> int:
    """Threads for a large dense build: the CPUs this process may use, at most ``_MAX_THREADS``."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(_MAX_THREADS, cpus))


def _split(n: int, threads: int) -> list[tuple[int, int]]:
    """``[start, end)`` slices of ``n`` values, one per thread, each at least ``_PARALLEL_MIN / 2``."""
    parts = max(1, min(threads, n // max(1, _PARALLEL_MIN // 2)))
    cuts = [n * i // parts for i in range(parts + 1)]
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def _each_slice(n: int, task: Callable[[int, int, int], None]) -> None:
    """``task(i, start, end)`` for each slice of :func:`_split` over ``n`` values: in this thread when there is
    one, else one thread each (the kernels run without the GIL)."""
    parts = _split(n, _build_threads())
    if len(parts) == 1:
        task(0, 0, n)
        return
    with ThreadPoolExecutor(len(parts)) as pool:
        for f in [pool.submit(task, i, lo, hi) for i, (lo, hi) in enumerate(parts)]:
            f.result()


def _scatter(dense: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int) -> None:
    """Set ``dense[p] = True`` (one byte per bit) for every bit position of ``values``.

    Safe to run in several threads over one ``dense``: numpy releases the GIL in these loops, and
    concurrent threads only ever store the byte 1 (no read-modify-write), so no store is lost.
    """
    kernel = _PositionKernel(k, num_bits, len(values))
    for _, pos in kernel.chunks(values, mixed):
        dense[pos] = True


def _probe(bits: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int,
           out: np.ndarray) -> None:
    """``out[i]`` = every probe bit of ``values[i]`` is set: gather the byte of each bit, shift it
    down, AND across k."""
    kernel = _PositionKernel(k, num_bits, len(values))
    c = kernel.chunk
    byte_idx = np.empty((k, c), dtype=np.uint32)
    shift = np.empty((k, c), dtype=np.uint8)
    got = np.empty((k, c), dtype=np.uint8)
    for start, pos in kernel.chunks(values, mixed, wide=False):
        m = pos.shape[1]
        bi, sh, g = byte_idx[:, :m], shift[:, :m], got[:, :m]
        np.right_shift(pos, 3, out=bi)
        np.bitwise_and(pos, 7, out=sh, casting="unsafe")
        np.take(bits, bi, out=g, mode="clip")  # positions are < num_bits by construction
        np.right_shift(g, sh, out=g)
        r = out[start:start + m].view(np.uint8)
        r[...] = g[0]
        for i in range(1, k):
            r &= g[i]
        r &= 1


def _jit_add(jit: ModuleType, bits: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int) -> None:
    """Compiled build; a large one over threads (the loop runs without the GIL), the first setting bits in place
    and each other one in a zeroed bit set of its own, ORed in afterwards (one loop ORing into shared bytes could
    lose a bit another thread set in the same byte)."""
    _check_room(bits, num_bits)
    others: list[np.ndarray] = []

    def part(i: int, lo: int, hi: int) -> None:
        own = bits if i == 0 else np.zeros_like(bits)
        jit.add_bits(own, values[lo:hi], mixed, k, num_bits)
        if i:
            others.append(own)

    _each_slice(len(values), part)
    for b in others:
        bits |= b


def _jit_test(jit: ModuleType, bits: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int,
              out: np.ndarray) -> None:
    """Compiled probe; a large one over threads, each filling its own slice of ``out``."""
    _check_room(bits, num_bits)
    ro = bits.view()
    ro.flags.writeable = False
    _each_slice(len(values), lambda _i, lo, hi: jit.test_bits(ro, values[lo:hi], mixed, k, num_bits, out[lo:hi]))


def add_values(bits: np.ndarray, empty: bool, values: np.ndarray, mixed: bool, k: int, num_bits: int) -> None:
    """Set the bits of ``values`` in the packed bit set ``bits`` (``empty``: no bit set yet)."""
    n = len(values)
    jit = jit_kernels(n * k)
    if jit is not None:
        _jit_add(jit, bits, _readonly_int64(values), mixed, k, num_bits)
        return
    kernel = _PositionKernel(k, num_bits, n)
    if n * k * 64 < num_bits:  # a few values: OR their bits into the packed set (``.at`` handles repeats)
        for _, pos in kernel.chunks(values, mixed):
            np.bitwise_or.at(bits, pos >> 3, np.left_shift(1, pos & 7).astype(np.uint8))
        return
    # many values: scatter into one byte per bit, then pack
    dense = (np.zeros(num_bits, dtype=np.bool_) if empty
             else np.unpackbits(bits, bitorder="little").view(np.bool_))
    _each_slice(n, lambda _i, lo, hi: _scatter(dense, values[lo:hi], mixed, k, num_bits))
    bits[:] = np.packbits(dense, bitorder="little")


def test_values(bits: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int) -> np.ndarray:
    """Membership of each value (large batches split over threads, each filling its own slice)."""
    n = len(values)
    out = np.empty(n, dtype=np.bool_)
    if n == 0:
        return out
    jit = jit_kernels(n * k)
    if jit is not None:
        _jit_test(jit, bits, _readonly_int64(values), mixed, k, num_bits, out)
        return out
    _each_slice(n, lambda _i, lo, hi: _probe(bits, values[lo:hi], mixed, k, num_bits, out[lo:hi]))
    return out
