"""The visitors over predicate trees: one abstract method per operator, and the facts every form shares.

Every consumer that gives an operator a meaning (the SQL and JSON renderers, index evaluation, the
Arrow and Spark filters, partition pruning) implements :class:`LeafVisitor` (leaves only) or
:class:`PredicateVisitor` (leaves, AND and OR).  Every method is abstract, so a visitor that forgets an
operator cannot be instantiated: a ``TypeError`` at construction (and a type error for mypy), never a
silent REMAIN at run time.  Adding an operator means adding a leaf class in :mod:`.leaves` and a method
here; every visitor then fails until it says what the operator means (``tests/test_expressions_visitor.py``
checks both directions).

The renderers depend on this module only, never on :mod:`.predicate`: that keeps the import graph free
of cycles (``predicate`` uses the renderers for ``to_sql`` / ``to_json``; the parsers build trees).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..errors import InvalidPredicateError

if TYPE_CHECKING:
    from . import leaves
    from .predicate import And, Or

__all__ = ["MAX_NESTING", "LeafVisitor", "PredicateVisitor", "visit", "node_kind"]

#: Deepest nesting of parentheses / NOT accepted (deeper input is rejected, never a RecursionError).
MAX_NESTING = 200

T = TypeVar("T")


class LeafVisitor(ABC, Generic[T]):
    """One method per leaf operator (the classes of :mod:`.leaves`)."""

    __slots__ = ()

    @abstractmethod
    def visit_equal_to(self, leaf: leaves.EqualTo) -> T:
        """``column = literal``."""

    @abstractmethod
    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> T:
        """``column <> literal``."""

    @abstractmethod
    def visit_less_than(self, leaf: leaves.LessThan) -> T:
        """``column < literal``."""

    @abstractmethod
    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> T:
        """``column <= literal``."""

    @abstractmethod
    def visit_greater_than(self, leaf: leaves.GreaterThan) -> T:
        """``column > literal``."""

    @abstractmethod
    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> T:
        """``column >= literal``."""

    @abstractmethod
    def visit_between(self, leaf: leaves.Between) -> T:
        """``column BETWEEN low AND high`` (both bounds inclusive)."""

    @abstractmethod
    def visit_in(self, leaf: leaves.In) -> T:
        """``column IN (literals)``."""

    @abstractmethod
    def visit_not_in(self, leaf: leaves.NotIn) -> T:
        """``column NOT IN (literals)`` (never true when a literal is NULL)."""

    @abstractmethod
    def visit_is_null(self, leaf: leaves.IsNull) -> T:
        """``column IS NULL``."""

    @abstractmethod
    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> T:
        """``column IS NOT NULL``."""

    @abstractmethod
    def visit_starts_with(self, leaf: leaves.StartsWith) -> T:
        """``column LIKE 'prefix%'``."""

    @abstractmethod
    def visit_ends_with(self, leaf: leaves.EndsWith) -> T:
        """The string column ends with the literal."""

    @abstractmethod
    def visit_contains(self, leaf: leaves.Contains) -> T:
        """The string column contains the literal."""

    @abstractmethod
    def visit_like(self, leaf: leaves.Like) -> T:
        """``column LIKE pattern`` (``%`` and ``_`` wildcards)."""


class PredicateVisitor(LeafVisitor[T]):
    """A :class:`LeafVisitor` that also visits the compound nodes."""

    __slots__ = ()

    @abstractmethod
    def visit_and(self, node: And) -> T:
        """All children hold."""

    @abstractmethod
    def visit_or(self, node: Or) -> T:
        """Any child holds."""


def visit(pred: Any, visitor: PredicateVisitor[T]) -> T:
    """``pred.accept(visitor)``; anything that is not a predicate node is refused in one line."""
    accept = getattr(pred, "accept", None)
    if accept is None:
        raise InvalidPredicateError(f"not a predicate: {pred!r}")
    return accept(visitor)


def node_kind(pred: Any) -> str:
    """``"leaf"``, ``"and"`` or ``"or"`` (structure only: what a node combines, not what it means)."""
    kind = getattr(pred, "kind", None)
    if kind not in ("leaf", "and", "or"):
        raise InvalidPredicateError(f"not a predicate: {pred!r}")
    return kind
