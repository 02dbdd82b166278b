"""The expression API that builds leaves: ``col("a") == 1``, ``col("a").isin([1, 2])``, ..."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import InvalidPredicateError
from . import leaves
from .predicate import Predicate

__all__ = ["Column", "col"]


def _literal(v: Any) -> Any:
    if isinstance(v, (Predicate, Column)):
        raise InvalidPredicateError("a literal cannot be a column or a predicate")
    return v


class Column:
    """Builds leaves on one column: ``col("a") == 1``, ``col("a").isin([1, 2])``, ..."""

    __slots__ = ("name",)

    def __init__(self, name: str | None) -> None:
        self.name = name

    # ``col == 3`` builds a predicate (as in pyiceberg / PySpark), so these return a leaf, not a bool
    def __eq__(self, other: Any) -> leaves.EqualTo:  # type: ignore[override]
        return leaves.EqualTo(self.name, _literal(other))

    def __ne__(self, other: Any) -> leaves.NotEqualTo:  # type: ignore[override]  # a predicate, as __eq__
        return leaves.NotEqualTo(self.name, _literal(other))

    def __lt__(self, other: Any) -> leaves.LessThan:
        return leaves.LessThan(self.name, _literal(other))

    def __le__(self, other: Any) -> leaves.LessThanOrEqual:
        return leaves.LessThanOrEqual(self.name, _literal(other))

    def __gt__(self, other: Any) -> leaves.GreaterThan:
        return leaves.GreaterThan(self.name, _literal(other))

    def __ge__(self, other: Any) -> leaves.GreaterThanOrEqual:
        return leaves.GreaterThanOrEqual(self.name, _literal(other))

    __hash__ = None  # type: ignore[assignment]  # unhashable: __eq__ builds predicates

    def between(self, low: Any, high: Any) -> leaves.Between:
        return leaves.Between(self.name, _literal(low), _literal(high))

    def isin(self, values: Iterable[Any]) -> leaves.In:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("IN needs at least one literal")
        return leaves.In(self.name, [_literal(v) for v in vals])

    def notin(self, values: Iterable[Any]) -> leaves.NotIn:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("NOT IN needs at least one literal")
        return leaves.NotIn(self.name, [_literal(v) for v in vals])

    def is_null(self) -> leaves.IsNull:
        return leaves.IsNull(self.name)

    def is_not_null(self) -> leaves.IsNotNull:
        return leaves.IsNotNull(self.name)

    def starts_with(self, prefix: str) -> leaves.StartsWith:
        return leaves.StartsWith(self.name, _literal(prefix))

    def __repr__(self) -> str:
        return f"col({self.name!r})"


def _as_list(values: Iterable[Any]) -> list:
    if isinstance(values, (str, bytes)):
        raise InvalidPredicateError("IN / NOT IN take a list of literals, not a single string")
    return list(values)


def col(name: str | None = None) -> Column:
    """The column ``name`` (``None``: the column of a single index payload)."""
    return Column(name)
