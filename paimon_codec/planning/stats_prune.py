"""Stats pruning: drop a data file when its manifest value statistics prove no row of it matches.

Every data file's manifest entry carries ``_VALUE_STATS``: a min row, a max row (serialized BinaryRows)
and null counts, one per column of the file's *own* schema (``_SCHEMA_ID``), or - when
``_VALUE_STATS_COLS`` is set (``metadata.stats-dense-store``) - per listed column only.  Paimon (and its
Spark connector) drops files by them before opening any file index; so does the planner, through
:class:`StatsPruner`, before a file's index and deletion vector are judged.

What the statistics mean (Paimon's ``SimpleStats`` and its stats modes, as Java 1.4, 0.9, pypaimon 2.x
and :mod:`paimon_codec.writing.stats` write them):

* a null min / max / null count is *unknown* (mode ``none``; ``counts`` keeps null counts only; a bound
  a writer could not form, e.g. the max of a string that ``truncate(N)`` cannot cut, or binary columns);
* ``truncate(N)`` (Java's default ``truncate(16)``) cuts strings: the min becomes a prefix of the true
  min (a lower bound) and the max a prefix with its last code point incremented (an upper bound).  Every
  test below therefore treats min / max as *bounds* (``min <= every value <= max``), never as values
  that occur, which is exact for untruncated stats and still right for truncated ones;
* null count == row count: every value is NULL, so every operator but ``IS NULL`` is false on every row.

Bounds are used only where the comparison is exact and ordered the same in Paimon and Python: integers,
DATE, DECIMAL, BOOLEAN and VARCHAR (UTF-8 byte order = code point order).  FLOAT / DOUBLE (pyarrow's
and Parquet's min / max skip NaN, which Paimon orders above every number; -0.0 vs 0.0), timestamps,
TIME, CHAR, binary and nested types keep only their null counts.

Where it is not provably safe nothing is pruned: primary-key tables (value stats describe rows before
the merge) and data-evolution tables (files hold column subsets) are not pruned at all (the caller
decides, :func:`stats_prunable`); a column whose field id the file's schema lacks, or holds with another
type, is unknown; stats whose shape does not match the file's schema are ignored (logged).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..binary_row import BinaryRowCodec
from ..errors import PaimonCodecError
from ..expressions import leaves
from ..expressions.predicate import And, Leaf, Or
from ..expressions.visitor import PredicateVisitor, visit
from ..table.manifest import DataFileMeta
from ..table.schema import TableSchema
from ..types import DataType, Field
from .data_evolution import is_data_evolution_table

__all__ = ["ColumnStats", "StatsPruner", "stats_prunable"]

log = logging.getLogger(__name__)

#: type roots whose min / max compare exactly in Python as in Paimon
_BOUNDED_ROOTS = frozenset({"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "DECIMAL", "BOOLEAN",
                            "VARCHAR"})
#: stand-in type for the stats fields whose bounds are not used: any field's 8-byte slot reads as one
_PLACEHOLDER = DataType("BIGINT")

# Decoded stats rows by their bytes: every plan of a table decodes the same manifest stats again (~20 us a
# file).  Keyed by the codec object (one per field-type tuple; the key holds it, so it is never another
# codec's) and the two BinaryRows' bytes - bytes that differ never share an entry; values are immutable.
_CODECS: dict[tuple[DataType, ...], BinaryRowCodec] = {}
_DECODED: dict[tuple[BinaryRowCodec, bytes, bytes], tuple[tuple, tuple]] = {}
_DECODED_MAX = 1 << 16


def _codec_of(types: tuple[DataType, ...]) -> BinaryRowCodec:
    codec = _CODECS.get(types)
    if codec is None:
        codec = BinaryRowCodec(types)
        if len(_CODECS) < 1024:  # beyond: a fresh codec per plan, its rows simply not shared
            _CODECS[types] = codec
    return codec


def stats_prunable(schema: TableSchema) -> bool:
    """Whether files of a table with this schema may be pruned by value stats (append tables only)."""
    return not schema.is_primary_key_table and not is_data_evolution_table(schema)


@dataclass(frozen=True)
class ColumnStats:
    """One column's statistics in one file: bounds (``None``: unknown), null count, row count."""

    lo: Any
    hi: Any
    nulls: int | None
    rows: int

    @property
    def all_null(self) -> bool:
        return self.nulls is not None and self.nulls == self.rows


def _same_type(a: DataType, b: DataType) -> bool:
    """Equal types up to nullability (a file column of another type is read through a cast)."""
    return (a.root, a.precision, a.scale, a.length, a.children, a.field_names) == \
        (b.root, b.precision, b.scale, b.length, b.children, b.field_names)


def _bounded(t: DataType) -> bool:
    return t.root in _BOUNDED_ROOTS


class _MayMatch(PredicateVisitor[bool]):
    """False only when the stats prove that the predicate is true for no row of the file."""

    def __init__(self, column: Callable[[str], ColumnStats | None]) -> None:
        self.column = column

    def _stats(self, leaf: Leaf) -> ColumnStats | None:
        return None if leaf.column is None else self.column(leaf.column)

    def _compare(self, leaf: Leaf, test: Callable[[ColumnStats], bool]) -> bool:
        """A comparison leaf: never true on NULL, so an all-NULL column matches nothing; else ``test``
        (False = provably no match).  A NULL literal or an incomparable value stays "may match"."""
        s = self._stats(leaf)
        if s is None:
            return True
        if s.all_null:
            return False
        if any(v is None for v in leaf.literals):
            return True
        try:
            return bool(test(s))
        except TypeError:
            return True

    @staticmethod
    def _may_equal(s: ColumnStats, v: Any) -> bool:
        return not ((s.lo is not None and v < s.lo) or (s.hi is not None and v > s.hi))

    def visit_equal_to(self, leaf: leaves.EqualTo) -> bool:
        return self._compare(leaf, lambda s: self._may_equal(s, leaf.literal))

    def visit_not_equal_to(self, leaf: leaves.NotEqualTo) -> bool:
        # lo == hi bounds every non-null value to that one value
        return self._compare(leaf, lambda s: not (s.lo is not None and s.lo == s.hi and s.lo == leaf.literal))

    def visit_less_than(self, leaf: leaves.LessThan) -> bool:
        return self._compare(leaf, lambda s: s.lo is None or s.lo < leaf.literal)

    def visit_less_than_or_equal(self, leaf: leaves.LessThanOrEqual) -> bool:
        return self._compare(leaf, lambda s: s.lo is None or s.lo <= leaf.literal)

    def visit_greater_than(self, leaf: leaves.GreaterThan) -> bool:
        return self._compare(leaf, lambda s: s.hi is None or s.hi > leaf.literal)

    def visit_greater_than_or_equal(self, leaf: leaves.GreaterThanOrEqual) -> bool:
        return self._compare(leaf, lambda s: s.hi is None or s.hi >= leaf.literal)

    def visit_between(self, leaf: leaves.Between) -> bool:
        low, high = leaf.literals
        return self._compare(leaf, lambda s: (s.hi is None or s.hi >= low) and (s.lo is None or s.lo <= high))

    def visit_in(self, leaf: leaves.In) -> bool:
        return self._compare(leaf, lambda s: any(self._may_equal(s, v) for v in leaf.literals))

    def visit_not_in(self, leaf: leaves.NotIn) -> bool:
        return self._compare(leaf, lambda s: not (s.lo is not None and s.lo == s.hi and s.lo in leaf.literals))

    def visit_is_null(self, leaf: leaves.IsNull) -> bool:
        s = self._stats(leaf)
        return s is None or s.nulls is None or s.nulls > 0

    def visit_is_not_null(self, leaf: leaves.IsNotNull) -> bool:
        s = self._stats(leaf)
        return s is None or not s.all_null

    @staticmethod
    def _may_start_with(s: ColumnStats, prefix: Any) -> bool:
        """Cutting to ``len(prefix)`` keeps the order (``a <= b`` implies ``a[:k] <= b[:k]``), so every
        value's first ``k`` characters lie within the cut bounds."""
        if not isinstance(prefix, str):
            return True
        k = len(prefix)
        if s.lo is not None and s.lo[:k] > prefix:
            return False
        return not (s.hi is not None and s.hi[:k] < prefix)

    def visit_starts_with(self, leaf: leaves.StartsWith) -> bool:
        return self._compare(leaf, lambda s: self._may_start_with(s, leaf.literal))

    def visit_like(self, leaf: leaves.Like) -> bool:
        """A match starts with the pattern's characters before its first wildcard (patterns with an
        escape character are left undecided)."""
        pattern = leaf.literal
        if not isinstance(pattern, str) or "\\" in pattern:
            return self._compare(leaf, lambda s: True)
        cut = min((i for i in (pattern.find("%"), pattern.find("_")) if i >= 0), default=len(pattern))
        return self._compare(leaf, lambda s: self._may_start_with(s, pattern[:cut]))

    # substring matches: only an all-NULL column decides them
    def visit_ends_with(self, leaf: leaves.EndsWith) -> bool:
        return self._compare(leaf, lambda s: True)

    def visit_contains(self, leaf: leaves.Contains) -> bool:
        return self._compare(leaf, lambda s: True)

    def visit_and(self, node: And) -> bool:
        return all([visit(c, self) for c in node.children])

    def visit_or(self, node: Or) -> bool:
        results = [visit(c, self) for c in node.children]
        return any(results) if results else True  # an empty OR stands for an unknown leaf


class _FileStats:
    """The value stats of one file, resolved lazily per table column (by field id)."""

    def __init__(self, pruner: StatsPruner, meta: DataFileMeta, file_fields: list[Field],
                 by_id: dict[int, int]) -> None:
        self.pruner = pruner
        self.meta = meta
        self.fields = file_fields
        self.by_id = by_id
        self._rows: tuple[tuple, tuple] | None = None
        self._cache: dict[str, ColumnStats | None] = {}

    def _decoded(self) -> tuple[tuple, tuple]:
        if self._rows is None:
            stats = self.meta.value_stats
            assert stats is not None
            codec = self.pruner.stats_codec(self.fields)
            lo, hi = stats.min_values, stats.max_values
            key = (codec, lo, hi) if type(lo) is bytes and type(hi) is bytes else None
            rows = None if key is None else _DECODED.get(key)
            if rows is None:
                rows = (codec.decode_serialized(lo), codec.decode_serialized(hi))
                if key is not None:
                    if len(_DECODED) >= _DECODED_MAX:
                        _DECODED.clear()
                    _DECODED[key] = rows
            self._rows = rows
        return self._rows

    def column(self, name: str) -> ColumnStats | None:
        if name not in self._cache:
            self._cache[name] = self._column(name)
        return self._cache[name]

    def _column(self, name: str) -> ColumnStats | None:
        table_field = self.pruner.table_fields.get(name)
        if table_field is None:
            return None
        if table_field.id is None:  # no ids to map by: only a file of the table's own schema
            if self.meta.schema_id != self.pruner.schema.id:
                return None
            index = next((i for i, f in enumerate(self.fields) if f.name == name), None)
        else:
            index = self.by_id.get(table_field.id)
        if index is None or not _same_type(self.fields[index].type, table_field.type):
            return None
        nulls_all = self.meta.value_stats.null_counts if self.meta.value_stats else None
        nulls = None if nulls_all is None else nulls_all[index]
        lo = hi = None
        if _bounded(table_field.type):
            mins, maxs = self._decoded()
            lo, hi = mins[index], maxs[index]
        return ColumnStats(lo, hi, nulls, self.meta.row_count)


class StatsPruner:
    """Decides per data file whether its value stats prove that ``pred`` matches none of its rows.

    ``schema`` is the schema the scan reads with; ``schema_by_id`` loads the schema a file was written
    under.  Build one per plan (it caches schemas' stats layouts and BinaryRow codecs).
    """

    def __init__(self, pred: Any, schema: TableSchema, schema_by_id: Callable[[int], TableSchema]) -> None:
        self.pred = pred
        self.schema = schema
        self.schema_by_id = schema_by_id
        self.table_fields = {f.name: f for f in schema.fields}
        columns = {leaf.column for leaf in pred.leaves()} if pred is not None else set()
        self._wanted_ids = {self.table_fields[c].id for c in columns if c in self.table_fields}
        self._codecs: dict[tuple, BinaryRowCodec] = {}
        self._by_layout: dict[int, tuple[list[Field], BinaryRowCodec]] = {}
        self._layouts: dict[tuple, list[Field] | None] = {}
        self._ids: dict[tuple, dict[int, int]] = {}

    def wanted(self, field_id: int | None) -> bool:
        return field_id is None or field_id in self._wanted_ids

    def codec(self, types: tuple[DataType, ...]) -> BinaryRowCodec:
        if types not in self._codecs:
            self._codecs[types] = _codec_of(types)
        return self._codecs[types]

    def stats_codec(self, fields: list[Field]) -> BinaryRowCodec:
        """The codec of a stats row laid out as ``fields`` (the predicate's bounded columns decoded, the rest
        skipped), once per layout list: :meth:`_stats_fields` hands every file of a layout the same list, and
        hashing its types (every field of every DataType) for each file of a scan cost more than the decode."""
        hit = self._by_layout.get(id(fields))
        if hit is not None and hit[0] is fields:
            return hit[1]
        codec = self.codec(tuple(f.type if _bounded(f.type) and self.wanted(f.id) else _PLACEHOLDER for f in fields))
        self._by_layout[id(fields)] = (fields, codec)  # holds ``fields``: its id cannot be reused while cached
        return codec

    def _stats_fields(self, meta: DataFileMeta) -> list[Field] | None:
        """The file schema's fields the stats rows hold, in their order (None: no usable layout)."""
        key = (meta.schema_id, meta.value_stats_cols)
        if key not in self._layouts:
            file_schema = self.schema if meta.schema_id == self.schema.id else self.schema_by_id(meta.schema_id)
            all_fields = list(file_schema.fields)
            fields: list[Field] | None = all_fields
            if meta.value_stats_cols is not None:
                by_name = {f.name: f for f in all_fields}
                picked = [by_name.get(c) for c in meta.value_stats_cols]
                fields = None if any(f is None for f in picked) else [f for f in picked if f is not None]
            self._layouts[key] = fields
            self._ids[key] = {f.id: i for i, f in enumerate(fields or ()) if f.id is not None}
        return self._layouts[key]

    def may_match(self, meta: DataFileMeta) -> bool:
        """False only when the file's value stats prove that no row of it satisfies the predicate."""
        if self.pred is None or meta.value_stats is None:
            return True
        fields = self._stats_fields(meta)
        if not fields:
            return True
        nulls = meta.value_stats.null_counts
        if nulls is not None and len(nulls) != len(fields):
            log.debug("%s: value stats hold %d null counts for %d columns; not pruned by stats",
                        meta.file_name, len(nulls), len(fields))
            return True
        file_stats = _FileStats(self, meta, fields, self._ids[(meta.schema_id, meta.value_stats_cols)])
        try:
            return bool(visit(self.pred, _MayMatch(file_stats.column)))
        except PaimonCodecError as exc:  # stats rows of another shape: never prune on what cannot be read
            log.debug("%s: value stats unreadable (%s); not pruned by stats", meta.file_name, exc)
            return True

