"""Iteration order of ``java.util.HashMap``, which leaks into Paimon's bitmap index bytes.

Paimon's bitmap writer fills a ``HashMap<key, bitmap>`` with ``computeIfAbsent`` (one call per
non-null row) and writes its dictionary (V1) and bitmap body (V1 and V2) in iteration order.  The
rules that decide that order (FORMATS.md §2.7):

* the table starts at capacity 16 / threshold 12; *at the beginning of every call* (also for keys
  already present) the table doubles if ``size > threshold``; a split keeps relative order;
* bucket = ``(h ^ (h >>> 16)) & (capacity - 1)``;
* a *new* key goes to the *head* of its bucket; if that bucket already held >= 7 nodes and the
  capacity is < 64, the table doubles instead of becoming a tree bin.

Consequence used here: two keys sharing a bucket in the final table shared a bucket at every
earlier capacity too, and neither head insertion nor splitting changes their relative order, so
within a final bucket the keys are in *reverse insertion order*.  The whole order is therefore
``sort by (final bucket, -insertion index)`` - one ``np.lexsort`` - once the final capacity is known.
Only the capacity needs simulating: a short per-key loop while the capacity is below 64 (where
the treeify rule can force extra doublings), then arithmetic.

Tree bins (>= 8 colliding keys in one bucket at capacity >= 64) are not emulated: their order
differs and :func:`hashmap_order` reports it through ``exact=False``.

:class:`JavaHashMapOrder` is the small-map variant with ``put`` semantics (tail insertion), used for
the container's column / index-type maps.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import numpy as np

__all__ = ["spread", "hashmap_order", "final_capacity", "java_string_hash", "put_order"]

_TREEIFY_BIN = 7  # TREEIFY_THRESHOLD - 1 nodes already in the bin
_MIN_TREEIFY_CAPACITY = 64


def spread(hashes: np.ndarray) -> np.ndarray:
    """``h ^ (h >>> 16)`` of int32 hashes, as uint32."""
    h = np.asarray(hashes).astype(np.int64).astype(np.uint32)
    return h ^ (h >> np.uint32(16))


def final_capacity(spread_hashes: np.ndarray, trailing_call: bool) -> tuple[int, bool]:
    """Capacity of the table after inserting the keys (in insertion order) with computeIfAbsent.

    ``trailing_call``: whether another computeIfAbsent call followed the last new key (it may
    perform one more pending resize).  Returns ``(capacity, exact)``; ``exact`` is False when a
    bucket would become a tree bin (order then not emulated).
    """
    n = len(spread_hashes)
    cap, size = 16, 0
    if n == 0:
        return (16 if trailing_call else 0), True
    # Phase 1: per-key simulation while the treeify rule can still force a resize.
    counts = np.zeros(cap, dtype=np.int64)
    i = 0
    h = spread_hashes
    while i < n and cap < _MIN_TREEIFY_CAPACITY:
        if size > cap * 3 // 4:
            cap *= 2
            counts = np.bincount(h[:i] & (cap - 1), minlength=cap).astype(np.int64)
        b = int(h[i]) & (cap - 1)
        before = counts[b]
        counts[b] += 1
        size += 1
        i += 1
        if before >= _TREEIFY_BIN and cap < _MIN_TREEIFY_CAPACITY:
            cap *= 2
            counts = np.bincount(h[:i] & (cap - 1), minlength=cap).astype(np.int64)
    # Phase 2: only the load factor matters.  Before inserting key j (1-based) the table has
    # grown until j - 1 <= threshold.
    if i < n:
        while n - 1 > cap * 3 // 4:
            cap *= 2
    if trailing_call and n > cap * 3 // 4:
        cap *= 2
    exact = True
    if cap >= _MIN_TREEIFY_CAPACITY:
        exact = bool(np.bincount(h & (cap - 1), minlength=cap).max(initial=0) <= 8)
        # A bin reaching 8 nodes at capacity >= 64 (at any time) becomes a tree; checking the
        # final table is a necessary condition only, good enough to flag the rare case.
    return cap, exact


def hashmap_order(hashes: np.ndarray, trailing_call: bool = True) -> tuple[np.ndarray, bool]:
    """Iteration order (indices into ``hashes``, given in insertion order) of a computeIfAbsent map.

    Returns ``(order, exact)``.
    """
    h = spread(hashes)
    n = len(h)
    if n == 0:
        return np.zeros(0, dtype=np.int64), True
    cap, exact = final_capacity(h, trailing_call)
    buckets = h & np.uint32(cap - 1)
    order = np.lexsort((-np.arange(n, dtype=np.int64), buckets))
    return order, exact


def java_string_hash(s: str) -> int:
    """``String.hashCode()`` (over UTF-16 code units) as a signed int."""
    h = 0
    data = s.encode("utf-16-be", "surrogatepass")
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def put_order(keys: Iterable[Hashable], hash_fn=java_string_hash) -> list:
    """Iteration order of a ``HashMap`` filled with ``put`` in the given order (tail insertion).

    Used for Paimon's ``HashMap<String, ...>`` of column names and index types.  Small maps only.
    """
    keys = list(dict.fromkeys(keys))
    cap = 16
    table: list[list] = [[] for _ in range(cap)]
    size = 0
    for k in keys:
        h = hash_fn(k) & 0xFFFFFFFF
        sh = h ^ (h >> 16)
        table[sh & (cap - 1)].append((sh, k))
        size += 1
        if size > cap * 3 // 4:  # putVal resizes after inserting
            cap *= 2
            new: list[list] = [[] for _ in range(cap)]
            for bucket in table:
                for sh2, k2 in bucket:
                    new[sh2 & (cap - 1)].append((sh2, k2))
            table = new
    return [k for bucket in table for _, k in bucket]
