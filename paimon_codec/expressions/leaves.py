"""The leaf operators, one class each (as pyiceberg's expressions): what a predicate can ask of a column.

=====================  ===============  ==========================================
class                  ``op`` (JSON)    built as
=====================  ===============  ==========================================
:class:`EqualTo`       ``eq``           ``EqualTo("a", 1)``, ``col("a") == 1``
:class:`NotEqualTo`    ``neq``          ``NotEqualTo("a", 1)``, ``col("a") != 1``
:class:`LessThan`      ``lt``           ``LessThan("a", 1)``, ``col("a") < 1``
:class:`LessThanOrEqual`  ``lte``       ``col("a") <= 1``
:class:`GreaterThan`   ``gt``           ``col("a") > 1``
:class:`GreaterThanOrEqual`  ``gte``    ``col("a") >= 1``
:class:`Between`       ``between``      ``Between("a", 1, 5)``, ``col("a").between(1, 5)``
:class:`In`            ``in``           ``In("a", [1, 2])``, ``col("a").isin([1, 2])``
:class:`NotIn`         ``not_in``       ``NotIn("a", [1, 2])``, ``col("a").notin([1, 2])``
:class:`IsNull`        ``is_null``      ``IsNull("a")``, ``col("a").is_null()``
:class:`IsNotNull`     ``is_not_null``  ``IsNotNull("a")``, ``col("a").is_not_null()``
:class:`StartsWith`    ``starts_with``  ``StartsWith("a", "x")``, ``LIKE 'x%'``
:class:`EndsWith`      ``ends_with``    ``EndsWith("a", "x")``
:class:`Contains`      ``contains``     ``Contains("a", "x")``
:class:`Like`          ``like``         ``Like("a", "x_%y")``, ``LIKE 'x_%y'``
=====================  ===============  ==========================================

Each class has its own method on :class:`~.visitor.LeafVisitor` (:func:`.visitor.visit` dispatches by class),
and knows its negation.
:func:`make_leaf` builds a leaf from an operator name (the JSON forms, tests).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import InvalidPredicateError, UnsupportedFeatureError
from ..types import DataType
from .predicate import Leaf, Or, Predicate

__all__ = [
    "EqualTo", "NotEqualTo", "LessThan", "LessThanOrEqual", "GreaterThan", "GreaterThanOrEqual", "Between",
    "In", "NotIn", "IsNull", "IsNotNull", "StartsWith", "EndsWith", "Contains", "Like",
    "LEAF_CLASSES", "LEAF_OPS", "make_leaf", "check_like_pattern", "like_regex",
]


def _no_predicates(literals: Iterable[Any]) -> tuple:
    out = tuple(literals)
    for v in out:
        if isinstance(v, Predicate):
            raise InvalidPredicateError("a literal cannot be a column or a predicate")
    return out


class UnaryLeaf(Leaf):
    """An operator without literals."""

    arity = 0

    def __init__(self, column: str | None = None) -> None:
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", ())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.column!r})"


class LiteralLeaf(Leaf):
    """An operator with one literal."""

    arity = 1

    def __init__(self, column: str | None, literal: Any) -> None:
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", _no_predicates((literal,)))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.column!r}, {self.literals[0]!r})"


class SetLeaf(Leaf):
    """An operator with one or more literals."""

    arity = None

    def __init__(self, column: str | None, literals: Iterable[Any]) -> None:
        if isinstance(literals, (str, bytes)):
            raise InvalidPredicateError("IN / NOT IN take a list of literals, not a single string")
        lits = _no_predicates(literals)
        if not lits:
            raise InvalidPredicateError(f"operator {self.op!r} takes one or more literal(s), got 0")
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", lits)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.column!r}, {list(self.literals)!r})"


def _refuse_binary_order(leaf: Leaf, dtype: DataType) -> None:
    """Paimon 1.4 orders BINARY / VARBINARY values by *signed* bytes (``X'ff' < X'7f'``), Arrow, Spark and
    Python by unsigned bytes: an ordering comparison on such a column has no one row set, so it is refused
    (review finding: ``bin > X'7f'`` returned ``X'80'`` and ``X'ff'``, rows Java 1.4.2 does not return)."""
    if dtype.is_binary:
        raise UnsupportedFeatureError(
            f"operator {leaf.op!r} on {dtype} column {leaf.column!r} is not supported: Paimon orders bytes signed, "
            "Arrow and Spark unsigned (use =, <>, IN, NOT IN, IS [NOT] NULL)")


class _Ordering(LiteralLeaf):
    """``<``, ``<=``, ``>``, ``>=``: refused on binary columns (:func:`_refuse_binary_order`)."""

    def _check_column_type(self, dtype: DataType) -> None:
        _refuse_binary_order(self, dtype)


class EqualTo(LiteralLeaf):
    op = "eq"

    def negate(self) -> Predicate:
        return NotEqualTo._of(self.column, self.literals)


class NotEqualTo(LiteralLeaf):
    op = "neq"

    def negate(self) -> Predicate:
        return EqualTo._of(self.column, self.literals)


class LessThan(_Ordering):
    op = "lt"

    def negate(self) -> Predicate:
        return GreaterThanOrEqual._of(self.column, self.literals)


class LessThanOrEqual(_Ordering):
    op = "lte"

    def negate(self) -> Predicate:
        return GreaterThan._of(self.column, self.literals)


class GreaterThan(_Ordering):
    op = "gt"

    def negate(self) -> Predicate:
        return LessThanOrEqual._of(self.column, self.literals)


class GreaterThanOrEqual(_Ordering):
    op = "gte"

    def negate(self) -> Predicate:
        return LessThan._of(self.column, self.literals)


class Between(Leaf):
    """``low <= column <= high``."""

    op = "between"
    arity = 2

    def __init__(self, column: str | None, low: Any, high: Any) -> None:
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "literals", _no_predicates((low, high)))

    @property
    def low(self) -> Any:
        return self.literals[0]

    @property
    def high(self) -> Any:
        return self.literals[1]

    def _check_column_type(self, dtype: DataType) -> None:
        _refuse_binary_order(self, dtype)

    def negate(self) -> Predicate:
        return Or((LessThan._of(self.column, (self.low,)), GreaterThan._of(self.column, (self.high,))))

    def __repr__(self) -> str:
        return f"Between({self.column!r}, {self.low!r}, {self.high!r})"


class In(SetLeaf):
    op = "in"

    def negate(self) -> Predicate:
        return NotIn._of(self.column, self.literals)


class NotIn(SetLeaf):
    op = "not_in"

    def negate(self) -> Predicate:
        return In._of(self.column, self.literals)


class IsNull(UnaryLeaf):
    op = "is_null"

    def negate(self) -> Predicate:
        return IsNotNull._of(self.column, ())


class IsNotNull(UnaryLeaf):
    op = "is_not_null"

    def negate(self) -> Predicate:
        return IsNull._of(self.column, ())


class _NoNegation(LiteralLeaf):
    """String matches Paimon's ``Predicate.negate()`` has no negation for.

    Only on CHAR / VARCHAR columns: Paimon casts the value to a string (``ClassCastException`` on any other
    type) while the row filters disagreed - review finding: ``starts_with`` on a BINARY column returned no row
    locally (the literal ``b'a'`` matched as the text ``"b'a'"``) and the rows starting with ``a`` through
    Spark; on an INT column the Arrow filter raised a bare ``ArrowNotImplementedError`` and Spark matched the
    decimal digits."""

    def negate(self) -> Predicate:
        raise InvalidPredicateError(f"operator {self.op!r} cannot be negated")

    def _check_column_type(self, dtype: DataType) -> None:
        if not dtype.is_string:
            raise InvalidPredicateError(f"operator {self.op!r} needs a CHAR / VARCHAR column; "
                                        f"{self.column!r} is {dtype}")


class StartsWith(_NoNegation):
    op = "starts_with"


class EndsWith(_NoNegation):
    op = "ends_with"


class Contains(_NoNegation):
    op = "contains"


class Like(_NoNegation):
    """SQL ``LIKE``: ``%`` any characters, ``_`` one character - but not a line terminator (``\\n``, ``\\r``,
    U+0085, U+2028, U+2029), as Paimon's regular expression ``.`` does.  A pattern holding a backslash is refused:
    Paimon 1.4 reads it as an escape character in patterns holding ``_`` and as a plain character in the others
    (``LIKE 'a\\%'`` is ``starts_with 'a\\'`` there; newer Paimon, Spark and Arrow escape the ``%``)."""

    op = "like"

    def _check_column_type(self, dtype: DataType) -> None:
        super()._check_column_type(dtype)
        check_like_pattern(self.literal)


def check_like_pattern(pattern: Any) -> None:
    """Refuse a LIKE pattern whose rows differ between Paimon versions and engines (see :class:`Like`)."""
    if isinstance(pattern, str) and "\\" in pattern:
        raise UnsupportedFeatureError(f"LIKE pattern {pattern!r}: a backslash is not supported (Paimon 1.4 reads it "
                                      "as an escape only in patterns holding '_', as a plain character in the others)")


#: what ``_`` matches: one code point but a line terminator (Java's regex ``.`` without DOTALL, as Paimon compiles it)
_ONE_CHAR = r"[^\x{A}\x{D}\x{85}\x{2028}\x{2029}]"


def like_regex(pattern: str) -> str:
    """A regular expression, the same in RE2 (Arrow) and ``java.util.regex`` (Spark's ``rlike``), that a
    *search* finds exactly in the values matching the (backslash-free) LIKE ``pattern`` as Paimon does."""
    out = [r"\A"]
    for ch in pattern:
        if ch == "%":
            out.append("(?s:.*)")
        elif ch == "_":
            out.append(_ONE_CHAR)
        elif ch.isascii() and ch.isalnum():
            out.append(ch)
        else:
            out.append(f"\\x{{{ord(ch):X}}}")
    out.append(r"\z")
    return "".join(out)


#: operator name -> leaf class (the operator vocabulary of both JSON forms)
LEAF_CLASSES: dict[str, type[Leaf]] = {cls.op: cls for cls in (
    EqualTo, NotEqualTo, LessThan, LessThanOrEqual, GreaterThan, GreaterThanOrEqual, In, NotIn, Between,
    IsNull, IsNotNull, StartsWith, EndsWith, Contains, Like)}

#: operator name -> number of literals (None = one or more)
LEAF_OPS: dict[str, int | None] = {op: cls.arity for op, cls in LEAF_CLASSES.items()}


def make_leaf(op: str, column: str | None, literals: Iterable[Any] = ()) -> Leaf:
    """The leaf of operator ``op`` (``"eq"``, ``"in"``, ...; see :data:`LEAF_CLASSES`)."""
    cls = LEAF_CLASSES.get(op)
    if cls is None:
        raise InvalidPredicateError(f"unknown predicate operator {op!r}", expected="one of " + ", ".join(LEAF_OPS))
    lits = _no_predicates(literals)
    n = len(lits)
    if (cls.arity is None and n == 0) or (cls.arity is not None and n != cls.arity):
        raise InvalidPredicateError(
            f"operator {op!r} takes {'one or more' if cls.arity is None else cls.arity} literal(s), got {n}")
    return cls._of(column, lits)
