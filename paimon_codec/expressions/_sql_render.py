"""The SQL-like text form of a predicate tree (:func:`to_sql`; parsed back by :func:`.sql.parse_where`).

A :class:`~.visitor.PredicateVisitor`: depends on the visitor module, not on :mod:`.predicate`.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import re
from typing import TYPE_CHECKING, Any

from ..errors import InvalidPredicateError
from ..values import Timestamp
from .visitor import PredicateVisitor, node_kind, visit

if TYPE_CHECKING:
    from . import leaves
    from .predicate import And, Leaf, Or, Predicate

__all__ = ["to_sql", "quote_identifier", "literal_to_sql", "KEYWORDS"]

#: the words of the grammar (:mod:`.sql`)
KEYWORDS = {"AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "TRUE", "FALSE", "LIKE"}

# ---------------------------------------------------------------------------------------------
# rendering

_BARE = re.compile(r"[^\W\d]\w*")
# words rendered back-quoted: our keywords, literal prefixes, and common SQL reserved words
_QUOTED_WORDS = KEYWORDS | {"DATE", "TIME", "TIMESTAMP", "X", "NAN", "INFINITY", "INF", "SELECT", "FROM",
                             "WHERE", "ORDER", "GROUP", "BY", "LIMIT", "CASE", "WHEN", "THEN", "ELSE",
                             "END", "AS", "ON", "JOIN", "UNION", "ALL", "DISTINCT", "HAVING", "EXISTS"}


def quote_identifier(name: str | None) -> str:
    """A column name as SQL: bare when it can be, else back-quoted."""
    if name is None:
        return "value"
    if _BARE.fullmatch(name) and name.upper() not in _QUOTED_WORDS:
        return name
    return "`" + name.replace("`", "``") + "`"


def literal_to_sql(value: Any) -> str:
    """A Python literal as SQL text that :func:`parse_where` reads back to an equal value."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        r = repr(value)
        return r if ("e" in r or "E" in r) else r + "E0"
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            raise InvalidPredicateError(f"cannot write {value!r} as SQL")
        s = format(value, "f")
        return s if "." in s else s + ".0"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, (bytes, bytearray)):
        return "X'" + bytes(value).hex() + "'"
    if isinstance(value, Timestamp):
        return f"TIMESTAMP '{_timestamp_text(value)}'"
    if isinstance(value, _dt.datetime):
        return f"TIMESTAMP '{_timestamp_text(Timestamp.from_datetime(value))}'"
    if isinstance(value, _dt.date):
        return f"DATE '{value.isoformat()}'"
    if isinstance(value, _dt.time):
        return f"TIME '{value.isoformat()}'"
    raise InvalidPredicateError(f"cannot write literal {value!r} as SQL")


def _timestamp_text(ts: Timestamp) -> str:
    """``yyyy-mm-dd hh:mm:ss[.fffffffff]`` (4-digit years; years 1..9999)."""
    try:
        d = ts.to_datetime()
    except (OverflowError, ValueError) as exc:
        raise InvalidPredicateError(f"timestamp {ts!r} is outside years 1..9999") from exc
    frac = f"{(ts.millis % 1000) * 1_000_000 + ts.nanos_of_milli:09d}".rstrip("0")
    return (f"{d.year:04d}-{d.month:02d}-{d.day:02d} {d.hour:02d}:{d.minute:02d}:{d.second:02d}"
            + ("." + frac if frac else ""))


class _SqlRenderer(PredicateVisitor[str]):
    @staticmethod
    def _cmp(leaf: Leaf, sign: str) -> str:
        return f"{quote_identifier(leaf.column)} {sign} {literal_to_sql(leaf.literal)}"

    def visit_equal_to(self, leaf: leaves.EqualTo) -> str:
        return self._cmp(leaf, "=")

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> str:
        return self._cmp(leaf, "<>")

    def visit_less_than(self, leaf: leaves.LessThan) -> str:
        return self._cmp(leaf, "<")

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> str:
        return self._cmp(leaf, "<=")

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> str:
        return self._cmp(leaf, ">")

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> str:
        return self._cmp(leaf, ">=")

    @staticmethod
    def _set(leaf: Leaf, word: str) -> str:
        body = ", ".join(literal_to_sql(v) for v in leaf.literals)
        return f"{quote_identifier(leaf.column)} {word} ({body})"

    def visit_in(self, leaf: leaves.In) -> str:
        return self._set(leaf, "IN")

    def visit_not_in(self, leaf: leaves.NotIn) -> str:
        return self._set(leaf, "NOT IN")

    def visit_between(self, leaf: leaves.Between) -> str:
        return (f"{quote_identifier(leaf.column)} BETWEEN {literal_to_sql(leaf.literals[0])} "
                f"AND {literal_to_sql(leaf.literals[1])}")

    def visit_is_null(self, leaf: leaves.IsNull) -> str:
        return f"{quote_identifier(leaf.column)} IS NULL"

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> str:
        return f"{quote_identifier(leaf.column)} IS NOT NULL"

    def visit_starts_with(self, leaf: leaves.StartsWith) -> str:
        return f"{quote_identifier(leaf.column)} LIKE {literal_to_sql(str(leaf.literal) + '%')}"

    def visit_like(self, leaf: leaves.Like) -> str:
        return f"{quote_identifier(leaf.column)} LIKE {literal_to_sql(leaf.literal)}"

    def visit_ends_with(self, leaf: leaves.EndsWith) -> str:
        raise InvalidPredicateError(f"operator {leaf.op!r} has no SQL form")

    def visit_contains(self, leaf: leaves.Contains) -> str:
        raise InvalidPredicateError(f"operator {leaf.op!r} has no SQL form")

    def visit_and(self, node: And) -> str:
        return self._compound(node, " AND ")

    def visit_or(self, node: Or) -> str:
        return self._compound(node, " OR ")

    def _compound(self, node: And | Or, word: str) -> str:
        if not node.children:
            raise InvalidPredicateError("an empty AND/OR has no SQL form")
        parts = []
        for c in node.children:
            s = visit(c, self)
            # an OR inside an AND needs parentheses; nested nodes of the same kind keep theirs so
            # the tree shape survives a round trip
            kind = node_kind(c)
            if kind == "or" or (kind == "and" and word == " AND "):
                s = f"({s})"
            parts.append(s)
        return word.join(parts)


_RENDERER = _SqlRenderer()


def to_sql(pred: Predicate) -> str:
    """Render a predicate as text that :func:`~.sql.parse_where` parses back to an equal predicate."""
    return visit(pred, _RENDERER)
