"""Maximal runs of a position set, read from roaring containers, in memory bounded by the bitmap's bytes.

A 32-bit set's runs come as two ``uint32`` arrays (8 bytes a run), a 64-bit set's as two ``int64`` arrays.
The worst case is a bitmap container of alternating bits: 8 KiB of input, 32,768 runs; as ``int64``
``[start, end)`` pairs that was 512 KiB (64x its bytes, over the fuzz harness's 50x bound), as ``uint32``
it is 256 KiB (32x).  A run's exclusive end may be 2**32, which no ``uint32`` holds, so runs carry their
*last* position (inclusive): :class:`Runs` names it ``lasts`` and is deliberately not a tuple, so code
that expects ``(starts, ends)`` fails loudly instead of being off by one.

The output arrays are allocated once, at a bound read from the container headers (a run container's run
count, an array container's cardinality ``c``, a bitmap container's ``min(c, 65537 - c)``), never more than
32 bytes of runs per serialized byte, and filled container by container; runs touching across containers
merge as they are written (no concatenated copy, no second pass over the whole).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from pyroaring import BitMap, BitMap64

from .generated.construct import roaring32 as _codec
from .generated.construct.roaring32 import (
    CONTAINER_BITMAP_DTYPE,
    CONTAINER_COUNT_DTYPE,
    CONTAINER_RUNS_DTYPE,
    CONTAINER_VALUES_DTYPE,
    COOKIE_DTYPE,
    DESCRIPTIVE_HEADER_DTYPE,
    NUM_RUNS_DTYPE,
    OFFSETS_DTYPE,
)
from .generated.construct.roaring64 import BUCKET_COUNT_DTYPE, BUCKET_KEY_DTYPE

__all__ = ["Runs", "bitmap_runs", "join_parts", "roaring32_runs", "roaring64_runs", "runs_of_sorted"]

# Widths and thresholds are the generated codec's (schemas/roaring32.ksy); the 16 low bits of a position per
# container and the 65536 values a container spans are Roaring's, not a byte layout.
_ARRAY_MAX = _codec.container_array_max_cardinality()  # a container of more values is a bitmap container
_BITMAP_BYTES = _codec.container_bitmap_words() * CONTAINER_BITMAP_DTYPE.itemsize
_RUN = CONTAINER_RUNS_DTYPE.itemsize  # bytes of one run (start, length - 1)
_RUN_START = CONTAINER_RUNS_DTYPE.fields["start"]  # (dtype, offset in the run)
_RUN_LENGTH = CONTAINER_RUNS_DTYPE.fields["length_minus_1"]
_EMPTY32 = np.zeros(0, np.uint32)
_EMPTY64 = np.zeros(0, np.int64)


@dataclass(frozen=True)
class Runs:
    """Maximal runs ``starts[i] .. lasts[i]`` (both inclusive, ascending, disjoint, not touching).

    ``uint32`` arrays for a 32-bit set (a run may end at position 2**32 - 1), ``int64`` for a 64-bit one.
    """

    starts: np.ndarray
    lasts: np.ndarray

    def __len__(self) -> int:
        return int(self.starts.size)

    def ranges(self) -> Iterator[tuple[int, int]]:
        """``[start, end)`` pairs as Python ints (no widened array copy)."""
        for a, b in zip(self.starts.tolist(), self.lasts.tolist(), strict=True):
            yield a, b + 1


def _merge_touching(s: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Small per-container arrays: merge runs where one starts right after the previous one's last."""
    if s.size > 1:
        touching = s[1:] == last[:-1] + 1
        if touching.any():
            return s[np.concatenate(([True], ~touching))], last[np.concatenate((~touching, [True]))]
    return s, last


class _Filler:
    """Preallocated ``starts`` / ``lasts``, written in order; a run touching the previous one extends it."""

    def __init__(self, capacity: int, dtype: type) -> None:
        self.starts: np.ndarray = np.empty(capacity, dtype)
        self.lasts: np.ndarray = np.empty(capacity, dtype)
        self.w = 0

    def put(self, s: np.ndarray, last: np.ndarray) -> None:
        """Append ascending runs (``int64``, maximal among themselves) after the ones written."""
        if not s.size:
            return
        k = 0
        if self.w and int(s[0]) == int(self.lasts[self.w - 1]) + 1:
            self.lasts[self.w - 1] = last[0]
            k = 1
        m = s.size - k
        self.starts[self.w:self.w + m] = s[k:]
        self.lasts[self.w:self.w + m] = last[k:]
        self.w += m

    def done(self) -> Runs:
        starts, lasts = self.starts[:self.w], self.lasts[:self.w]
        if self.w * 4 < self.starts.size:  # the bound was far off: keep only what is used
            starts, lasts = starts.copy(), lasts.copy()
        return Runs(starts, lasts)


def _bitmap_container(body: memoryview) -> tuple[np.ndarray, np.ndarray]:
    """Runs of a bitmap container (its words, value v at bit v of the little-endian words): where the bits
    step up and down."""
    words = np.frombuffer(body, dtype=CONTAINER_BITMAP_DTYPE)
    little = words.astype(words.dtype.newbyteorder("<"), copy=False).view(np.uint8)
    bits = np.unpackbits(little, bitorder="little").view(np.int8)
    edges = np.diff(bits, prepend=np.int8(0), append=np.int8(0))  # +1 at a run's first bit, -1 after its last
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1


def _array_container(body: memoryview) -> tuple[np.ndarray, np.ndarray]:
    vals = np.frombuffer(body, dtype=CONTAINER_VALUES_DTYPE).astype(np.int64)
    breaks = np.flatnonzero(np.diff(vals) != 1)
    return np.concatenate((vals[:1], vals[breaks + 1])), np.concatenate((vals[breaks], vals[-1:]))


def _run_container(body: memoryview) -> tuple[np.ndarray, np.ndarray]:
    pairs = np.frombuffer(body, dtype=CONTAINER_RUNS_DTYPE)
    start = pairs["start"].astype(np.int64)
    return _merge_touching(start, start + pairs["length_minus_1"])


def _reader(mv: memoryview, dtype: np.dtype):  # noqa: ANN202 - returns a closure
    """``read(at)``: the ``dtype`` numbers at byte positions ``at`` (an int64 scalar or array, any alignment),
    as int64 - each number's bytes gathered in one fancy index and viewed as ``dtype``."""
    raw = np.frombuffer(mv, np.uint8)
    span = np.arange(dtype.itemsize)
    last = max(raw.size - 1, 0)

    def read(at: np.ndarray) -> np.ndarray:
        idx = np.minimum(np.asarray(at, np.int64)[..., None] + span, last)
        return raw[idx].view(dtype)[..., 0].astype(np.int64)

    return read


def roaring32_runs(data: bytes | memoryview) -> Runs:
    """Runs (``uint32``) of a portable roaring32 bitmap written by pyroaring (trusted bytes: our own
    ``serialize``); work and memory follow the serialized size, never the cardinality.  Runs of
    consecutive run containers holding one run each (what huge computed ranges are made of) are read in
    one vectorised step through the offset header."""
    mv = memoryview(data)
    raw = np.frombuffer(mv, dtype=np.uint8)
    cookie = int(np.frombuffer(mv, COOKIE_DTYPE, 1, 0)[0])
    pos = COOKIE_DTYPE.itemsize
    if _codec.roaring32_has_run_containers(cookie):
        n = _codec.roaring32_num_containers(cookie, None)
        nflags = _codec.roaring32_run_flags_size(cookie, None)
        flags = np.unpackbits(raw[pos:pos + nflags], bitorder="little")[:n].astype(bool)
        pos += nflags
        has_offsets = _codec.roaring32_has_offsets(cookie, None)
    else:
        n = int(np.frombuffer(mv, CONTAINER_COUNT_DTYPE, 1, pos)[0])
        flags, has_offsets = np.zeros(n, bool), _codec.roaring32_has_offsets(cookie, n)
        pos += CONTAINER_COUNT_DTYPE.itemsize
    if not n:
        return Runs(_EMPTY32, _EMPTY32)
    heads = np.frombuffer(mv, DESCRIPTIVE_HEADER_DTYPE, n, pos)
    keys, cards = heads["key"].astype(np.int64), heads["cardinality_minus_1"].astype(np.int64) + 1
    pos += DESCRIPTIVE_HEADER_DTYPE.itemsize * n
    num_runs = _reader(mv, NUM_RUNS_DTYPE)  # numbers at any byte position (containers need not be aligned)
    run_start, run_length = _reader(mv, _RUN_START[0]), _reader(mv, _RUN_LENGTH[0])
    nr, sw = NUM_RUNS_DTYPE.itemsize, CONTAINER_VALUES_DTYPE.itemsize
    if has_offsets:
        at = np.frombuffer(mv, OFFSETS_DTYPE, n, pos).astype(np.int64)
    else:  # a run cookie with few containers: walk them (at most 3)
        at = np.zeros(n, np.int64)
        cur = pos
        for i in range(n):
            at[i] = cur
            cur += (nr + _RUN * int(num_runs(np.int64(cur))) if flags[i] else
                    _BITMAP_BYTES if cards[i] > _ARRAY_MAX else sw * int(cards[i]))
    nruns = np.where(flags, num_runs(at * flags), 0)  # a run container's run count (its first field)
    bound = np.where(flags, nruns, np.where(cards > _ARRAY_MAX, np.minimum(cards, 65537 - cards), cards))
    out = _Filler(int(bound.sum()), np.uint32)
    single = flags & (nruns == 1)
    others = np.flatnonzero(~single).tolist() + [n]
    i = 0
    for j in others:
        if i < j:  # containers i .. j-1 hold one run each: all at once
            first = (keys[i:j] << 16) + run_start(at[i:j] + nr + _RUN_START[1])
            out.put(*_merge_touching(first, first + run_length(at[i:j] + nr + _RUN_LENGTH[1])))
        if j == n:
            break
        o, high = int(at[j]), int(keys[j]) << 16
        if flags[j]:
            s, last = _run_container(mv[o + nr:o + nr + _RUN * int(nruns[j])])
        elif cards[j] > _ARRAY_MAX:
            s, last = _bitmap_container(mv[o:o + _BITMAP_BYTES])
        else:
            s, last = _array_container(mv[o:o + sw * int(cards[j])])
        out.put(s + high, last + high)
        i = j + 1
    return out.done()


def join_parts(parts: Sequence[tuple[int, Runs]]) -> Runs:
    """``int64`` runs of a 64-bit set from its 32-bit parts (``(high 32 bits, runs of the low bits)``,
    ascending keys); a run that reaches the end of one part and the start of the next is one run."""
    parts = [(key, r) for key, r in parts if len(r)]
    if not parts:
        return Runs(_EMPTY64, _EMPTY64)
    out = _Filler(sum(len(r) for _, r in parts), np.int64)
    for key, r in parts:
        base = np.int64(key) << np.int64(32)
        out.put(r.starts.astype(np.int64) + base, r.lasts.astype(np.int64) + base)
    return out.done()


def bitmap_runs(bm: BitMap | BitMap64) -> Runs:
    """Runs of a pyroaring bitmap: ``uint32`` for a BitMap, ``int64`` for a BitMap64."""
    if isinstance(bm, BitMap):
        return roaring32_runs(bm.serialize())
    return roaring64_runs(bm.serialize())


def roaring64_runs(data: bytes | memoryview) -> Runs:
    """Runs (``int64``) of a portable 64-bit bitmap (``roaring64.ksy``: bucket count, then per bucket its high
    key and a Roaring32 of the low 32 bits)."""
    from .roaring import portable_size  # roaring imports this module's neighbours; keep the import local

    data = memoryview(data)
    pos = BUCKET_COUNT_DTYPE.itemsize
    kw = BUCKET_KEY_DTYPE.itemsize
    parts: list[tuple[int, Runs]] = []
    for _ in range(int(np.frombuffer(data, BUCKET_COUNT_DTYPE, 1, 0)[0])):
        high = int(np.frombuffer(data, BUCKET_KEY_DTYPE, 1, pos)[0])
        size = portable_size(data, pos + kw)
        parts.append((high, roaring32_runs(data[pos + kw:pos + kw + size])))
        pos += kw + size
    return join_parts(parts)


def runs_of_sorted(arr: np.ndarray) -> Runs:
    """Runs of sorted unique positions (``int64``)."""
    breaks = np.flatnonzero(np.diff(arr) != 1)
    return Runs(np.concatenate((arr[:1], arr[breaks + 1])), np.concatenate((arr[breaks], arr[-1:])))
