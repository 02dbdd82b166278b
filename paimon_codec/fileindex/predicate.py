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

import datetime as _dt
import decimal
import math
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidPredicateError, PaimonCodecError
from ..types import DataType, RowType
from ..values import Timestamp, from_json, parse_literal_text

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

    def to_sql(self) -> str:
        from .sql import to_sql

        return to_sql(self)

    def to_json(self, style: str = "latest", schema: RowType | DataType | None = None) -> dict:
        """JSON form (``style`` ``"latest"`` or ``"paimon-0.9"``); see :mod:`.predicate_json`."""
        from .predicate_json import predicate_to_json

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

    def negate(self) -> Predicate:
        return Or(tuple(c.negate() for c in self.children))

    def has_or(self) -> bool:
        return any(c.has_or() for c in self.children)


@dataclass(frozen=True)
class Or(_Compound):
    """Any child holds.  An empty OR evaluates to REMAIN as in Paimon."""

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

    def __eq__(self, other: Any) -> Leaf:  # type: ignore[override]
        return self._leaf("eq", other)

    def __ne__(self, other: Any) -> Leaf:  # type: ignore[override]
        return self._leaf("neq", other)

    def __lt__(self, other: Any) -> Leaf:
        return self._leaf("lt", other)

    def __le__(self, other: Any) -> Leaf:
        return self._leaf("lte", other)

    def __gt__(self, other: Any) -> Leaf:
        return self._leaf("gt", other)

    def __ge__(self, other: Any) -> Leaf:
        return self._leaf("gte", other)

    __hash__ = None  # type: ignore[assignment]

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


_TYPES_BY_NAME: dict[int, tuple[RowType, dict[str, DataType]]] = {}


def _types_by_name(schema: RowType) -> dict[str, DataType]:
    """name -> type of a row type (memoised by identity; evaluation looks columns up per leaf)."""
    hit = _TYPES_BY_NAME.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    mapping: dict[str, DataType] = {}
    for f in schema.fields:
        mapping.setdefault(f.name, f.type)
    if len(_TYPES_BY_NAME) > 256:
        _TYPES_BY_NAME.clear()
    _TYPES_BY_NAME[id(schema)] = (schema, mapping)
    return mapping


def column_type(schema: RowType | DataType | None, column: str | None) -> DataType | None:
    """Type of ``column`` in ``schema`` (a row type, or one type for column-less payload queries)."""
    if schema is None:
        return None
    if isinstance(schema, DataType):
        return schema
    if column is None:
        if len(schema.fields) == 1:
            return schema.fields[0].type
        raise InvalidPredicateError("a predicate without a column needs a single-column schema")
    found = _types_by_name(schema).get(column)
    if found is not None:
        return found
    if column.endswith("]") and "[" in column:  # a map column's value: ``mapcol[key]``
        base = column[: column.index("[")]
        for f in schema.fields:
            if f.name == base and f.type.root == "MAP":
                return f.type.children[1]
    raise InvalidPredicateError(f"unknown column {column!r}", expected="one of " + ", ".join(map(repr, schema.names)))


# ---------------------------------------------------------------------------------------------
# literal coercion

_INT_RANGES = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INTEGER": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
    "DATE": (-(2**31), 2**31 - 1),
    "TIME_WITHOUT_TIME_ZONE": (0, 86_400_000 - 1),
}


def _float32(x: float) -> float:
    try:
        return struct.unpack(">f", struct.pack(">f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _coerce_in(dtype: DataType, value: Any, column: str | None) -> Any:
    """:func:`coerce_literal` for a leaf on ``column``; the error context is formatted only on failure."""
    if type(value) is int:  # the common integer literal on an integer column
        bounds = _INT_RANGES.get(dtype.root)
        if bounds is not None and dtype.root != "TIME_WITHOUT_TIME_ZONE" and bounds[0] <= value <= bounds[1]:
            return value
    return coerce_literal(dtype, value, where="the indexed column" if column is None else f"column {column!r}")


def coerce_literal(dtype: DataType, value: Any, *, where: str = "literal") -> Any:
    """Coerce ``value`` to ``dtype``'s Python representation; ``None`` stays ``None``.

    Accepts the natural Python values (``datetime.date`` / ``time`` / ``datetime``,
    :class:`~paimon_codec.values.Timestamp`, ``Decimal``, ...), the golden JSON encodings
    (``[millis, nanos]``, ``{"millis", ...}``, ``{"unscaled": n}``, ``"NaN"``) and text that reads as
    the type (``'2024-01-01'`` for a DATE).  Raises :class:`InvalidPredicateError` otherwise.
    """
    if value is None:
        return None
    if type(value) is int:  # fast path: the common integer literal on an integer column
        bounds = _INT_RANGES.get(dtype.root)
        if bounds is not None and dtype.root != "TIME_WITHOUT_TIME_ZONE" and bounds[0] <= value <= bounds[1]:
            return value
    try:
        out = _coerce(dtype, value)
    except PaimonCodecError as exc:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}: {exc.message}") from exc
    except (ValueError, TypeError, ArithmeticError, KeyError, IndexError, OverflowError) as exc:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}") from exc
    if out is _BAD:
        raise InvalidPredicateError(f"{where}: cannot use {value!r} as {dtype}")
    return out


_BAD = object()


def _integral(value: Any) -> int | object:
    if isinstance(value, bool):
        return _BAD
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() else _BAD
    if isinstance(value, decimal.Decimal):
        return int(value) if value.is_finite() and value == value.to_integral_value() else _BAD
    return _BAD


def _coerce(dtype: DataType, value: Any) -> Any:
    r = dtype.root
    if isinstance(value, str) and not dtype.is_string:
        if dtype.is_binary:
            return value.encode("utf-8")
        return _coerce(dtype, parse_literal_text(dtype, value))
    if dtype.is_string:
        if not isinstance(value, str):
            return _BAD
        return value
    if dtype.is_binary:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return bytes(value)
        return _BAD
    if r == "BOOLEAN":
        return value if isinstance(value, bool) else _BAD
    if r in ("TINYINT", "SMALLINT", "INTEGER", "BIGINT"):
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if v is not _BAD and lo <= v <= hi else _BAD
    if r == "DATE":
        if isinstance(value, _dt.datetime):
            return _BAD
        if isinstance(value, _dt.date):
            return (value - _dt.date(1970, 1, 1)).days
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if v is not _BAD and lo <= v <= hi else _BAD
    if r == "TIME_WITHOUT_TIME_ZONE":
        if isinstance(value, _dt.time):
            return ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.microsecond // 1000
        v = _integral(value)
        lo, hi = _INT_RANGES[r]
        return v if v is not _BAD and lo <= v <= hi else _BAD
    if dtype.is_timestamp:
        if isinstance(value, Timestamp):
            ts = value
        elif isinstance(value, _dt.datetime):
            ts = Timestamp.from_datetime(value)
        elif isinstance(value, _dt.date):
            ts = Timestamp((value - _dt.date(1970, 1, 1)).days * 86_400_000, 0)
        elif isinstance(value, (list, tuple, dict)):
            ts = from_json(dtype, value)
        else:
            v = _integral(value)
            if v is _BAD:
                return _BAD
            ts = Timestamp(int(v), 0)  # a bare number is epoch millis
        if not 0 <= ts.nanos_of_milli <= 999_999 or not -(2**63) <= ts.millis < 2**63:
            return _BAD
        return Timestamp(int(ts.millis), int(ts.nanos_of_milli))
    if r in ("FLOAT", "DOUBLE"):
        if isinstance(value, bool):
            return _BAD
        if isinstance(value, (int, float, decimal.Decimal)):
            f = float(value)
            return _float32(f) if r == "FLOAT" else f
        return _BAD
    if r == "DECIMAL":
        if isinstance(value, bool):
            return _BAD
        if isinstance(value, dict):
            value = from_json(dtype, value)
        if isinstance(value, float):
            if not math.isfinite(value):
                return _BAD
            value = decimal.Decimal(repr(value))
        if isinstance(value, (int, decimal.Decimal)):
            d = decimal.Decimal(value)
            return d if d.is_finite() else _BAD
        return _BAD
    raise InvalidPredicateError(f"predicates on {dtype} columns are not supported")


def leaves_of(preds: Sequence[Predicate]) -> Iterator[Leaf]:
    for p in preds:
        yield from p.leaves()
