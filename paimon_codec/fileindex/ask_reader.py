"""One leaf asked of one file-index reader: the operator's question, made sound for float and timestamp keys.

* FLOAT / DOUBLE leaves are asked as written under ``semantics="paimon"`` (the default: indexes key
  floats by their bits, as Paimon's ``Double.compare`` tells them apart - Java's answer), and widened
  first under ``semantics="spark"`` (:mod:`.float_keys`: Spark has ``-0.0 = 0.0``).
* Timestamp keys are millis (p <= 3) or micros (p > 3): a literal (or a TIMESTAMP(7..9) column
  value) finer than the key collapses onto its neighbours.  Java then answers ``<>`` / ``NOT IN``
  with the complement of the collapsed key's rows, dropping rows that differ below the key's
  precision.  Here such a leaf asks the reader for ``<> v`` OR ``= v`` instead (all rows whose key
  cannot rule them out), and ``<`` / ``>`` become ``<=`` / ``>=`` - sound, and identical to Java
  whenever the collapsed key is absent.

The question of each operator is one method of a :class:`~paimon_codec.expressions.visitor.LeafVisitor`,
so an operator without one is a ``TypeError``, not a silent REMAIN.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..expressions import leaves
from ..expressions.predicate import Leaf
from ..expressions.semantics import SemanticsName
from ..expressions.visitor import LeafVisitor
from ..expressions.visitor import visit_leaf as dispatch
from ..types import DataType
from ..values import Timestamp
from .float_keys import FLOAT_ROOTS, widen_float_leaf
from .reader import FileIndexReader
from .result import REMAIN, BitmapResult, FileIndexResult

__all__ = ["ReaderAsker", "ask", "askers", "visit_leaf"]


_TIMESTAMP_ROOTS = frozenset(("TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE"))  # DataType.is_timestamp


def _key_precision_nanos(dtype: DataType) -> int:
    """Nanoseconds per unit of a timestamp column's index key (millis for p <= 3, else micros)."""
    return 1_000_000 if (dtype.precision if dtype.precision is not None else 6) <= 3 else 1_000


def _collapses(dtype: DataType | None, literals: Sequence[Any]) -> bool:
    """True when an index key of ``dtype`` cannot tell a literal apart from other values."""
    if dtype is None or not dtype.is_timestamp:
        return False
    p = dtype.precision if dtype.precision is not None else 6
    if p > 6:
        return True  # column values themselves lose sub-microsecond digits in the key
    unit = _key_precision_nanos(dtype)
    for v in literals:
        if isinstance(v, Timestamp) and v.to_nanos() % unit:
            return True
    return False


def _all_rows(reader: FileIndexReader) -> FileIndexResult:
    """Every row, nulls included, as a bitmap when the reader can say so (IS NULL OR IS NOT NULL)."""
    return reader.visit_is_null().or_(reader.visit_is_not_null())


def _includes_nulls_in_negation(reader: FileIndexReader) -> bool:
    """Bitmap indexes answer <> / NOT IN with the complement over all rows, nulls included (§12.8)."""
    try:
        from .bitmap import BitmapIndexReader
    except ImportError:  # pragma: no cover - bitmap module missing from a partial build
        return False
    return isinstance(reader, BitmapIndexReader)


def _collapsed_negation(reader: FileIndexReader, leaf: leaves.NotEqualTo | leaves.NotIn) -> FileIndexResult:
    """``<>`` / ``NOT IN`` when the index key cannot tell the literal(s) from neighbouring values.

    If no row holds a collapsed key, nothing can be mistaken for a literal and the reader's
    complement is exact (Java's answer; rebuilt from IS [NOT] NULL for bitmap readers that
    conservatively said REMAIN).  Otherwise the rows holding the key stay in: ``<> v OR = v``.
    """
    values = list(leaf.literals)
    if isinstance(leaf, leaves.NotEqualTo):
        eq, neq = reader.visit_equal(values[0]), reader.visit_not_equal(values[0])
    else:
        eq, neq = reader.visit_in(values), reader.visit_not_in(values)
    if isinstance(eq, BitmapResult) and not eq.remain():
        if neq is REMAIN and _includes_nulls_in_negation(reader):
            return _all_rows(reader)
        return neq
    return neq.or_(eq)


class ReaderAsker(LeafVisitor[FileIndexResult]):
    """One leaf as the question a :class:`FileIndexReader` answers.

    ``collapsed``: the column is a timestamp whose index key cannot tell a literal from its
    neighbours (:func:`_collapses`): ``<>`` / ``NOT IN`` keep the collapsed key's rows and ``<`` / ``>``
    are asked as ``<=`` / ``>=``.
    """

    __slots__ = ("reader", "collapsed")

    def __init__(self, reader: FileIndexReader, collapsed: bool = False) -> None:
        self.reader = reader
        self.collapsed = collapsed

    def visit_equal_to(self, leaf: leaves.EqualTo) -> FileIndexResult:
        return self.reader.visit_equal(leaf.literals[0])

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> FileIndexResult:
        if self.collapsed:
            return _collapsed_negation(self.reader, leaf)
        return self.reader.visit_not_equal(leaf.literals[0])

    def visit_in(self, leaf: leaves.In) -> FileIndexResult:
        return self.reader.visit_in(list(leaf.literals))

    def visit_not_in(self, leaf: leaves.NotIn) -> FileIndexResult:
        if self.collapsed:
            return _collapsed_negation(self.reader, leaf)
        return self.reader.visit_not_in(list(leaf.literals))

    def visit_is_null(self, leaf: leaves.IsNull) -> FileIndexResult:
        return self.reader.visit_is_null()

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> FileIndexResult:
        return self.reader.visit_is_not_null()

    def visit_less_than(self, leaf: leaves.LessThan) -> FileIndexResult:
        if self.collapsed:
            return self.reader.visit_lte(leaf.literals[0])
        return self.reader.visit_lt(leaf.literals[0])

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> FileIndexResult:
        return self.reader.visit_lte(leaf.literals[0])

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> FileIndexResult:
        if self.collapsed:
            return self.reader.visit_gte(leaf.literals[0])
        return self.reader.visit_gt(leaf.literals[0])

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> FileIndexResult:
        return self.reader.visit_gte(leaf.literals[0])

    def visit_between(self, leaf: leaves.Between) -> FileIndexResult:
        return self.reader.visit_between(leaf.literals[0], leaf.literals[1])

    def visit_starts_with(self, leaf: leaves.StartsWith) -> FileIndexResult:
        return self.reader.visit_starts_with(leaf.literals[0])

    def visit_ends_with(self, leaf: leaves.EndsWith) -> FileIndexResult:
        return self.reader.visit_ends_with(leaf.literals[0])

    def visit_contains(self, leaf: leaves.Contains) -> FileIndexResult:
        return self.reader.visit_contains(leaf.literals[0])

    def visit_like(self, leaf: leaves.Like) -> FileIndexResult:
        return self.reader.visit_like(leaf.literals[0])


def ask(asker: ReaderAsker, leaf: Leaf, dtype: DataType | None,
        semantics: SemanticsName = "paimon") -> FileIndexResult:
    """Ask ``asker``'s reader about one (bound) leaf on a column of type ``dtype``.

    ``semantics``: whose rows the answer must hold (:mod:`paimon_codec.expressions.semantics`) -
    ``"paimon"`` asks as Java's ``FileIndexPredicate`` does, ``"spark"`` widens float leaves first."""
    if dtype is not None:
        root = dtype.root
        if root in FLOAT_ROOTS:
            if semantics == "spark":
                leaf = widen_float_leaf(leaf)
        elif root in _TIMESTAMP_ROOTS and _collapses(dtype, leaf.literals):
            return dispatch(leaf, ReaderAsker(asker.reader, True))
    return dispatch(leaf, asker)


def askers(readers: Iterable[FileIndexReader]) -> list[ReaderAsker]:
    """One :class:`ReaderAsker` per reader (built once, kept with the readers a container caches)."""
    return [ReaderAsker(r) for r in readers]


def visit_leaf(reader: FileIndexReader, leaf: Leaf, dtype: DataType | None = None,
               semantics: SemanticsName = "paimon") -> FileIndexResult:
    """Ask one reader about one (bound) leaf, soundly for collapsed timestamp keys (see :func:`ask`)."""
    if dtype is None:
        dtype = getattr(reader, "dtype", None)
        dtype = dtype if isinstance(dtype, DataType) else None
    return ask(ReaderAsker(reader), leaf, dtype, semantics)
