"""Using a deletion vector: with a file-index result, and on Arrow data.

* :func:`and_not` - the rows an index result selects minus the deleted ones (REMAIN becomes the
  surviving rows of ``[0, row_count)``, SKIP stays SKIP, a bitmap loses its deleted positions).
* :func:`evaluate_with_deletion_vector` - Paimon's newest ``FileIndexEvaluator`` step (FORMATS.md
  §9.3: equal to the DV selection => REMAIN, empty => SKIP, 64-bit DV => REMAIN), delegating to
  :func:`paimon_codec.fileindex.evaluate.apply_deletion_vector`.
* :func:`filter_arrow` - drop deleted rows from a ``pyarrow.Table`` / ``RecordBatch`` with one
  vectorised boolean mask (``start`` = file position of the first row of that batch).
* :func:`selected_positions` - the row positions to read after index + DV, as a numpy array.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from ..errors import PaimonCodecError
from ..fileindex.result import SKIP, BitmapResult, FileIndexResult
from .deletion_vector import DeletionVector

__all__ = ["and_not", "evaluate_with_deletion_vector", "filter_arrow", "selected_positions"]

ArrowData = TypeVar("ArrowData", pa.Table, pa.RecordBatch)


def _deleted_32(dv: DeletionVector) -> BitMap:
    parts = dv.parts()
    if any(k != 0 for k in parts):
        raise PaimonCodecError("file-index results address rows below 2**32; this vector holds larger positions")
    return parts.get(0, BitMap())


def and_not(result: FileIndexResult, dv: DeletionVector | None, row_count: int) -> FileIndexResult:
    """``result`` with the deleted rows removed (a file whose rows are all gone is SKIP)."""
    if row_count < 0:
        raise PaimonCodecError(f"row count must not be negative, got {row_count}")
    if dv is None or dv.is_empty():
        return result
    deleted = _deleted_32(dv)
    if isinstance(result, BitmapResult):
        return BitmapResult(lambda: result.bitmap - deleted)
    if not result.remain():
        return SKIP
    alive = BitMap()
    alive.add_range(0, row_count)
    alive -= deleted
    return BitmapResult(alive) if len(alive) else SKIP


def evaluate_with_deletion_vector(result: FileIndexResult, dv: DeletionVector | None,
                                  row_count: int) -> FileIndexResult:
    """Paimon's ``FileIndexEvaluator`` combination of an index result with the file's DV (§9.3)."""
    from ..fileindex.evaluate import apply_deletion_vector

    if dv is None:
        return apply_deletion_vector(result, row_count, None)
    if dv.bitmap64:
        return apply_deletion_vector(result, row_count, None, bitmap64=True)
    return apply_deletion_vector(result, row_count, _deleted_32(dv))


def filter_arrow(data: ArrowData, dv: DeletionVector | None, *, start: int = 0) -> ArrowData:
    """Rows of ``data`` (file positions ``start ..``) that the vector does not delete."""
    if dv is None or dv.is_empty() or data.num_rows == 0:
        return data
    keep = dv.keep_mask(data.num_rows, start)
    if keep.all():
        return data
    return data.filter(pa.array(keep, type=pa.bool_()))


def selected_positions(result: FileIndexResult, dv: DeletionVector | None, row_count: int) -> np.ndarray:
    """Row positions to read: the index result's rows (all for REMAIN) that are not deleted."""
    combined = and_not(result, dv, row_count)
    if isinstance(combined, BitmapResult):
        bm = combined.bitmap
        arr = np.frombuffer(bm.to_array(), dtype=np.uint32).astype(np.int64) if len(bm) else np.zeros(0, np.int64)
        return arr[arr < row_count]
    if combined.remain():
        return np.arange(row_count, dtype=np.int64)
    return np.zeros(0, dtype=np.int64)
