"""The expression API that builds leaves: ``col("a") == 1``, ``col("a").isin([1, 2])``, ..."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import InvalidPredicateError
from .leaves import (
    Between,
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNotNull,
    IsNull,
    LessThan,
    LessThanOrEqual,
    NotEqualTo,
    NotIn,
    StartsWith,
)
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
    def __eq__(self, other: Any) -> EqualTo:  # type: ignore[override]
        return EqualTo(self.name, _literal(other))

    def __ne__(self, other: Any) -> NotEqualTo:  # type: ignore[override]  # a predicate, as __eq__
        return NotEqualTo(self.name, _literal(other))

    def __lt__(self, other: Any) -> LessThan:
        return LessThan(self.name, _literal(other))

    def __le__(self, other: Any) -> LessThanOrEqual:
        return LessThanOrEqual(self.name, _literal(other))

    def __gt__(self, other: Any) -> GreaterThan:
        return GreaterThan(self.name, _literal(other))

    def __ge__(self, other: Any) -> GreaterThanOrEqual:
        return GreaterThanOrEqual(self.name, _literal(other))

    __hash__ = None  # type: ignore[assignment]  # unhashable: __eq__ builds predicates

    def between(self, low: Any, high: Any) -> Between:
        return Between(self.name, _literal(low), _literal(high))

    def isin(self, values: Iterable[Any]) -> In:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("IN needs at least one literal")
        return In(self.name, [_literal(v) for v in vals])

    def notin(self, values: Iterable[Any]) -> NotIn:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("NOT IN needs at least one literal")
        return NotIn(self.name, [_literal(v) for v in vals])

    def is_null(self) -> IsNull:
        return IsNull(self.name)

    def is_not_null(self) -> IsNotNull:
        return IsNotNull(self.name)

    def starts_with(self, prefix: str) -> StartsWith:
        return StartsWith(self.name, _literal(prefix))

    def __repr__(self) -> str:
        return f"col({self.name!r})"


def _as_list(values: Iterable[Any]) -> list:
    if isinstance(values, (str, bytes)):
        raise InvalidPredicateError("IN / NOT IN take a list of literals, not a single string")
    return list(values)


def col(name: str | None = None) -> Column:
    """The column ``name`` (``None``: the column of a single index payload)."""
    return Column(name)
