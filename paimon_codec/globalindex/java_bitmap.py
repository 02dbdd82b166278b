"""Java 1.4.2's own bitmap global index in lookups: the file is a bare bitmap *file-index* payload
(``BitmapGlobalIndex`` writes a ``BitmapFileIndex`` through ``FileIndexWriterWrapper``, one value per row in
row-id order), so positions in it are row ids relative to the file's range.  Java answers predicates
from it through ``FileIndexReaderWrapper`` with the bitmap file index's own visits - equality, IN, their
negations and null tests - and this reader asks :class:`~paimon_codec.fileindex.bitmap.reader.BitmapIndexReader`
(which keys literals as Java's bitmap file index does) the same questions.  Ranges are not answered
(the file index has no order); a REMAIN answer becomes every row of the file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from pyroaring import BitMap, BitMap64

from ..errors import CorruptDataError
from ..fileindex.bitmap.reader import BitmapIndexReader
from ..fileindex.result import BitmapResult, FileIndexResult
from ..fileio import ByteSource
from ..types import DataType

__all__ = ["JavaBitmapGlobalIndexReader", "is_java_bitmap_payload"]


def is_java_bitmap_payload(head: bytes) -> bool:
    """A bitmap file-index payload starts with its version byte, 1 or 2 (``schemas/bitmap_index.ksy``)."""
    return head[:1] in (b"\x01", b"\x02")


class _Literals:
    """Literals stay column values (``paimon_codec.values``): the file index maps them to its keys itself."""

    def __init__(self, reader: BitmapIndexReader) -> None:
        self.reader = reader

    def literal(self, value: Any) -> Any:
        self.reader._map_literal(value)  # InvalidPredicateError when it is no value of the column
        return value


class JavaBitmapGlobalIndexReader:
    #: the operators ``lookup.answer`` may ask (the bitmap file index's visits; ranges stay unanswered)
    OPERATORS = frozenset({"equal", "not_equal", "in", "not_in", "is_null", "is_not_null"})

    def __init__(self, source: ByteSource, data_type: DataType, rows: int) -> None:
        self.index = BitmapIndexReader(source, data_type)
        if self.index.row_count != rows:
            raise CorruptDataError(f"bitmap global index of {self.index.row_count} rows covers a range of {rows}",
                                   path=source.path, expected=f"{rows} rows")
        self.codec = _Literals(self.index)

    def _rows(self, result: FileIndexResult) -> BitMap64:
        bitmap = result.bitmap if isinstance(result, BitmapResult) else BitMap(range(self.index.row_count))
        return BitMap64(np.frombuffer(bitmap.to_array(), np.uint32).astype(np.uint64))

    def equal(self, literal: Any) -> BitMap64:
        return self._rows(self.index.visit_equal(literal))

    def in_(self, literals: Iterable[Any]) -> BitMap64:
        return self._rows(self.index.visit_in([v for v in literals if v is not None]))

    def not_equal(self, literal: Any) -> BitMap64:
        return self._rows(self.index.visit_not_equal(literal))

    def not_in(self, literals: Iterable[Any]) -> BitMap64:
        return self._rows(self.index.visit_not_in(list(literals)))

    def null_rows(self) -> BitMap64:
        return self._rows(self.index.visit_is_null())

    def not_null_rows(self) -> BitMap64:
        return self._rows(self.index.visit_is_not_null())

    def range(self, lower: Any, lower_inclusive: bool, upper: Any, upper_inclusive: bool) -> BitMap64:
        raise NotImplementedError("Java's bitmap global index answers no ranges (OPERATORS)")
