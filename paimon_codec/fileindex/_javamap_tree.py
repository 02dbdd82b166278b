"""Exact replay of ``java.util.HashMap`` tree bins, for the few keys whose bucket ever became a tree.

A bucket reaching 8 nodes at capacity >= 64 turns into a red-black ``TreeNode`` bin: insertion
rebalances it, the root is moved to the front of the chain and new nodes are linked after their
tree parent, so the chain order (which Paimon's bitmap bytes follow) is no longer reverse insertion
order.  :class:`_TreeMapSim` replays ``HashMap``/``TreeNode`` for one closed group of keys;
:func:`paimon_codec.fileindex.javamap.hashmap_order` uses it for those groups only.
"""

from __future__ import annotations

_TREEIFY_BIN = 7  # TREEIFY_THRESHOLD - 1 nodes already in the bin
_MIN_TREEIFY_CAPACITY = 64


class _Node:
    __slots__ = ("j", "h", "next", "prev", "parent", "left", "right", "red")

    def __init__(self, j: int, h: int) -> None:
        self.j, self.h = j, h
        self.next: _Node | None = None
        self.prev: _Node | None = None
        self.parent: _Node | None = None
        self.left: _Node | None = None
        self.right: _Node | None = None
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
        root = head  # replaced by the balanced root as nodes go in (the head goes in first)
        x: _Node | None = head
        while x is not None:
            nxt = x.next
            x.left = x.right = None
            if x is head:
                x.parent = None
                x.red = False
                root = x
            else:
                p: _Node | None = root
                while p is not None:
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
            p: _Node | None = root
            while p is not None:
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
        e: _Node | None = first
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
            e: _Node | None = first
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
        out: list[list[int]] = []
        for first in self.tab.values():
            chain = []
            e: _Node | None = first
            while e is not None:
                chain.append(e.j)
                e = e.next
            out.append(chain)
        return out
