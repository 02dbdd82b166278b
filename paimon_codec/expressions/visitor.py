"""The visitor over predicate trees, and the facts every predicate form shares.

Every consumer of a predicate tree (the SQL and JSON renderers, an evaluator) implements
:class:`PredicateVisitor`: one method per node kind, all abstract, so a visitor that forgets a kind
cannot be instantiated (a ``TypeError`` at construction, not a silent REMAIN at run time).  The
renderers depend on this module only, never on :mod:`.predicate`: that keeps the import graph free of
cycles (``predicate`` uses the renderers for ``to_sql`` / ``to_json``; the parsers build trees with
``predicate``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..errors import InvalidPredicateError

if TYPE_CHECKING:
    from .predicate import And, Leaf, Or

__all__ = ["MAX_NESTING", "PredicateVisitor", "visit", "node_kind"]

#: Deepest nesting of parentheses / NOT accepted (deeper input is rejected, never a RecursionError).
MAX_NESTING = 200

T = TypeVar("T")


class PredicateVisitor(ABC, Generic[T]):
    """One method per node kind of a predicate tree (:class:`~.predicate.Leaf`, ``And``, ``Or``)."""

    @abstractmethod
    def visit_leaf(self, leaf: Leaf) -> T:
        """A leaf: one column, one operator, its literals."""

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


class _Kind(PredicateVisitor[str]):
    def visit_leaf(self, leaf: Leaf) -> str:
        return "leaf"

    def visit_and(self, node: And) -> str:
        return "and"

    def visit_or(self, node: Or) -> str:
        return "or"


_KIND = _Kind()


def node_kind(pred: Any) -> str:
    """``"leaf"``, ``"and"`` or ``"or"``."""
    return visit(pred, _KIND)
