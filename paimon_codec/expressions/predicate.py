"""Predicate trees over the columns of one data file.

A predicate is a tree of leaves (one column, one operator, its literals: the typed classes of
:mod:`.leaves`, ``EqualTo``, ``In``, ``IsNull``, ...), :class:`And` and :class:`Or` nodes.  There is
no NOT node: :meth:`Predicate.negate` (``~p``) pushes negation down to the leaves the way Paimon's
``Predicate.negate()`` does (``=`` <-> ``<>``, ``<`` <-> ``>=``, ``IN`` <-> ``NOT IN``, ``IS NULL`` <->
``IS NOT NULL``, De Morgan for AND/OR, ``NOT BETWEEN a AND b`` = ``< a OR > b``).  That is exact under
SQL's three-valued logic: a NULL row satisfies neither a comparison nor its negation.

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
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import InvalidPredicateError
from ..modes import PredicateJsonStyleLike
from ..report import JsonForm
from ..types import DataType, RowType
from ._json_render import render_json
from ._sql_render import render_sql
from .bind import _coerce_in, column_type

__all__ = ["Predicate", "Leaf", "And", "Or", "and_all", "or_all"]


def _literal_key(value: Any) -> Any:
    """A comparable stand-in for a literal (floats by bits: NaN == NaN, -0.0 != 0.0, as Java's Float.equals)."""
    if isinstance(value, float):
        return ("float", b"nan" if math.isnan(value) else struct.pack(">d", value))
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, decimal.Decimal):
        return ("decimal", value)  # by value: 1.50 == 1.5
    return (type(value).__name__, value)


class Predicate(JsonForm, ABC):
    """Base class of predicate nodes."""

    #: ``"leaf"``, ``"and"`` or ``"or"`` (what the renderers read a node by)
    kind: ClassVar[str]

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

    @abstractmethod
    def negate(self) -> Predicate:
        """See the subclasses."""

    @abstractmethod
    def leaves(self) -> Iterator[Leaf]:
        """See the subclasses."""

    def columns(self) -> list[str]:
        """Distinct column names used, in first-use order."""
        seen: dict[str, None] = {}
        for leaf in self.leaves():
            if leaf.column is not None:
                seen.setdefault(leaf.column, None)
        return list(seen)

    @abstractmethod
    def bind(self, schema: RowType | DataType | None) -> Predicate:
        """Coerce every literal to its column's type.

        ``schema`` is the row type of the data file, or (for a single index payload) the one
        column type every leaf refers to.  Unknown columns and literals that cannot be read as the
        column type raise :class:`InvalidPredicateError`.
        """

    @abstractmethod
    def has_or(self) -> bool:
        """See the subclasses."""

    def to_sql(self) -> str:
        """The SQL-like text form (:func:`.sql.to_sql`)."""
        return render_sql(self)

    def to_dict(self, style: PredicateJsonStyleLike = "latest", schema: RowType | DataType | None = None) -> dict:
        """JSON form (``style`` ``"latest"`` or ``"paimon-0.9"``); see :mod:`.json_form`."""
        return render_json(self, style=style, schema=schema)

    def __str__(self) -> str:
        try:
            return self.to_sql()
        except InvalidPredicateError:  # an operator without a SQL form (ends_with, contains): never fail a report
            return repr(self)


def _check(p: Any) -> Predicate:
    if not isinstance(p, Predicate):
        raise InvalidPredicateError(f"cannot combine a predicate with {p!r}")
    return p


class Leaf(Predicate):
    """One column, one operator, its literals: the base of the typed leaves of :mod:`.leaves`.

    ``op`` names the operator (its name in the JSON forms, ``"eq"``, ``"in"``, ...) and ``arity`` the
    number of literals (``None``: one or more).  A leaf is immutable; build one with its class
    (``EqualTo("a", 1)``, ``In("a", [1, 2])``) or :func:`.leaves.make_leaf` from an operator name.
    """

    kind = "leaf"
    op: ClassVar[str]
    arity: ClassVar[int | None]
    column: str | None
    literals: tuple

    def __new__(cls, *args: Any, **kwargs: Any) -> Leaf:
        if not hasattr(cls, "op"):  # Leaf and the shared bases of :mod:`.leaves` name no operator
            raise TypeError(f"{cls.__name__} is abstract: build a leaf with its class (EqualTo, In, ...) or with "
                            "expressions.leaves.make_leaf(op, column, literals)")
        return super().__new__(cls)

    @classmethod
    def _of(cls, column: str | None, literals: tuple) -> Leaf:
        """A leaf of this class (literals already checked against ``arity``)."""
        out = object.__new__(cls)
        object.__setattr__(out, "column", column)
        object.__setattr__(out, "literals", literals)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    @property
    def literal(self) -> Any:
        return self.literals[0]

    def with_column(self, column: str | None) -> Leaf:
        """The same operator and literals on another column."""
        return self if column == self.column else type(self)._of(column, self.literals)

    def with_literals(self, literals: tuple) -> Leaf:
        """The same operator on the same column with other literals (as many as before)."""
        if len(literals) != len(self.literals):
            raise InvalidPredicateError(f"operator {self.op!r}: {len(literals)} literal(s) instead of "
                                        f"{len(self.literals)}")
        return type(self)._of(self.column, tuple(literals))

    def _check_column_type(self, dtype: DataType) -> None:
        """Refuse (:class:`InvalidPredicateError`) an operator whose rows on a column of ``dtype`` are not one
        set across Paimon and the row filters (see the overrides in :mod:`.leaves`)."""

    def leaves(self) -> Iterator[Leaf]:
        yield self

    def has_or(self) -> bool:
        return False

    def bind(self, schema: RowType | DataType | None) -> Leaf:
        if self._bound_to is schema and schema is not None:
            return self  # bound to this very schema before: its literals are of the column types
        dtype = column_type(schema, self.column)
        if dtype is None:
            return self
        self._check_column_type(dtype)
        out = self
        lits = self.literals
        if len(lits) == 1:  # most operators: skip the generator
            v = lits[0]
            c = v if v is None else _coerce_in(dtype, v, self.column)
            if c is not v:
                out = type(self)._of(self.column, (c,))
        elif lits:
            coerced = tuple(v if v is None else _coerce_in(dtype, v, self.column) for v in lits)
            for a, b in zip(coerced, lits):  # noqa: B905 - same length by construction
                if a is not b:
                    out = type(self)._of(self.column, coerced)
                    break
        object.__setattr__(out, "_bound_to", schema)
        return out

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state.pop("_bound_to", None)  # a memo: not part of the value (and would drag the schema along)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def _key(self) -> tuple:
        return (self.op, self.column, tuple(_literal_key(v) for v in self.literals))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Leaf) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.column!r}, {self.literals!r})"


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

    kind = "and"

    def negate(self) -> Predicate:
        return Or(tuple(c.negate() for c in self.children))

    def has_or(self) -> bool:
        return any(c.has_or() for c in self.children)


@dataclass(frozen=True)
class Or(_Compound):
    """Any child holds.  An empty OR evaluates to REMAIN as in Paimon."""

    kind = "or"

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


#: what a ``where=`` argument may be: a predicate (``col("a") == 1``), SQL-like text (``"a = 1 AND b IN
#: ('x')"``), a JSON predicate (a dict, or its text), or ``None`` for every row
WhereLike = Predicate | str | Mapping[str, Any] | None
