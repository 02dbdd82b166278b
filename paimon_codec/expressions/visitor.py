"""The visitors over predicate trees: one abstract method per operator, and the facts every form shares.

Every consumer that gives an operator a meaning (the SQL and JSON renderers, index evaluation, the
Arrow and Spark filters, partition pruning) implements :class:`LeafVisitor` (leaves only) or
:class:`PredicateVisitor` (leaves, AND and OR).  Every method is abstract, so a visitor that forgets an
operator cannot be instantiated: a ``TypeError`` at construction (and a type error for mypy), never a
silent REMAIN at run time.  Adding an operator means adding a leaf class in :mod:`.leaves` and a method
here; every visitor then fails until it says what the operator means (``tests/test_expressions_visitor.py``
checks both directions).

Nodes have no ``accept`` method: :func:`visit` dispatches on the node's class, so the arrows run one way
(this module imports :mod:`.leaves` and :mod:`.predicate`; neither imports it), as pyiceberg's
``expressions.visitors`` does over its expression classes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar, cast

from ..errors import InvalidPredicateError
from . import leaves
from .predicate import And, Leaf, Or

__all__ = ["MAX_NESTING", "LeafVisitor", "PredicateVisitor", "visit", "visit_leaf"]

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


#: leaf class -> the name of its visitor method
_LEAF_METHODS: dict[type, str] = {
    leaves.EqualTo: "visit_equal_to", leaves.NotEqualTo: "visit_not_equal_to", leaves.LessThan: "visit_less_than",
    leaves.LessThanOrEqual: "visit_less_than_or_equal", leaves.GreaterThan: "visit_greater_than",
    leaves.GreaterThanOrEqual: "visit_greater_than_or_equal", leaves.Between: "visit_between", leaves.In: "visit_in",
    leaves.NotIn: "visit_not_in", leaves.IsNull: "visit_is_null", leaves.IsNotNull: "visit_is_not_null",
    leaves.StartsWith: "visit_starts_with", leaves.EndsWith: "visit_ends_with", leaves.Contains: "visit_contains",
    leaves.Like: "visit_like",
}


def _leaf_method(cls: type) -> str | None:
    """The visitor method of a leaf class (a subclass of an operator's class: that operator's)."""
    name = _LEAF_METHODS.get(cls)
    if name is None and issubclass(cls, Leaf):
        name = next((_LEAF_METHODS[c] for c in cls.__mro__ if c in _LEAF_METHODS), None)
    return name


def visit_leaf(leaf: Leaf, visitor: LeafVisitor[T]) -> T:
    """The visitor method of ``leaf``'s operator, called with it."""
    name = _leaf_method(type(leaf))
    if name is None:
        raise InvalidPredicateError(f"not a predicate: {leaf!r}")
    return cast(T, getattr(visitor, name)(leaf))


def visit(pred: Any, visitor: PredicateVisitor[T]) -> T:
    """The visitor method of ``pred``'s operator (or ``visit_and`` / ``visit_or``), called with it; anything
    that is not a predicate node is refused in one line."""
    if isinstance(pred, And):
        return visitor.visit_and(pred)
    if isinstance(pred, Or):
        return visitor.visit_or(pred)
    name = _leaf_method(type(pred))
    if name is None:
        raise InvalidPredicateError(f"not a predicate: {pred!r}")
    return cast(T, getattr(visitor, name)(pred))

