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
became trees are replayed exactly by a small ``HashMap``/``TreeNode`` emulation (:class:`_TreeMapSim`).

:func:`put_order` is the small-map variant with ``put`` semantics (tail insertion), used for
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


class _Node:
    __slots__ = ("j", "h", "next", "prev", "parent", "left", "right", "red")

    def __init__(self, j: int, h: int) -> None:
        self.j, self.h = j, h
        self.next = self.prev = self.parent = self.left = self.right = None
        self.red = False


class _TreeMapSim:
    """Exact replay of ``java.util.HashMap`` (plain and tree bins) for one closed group of keys."""

    def __init__(self, cap: int, hashes: dict[int, int], tiebreak) -> None:
        self.cap = cap
        self.tab: dict[int, _Node] = {}
        self.trees: set[int] = set()
        self.hs = hashes  # j -> spread hash as a signed int (TreeNode compares signed)
        self.tiebreak = tiebreak

    def _dir(self, x: _Node, p: _Node) -> int:
        if p.h > x.h:
            return -1
        if p.h < x.h:
            return 1
        a, b = self.tiebreak(x.j), self.tiebreak(p.j)
        return 1 if a > b else -1

    @staticmethod
    def _rotate_left(root: _Node, p: _Node) -> _Node:
        r = p.right
        if r is not None:
            rl = p.right = r.left
            if rl is not None:
                rl.parent = p
            pp = r.parent = p.parent
            if pp is None:
                root = r
                r.red = False
            elif pp.left is p:
                pp.left = r
            else:
                pp.right = r
            r.left = p
            p.parent = r
        return root

    @staticmethod
    def _rotate_right(root: _Node, p: _Node) -> _Node:
        lf = p.left
        if lf is not None:
            lr = p.left = lf.right
            if lr is not None:
                lr.parent = p
            pp = lf.parent = p.parent
            if pp is None:
                root = lf
                lf.red = False
            elif pp.right is p:
                pp.right = lf
            else:
                pp.left = lf
            lf.right = p
            p.parent = lf
        return root

    def _balance(self, root: _Node, x: _Node) -> _Node:
        x.red = True
        while True:
            xp = x.parent
            if xp is None:
                x.red = False
                return x
            xpp = xp.parent
            if not xp.red or xpp is None:
                return root
            xppl = xpp.left
            if xp is xppl:
                xppr = xpp.right
                if xppr is not None and xppr.red:
                    xppr.red = xp.red = False
                    xpp.red = True
                    x = xpp
                else:
                    if x is xp.right:
                        x = xp
                        root = self._rotate_left(root, x)
                        xp = x.parent
                        xpp = None if xp is None else xp.parent
                    if xp is not None:
                        xp.red = False
                        if xpp is not None:
                            xpp.red = True
                            root = self._rotate_right(root, xpp)
            else:
                if xppl is not None and xppl.red:
                    xppl.red = xp.red = False
                    xpp.red = True
                    x = xpp
                else:
                    if x is xp.left:
                        x = xp
                        root = self._rotate_right(root, x)
                        xp = x.parent
                        xpp = None if xp is None else xp.parent
                    if xp is not None:
                        xp.red = False
                        if xpp is not None:
                            xpp.red = True
                            root = self._rotate_left(root, xpp)

    def _move_root_to_front(self, index: int, root: _Node) -> None:
        first = self.tab[index]
        if root is not first:
            self.tab[index] = root
            rp, rn = root.prev, root.next
            if rn is not None:
                rn.prev = rp
            if rp is not None:
                rp.next = rn
            first.prev = root
            root.next = first
            root.prev = None

    def _treeify(self, index: int, head: _Node) -> None:
        root = None
        x = head
        while x is not None:
            nxt = x.next
            x.left = x.right = None
            if root is None:
                x.parent = None
                x.red = False
                root = x
            else:
                p = root
                while True:
                    d = self._dir(x, p)
                    xp = p
                    p = p.left if d <= 0 else p.right
                    if p is None:
                        x.parent = xp
                        if d <= 0:
                            xp.left = x
                        else:
                            xp.right = x
                        root = self._balance(root, x)
                        break
            x = nxt
        self.tab[index] = head
        self.trees.add(index)
        self._move_root_to_front(index, root)

    def insert(self, j: int) -> None:
        node = _Node(j, self.hs[j])
        i = (node.h & 0xFFFFFFFF) & (self.cap - 1)
        first = self.tab.get(i)
        if first is None:
            self.tab[i] = node
            return
        if i in self.trees:  # putTreeVal: new node goes right after its tree parent in the chain
            root = first
            while root.parent is not None:
                root = root.parent
            p = root
            while True:
                d = self._dir(node, p)
                xp = p
                p = p.left if d <= 0 else p.right
                if p is None:
                    xpn = xp.next
                    node.next = xpn
                    if d <= 0:
                        xp.left = node
                    else:
                        xp.right = node
                    xp.next = node
                    node.parent = node.prev = xp
                    if xpn is not None:
                        xpn.prev = node
                    self._move_root_to_front(i, self._balance(root, node))
                    return
        count = 0
        e = first
        while e is not None:
            count += 1
            e = e.next
        node.next = first
        first.prev = node
        self.tab[i] = node
        if count >= _TREEIFY_BIN and self.cap >= _MIN_TREEIFY_CAPACITY:
            self._treeify(i, node)  # treeifyBin keeps the chain order

    def resize(self, new_cap: int) -> None:
        old_cap = self.cap
        self.cap = new_cap
        old_tab, old_trees = self.tab, self.trees
        self.tab, self.trees = {}, set()
        for i, first in old_tab.items():
            lo: list[_Node] = []
            hi: list[_Node] = []
            e = first
            while e is not None:
                (hi if (e.h & 0xFFFFFFFF) & old_cap else lo).append(e)
                e = e.next
            tree = i in old_trees
            for part, idx, other in ((lo, i, hi), (hi, i + old_cap, lo)):
                if not part:
                    continue
                for a, b in zip(part, part[1:] + [None], strict=True):
                    a.next = b
                    if b is not None:
                        b.prev = a
                part[0].prev = None
                self.tab[idx] = part[0]
                if tree and len(part) > 6:  # UNTREEIFY_THRESHOLD
                    if other:
                        self._treeify(idx, part[0])
                    else:
                        self.trees.add(idx)  # the whole tree moved unchanged

    def chains(self) -> list[list[int]]:
        out = []
        for first in self.tab.values():
            chain = []
            e = first
            while e is not None:
                chain.append(e.j)
                e = e.next
            out.append(chain)
        return out


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
