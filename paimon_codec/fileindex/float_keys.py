"""FLOAT / DOUBLE leaves asked of indexes keyed by IEEE bits, under Spark SQL's comparison.

Every file index keys a float by its bits (bitmap and bloom filter: ``Float.equals``, one canonical
NaN; range bitmap: ``Float.compare`` order), so ``-0.0`` and ``0.0`` are two keys - exactly as
Paimon's ``Predicate.test`` (``Double.compare``) tells them apart.  Asked as written, an index
therefore answers as Paimon's Java does, and that is what the index layer and ``semantics="paimon"``
reads ask (:mod:`paimon_codec.expressions.semantics`).

Spark SQL has ``-0.0 = 0.0`` (NaN equal to itself and above every number, as in Paimon), so a
``semantics="spark"`` read widens a leaf before it reaches a reader, to keep every row Spark keeps:

* ``= z`` / ``IN (.., z, ..)`` with ``z`` a zero asks for both zeros;
* ``<= -0.0`` becomes ``<= 0.0`` and ``>= 0.0`` becomes ``>= -0.0`` (so do BETWEEN's bounds);
* ``<>`` / ``NOT IN`` a zero, ``<`` / ``>`` anything, NaN literals: the bit-keyed answer already holds
  Spark's rows (it keeps the other zero; NaN is one key, above every number, in both).
"""

from __future__ import annotations

import math
from typing import Any

from ..expressions import leaves
from ..expressions.predicate import Leaf
from ..expressions.visitor import LeafVisitor, visit_leaf

__all__ = ["FLOAT_ROOTS", "widen_float_leaf"]

FLOAT_ROOTS = frozenset(("FLOAT", "DOUBLE"))


def _is_zero(v: Any) -> bool:
    return isinstance(v, float) and v == 0.0


def _both_zeros(values: list) -> list:
    out = list(values)
    if any(_is_zero(v) for v in out):
        out.extend(z for z in (0.0, -0.0) if not any(_is_zero(v) and math.copysign(1, v) == math.copysign(1, z)
                                                      for v in out))
    return out


class _Widen(LeafVisitor["Leaf"]):
    """The leaf to ask a float-keyed index instead of ``leaf`` for Spark's rows."""

    def visit_equal_to(self, leaf: leaves.EqualTo) -> Leaf:
        return leaves.In._of(leaf.column, (0.0, -0.0)) if _is_zero(leaf.literal) else leaf

    def visit_in(self, leaf: leaves.In) -> Leaf:
        return leaves.In._of(leaf.column, tuple(_both_zeros(list(leaf.literals))))

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> Leaf:
        return leaf

    def visit_not_in(self, leaf: leaves.NotIn) -> Leaf:
        return leaf

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> Leaf:
        return leaves.LessThanOrEqual._of(leaf.column, (0.0,)) if _is_zero(leaf.literal) else leaf

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> Leaf:
        return leaves.GreaterThanOrEqual._of(leaf.column, (-0.0,)) if _is_zero(leaf.literal) else leaf

    def visit_between(self, leaf: leaves.Between) -> Leaf:
        low, high = leaf.literals
        return leaves.Between._of(leaf.column,
                                  (-0.0 if _is_zero(low) else low, 0.0 if _is_zero(high) else high))

    # the bit-keyed answer already holds every engine's rows: asked as written
    def visit_less_than(self, leaf: leaves.LessThan) -> Leaf:
        return leaf

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> Leaf:
        return leaf

    def visit_is_null(self, leaf: leaves.IsNull) -> Leaf:
        return leaf

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> Leaf:
        return leaf

    # string matches: no float index answers them (REMAIN)
    def visit_starts_with(self, leaf: leaves.StartsWith) -> Leaf:
        return leaf

    def visit_ends_with(self, leaf: leaves.EndsWith) -> Leaf:
        return leaf

    def visit_contains(self, leaf: leaves.Contains) -> Leaf:
        return leaf

    def visit_like(self, leaf: leaves.Like) -> Leaf:
        return leaf


_WIDEN = _Widen()


def widen_float_leaf(leaf: Leaf) -> Leaf:
    """The leaf to ask a float-keyed index instead of ``leaf`` so that its answer holds Spark SQL's rows."""
    return visit_leaf(leaf, _WIDEN)
