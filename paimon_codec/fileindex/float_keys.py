"""FLOAT / DOUBLE leaves made safe for indexes keyed by IEEE bits.

Every file index keys a float by its bits (bitmap and bloom filter: ``Float.equals`` / canonical
NaN; range bitmap: ``Float.compare`` order), so ``-0.0`` and ``0.0`` are two different keys.  The
engines that filter the rows afterwards disagree about them:

==========================  =======================  ===================================
question                    Paimon (``Double.compare``)  Spark SQL
==========================  =======================  ===================================
``-0.0 = 0.0``              false                    true
``NaN = NaN``               true                     true
NaN against other values    greater than all         greater than all
==========================  =======================  ===================================

(and plain IEEE comparison, as Arrow compute does, has ``NaN <> NaN`` true).  An index answer must
keep every row that *any* of them selects, so before a leaf reaches a reader this module widens it:

* ``= z`` / ``IN (.., z, ..)`` with ``z`` a zero asks for both zeros;
* ``<= -0.0`` becomes ``<= 0.0`` and ``>= 0.0`` becomes ``>= -0.0`` (so do BETWEEN's bounds);
* ``<> NaN`` keeps every row and ``NOT IN`` ignores its NaN literals (IEEE keeps NaN rows there);
* ``<>`` / ``NOT IN`` a zero, ``<`` / ``>`` anything: the bit-keyed answer already holds the other
  engines' rows (it keeps the other zero; NaN sorts last in every engine that orders it).
"""

from __future__ import annotations

import math
from typing import Any

from ..expressions import leaves
from ..expressions.predicate import Leaf
from ..expressions.visitor import LeafVisitor

__all__ = ["FLOAT_ROOTS", "widen_float_leaf"]

FLOAT_ROOTS = frozenset(("FLOAT", "DOUBLE"))

#: what :func:`widen_float_leaf` returns when the leaf cannot exclude any row
KEEP_ALL = None


def _is_zero(v: Any) -> bool:
    return isinstance(v, float) and v == 0.0


def _is_nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _both_zeros(values: list) -> list:
    out = list(values)
    if any(_is_zero(v) for v in out):
        out.extend(z for z in (0.0, -0.0) if not any(_is_zero(v) and math.copysign(1, v) == math.copysign(1, z)
                                                      for v in out))
    return out


class _Widen(LeafVisitor["Leaf | None"]):
    """The leaf to ask a float-keyed index instead of ``leaf``, or ``None`` when every row must stay."""

    def visit_equal_to(self, leaf: leaves.EqualTo) -> Leaf | None:
        return leaves.In._of(leaf.column, (0.0, -0.0)) if _is_zero(leaf.literal) else leaf

    def visit_in(self, leaf: leaves.In) -> Leaf | None:
        return leaves.In._of(leaf.column, tuple(_both_zeros(list(leaf.literals))))

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> Leaf | None:
        return KEEP_ALL if _is_nan(leaf.literal) else leaf

    def visit_not_in(self, leaf: leaves.NotIn) -> Leaf | None:
        kept = tuple(v for v in leaf.literals if not _is_nan(v))
        return leaves.NotIn._of(leaf.column, kept) if kept else KEEP_ALL

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> Leaf | None:
        return leaves.LessThanOrEqual._of(leaf.column, (0.0,)) if _is_zero(leaf.literal) else leaf

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> Leaf | None:
        return leaves.GreaterThanOrEqual._of(leaf.column, (-0.0,)) if _is_zero(leaf.literal) else leaf

    def visit_between(self, leaf: leaves.Between) -> Leaf | None:
        low, high = leaf.literals
        return leaves.Between._of(leaf.column,
                                  (-0.0 if _is_zero(low) else low, 0.0 if _is_zero(high) else high))

    # the bit-keyed answer already holds every engine's rows: asked as written
    def visit_less_than(self, leaf: leaves.LessThan) -> Leaf | None:
        return leaf

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> Leaf | None:
        return leaf

    def visit_is_null(self, leaf: leaves.IsNull) -> Leaf | None:
        return leaf

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> Leaf | None:
        return leaf

    # string matches: no float index answers them (REMAIN)
    def visit_starts_with(self, leaf: leaves.StartsWith) -> Leaf | None:
        return leaf

    def visit_ends_with(self, leaf: leaves.EndsWith) -> Leaf | None:
        return leaf

    def visit_contains(self, leaf: leaves.Contains) -> Leaf | None:
        return leaf

    def visit_like(self, leaf: leaves.Like) -> Leaf | None:
        return leaf


_WIDEN = _Widen()


def widen_float_leaf(leaf: Leaf) -> Leaf | None:
    """The leaf to ask a float-keyed index instead of ``leaf``, or ``None`` when every row must stay."""
    return leaf.accept(_WIDEN)
