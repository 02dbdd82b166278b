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


_CMP_SQL = {"eq": "=", "neq": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}


def _leaf_sql(leaf: Leaf) -> str:
    c = quote_identifier(leaf.column)
    op = leaf.op
    if op in _CMP_SQL:
        return f"{c} {_CMP_SQL[op]} {literal_to_sql(leaf.literal)}"
    if op in ("in", "not_in"):
        body = ", ".join(literal_to_sql(v) for v in leaf.literals)
        return f"{c} {'NOT IN' if op == 'not_in' else 'IN'} ({body})"
    if op == "between":
        return f"{c} BETWEEN {literal_to_sql(leaf.literals[0])} AND {literal_to_sql(leaf.literals[1])}"
    if op == "is_null":
        return f"{c} IS NULL"
    if op == "is_not_null":
        return f"{c} IS NOT NULL"
    if op == "starts_with":
        return f"{c} LIKE {literal_to_sql(str(leaf.literal) + '%')}"
    if op == "like":
        return f"{c} LIKE {literal_to_sql(leaf.literal)}"
    raise InvalidPredicateError(f"operator {op!r} has no SQL form")


class _SqlRenderer(PredicateVisitor[str]):
    def visit_leaf(self, leaf: Leaf) -> str:
        return _leaf_sql(leaf)

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
