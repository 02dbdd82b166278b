"""Paimon predicates as Spark Column expressions (the residual filter of an index-aware scan).

Spark compares FLOAT / DOUBLE with ``-0.0 = 0.0``; under ``semantics="paimon"`` (``Double.compare``,
:mod:`paimon_codec.expressions.semantics`) a comparison with a zero literal tells the zeros apart by their
sign, read from the value's text (:func:`negative_sign`: Spark's ``atan2`` and ``signum`` both turn -0.0 into
0.0 first, and ``1 / x`` is NULL or an error).
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any

from ..errors import InvalidPredicateError
from ..expressions import leaves
from ..expressions.predicate import And, Leaf, Or
from ..expressions.semantics import SemanticsLike, check_semantics
from ..expressions.visitor import PredicateVisitor, visit
from ..types import RowType
from ..values import Timestamp

__all__ = ["negative_sign", "to_spark_column", "spark_literal"]


def negative_sign(c: Any) -> Any:
    """The Spark column: ``c`` (FLOAT / DOUBLE) has its sign bit set - ``-0.0`` included (``'-0.0'``)."""
    return c.cast("string").startswith("-")


def spark_literal(value: Any, root: str | None = None) -> Any:
    """A Python value Spark compares correctly with the column (DATE days -> date, Timestamp -> datetime)."""
    if isinstance(value, Timestamp):
        dt = value.to_datetime()
        if root == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
            return dt.replace(tzinfo=_dt.timezone.utc)
        return dt
    if root == "DATE" and isinstance(value, int) and not isinstance(value, bool):
        return _dt.date(1970, 1, 1) + _dt.timedelta(days=value)
    return value


def _lit(value: Any, root: str | None):
    """The Spark literal of ``value`` on a column of type root ``root``.

    DATE and TIMESTAMP literals are built from their numbers, never from a Python ``date`` / ``datetime``:
    py4j hands those to Spark through ``java.sql.Date`` / ``Timestamp`` (the Julian calendar before 1582-10-15)
    - review finding: ``ts = TIMESTAMP '1500-03-01 00:00:00'`` selected nothing and ``= '0001-01-01'`` the row
    holding 0001-01-03, and a DATE literal before year 1000 failed with a bare ``IllegalArgumentException``."""
    from pyspark.sql import functions as F

    if isinstance(value, Timestamp):
        micros = value.to_micros()  # floored: _finer_than_micros callers compare it accordingly
        if root == "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
            return F.expr(f"timestamp_micros({micros})")
        try:
            text = value.to_datetime().isoformat()  # proleptic Gregorian text, read by Spark as such
        except (OverflowError, ValueError) as exc:
            raise InvalidPredicateError(f"TIMESTAMP literal {value!r} is outside years 1-9999") from exc
        return F.lit(text).cast("timestamp_ntz" if root == "TIMESTAMP_WITHOUT_TIME_ZONE" else "timestamp")
    if root == "DATE" and isinstance(value, int) and not isinstance(value, bool):
        return F.expr(f"date_from_unix_date({value})")
    return F.lit(spark_literal(value, root))


def _finer_than_micros(value: Any) -> bool:
    """A TIMESTAMP literal with nanoseconds: Spark's timestamps are microseconds, so no value equals it and
    :func:`spark_literal` floors it (``floor < literal < floor + 1 us``)."""
    return isinstance(value, Timestamp) and value.nanos_of_milli % 1000 != 0


class _SparkFilter(PredicateVisitor[Any]):
    """The Spark Column of each operator (Spark applies SQL's three-valued logic itself)."""

    def __init__(self, row_type: RowType, semantics: SemanticsLike = "spark") -> None:
        self.row_type = row_type
        self.semantics = check_semantics(semantics)

    def _paimon_zero(self, leaf: Leaf, literal: Any) -> bool:
        """A ±0.0 literal on a FLOAT / DOUBLE column under ``"paimon"``: Spark's own ``=`` would merge the zeros."""
        return self.semantics == "paimon" and isinstance(literal, float) and literal == 0.0 \
            and leaf.column is not None and self.row_type.field(leaf.column).type.root in ("FLOAT", "DOUBLE")

    @staticmethod
    def _signed_zero(c: Any, negative: bool) -> Any:
        below = negative_sign(c)
        return (c == 0.0) & (below if negative else ~below)

    def _zero_compare(self, c: Any, op: str, literal: float) -> Any:
        """``c op ±0.0`` in ``Double.compare``'s order (``... < -0.0 < 0.0 < ... < NaN``; Spark has NaN greatest)."""
        negative = math.copysign(1.0, literal) < 0
        eq = self._signed_zero(c, negative)
        lt = (c < 0.0) if negative else ((c < 0.0) | self._signed_zero(c, True))
        gt = (c > 0.0) | self._signed_zero(c, False) if negative else (c > 0.0)
        return {"eq": eq, "neq": ~eq, "lt": lt, "lte": lt | eq, "gt": gt, "gte": gt | eq}[op]

    def _column(self, leaf: Leaf) -> tuple[Any, list]:
        """(the Spark column, the literals as Spark literals of its type)."""
        from pyspark.sql import functions as F

        name = leaf.column
        if name is None:
            raise InvalidPredicateError("a table predicate needs column names")
        root = self.row_type.field(name).type.root
        return F.col("`" + name.replace("`", "``") + "`"), [_lit(v, root) for v in leaf.literals]

    def _compare(self, leaf: Leaf, op: str, literal: Any, lit: Any) -> Any:
        """``column op literal`` (``lit``: the literal as a Spark literal), exact for a finer timestamp."""
        from pyspark.sql import functions as F

        c = self._column(leaf)[0]
        if self._paimon_zero(leaf, literal):
            return self._zero_compare(c, op, literal)
        if _finer_than_micros(literal):
            return {"eq": F.lit(False) & c.isNotNull(), "neq": c.isNotNull(), "lt": c <= lit, "lte": c <= lit,
                    "gt": c > lit, "gte": c > lit}[op]
        return {"eq": c == lit, "neq": c != lit, "lt": c < lit, "lte": c <= lit, "gt": c > lit, "gte": c >= lit}[op]

    def _leaf(self, leaf: Leaf, op: str) -> Any:
        return self._compare(leaf, op, leaf.literal, self._column(leaf)[1][0])

    def visit_equal_to(self, leaf: leaves.EqualTo) -> Any:
        return self._leaf(leaf, "eq")

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> Any:
        return self._leaf(leaf, "neq")

    def visit_less_than(self, leaf: leaves.LessThan) -> Any:
        return self._leaf(leaf, "lt")

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> Any:
        return self._leaf(leaf, "lte")

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> Any:
        return self._leaf(leaf, "gt")

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> Any:
        return self._leaf(leaf, "gte")

    def visit_between(self, leaf: leaves.Between) -> Any:
        _, lits = self._column(leaf)
        return self._compare(leaf, "gte", leaf.literals[0], lits[0]) & \
            self._compare(leaf, "lte", leaf.literals[1], lits[1])

    def _set(self, leaf: Leaf) -> tuple[Any, list]:
        """(the column, the Spark literals a value can equal: finer timestamps equal none)."""
        c, lits = self._column(leaf)
        return c, [lit for v, lit in zip(leaf.literals, lits, strict=True) if not _finer_than_micros(v)]

    def _any_equal(self, leaf: Leaf) -> Any:
        """``c IN (...)`` (None: no literal can equal a value), ±0.0 literals apart under ``"paimon"``."""
        c, lits = self._column(leaf)
        plain = [lit for v, lit in zip(leaf.literals, lits, strict=True)
                 if not _finer_than_micros(v) and not self._paimon_zero(leaf, v)]
        terms = [c.isin(*plain)] if plain else []
        terms += [self._zero_compare(c, "eq", v) for v in leaf.literals if self._paimon_zero(leaf, v)]
        if not terms:
            return None
        out = terms[0]
        for t in terms[1:]:
            out = out | t
        return out

    def visit_in(self, leaf: leaves.In) -> Any:
        from pyspark.sql import functions as F

        hit = self._any_equal(leaf)
        return hit if hit is not None else F.lit(False) & self._column(leaf)[0].isNotNull()

    def visit_not_in(self, leaf: leaves.NotIn) -> Any:
        hit = self._any_equal(leaf)
        return ~hit if hit is not None else self._column(leaf)[0].isNotNull()

    def visit_is_null(self, leaf: leaves.IsNull) -> Any:
        return self._column(leaf)[0].isNull()

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> Any:
        return self._column(leaf)[0].isNotNull()

    def visit_starts_with(self, leaf: leaves.StartsWith) -> Any:
        c, lits = self._column(leaf)
        return c.startswith(lits[0])

    def visit_ends_with(self, leaf: leaves.EndsWith) -> Any:
        c, lits = self._column(leaf)
        return c.endswith(lits[0])

    def visit_contains(self, leaf: leaves.Contains) -> Any:
        c, lits = self._column(leaf)
        return c.contains(lits[0])

    def visit_like(self, leaf: leaves.Like) -> Any:
        c, _ = self._column(leaf)
        pattern = leaf.literal
        leaves.check_like_pattern(pattern)
        if not isinstance(pattern, str) or "_" not in pattern:
            return c.like(pattern)  # '%' matches every character in both
        # Spark's LIKE lets '_' match a line terminator, Paimon's does not (review finding: 'a_b' kept 'a\nb')
        return c.rlike(leaves.like_regex(pattern))

    def _compound(self, node: And | Or, is_and: bool) -> Any:
        from pyspark.sql import functions as F

        cols = [visit(c, self) for c in node.children]
        if not cols:
            return F.lit(True)
        out = cols[0]
        for c in cols[1:]:
            out = (out & c) if is_and else (out | c)
        return out

    def visit_and(self, node: And) -> Any:
        return self._compound(node, True)

    def visit_or(self, node: Or) -> Any:
        return self._compound(node, False)


def to_spark_column(pred: Any, row_type: RowType, semantics: SemanticsLike = "spark"):
    """The Spark Column for a predicate tree (``And`` / ``Or`` / leaves), SQL three-valued logic, floats compared
    under ``semantics`` (the scan names its plan's)."""
    return visit(pred, _SparkFilter(row_type, semantics))
