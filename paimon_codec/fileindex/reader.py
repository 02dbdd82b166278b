"""The protocol every file-index reader implements (bitmap, bloom filter, range bitmap, BSI, empty).

A reader answers one leaf predicate on its column.  Literals arrive already coerced to the column
type's Python representation (see :mod:`paimon_codec.values`).  Any question a reader cannot
answer returns :data:`REMAIN` (keep the file) - the safe default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .result import REMAIN, SKIP, FileIndexResult

__all__ = ["FileIndexReader", "EmptyFileIndexReader"]


class FileIndexReader:
    """Base reader: every visit answers REMAIN unless a subclass knows better."""

    def visit_equal(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        """Default: OR of :meth:`visit_equal` (Paimon's In semantics)."""
        result: FileIndexResult | None = None
        for lit in literals:
            r = self.visit_equal(lit)
            result = r if result is None else result.or_(r)
        return SKIP if result is None else result

    def visit_not_in(self, literals: Sequence[Any]) -> FileIndexResult:
        """Default: OR of :meth:`visit_not_equal` (Paimon's NotIn semantics, REMAIN unless overridden)."""
        result: FileIndexResult | None = None
        for lit in literals:
            r = self.visit_not_equal(lit)
            result = r if result is None else result.or_(r)
        return REMAIN if result is None else result

    def visit_is_null(self) -> FileIndexResult:
        return REMAIN

    def visit_is_not_null(self) -> FileIndexResult:
        return REMAIN

    def visit_lt(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_lte(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_gt(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_gte(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_between(self, low: Any, high: Any) -> FileIndexResult:
        return self.visit_gte(low).and_(self.visit_lte(high))

    def visit_starts_with(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_ends_with(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_contains(self, literal: Any) -> FileIndexResult:
        return REMAIN

    def visit_like(self, literal: Any) -> FileIndexResult:
        return REMAIN


class EmptyFileIndexReader(FileIndexReader):
    """Reader of an EMPTY_INDEX_FLAG slice (start = -1, length = 0): the column had no values.

    SKIP for eq / in / is-not-null / lt / lte / gt / gte / starts-with / ends-with / contains / like,
    REMAIN for everything else (is-null, neq, not-in, between, ...), as Paimon does.
    """

    def visit_equal(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        return SKIP

    def visit_is_not_null(self) -> FileIndexResult:
        return SKIP

    def visit_lt(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_lte(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_gt(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_gte(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_between(self, low: Any, high: Any) -> FileIndexResult:
        return REMAIN

    def visit_starts_with(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_ends_with(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_contains(self, literal: Any) -> FileIndexResult:
        return SKIP

    def visit_like(self, literal: Any) -> FileIndexResult:
        return SKIP
