"""The bitmap index's answers to predicates, given its key lookups.

Kept apart from the reader, which owns the bytes (head, dictionaries, blocks, bitmaps): here only
what each predicate means over key bitmaps, and where the answer must stay REMAIN to be sound.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyroaring import BitMap

from ..reader import FileIndexReader
from ..result import REMAIN, BitmapResult, FileIndexResult

__all__ = ["BitmapVisits"]


class BitmapVisits(FileIndexReader):
    """Equal / In / their negations / null tests over the lookups a bitmap reader provides."""

    codec: Any
    row_count: int
    _cache: dict[Any, BitMap]

    def _map_literal(self, literal: Any) -> int | bytes:
        raise NotImplementedError

    def bitmap_of_key(self, key: int | bytes) -> BitMap:
        raise NotImplementedError

    def lookup(self, literal: Any) -> BitMap:
        raise NotImplementedError

    def null_bitmap(self) -> BitMap:
        raise NotImplementedError

    def lookup_many(self, literals: Sequence[Any]) -> list[BitMap]:
        return [self.lookup(lit) for lit in literals]

    def _union(self, literals: Sequence[Any]) -> BitMap:
        maps = self.lookup_many(literals)  # an IN list: every key found and read in one pass
        if not maps:
            return BitMap()
        return BitMap.union(*maps) if len(maps) > 1 else maps[0]

    def visit_equal(self, literal: Any) -> BitmapResult:
        key = None if literal is None else self._map_literal(literal)
        if key is not None:
            cached = self._cache.get(key)
            if cached is not None:  # read before: no supplier to defer
                return BitmapResult(cached)
        return BitmapResult(lambda: self.null_bitmap() if key is None else self.bitmap_of_key(key))

    def visit_in(self, literals: Sequence[Any]) -> BitmapResult:
        lits = list(literals)
        for lit in lits:
            if lit is not None:
                self._map_literal(lit)
        return BitmapResult(lambda: self._union(lits))

    @property
    def lossy_keys(self) -> bool:
        """TIMESTAMP(p > 6) keys are micros: distinct values may share a key (Java is unsound there)."""
        return self.codec.precision is not None and self.codec.precision > 6

    def visit_not_equal(self, literal: Any) -> FileIndexResult:
        if self.lossy_keys and literal is not None:
            self._map_literal(literal)
            return REMAIN  # rows sharing the key may still differ below a microsecond
        eq = self.visit_equal(literal)
        return BitmapResult(lambda: eq.bitmap.flip(0, self.row_count))

    def visit_not_in(self, literals: Sequence[Any]) -> FileIndexResult:
        if self.lossy_keys and any(lit is not None for lit in literals):
            for lit in literals:
                if lit is not None:
                    self._map_literal(lit)
            return REMAIN
        inn = self.visit_in(literals)
        return BitmapResult(lambda: inn.bitmap.flip(0, self.row_count))

    def visit_is_null(self) -> FileIndexResult:
        return BitmapResult(self.null_bitmap)

    def visit_is_not_null(self) -> FileIndexResult:
        return BitmapResult(lambda: self.null_bitmap().flip(0, self.row_count))
