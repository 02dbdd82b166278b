"""Evaluating predicates against file indexes: Paimon's ``FileIndexPredicate`` and the read-time
deletion-vector step of ``FileIndexEvaluator`` (FORMATS.md §9), made sound.

* A leaf starts from REMAIN and ANDs the answer of every index on its column, stopping as soon as
  the result no longer remains; a column without indexes answers REMAIN.
* AND folds its children with AND, stopping early when not remaining; OR folds with OR.  The
  result algebra (:mod:`.result`) is the sound one, so an OR whose sides are of different kinds
  never drops a matching row (Java 0.9's ``BitmapIndexResultLazy.or`` could).
* One leaf on one reader (float widening, collapsed timestamp keys) is :mod:`.ask_reader`.
* ``semantics="paimon"`` (the default) answers as Paimon's Java ``FileIndexPredicate`` does, float leaves
  asked as written; the table layer asks with ``semantics="spark"`` for a Spark read, which widens them
  (:mod:`.float_keys`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pyroaring import BitMap, BitMap64

from ..errors import InvalidPredicateError
from ..expressions.bind import _types_by_name, column_type
from ..expressions.predicate import And, Leaf, Or, Predicate
from ..expressions.semantics import SemanticsLike, SemanticsName, check_semantics
from ..types import DataType, RowType
from .ask_reader import ReaderAsker, ask, askers, visit_leaf
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


#: per-index-type reader options (``{"bitmap": {...}}``) or one mapping for every index type
IndexReadOptions = Mapping[str, Mapping[str, Any]] | Mapping[str, Any]


class ContainerReader(Protocol):
    """What :func:`evaluate` needs of a container reader (``FileIndexContainerReader``)."""

    @property
    def columns(self) -> Any: ...

    def readers_for(self, column: str, dtype: DataType,
                    options: IndexReadOptions | None = None) -> list[FileIndexReader]: ...


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


def _combine_readers(readers: Sequence[ReaderAsker], leaf: Leaf, dtype: DataType | None,
                     semantics: SemanticsName = "paimon") -> FileIndexResult:
    result: FileIndexResult = REMAIN
    for reader in readers:
        result = result.and_(ask(reader, leaf, dtype, semantics))
        if not result.remain():
            break
    return result


def evaluate_with_readers(
    predicate: Predicate,
    readers_of: Callable[[str | None], Sequence[FileIndexReader]],
    schema: RowType | DataType | None = None,
    semantics: SemanticsLike = "paimon",
) -> FileIndexResult:
    """Evaluate ``predicate`` with ``readers_of(column)`` giving each column's readers.

    ``predicate`` is bound to ``schema`` first (when given); ``semantics`` as in :func:`evaluate`.
    """
    name = check_semantics(semantics)
    bound = predicate.bind(schema) if schema is not None else predicate
    cache: dict[str | None, Sequence[ReaderAsker]] = {}

    def leaf_result(leaf: Leaf) -> FileIndexResult:
        if leaf.column not in cache:
            cache[leaf.column] = askers(readers_of(leaf.column))
        dtype = column_type(schema, leaf.column) if schema is not None else None
        return _combine_readers(cache[leaf.column], leaf, dtype, name)

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
    options: IndexReadOptions | None = None,
    *,
    reuse_readers: bool = True,
    semantics: SemanticsLike = "paimon",
) -> FileIndexResult:
    """Evaluate ``predicate`` against one data file's index container (``FileIndexPredicate``).

    ``row_type`` is the data file's schema: it binds the literals and tells each index its column
    type.  Columns the container does not index answer REMAIN.  ``options`` are handed to
    ``readers_for``.  With ``reuse_readers`` (default) the readers a column needed are kept on the
    container reader, so later evaluations against the same container reuse their parsed heads and
    cached bitmaps (Java builds fresh readers for every predicate).  A predicate already bound to
    this ``row_type`` object (``p.bind(row_type)``, or evaluated with it before) is not coerced again.

    ``semantics="paimon"`` (default) gives Java's answer; ``"spark"`` one holding every row Spark SQL's
    comparison selects (FLOAT / DOUBLE leaves widened: ``-0.0 = 0.0``), for a table read under Spark.
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
    name = check_semantics(semantics)
    if isinstance(bound, Leaf):  # the common single-leaf filter: no closure, no fold
        return _leaf_on_container(bound, container_reader, indexed, row_type, options, cache, kept, name)
    return _fold(bound, lambda leaf: _leaf_on_container(leaf, container_reader, indexed, row_type, options,
                                                        cache, kept, name))


def _leaf_on_container(leaf: Leaf, container_reader: ContainerReader, indexed: Any, row_type: RowType,
                       options: Any, cache: dict, kept: bool, semantics: SemanticsName = "paimon") -> FileIndexResult:
    """One bound leaf against the indexes of its column (REMAIN for a column without any).

    ``cache`` holds the readers already built (each in its :class:`~.ask_reader.ReaderAsker`): for one
    evaluation (``kept`` false) column -> readers; kept on the container reader across evaluations,
    column -> (type, readers) for the type last used plus (column, type) -> readers.
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
                readers = askers(container_reader.readers_for(column, dtype))
            else:
                readers = askers(container_reader.readers_for(column, dtype, options))
            cache[column] = readers
        if len(readers) == 1:
            return ask(readers[0], leaf, dtype, semantics)
        return _combine_readers(readers, leaf, dtype, semantics)
    # keyed by column, then type (a DataType hashes all its fields: look it up only on a miss)
    hit = cache.get(column)
    if hit is not None and hit[0] is dtype:
        readers = hit[1]
    else:
        readers = cache.get((column, dtype))
        if readers is None:
            if options is None:
                readers = askers(container_reader.readers_for(column, dtype))
            else:
                readers = askers(container_reader.readers_for(column, dtype, options))
            cache[(column, dtype)] = readers
        cache[column] = (dtype, readers)
    if len(readers) == 1:
        return ask(readers[0], leaf, dtype, semantics)
    return _combine_readers(readers, leaf, dtype, semantics)


def kept_askers(container_reader: ContainerReader, column: str, dtype: DataType) -> Sequence[ReaderAsker]:
    """The askers of ``column``'s readers that :func:`evaluate` keeps on ``container_reader`` (built and kept
    now if no evaluation built them yet): asking them again reuses the bytes and heads they already read."""
    cache = _reader_cache(container_reader)
    if cache is None:
        return askers(container_reader.readers_for(column, dtype))
    hit = cache.get(column)
    if hit is not None and hit[0] is dtype:
        return hit[1]
    readers = cache.get((column, dtype))
    if readers is None:
        readers = cache[(column, dtype)] = askers(container_reader.readers_for(column, dtype))
    return readers


def evaluate_single(
    predicate: Predicate,
    reader: FileIndexReader,
    dtype: DataType | None = None,
    semantics: SemanticsLike = "paimon",
) -> FileIndexResult:
    """Evaluate ``predicate`` against one index payload's reader; every leaf addresses its column.

    With ``dtype`` (the payload's column type) the literals are bound to it first; ``semantics`` as in
    :func:`evaluate`.
    """
    return evaluate_with_readers(predicate, lambda _column: (reader,), dtype, semantics)


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
