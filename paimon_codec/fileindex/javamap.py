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

Tree bins (a bucket reaching 8 nodes at capacity >= 64) reorder their chain (red-black insertion,
root moved to the front, new nodes linked after their tree parent); the few keys whose bins ever
became trees are replayed exactly by a small ``HashMap``/``TreeNode`` emulation (:class:`._javamap_tree._TreeMapSim`).

:func:`put_order` is the small-map variant with ``put`` semantics (tail insertion), used for
the container's column / index-type maps.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import numpy as np

from ._javamap_tree import _MIN_TREEIFY_CAPACITY, _TREEIFY_BIN, _TreeMapSim

__all__ = ["spread", "hashmap_order", "final_capacity", "java_string_hash", "put_order"]


def spread(hashes: np.ndarray) -> np.ndarray:
    """``h ^ (h >>> 16)`` of int32 hashes, as uint32."""
    h = np.asarray(hashes).astype(np.int64).astype(np.uint32)
    return h ^ (h >> np.uint32(16))


def _capacity_timeline(h: np.ndarray, trailing_call: bool) -> tuple[list[int], int, int]:
    """Capacity before each of the first keys (while < 64), the capacity after them, and the final one.

    Returns ``(early_caps, cap_after_early, final_cap)``; key ``j`` beyond the early ones sees
    ``max(cap_after_early, smallest power of two c with j <= 0.75 c)``.
    """
    n = len(h)
    if n == 0:
        return [], 16, (16 if trailing_call else 0)
    cap, size = 16, 0
    counts = np.zeros(cap, dtype=np.int64)
    early: list[int] = []
    i = 0
    while i < n and cap < _MIN_TREEIFY_CAPACITY:
        if size > cap * 3 // 4:
            cap *= 2
            counts = np.bincount(h[:i] & (cap - 1), minlength=cap).astype(np.int64)
        early.append(cap)
        b = int(h[i]) & (cap - 1)
        before = counts[b]
        counts[b] += 1
        size += 1
        i += 1
        if before >= _TREEIFY_BIN and cap < _MIN_TREEIFY_CAPACITY:
            cap *= 2
            counts = np.bincount(h[:i] & (cap - 1), minlength=cap).astype(np.int64)
    after = cap
    if i < n:
        while n - 1 > cap * 3 // 4:
            cap *= 2
    if trailing_call and n > cap * 3 // 4:
        cap *= 2
    return early, after, cap


def final_capacity(spread_hashes: np.ndarray, trailing_call: bool) -> int:
    """Capacity of the table after inserting the keys (in insertion order) with computeIfAbsent.

    ``trailing_call``: whether another computeIfAbsent call followed the last new key (it may
    perform one more pending resize).
    """
    return _capacity_timeline(spread_hashes, trailing_call)[2]


def _cap_before(j: int, early: list[int], after: int) -> int:
    if j < len(early):
        return early[j]
    c = after
    while j > c * 3 // 4:
        c *= 2
    return c


def _tree_groups(h: np.ndarray, after: int, final: int) -> list[tuple[int, int]]:
    """Coarsest ``(capacity, bucket)`` whose bin reached 8 nodes at capacity >= 64 (a tree bin)."""
    n = len(h)
    events: list[tuple[int, int]] = []
    c = max(after, _MIN_TREEIFY_CAPACITY)
    while c <= final:
        m = n if c >= final else min(n, c * 3 // 4 + 1)
        counts = np.bincount(h[:m] & np.uint32(c - 1), minlength=c)
        for b in np.flatnonzero(counts >= 8).tolist():
            if not any(b & (c0 - 1) == b0 for c0, b0 in events):
                events.append((c, b))
        c *= 2
    return events


def hashmap_order(hashes: np.ndarray, trailing_call: bool = True, tiebreak=None) -> np.ndarray:
    """Iteration order (indices into ``hashes``, given in insertion order) of a computeIfAbsent map.

    ``tiebreak(j)``: a value ordering key ``j`` like its ``compareTo`` (consulted only for distinct
    keys with equal hashes inside a tree bin).
    """
    h = spread(hashes)
    n = len(h)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    early, after, cap = _capacity_timeline(h, trailing_call)
    buckets = h & np.uint32(cap - 1)
    secondary = -np.arange(n, dtype=np.int64)
    groups = _tree_groups(h, after, cap) if cap >= _MIN_TREEIFY_CAPACITY else []
    for c, b in groups:
        members = np.flatnonzero((h & np.uint32(c - 1)) == b).tolist()
        signed = {j: (int(h[j]) ^ 0x80000000) - 0x80000000 for j in members}
        sim = _TreeMapSim(_cap_before(members[0], early, after), signed, tiebreak or (lambda j: j))
        for j in members:
            want = _cap_before(j, early, after)
            while sim.cap < want:
                sim.resize(sim.cap * 2)
            sim.insert(j)
        while sim.cap < cap:
            sim.resize(sim.cap * 2)
        for chain in sim.chains():
            for rank, j in enumerate(chain):
                secondary[j] = rank
    return np.lexsort((secondary, buckets))


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
