"""Evaluating predicates against file indexes: Paimon's ``FileIndexPredicate`` and the read-time
deletion-vector step of ``FileIndexEvaluator`` (FORMATS.md §9), made sound.

* A leaf starts from REMAIN and ANDs the answer of every index on its column, stopping as soon as
  the result no longer remains; a column without indexes answers REMAIN.
* AND folds its children with AND, stopping early when not remaining; OR folds with OR.  The
  result algebra (:mod:`.result`) is the sound one, so an OR whose sides are of different kinds
  never drops a matching row (Java 0.9's ``BitmapIndexResultLazy.or`` could).
* FLOAT / DOUBLE leaves are widened first (:mod:`.float_keys`): indexes key floats by their bits,
  while the engines filtering afterwards treat ``-0.0 = 0.0`` (Spark) or ``NaN <> NaN`` (IEEE).
* Timestamp keys are millis (p <= 3) or micros (p > 3): a literal (or a TIMESTAMP(7..9) column
  value) finer than the key collapses onto its neighbours.  Java then answers ``<>`` / ``NOT IN``
  with the complement of the collapsed key's rows, dropping rows that differ below the key's
  precision.  Here such a leaf asks the reader for ``<> v`` OR ``= v`` instead (all rows whose key
  cannot rule them out), and ``<`` / ``>`` become ``<=`` / ``>=`` - sound, and identical to Java
  whenever the collapsed key is absent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pyroaring import BitMap, BitMap64

from ..errors import InvalidPredicateError
from ..expressions.bind import _types_by_name, column_type
from ..expressions.predicate import And, Leaf, Or, Predicate
from ..types import DataType, RowType
from ..values import Timestamp
from .float_keys import FLOAT_ROOTS, widen_float_leaf
from .reader import FileIndexReader
from .result import REMAIN, SKIP, BitmapResult, FileIndexResult

__all__ = [
    "evaluate",
    "evaluate_single",
    "evaluate_with_readers",
    "visit_leaf",
    "apply_deletion_vector",
    "MAX_INDEXED_ROWS",
]

#: Files with more rows than this are not filtered by file indexes (FORMATS.md §9.3 step 1).
MAX_INDEXED_ROWS = 2**31 - 1


class ContainerReader(Protocol):
    """What :func:`evaluate` needs of a container reader (``FileIndexContainerReader``)."""

    @property
    def columns(self) -> Any: ...

    def readers_for(self, column: str, dtype: DataType, options: Any = None) -> list[FileIndexReader]: ...


# ---------------------------------------------------------------------------------------------
# one leaf on one reader


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


def _collapsed_negation(reader: FileIndexReader, op: str, lits: tuple) -> FileIndexResult:
    """``<>`` / ``NOT IN`` when the index key cannot tell the literal(s) from neighbouring values.

    If no row holds a collapsed key, nothing can be mistaken for a literal and the reader's
    complement is exact (Java's answer; rebuilt from IS [NOT] NULL for bitmap readers that
    conservatively said REMAIN).  Otherwise the rows holding the key stay in: ``<> v OR = v``.
    """
    values = list(lits)
    eq = reader.visit_equal(values[0]) if op == "neq" else reader.visit_in(values)
    neq = reader.visit_not_equal(values[0]) if op == "neq" else reader.visit_not_in(values)
    if isinstance(eq, BitmapResult) and not eq.remain():
        if neq is REMAIN and _includes_nulls_in_negation(reader):
            return _all_rows(reader)
        return neq
    return neq.or_(eq)


def visit_leaf(reader: FileIndexReader, leaf: Leaf, dtype: DataType | None = None) -> FileIndexResult:
    """Ask one reader about one (bound) leaf, soundly for collapsed timestamp keys."""
    op, lits = leaf.op, leaf.literals
    if dtype is None:
        dtype = getattr(reader, "dtype", None)
        dtype = dtype if isinstance(dtype, DataType) else None
    if dtype is not None and dtype.root in FLOAT_ROOTS:
        widened = widen_float_leaf(op, lits)
        if widened is None:
            return REMAIN
        op, lits = widened
    if dtype is not None and dtype.root in _TIMESTAMP_ROOTS and _collapses(dtype, lits):
        if op in ("neq", "not_in"):
            return _collapsed_negation(reader, op, lits)
        if op == "lt":
            return reader.visit_lte(lits[0])
        if op == "gt":
            return reader.visit_gte(lits[0])
    if op == "eq":
        return reader.visit_equal(lits[0])
    if op == "neq":
        return reader.visit_not_equal(lits[0])
    if op == "in":
        return reader.visit_in(list(lits))
    if op == "not_in":
        return reader.visit_not_in(list(lits))
    if op == "is_null":
        return reader.visit_is_null()
    if op == "is_not_null":
        return reader.visit_is_not_null()
    if op == "lt":
        return reader.visit_lt(lits[0])
    if op == "lte":
        return reader.visit_lte(lits[0])
    if op == "gt":
        return reader.visit_gt(lits[0])
    if op == "gte":
        return reader.visit_gte(lits[0])
    if op == "between":
        return reader.visit_between(lits[0], lits[1])
    if op == "starts_with":
        return reader.visit_starts_with(lits[0])
    if op == "ends_with":
        return reader.visit_ends_with(lits[0])
    if op == "contains":
        return reader.visit_contains(lits[0])
    if op == "like":
        return reader.visit_like(lits[0])
    return REMAIN


# ---------------------------------------------------------------------------------------------
# trees


def _fold(pred: Predicate, leaf_result: Callable[[Leaf], FileIndexResult]) -> FileIndexResult:
    if isinstance(pred, Leaf):
        return leaf_result(pred)
    if isinstance(pred, And):
        acc: FileIndexResult | None = None
        for child in pred.children:
            r = _fold(child, leaf_result)
            acc = r if acc is None else acc.and_(r)
            if not acc.remain():
                return acc
        return REMAIN if acc is None else acc
    if isinstance(pred, Or):
        acc = None
        for child in pred.children:
            r = _fold(child, leaf_result)
            acc = r if acc is None else acc.or_(r)
        return REMAIN if acc is None else acc
    raise InvalidPredicateError(f"not a predicate: {pred!r}")


def _combine_readers(readers: Sequence[FileIndexReader], leaf: Leaf, dtype: DataType | None) -> FileIndexResult:
    result: FileIndexResult = REMAIN
    for reader in readers:
        result = result.and_(visit_leaf(reader, leaf, dtype))
        if not result.remain():
            break
    return result


def evaluate_with_readers(
    predicate: Predicate,
    readers_of: Callable[[str | None], Sequence[FileIndexReader]],
    schema: RowType | DataType | None = None,
) -> FileIndexResult:
    """Evaluate ``predicate`` with ``readers_of(column)`` giving each column's readers.

    ``predicate`` is bound to ``schema`` first (when given).
    """
    bound = predicate.bind(schema) if schema is not None else predicate
    cache: dict[str | None, Sequence[FileIndexReader]] = {}

    def leaf_result(leaf: Leaf) -> FileIndexResult:
        if leaf.column not in cache:
            cache[leaf.column] = list(readers_of(leaf.column))
        dtype = column_type(schema, leaf.column) if schema is not None else None
        return _combine_readers(cache[leaf.column], leaf, dtype)

    return _fold(bound, leaf_result)


_READER_CACHE_ATTR = "_paimon_codec_reader_cache"


def _reader_cache(container: ContainerReader) -> dict | None:
    cache = getattr(container, _READER_CACHE_ATTR, None)
    if cache is None:
        cache = {}
        try:
            setattr(container, _READER_CACHE_ATTR, cache)
        except AttributeError:  # a reader type that takes no attributes: no reuse
            return None
    return cache


def evaluate(
    predicate: Predicate,
    container_reader: ContainerReader,
    row_type: RowType,
    options: Any = None,
    *,
    reuse_readers: bool = True,
) -> FileIndexResult:
    """Evaluate ``predicate`` against one data file's index container (``FileIndexPredicate``).

    ``row_type`` is the data file's schema: it binds the literals and tells each index its column
    type.  Columns the container does not index answer REMAIN.  ``options`` are handed to
    ``readers_for``.  With ``reuse_readers`` (default) the readers a column needed are kept on the
    container reader, so later evaluations against the same container reuse their parsed heads and
    cached bitmaps (Java builds fresh readers for every predicate).  A predicate already bound to
    this ``row_type`` object (``p.bind(row_type)``, or evaluated with it before) is not coerced again.
    """
    if not isinstance(row_type, RowType):
        raise InvalidPredicateError("evaluate() needs the data file's RowType (see parse_row_type)")
    # a predicate already bound to this row type (the memo ``bind`` keeps) is used as is
    bound = predicate if predicate._bound_to is row_type else predicate.bind(row_type)
    indexed = container_reader.columns
    if type(indexed) is not dict and not isinstance(indexed, (Mapping, set, frozenset)):
        indexed = set(indexed)
    cache = _reader_cache(container_reader) if reuse_readers and options is None else None
    kept = cache is not None
    if cache is None:
        cache = {}  # this evaluation only: one row type, so keyed by column alone
    if isinstance(bound, Leaf):  # the common single-leaf filter: no closure, no fold
        return _leaf_on_container(bound, container_reader, indexed, row_type, options, cache, kept)
    return _fold(bound, lambda leaf: _leaf_on_container(leaf, container_reader, indexed, row_type, options,
                                                        cache, kept))


def _leaf_on_container(leaf: Leaf, container_reader: ContainerReader, indexed: Any, row_type: RowType,
                       options: Any, cache: dict, kept: bool) -> FileIndexResult:
    """One bound leaf against the indexes of its column (REMAIN for a column without any).

    ``cache`` holds the readers already built: for one evaluation (``kept`` false) column -> readers;
    kept on the container reader across evaluations, column -> (type, readers) for the type last
    used plus (column, type) -> readers.
    """
    column = leaf.column
    if column is None or column not in indexed:
        return REMAIN
    dtype = _types_by_name(row_type).get(column) or column_type(row_type, column)
    if dtype is None:  # not reached: column_type of a row type names the column's type or raises
        return REMAIN
    if not kept:
        readers = cache.get(column)
        if readers is None:
            if options is None:
                readers = list(container_reader.readers_for(column, dtype))
            else:
                readers = list(container_reader.readers_for(column, dtype, options))
            cache[column] = readers
        if len(readers) == 1:
            return visit_leaf(readers[0], leaf, dtype)
        return _combine_readers(readers, leaf, dtype)
    # keyed by column, then type (a DataType hashes all its fields: look it up only on a miss)
    hit = cache.get(column)
    if hit is not None and hit[0] is dtype:
        readers = hit[1]
    else:
        readers = cache.get((column, dtype))
        if readers is None:
            if options is None:
                readers = list(container_reader.readers_for(column, dtype))
            else:
                readers = list(container_reader.readers_for(column, dtype, options))
            cache[(column, dtype)] = readers
        cache[column] = (dtype, readers)
    if len(readers) == 1:
        return visit_leaf(readers[0], leaf, dtype)
    return _combine_readers(readers, leaf, dtype)


def evaluate_single(
    predicate: Predicate,
    reader: FileIndexReader,
    dtype: DataType | None = None,
) -> FileIndexResult:
    """Evaluate ``predicate`` against one index payload's reader; every leaf addresses its column.

    With ``dtype`` (the payload's column type) the literals are bound to it first.
    """
    return evaluate_with_readers(predicate, lambda _column: (reader,), dtype)


# ---------------------------------------------------------------------------------------------
# deletion vectors (FileIndexEvaluator, newest code)


def apply_deletion_vector(
    result: FileIndexResult,
    row_count: int,
    deleted_positions: BitMap | BitMap64 | Sequence[int] | None = None,
    *,
    bitmap64: bool = False,
) -> FileIndexResult:
    """Combine a predicate result with the data file's deletion vector (FORMATS.md §9.3).

    selection = [0, row_count) minus the deleted positions; ``result AND selection``; a result equal
    to the selection is REMAIN (the index removes nothing beyond the DV), one that does not remain
    is SKIP, anything else the bitmap.  Files above 2**31 - 1 rows, and 64-bit deletion vectors
    (``bitmap64=True`` or a ``BitMap64``), are not filtered by file indexes at all: REMAIN.
    """
    if row_count < 0:
        raise InvalidPredicateError(f"row count must not be negative, got {row_count}")
    if row_count > MAX_INDEXED_ROWS or bitmap64 or isinstance(deleted_positions, BitMap64):
        return REMAIN
    selection = BitMap()
    selection.add_range(0, row_count)
    if deleted_positions is not None:
        deleted = deleted_positions if isinstance(deleted_positions, BitMap) else BitMap(deleted_positions)
        selection -= deleted
    combined = result.and_(BitmapResult(selection))
    if isinstance(combined, BitmapResult):
        if combined.bitmap == selection:
            return REMAIN
        if not combined.remain():
            return SKIP
        return combined
    return combined if combined.remain() else SKIP
