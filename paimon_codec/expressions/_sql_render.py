"""The SQL-like text form of a predicate tree (:func:`render_sql`; parsed back by :func:`.sql.parse_where`).

Reads a tree by its structure only - a node's ``kind`` (``"leaf"``, ``"and"``, ``"or"``), a leaf's ``op``,
``column`` and ``literals``, a compound's ``children`` - so it imports no predicate module: :mod:`.predicate`
uses it for ``Predicate.to_sql()`` and the import arrows run one way.  Every operator of :mod:`.leaves` has a
form here or is refused in one line (``tests/test_expressions_visitor.py`` round-trips each one).
"""

from __future__ import annotations

import datetime as _dt
import decimal
import math
import re
from typing import Any

from ..errors import InvalidPredicateError
from ..values import Timestamp

__all__ = ["render_sql", "quote_identifier", "literal_to_sql", "KEYWORDS"]

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


#: leaf operator -> the SQL between its column and its literal(s)
_COMPARISONS = {"eq": "=", "neq": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">="}
_SETS = {"in": "IN", "not_in": "NOT IN"}
_UNARY = {"is_null": "IS NULL", "is_not_null": "IS NOT NULL"}
#: operators with no SQL form (the grammar of :mod:`.sql` cannot say them)
NO_SQL_FORM = frozenset({"ends_with", "contains"})


def _leaf_sql(leaf: Any) -> str:
    op, column = leaf.op, quote_identifier(leaf.column)
    if op in _COMPARISONS:
        return f"{column} {_COMPARISONS[op]} {literal_to_sql(leaf.literals[0])}"
    if op in _SETS:
        return f"{column} {_SETS[op]} ({', '.join(literal_to_sql(v) for v in leaf.literals)})"
    if op in _UNARY:
        return f"{column} {_UNARY[op]}"
    if op == "between":
        return f"{column} BETWEEN {literal_to_sql(leaf.literals[0])} AND {literal_to_sql(leaf.literals[1])}"
    if op == "starts_with":
        return f"{column} LIKE {literal_to_sql(str(leaf.literals[0]) + '%')}"
    if op == "like":
        return f"{column} LIKE {literal_to_sql(leaf.literals[0])}"
    if op in NO_SQL_FORM:
        raise InvalidPredicateError(f"operator {op!r} has no SQL form")
    raise InvalidPredicateError(f"not a predicate: {leaf!r}")


def render_sql(pred: Any) -> str:
    """A predicate node as text that :func:`~.sql.parse_where` parses back to an equal predicate
    (typed as :func:`.sql.to_sql`)."""
    kind = getattr(pred, "kind", None)
    if kind == "leaf":
        return _leaf_sql(pred)
    if kind not in ("and", "or"):
        raise InvalidPredicateError(f"not a predicate: {pred!r}")
    if not pred.children:
        raise InvalidPredicateError("an empty AND/OR has no SQL form")
    parts = []
    for c in pred.children:
        s = render_sql(c)
        # an OR inside an AND needs parentheses; nested nodes of the same kind keep theirs so the tree
        # shape survives a round trip
        if c.kind == "or" or (c.kind == "and" and kind == "and"):
            s = f"({s})"
        parts.append(s)
    return (" AND " if kind == "and" else " OR ").join(parts)
