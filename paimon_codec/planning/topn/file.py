"""Top-N of one file, answered where its index is already open (the judge of a scan with a predicate).

A scan with a predicate judges every file's index first (:mod:`..judge`: the container head and the
predicate's index blocks are fetched); computing the file's top-N candidates there, through the same
open handle, fetches the sort column's bit slices once instead of reopening the file afterwards and
fetching its head and header again.  The verdict carries the rows (or why top-N cannot be pushed)
back to the planner, from the driver or from a Spark task alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyroaring import BitMap

from ...fileindex.container import EMPTY_INDEX_FLAG, FileIndexContainerReader
from ...fileindex.range_bitmap import RangeBitmapReader
from ...fileindex.topn import top_n_rows
from ...types import RowType
from .exact import answered_exactly

__all__ = ["TopNRequest", "file_reason", "topn_of_file", "within"]


@dataclass(frozen=True)
class TopNRequest:
    """``ORDER BY column [DESC] NULLS FIRST|LAST LIMIT limit`` (``strict``: the only sort key)."""

    column: str
    descending: bool
    nulls_first: bool
    strict: bool
    limit: int


def file_reason(container: FileIndexContainerReader | None, column: str | None, column_name: str, name: str, pred: Any,
                bitmap_answer: bool, file_pred: Any, file_type: RowType) -> str | None:
    """Why top-N cannot be pushed to this file (None: it can)."""
    if column is None:
        return (f"{name} was written under an older schema in which {column_name} "
                "did not exist or had another type")
    assert container is not None
    if "range-bitmap" not in container.index_types(column):
        return f"{name} has no range-bitmap index on {column_name}"
    if pred is not None and not (bitmap_answer and answered_exactly(file_pred, container.index_types, file_type)):
        return f"the indexes of {name} do not answer the predicate exactly"
    return None


def topn_of_file(req: TopNRequest, container: FileIndexContainerReader, column: str | None, dtype: Any, name: str,
                 pred: Any, bitmap_answer: bool, file_pred: Any, file_type: RowType,
                 selection: BitMap | None) -> tuple[str | None, BitMap | None]:
    """``(reason, None)`` when not pushable, else ``(None, candidate rows)`` (None: every selected row)."""
    reason = file_reason(container, column, req.column, name, pred, bitmap_answer, file_pred, file_type)
    if reason is not None:
        return reason, None
    assert column is not None
    start, length = container.columns[column]["range-bitmap"]
    if start == EMPTY_INDEX_FLAG:  # empty index (no rows / no values): every selected row stays a candidate
        return None, selection
    reader = RangeBitmapReader(container.source.sub(start, length), dtype)
    reader.prefetch_bit_slices()
    return None, within(top_n_rows(reader, req.limit, req.descending, req.nulls_first, req.strict, selection), selection)


def within(rows: BitMap, selection: BitMap | None) -> BitMap:
    """A file's top-N answer kept within its selection (found set minus deleted rows): the index answers
    a file of NULLs only with all its rows whatever the found set (Paimon's ``top_n_shortcut``), and a
    row outside the selection - deleted, or not matching - must never come back."""
    return BitMap(rows) if selection is None else BitMap(rows) & selection
