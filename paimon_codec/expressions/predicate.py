"""Predicate trees over the columns of one data file, and the expression API that builds them.

A predicate is a tree of :class:`Leaf` (one column, one operator, its literals), :class:`And` and
:class:`Or` nodes.  There is no NOT node: :meth:`Predicate.negate` (``~p``) pushes negation down to
the leaves the way Paimon's ``Predicate.negate()`` does (``=`` <-> ``<>``, ``<`` <-> ``>=``,
``IN`` <-> ``NOT IN``, ``IS NULL`` <-> ``IS NOT NULL``, De Morgan for AND/OR,
``NOT BETWEEN a AND b`` = ``< a OR > b``).  That is exact under SQL's three-valued logic: a NULL
row satisfies neither a comparison nor its negation.

Literals are whatever the caller wrote (``int``, ``str``, ``datetime.date``, ...) until
:meth:`Predicate.bind` coerces them to the column type's Python representation
(:mod:`paimon_codec.values`), which is what index readers expect::

    >>> p = (col("status") == "PENDING") & col("region").isin(["US", "EU"]) | col("note").is_null()
    >>> p.bind(parse_row_type("status STRING, region STRING, note STRING"))

A leaf whose ``column`` is ``None`` addresses "the" column of a single index payload.
"""

from __future__ import annotations

import decimal
import math
import struct
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from ..errors import InvalidPredicateError
from ..types import DataType, RowType
from ._json_render import predicate_to_json
from ._sql_render import to_sql
from .bind import _coerce_in, _types_by_name, coerce_literal, column_type, leaves_of  # noqa: F401
from .visitor import PredicateVisitor

T = TypeVar("T")

__all__ = [
    "Predicate",
    "Leaf",
    "And",
    "Or",
    "Column",
    "col",
    "and_all",
    "or_all",
    "coerce_literal",
    "LEAF_OPS",
]

# operator -> number of literals (None = one or more)
LEAF_OPS: dict[str, int | None] = {
    "eq": 1, "neq": 1, "lt": 1, "lte": 1, "gt": 1, "gte": 1,
    "in": None, "not_in": None, "between": 2, "is_null": 0, "is_not_null": 0,
    "starts_with": 1, "ends_with": 1, "contains": 1, "like": 1,
}

_NEGATION = {
    "eq": "neq", "neq": "eq", "lt": "gte", "gte": "lt", "gt": "lte", "lte": "gt",
    "in": "not_in", "not_in": "in", "is_null": "is_not_null", "is_not_null": "is_null",
}


def _literal_key(value: Any) -> Any:
    """A comparable stand-in for a literal (floats by bits: NaN == NaN, -0.0 != 0.0, as Java's Float.equals)."""
    if isinstance(value, float):
        return ("float", b"nan" if math.isnan(value) else struct.pack(">d", value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, decimal.Decimal):
        return ("decimal", value)  # by value: 1.50 == 1.5
    return (type(value).__name__, value)


class Predicate:
    """Base class of predicate nodes."""

    #: The schema this node was last bound to (by identity): binding it to that schema again is a
    #: no-op, so a predicate bound once (or evaluated against many files of one schema) is not
    #: re-coerced on every call.  Set only on nodes that ``bind`` returned; schemas are immutable.
    _bound_to: RowType | DataType | None = None

    def _remember_binding(self, schema: RowType | DataType) -> None:
        object.__setattr__(self, "_bound_to", schema)

    def __and__(self, other: Predicate) -> Predicate:
        return and_all([self, _check(other)])

    def __or__(self, other: Predicate) -> Predicate:
        return or_all([self, _check(other)])

    def __invert__(self) -> Predicate:
        return self.negate()

    def negate(self) -> Predicate:
        raise NotImplementedError

    def leaves(self) -> Iterator[Leaf]:
        raise NotImplementedError

    def columns(self) -> list[str]:
        """Distinct column names used, in first-use order."""
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            if leaf.column is not None:
                seen.setdefault(leaf.column, None)
        return list(seen)

    def bind(self, schema: RowType | DataType | None) -> Predicate:
        """Coerce every literal to its column's type.

        ``schema`` is the row type of the data file, or (for a single index payload) the one
        column type every leaf refers to.  Unknown columns and literals that cannot be read as the
        column type raise :class:`InvalidPredicateError`.
        """
        raise NotImplementedError

    def has_or(self) -> bool:
        raise NotImplementedError

    def accept(self, visitor: PredicateVisitor[T]) -> T:
        """Dispatch to the visitor method of this node's kind."""
        raise NotImplementedError

    def to_sql(self) -> str:
        return to_sql(self)

    def to_json(self, style: str = "latest", schema: RowType | DataType | None = None) -> dict:
        """JSON form (``style`` ``"latest"`` or ``"paimon-0.9"``); see :mod:`.json_form`."""
        return predicate_to_json(self, style=style, schema=schema)

    def __str__(self) -> str:
        return self.to_sql()


def _check(p: Any) -> Predicate:
    if not isinstance(p, Predicate):
        raise InvalidPredicateError(f"cannot combine a predicate with {p!r}")
    return p


@dataclass(frozen=True, eq=False)
class Leaf(Predicate):
    """``op`` applied to ``column`` with ``literals`` (see :data:`LEAF_OPS` for the operators)."""

    op: str
    column: str | None
    literals: tuple = ()

    def __post_init__(self) -> None:
        if self.op not in LEAF_OPS:
            raise InvalidPredicateError(f"unknown predicate operator {self.op!r}",
                                        expected="one of " + ", ".join(LEAF_OPS))
        arity = LEAF_OPS[self.op]
        n = len(self.literals)
        if (arity is None and n == 0) or (arity is not None and n != arity):
            raise InvalidPredicateError(
                f"operator {self.op!r} takes {'one or more' if arity is None else arity} literal(s), got {n}")

    @property
    def literal(self) -> Any:
        return self.literals[0]

    def negate(self) -> Predicate:
        if self.op == "between":
            lo, hi = self.literals
            return Or((Leaf("lt", self.column, (lo,)), Leaf("gt", self.column, (hi,))))
        if self.op not in _NEGATION:
            raise InvalidPredicateError(f"operator {self.op!r} cannot be negated")
        return Leaf(_NEGATION[self.op], self.column, self.literals)

    def leaves(self) -> Iterator[Leaf]:
        yield self

    def accept(self, visitor: PredicateVisitor[T]) -> T:
        return visitor.visit_leaf(self)

    def has_or(self) -> bool:
        return False

    def bind(self, schema: RowType | DataType | None) -> Leaf:
        if self._bound_to is schema and schema is not None:
            return self  # bound to this very schema before: its literals are of the column types
        dtype = column_type(schema, self.column)
        if dtype is None:
            return self
        out = self
        lits = self.literals
        if len(lits) == 1:  # most operators: skip the generator
            v = lits[0]
            c = v if v is None else _coerce_in(dtype, v, self.column)
            if c is not v:
                out = Leaf(self.op, self.column, (c,))
        elif lits:
            coerced = tuple(v if v is None else _coerce_in(dtype, v, self.column) for v in lits)
            for a, b in zip(coerced, lits):  # noqa: B905 - same length by construction
                if a is not b:
                    out = Leaf(self.op, self.column, coerced)
                    break
        object.__setattr__(out, "_bound_to", schema)
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_bound_to", None)  # a memo: not part of the value (and would drag the schema along)
        return state

    def _key(self) -> tuple:
        return (self.op, self.column, tuple(_literal_key(v) for v in self.literals))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Leaf) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Leaf({self.op!r}, {self.column!r}, {self.literals!r})"


@dataclass(frozen=True)
class _Compound(Predicate):
    children: tuple[Predicate, ...]

    def leaves(self) -> Iterator[Leaf]:
        for c in self.children:
            yield from c.leaves()

    def bind(self, schema: RowType | DataType | None) -> Predicate:
        if self._bound_to is schema and schema is not None:
            return self
        children = tuple(c.bind(schema) for c in self.children)
        same = all(a is b for a, b in zip(children, self.children))  # noqa: B905 - same length
        out = self if same else type(self)(children)
        if schema is not None:
            out._remember_binding(schema)
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_bound_to", None)
        return state


@dataclass(frozen=True)
class And(_Compound):
    """All children hold.  An empty AND holds everywhere (REMAIN)."""

    def accept(self, visitor: PredicateVisitor[T]) -> T:
        return visitor.visit_and(self)

    def negate(self) -> Predicate:
        return Or(tuple(c.negate() for c in self.children))

    def has_or(self) -> bool:
        return any(c.has_or() for c in self.children)


@dataclass(frozen=True)
class Or(_Compound):
    """Any child holds.  An empty OR evaluates to REMAIN as in Paimon."""

    def accept(self, visitor: PredicateVisitor[T]) -> T:
        return visitor.visit_or(self)

    def negate(self) -> Predicate:
        return And(tuple(c.negate() for c in self.children))

    def has_or(self) -> bool:
        return True


def and_all(preds: Iterable[Predicate]) -> Predicate:
    """AND of several predicates, flattening nested ANDs (a single predicate is returned as is)."""
    out: list[Predicate] = []
    for p in preds:
        out.extend(p.children if isinstance(p, And) else (p,))
    return out[0] if len(out) == 1 else And(tuple(out))


def or_all(preds: Iterable[Predicate]) -> Predicate:
    """OR of several predicates, flattening nested ORs."""
    out: list[Predicate] = []
    for p in preds:
        out.extend(p.children if isinstance(p, Or) else (p,))
    return out[0] if len(out) == 1 else Or(tuple(out))


class Column:
    """Builds leaves on one column: ``col("a") == 1``, ``col("a").isin([1, 2])``, ..."""

    __slots__ = ("name",)

    def __init__(self, name: str | None) -> None:
        self.name = name

    def _leaf(self, op: str, *literals: Any) -> Leaf:
        for v in literals:
            if isinstance(v, (Predicate, Column)):
                raise InvalidPredicateError("a literal cannot be a column or a predicate")
        return Leaf(op, self.name, tuple(literals))

    # ``col == 3`` builds a predicate (as in pyiceberg / PySpark), so these return a Leaf, not a bool
    def __eq__(self, other: Any) -> Leaf:  # type: ignore[override]
        return self._leaf("eq", other)

    def __ne__(self, other: Any) -> Leaf:  # type: ignore[override]  # a predicate, as __eq__
        return self._leaf("neq", other)

    def __lt__(self, other: Any) -> Leaf:
        return self._leaf("lt", other)

    def __le__(self, other: Any) -> Leaf:
        return self._leaf("lte", other)

    def __gt__(self, other: Any) -> Leaf:
        return self._leaf("gt", other)

    def __ge__(self, other: Any) -> Leaf:
        return self._leaf("gte", other)

    __hash__ = None  # type: ignore[assignment]  # unhashable: __eq__ builds predicates

    def between(self, low: Any, high: Any) -> Leaf:
        return self._leaf("between", low, high)

    def isin(self, values: Iterable[Any]) -> Leaf:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("IN needs at least one literal")
        return self._leaf("in", *vals)

    def notin(self, values: Iterable[Any]) -> Leaf:
        vals = _as_list(values)
        if not vals:
            raise InvalidPredicateError("NOT IN needs at least one literal")
        return self._leaf("not_in", *vals)

    def is_null(self) -> Leaf:
        return self._leaf("is_null")

    def is_not_null(self) -> Leaf:
        return self._leaf("is_not_null")

    def starts_with(self, prefix: str) -> Leaf:
        return self._leaf("starts_with", prefix)

    def __repr__(self) -> str:
        return f"col({self.name!r})"


def _as_list(values: Iterable[Any]) -> list:
    if isinstance(values, (str, bytes)):
        raise InvalidPredicateError("IN / NOT IN take a list of literals, not a single string")
    return list(values)


def col(name: str | None = None) -> Column:
    """The column ``name`` (``None``: the column of a single index payload)."""
    return Column(name)
