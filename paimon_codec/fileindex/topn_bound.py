"""A bound on the n-th best value of a top-N query over many files, from range-bitmap dictionaries.

Why: answering ``ORDER BY k DESC LIMIT n`` per file walks every bit slice of every file's range
bitmap, although only the few files holding the table's n best values can contribute.  The
header of a range bitmap holds the file's min and max key, and its sorted dictionary holds every
distinct key; each distinct key stands for at least one row of the file.  So the n-th best of the
multiset "each file's known distinct keys" is a value ``T`` such that at least ``n`` rows rank at
``T`` or better: a file whose best key ranks strictly worse than ``T`` holds no row of the answer
(not even a tie), and its slices need not be read.

A file whose candidate rows are restricted (a deletion vector, a predicate's found set) may have
lost the rows of any of its keys: with ``e`` rows excluded, its ``j``-th best key still has at
least ``j - e`` candidate rows ranking at it or better, so the file contributes its known keys
minus its ``e`` best ones (a conservative bound; a very selective predicate contributes nothing).

:class:`KeyStream` reads one file's keys best-first (the header's best key, then dictionary chunks
from the best end, one at a time and only when asked); :func:`nth_best` merges the streams.
Keys are the reader's comparable forms (ints, sortable float bits, UTF-8 bytes), ordered as the
index orders its codes - the order the per-file top-N answers use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .range_bitmap.reader import RangeBitmapReader

__all__ = ["KeyStream", "nth_best", "nth_best_possible", "ranks_worse", "SKIP_RATIO"]

#: A file whose excluded rows exceed 1 / SKIP_RATIO of its distinct keys reads no dictionary chunk for
#: the bound (a deletion vector of a few percent of the rows still does).
SKIP_RATIO = 8


def ranks_worse(key: Any, bound: Any, descending: bool) -> bool:
    """True when ``key`` ranks strictly after ``bound`` in the query's order."""
    return key < bound if descending else key > bound


class KeyStream:
    """One file's distinct keys known so far, best-first, for :func:`nth_best`.

    ``skip``: rows of the file that are not candidates (``row_count - |found set|``); that many of
    the best keys contribute nothing.
    """

    def __init__(self, reader: RangeBitmapReader, descending: bool, skip: int = 0) -> None:
        self.reader = reader
        self.descending = descending
        self.skip = max(0, skip)
        self.cardinality = reader.cardinality
        self.best: Any = None
        if self.cardinality:
            self.best = reader._max_cmp if descending else reader._min_cmp
        self._parts: list[Any] = [] if self.best is None else [[self.best]]
        self._chunks_read = 0
        self.known = 0 if self.best is None else 1

    @property
    def useful(self) -> bool:
        """Whether reading more of this file's keys is worth it: they can add to the bound only past the
        ``skip`` best keys, and when those are many (a selective predicate) reaching them would cost
        most of the dictionary - more than the bit slices it could save."""
        return self.skip < self.cardinality and self.skip * SKIP_RATIO <= self.cardinality

    @property
    def frontier(self) -> Any:
        """The worst key known so far: every unread key ranks after it."""
        return self._parts[-1][-1] if self._parts else None

    @property
    def chunks_read(self) -> int:
        return self._chunks_read

    @property
    def complete(self) -> bool:
        return self.known >= self.cardinality

    def read_more(self) -> int:
        """Read the next dictionary chunk from the best end; returns the dictionary bytes read."""
        if self.complete:
            return 0
        r = self.reader
        before = r.src.bytes_read
        firsts, chunks, _ = r._directory
        i = len(chunks) - 1 - self._chunks_read if self.descending else self._chunks_read
        rest = r._chunk_keys(i)
        r._chunk_cache.pop(i, None)  # read once; the stream keeps its own copy
        if r.codec.is_string:
            keys: Any = [firsts[i], *rest]
            if self.descending:
                keys.reverse()
        else:
            keys = np.concatenate((np.array([firsts[i]], dtype=np.int64), np.asarray(rest, dtype=np.int64)))
            if self.descending:
                keys = keys[::-1]
        if self._chunks_read == 0:
            self._parts = []  # the chunk at the best end holds the header's best key
            self.known = 0
        self._parts.append(keys)
        self._chunks_read += 1
        self.known += len(keys)
        return r.src.bytes_read - before

    def contribution(self) -> list[Any]:
        """Known keys that surely have a candidate row at them or better (best-first parts)."""
        if self.skip >= self.known:
            return []
        out, drop = [], self.skip
        for part in self._parts:
            if drop >= len(part):
                drop -= len(part)
                continue
            out.append(part[drop:])
            drop = 0
        return out


def nth_best(streams: list[KeyStream], n: int, descending: bool) -> Any:
    """The ``n``-th best key of the streams' contributions (a multiset), or None when fewer are known:
    at least ``n`` candidate rows rank at it or better."""
    return _nth(streams, n, descending, optimistic=False)


def nth_best_possible(streams: list[KeyStream], n: int, descending: bool) -> Any:
    """The best the bound could become by reading the dictionaries (of the :attr:`KeyStream.useful`
    streams): each unread key counted at its stream's frontier (None: not even then).  Only streams whose frontier reaches it can raise the bound."""
    return _nth(streams, n, descending, optimistic=True)


def _nth(streams: list[KeyStream], n: int, descending: bool, optimistic: bool) -> Any:
    if n <= 0:
        return None
    values: list[Any] = []
    weights: list[int] = []
    for s in streams:
        for part in s.contribution():
            values.append(part)
            weights.append(-1)  # one row per key
        extra = s.cardinality - max(s.known, s.skip)
        if optimistic and extra > 0 and s.frontier is not None and s.useful:
            values.append([s.frontier])
            weights.append(extra)
    total = sum(len(v) if w < 0 else w for v, w in zip(values, weights, strict=True))
    if total < n:
        return None
    if not any(s.reader.codec.is_string for s in streams):
        keys = np.concatenate([np.asarray(v, dtype=np.int64) for v in values])
        if not optimistic:
            at = total - n if descending else n - 1
            return int(np.partition(keys, at)[at])
        counts = np.concatenate([np.ones(len(v), dtype=np.int64) if w < 0 else np.array([w], dtype=np.int64)
                                 for v, w in zip(values, weights, strict=True)])
        order = np.argsort(keys, kind="stable")
        if descending:
            order = order[::-1]
        at = int(np.searchsorted(np.cumsum(counts[order]), n))
        return int(keys[order[at]])
    pairs = sorted(((k, 1 if w < 0 else w) for v, w in zip(values, weights, strict=True) for k in v),
                   reverse=descending)
    seen = 0
    for key, count in pairs:
        seen += count
        if seen >= n:
            return key
    return None  # unreachable: total >= n
