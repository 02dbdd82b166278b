"""Partition pruning: whether a partition's values alone prove that none of its rows matches a predicate.

Partition values are known per file from the manifest, so this check needs no index and no data read.
It only ever answers "may match" when unsure: a leaf on a column that is not a partition key, a
comparison Python cannot make (``TypeError``), or an operator not decided here (``LIKE`` patterns,
suffix and substring matches).  The operators are the methods of a
:class:`~paimon_codec.expressions.visitor.PredicateVisitor`, so a new one must be decided here too.

FLOAT / DOUBLE values compare as the row filter compares them under the plan's ``semantics``
(:mod:`paimon_codec.expressions.semantics`): NaN equal to itself and above every number in both, ``-0.0``
equal to ``0.0`` under ``"spark"`` and below it under ``"paimon"`` (Paimon tests a partition's values with the
same ``Double.compare`` as its rows).  Python's own float comparisons are false for every NaN, which pruned
NaN partitions that match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..expressions import leaves
from ..expressions.predicate import And, Leaf, Or
from ..expressions.semantics import SemanticsName, float_order_key
from ..expressions.visitor import PredicateVisitor, visit

__all__ = ["may_match"]


class _MayMatch(PredicateVisitor[bool]):
    """False only when the values prove that the predicate holds for no row of the partition."""

    def __init__(self, values: Mapping[str, Any], semantics: SemanticsName) -> None:
        self.values = values
        self.semantics = semantics

    def _ordered(self, x: Any) -> Any:
        """A float as a key of the row filter's order (:func:`float_order_key`)."""
        return float_order_key(x, self.semantics)

    def _test(self, leaf: Leaf, holds: Callable[[Any], bool], *, null_matches: bool = False,
              ordered: bool = True) -> bool:
        """``holds(value)`` for the leaf's partition value (``ordered``: a float as its :meth:`_ordered` key); a
        NULL value matches only ``IS NULL``."""
        column = leaf.column
        if column is None or column not in self.values:
            return True
        value = self.values[column]
        if value is None:
            return null_matches
        try:
            return bool(holds(self._ordered(value) if ordered else value))
        except TypeError:
            return True

    def visit_equal_to(self, leaf: leaves.EqualTo) -> bool:
        return self._test(leaf, lambda v: v == self._ordered(leaf.literal))

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> bool:
        return self._test(leaf, lambda v: v != self._ordered(leaf.literal))

    def visit_less_than(self, leaf: leaves.LessThan) -> bool:
        return self._test(leaf, lambda v: v < self._ordered(leaf.literal))

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> bool:
        return self._test(leaf, lambda v: v <= self._ordered(leaf.literal))

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> bool:
        return self._test(leaf, lambda v: v > self._ordered(leaf.literal))

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> bool:
        return self._test(leaf, lambda v: v >= self._ordered(leaf.literal))

    def visit_between(self, leaf: leaves.Between) -> bool:
        return self._test(leaf, lambda v: self._ordered(leaf.literals[0]) <= v <= self._ordered(leaf.literals[1]))

    def visit_in(self, leaf: leaves.In) -> bool:
        return self._test(leaf, lambda v: v in [self._ordered(x) for x in leaf.literals])

    def visit_not_in(self, leaf: leaves.NotIn) -> bool:
        return self._test(leaf, lambda v: v not in [self._ordered(x) for x in leaf.literals] and None not in leaf.literals)

    def visit_is_null(self, leaf: leaves.IsNull) -> bool:
        return self._test(leaf, lambda v: False, null_matches=True)

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> bool:
        return self._test(leaf, lambda v: True)

    def visit_starts_with(self, leaf: leaves.StartsWith) -> bool:
        return self._test(leaf, lambda v: str(v).startswith(str(leaf.literal)), ordered=False)

    # not decided from partition values: never prune
    def visit_ends_with(self, leaf: leaves.EndsWith) -> bool:
        return True

    def visit_contains(self, leaf: leaves.Contains) -> bool:
        return True

    def visit_like(self, leaf: leaves.Like) -> bool:
        return True

    def visit_and(self, node: And) -> bool:
        return all([visit(c, self) for c in node.children])

    def visit_or(self, node: Or) -> bool:
        results = [visit(c, self) for c in node.children]
        return any(results) if results else True


def may_match(pred: Any, values: Mapping[str, Any], semantics: SemanticsName = "spark") -> bool:
    """False only when the partition values alone prove that no row of the partition matches ``pred`` under
    ``semantics`` (the table layer names its plan's)."""
    return visit(pred, _MayMatch(values, semantics))
