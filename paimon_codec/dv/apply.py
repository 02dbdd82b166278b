"""Using a deletion vector: with a file-index result, and on Arrow data.

Combining an index result with a deletion vector has one definition, Paimon's ``FileIndexEvaluator``
(FORMATS.md §9.3): :func:`paimon_codec.fileindex.evaluate.apply_deletion_vector` - the result AND
``[0, row_count)`` minus the deleted rows; equal to that selection => REMAIN (the index removes nothing
beyond the DV, which the read applies anyway), empty => SKIP, a 64-bit DV or a file above 2**31 - 1 rows =>
REMAIN.  This module only feeds it a :class:`DeletionVector` and turns its answer into rows:

* :func:`combine` - that combination for a :class:`DeletionVector` (or none);
* :func:`selected_positions` - the rows to read: the combination's bitmap, or for REMAIN every row the
  DV keeps, or none for SKIP;
* :func:`filter_arrow` - drop deleted rows from a ``pyarrow.Table`` / ``RecordBatch`` with one
  vectorised boolean mask (``start`` = file position of the first row of that batch).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ..errors import UnsupportedFeatureError
from ..roaring import all_rows
from .deletion_vector import DeletionVector

if TYPE_CHECKING:  # the file-index code is imported when an index result is combined: a Spark worker reading
    from ..fileindex.result import FileIndexResult  # rows with deletion vectors (filter_arrow) never loads it

__all__ = ["combine", "deleted_rows_32", "filter_arrow", "kept_rows", "selected_positions"]

ArrowData = TypeVar("ArrowData", pa.Table, pa.RecordBatch)


def deleted_rows_32(dv: DeletionVector) -> BitMap:
    """The deleted positions as a 32-bit bitmap (row selections address rows below 2**32)."""
    parts = dv.parts()
    if any(k != 0 for k in parts):
        raise UnsupportedFeatureError("file-index results address rows below 2**32; this vector holds larger positions")
    return parts.get(0, BitMap())


def kept_rows(dv: DeletionVector, row_count: int, *, path: str | None = None) -> BitMap:
    """Every row of a ``row_count``-row file that ``dv`` does not delete: a file's row selection."""
    selection = all_rows(row_count, path=path)
    selection.difference_update(deleted_rows_32(dv))
    return selection


def combine(result: FileIndexResult, dv: DeletionVector | None, row_count: int) -> FileIndexResult:
    """Paimon's combination of an index result with the file's deletion vector (FORMATS.md §9.3)."""
    from ..fileindex.evaluate import apply_deletion_vector

    if dv is None:
        return apply_deletion_vector(result, row_count, None)
    if dv.bitmap64:
        return apply_deletion_vector(result, row_count, None, bitmap64=True)
    return apply_deletion_vector(result, row_count, deleted_rows_32(dv))


def filter_arrow(data: ArrowData, dv: DeletionVector | None, *, start: int = 0) -> ArrowData:
    """Rows of ``data`` (file positions ``start ..``) that the vector does not delete."""
    if dv is None or dv.is_empty() or data.num_rows == 0:
        return data
    keep = dv.keep_mask(data.num_rows, start)
    if keep.all():
        return data
    return data.filter(pa.array(keep, type=pa.bool_()))


def selected_positions(result: FileIndexResult, dv: DeletionVector | None, row_count: int) -> np.ndarray:
    """Row positions to read after the index result and the DV: :func:`combine`'s bitmap (the DV already
    applied), or for REMAIN every row the DV keeps (the combination leaves the DV to the read), or none."""
    from ..fileindex.result import BitmapResult

    combined = combine(result, dv, row_count)
    if isinstance(combined, BitmapResult):
        bm = combined.bitmap
        arr = np.frombuffer(bm.to_array(), dtype=np.uint32).astype(np.int64) if len(bm) else np.zeros(0, np.int64)
        return arr[arr < row_count]
    if combined.remain():
        if dv is None:
            return np.arange(row_count, dtype=np.int64)
        return np.flatnonzero(dv.keep_mask(row_count)).astype(np.int64)
    return np.zeros(0, dtype=np.int64)
