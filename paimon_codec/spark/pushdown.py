"""Spark's pushed filters (``pyspark.sql.datasource.EqualTo``, ``In``, ``Not``, ...) as this library's predicates.

Spark hands a Python data source the conjuncts of a query's filter it could translate (column vs literal,
``IS [NOT] NULL``, ``LIKE 'x%'`` / ``'%x'`` / ``'%x%'``, ``NOT`` of those; never ``OR``) and re-evaluates
the ones the source returns.  :func:`translate` turns one filter into a predicate when the rows it keeps are
exactly the rows Spark's own filter keeps once :func:`paimon_codec.reading.arrow_filter.filter_table` applies it
under ``semantics="spark"`` - and the planner may prune partitions / files / row ranges with it; otherwise it
returns ``None`` and the filter goes back to Spark untouched.  Returned to Spark (never wrong, only slower):

* nested fields (``a.b = 1``) and columns of nested types (ARRAY, MAP, ROW) except ``IS [NOT] NULL``;
* TIMESTAMP(7..9) columns: Spark compares the values cut to microseconds, the files hold nanoseconds (a
  row of ``...001500 ns`` equals ``...001 us`` in Spark, and stats pruning would drop its file);
* CHAR (padded values), BINARY / VARBINARY / BLOB (ordered by bytes in Spark), TIME (an int in Spark),
  BOOLEAN orderings;
* ``NOT (x IN (..., NULL))`` (never true in Spark; returned rather than special-cased).
"""

from __future__ import annotations

from typing import Any

from ..errors import PaimonCodecError
from ..expressions import leaves
from ..expressions.predicate import And, Predicate, and_all, or_all
from ..types import RowType

__all__ = ["translate", "push_filters", "pinned_values"]

_NESTED = ("ARRAY", "MAP", "ROW", "MULTISET")
_NO_VALUE_FILTERS = ("CHAR", "BINARY", "VARBINARY", "BLOB", "TIME_WITHOUT_TIME_ZONE", *_NESTED)
_ORDERINGS: dict[str, Any] = {"GreaterThan": leaves.GreaterThan, "GreaterThanOrEqual": leaves.GreaterThanOrEqual,
              "LessThan": leaves.LessThan, "LessThanOrEqual": leaves.LessThanOrEqual}
#: column types whose ``=`` holds for one stored value only (not FLOAT / DOUBLE: ``0.0 = -0.0``, NaNs; not DECIMAL:
#: its literal is rounded to the scale; not timestamps: zones and precisions)
_ONE_VALUE_EQUALITY = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "BOOLEAN", "DATE", "VARCHAR")
_STRINGS: dict[str, Any] = {"StringStartsWith": leaves.StartsWith, "StringEndsWith": leaves.EndsWith,
            "StringContains": leaves.Contains}


def _column(f: Any, row_type: RowType) -> tuple[str, str] | None:
    """(column name, type root) of a filter on a top-level column of the table, else None."""
    attribute = getattr(f, "attribute", None)
    if attribute is None or len(attribute) != 1 or attribute[0] not in row_type.names:
        return None
    dtype = row_type.field(attribute[0]).type
    return attribute[0], dtype.root


def _nanos(root: str, row_type: RowType, name: str) -> bool:
    t = row_type.field(name).type
    return root.startswith("TIMESTAMP") and (t.precision if t.precision is not None else 6) > 6


def _positive(f: Any, row_type: RowType) -> Predicate | None:
    """The predicate of a filter without ``Not`` (None: not exactly expressible)."""
    kind = type(f).__name__
    found = _column(f, row_type)
    if found is None:
        return None
    name, root = found
    if kind == "IsNull":
        return leaves.IsNull(name)
    if kind == "IsNotNull":
        return leaves.IsNotNull(name)
    if root in _NO_VALUE_FILTERS or _nanos(root, row_type, name):
        return None
    value = f.value
    if kind in ("EqualTo", "EqualNullSafe"):
        if value is None:  # x = NULL is never true; x <=> NULL is x IS NULL
            return leaves.IsNull(name) if kind == "EqualNullSafe" else None
        return leaves.EqualTo(name, value)
    if root == "BOOLEAN" and kind not in ("In",):
        return None
    if kind in _ORDERINGS:
        return None if value is None else _ORDERINGS[kind](name, value)
    if kind == "In":
        values = [v for v in value if v is not None]  # NULL equals no row
        return leaves.In(name, values) if values else None
    if kind in _STRINGS:
        return _STRINGS[kind](name, value) if root == "VARCHAR" and isinstance(value, str) else None
    return None


def translate(f: Any, row_type: RowType) -> Predicate | None:
    """The predicate keeping exactly the rows Spark's filter ``f`` keeps, bound to ``row_type`` (None when
    there is none: the filter stays Spark's)."""
    try:
        if type(f).__name__ == "Not":
            child = f.child
            kind = type(child).__name__
            if kind == "In" and any(v is None for v in child.value):
                return None
            if kind == "EqualNullSafe" and child.value is not None:  # NOT (x <=> v): x IS NULL OR x <> v
                found = _column(child, row_type)
                inner = _positive(child, row_type)
                if found is None or inner is None:
                    return None
                return or_all([leaves.IsNull(found[0]), inner.negate()]).bind(row_type)
            inner = _positive(child, row_type)
            return None if inner is None else inner.negate().bind(row_type)
        pred = _positive(f, row_type)
        return None if pred is None else pred.bind(row_type)
    except PaimonCodecError:  # a literal the column cannot hold, an operator the leaf refuses: Spark's filter
        return None


def push_filters(filters: list[Any], row_type: RowType) -> tuple[Predicate | None, list[Any]]:
    """(the AND of the filters that translate, the filters returned to Spark - the same objects)."""
    pushed, rest = [], []
    for f in filters:
        pred = translate(f, row_type)
        if pred is None:
            rest.append(f)
        else:
            pushed.append(pred)
    return (and_all(pushed) if pushed else None), rest


def pinned_values(predicate: Predicate | None, row_type: RowType) -> dict[str, Any]:
    """The columns ``predicate`` holds to one value on every row it keeps - a top-level ``AND`` conjunct
    ``column = literal`` on a column of a type whose equality holds for one stored value only - and those
    values (the literals as bound to the columns).  A read of such a column returns the literal on every
    kept row, so a reader need not decode it (the scale table's ``cat = 's001'``: the ``cat`` strings of
    200 files, as much work as their ``id`` column); it still reads it where it filters rows itself."""
    if predicate is None:
        return {}
    conjuncts = predicate.children if isinstance(predicate, And) else (predicate,)
    out: dict[str, Any] = {}
    for c in conjuncts:
        if isinstance(c, leaves.EqualTo) and c.column in row_type.names and c.literal is not None \
                and row_type.field(c.column).type.root in _ONE_VALUE_EQUALITY:
            out.setdefault(c.column, c.literal)
    return out
