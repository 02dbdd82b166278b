"""Writer of the deprecated BSI file index payload (built by the generated ``bsi`` codec)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import CorruptDataError
from ...generated.construct import bsi as _generated_bsi
from ...roaring import bitmap_of, serialize_optimized
from ...types import DataType, parse_type
from ..bit_slices import ValueBatches, cut_slices
from ._layout import LONG_MIN, PART_VERSION, VERSION, key_codec

__all__ = ["BsiWriter"]


class BsiWriter(ValueBatches):
    """Writer of the deprecated BSI payload (values in row order, ``None`` = null)."""

    def __init__(self, dtype: DataType | str, options: dict | None = None) -> None:
        super().__init__()
        self.dtype = parse_type(dtype) if isinstance(dtype, str) else dtype
        self.codec = key_codec(self.dtype)

    def serialize(self) -> bytes:
        cols = [self.codec.column(b) for b in self.batches()]
        valid = np.concatenate([c[0] for c in cols]) if cols else np.zeros(0, bool)
        values = np.concatenate([c[2] for c in cols]) if cols else np.zeros(0, np.int64)
        positive = valid & (values >= 0)
        negative = valid & (values < 0)
        if np.any(values[negative] == LONG_MIN):
            raise CorruptDataError("Long.MIN_VALUE cannot be stored in a BSI index")
        obj: dict[str, Any] = {"version": VERSION, "row_count": int(valid.size)}
        for mask, sign, name in ((positive, 1, "positive"), (negative, -1, "negative")):
            has = bool(mask.any())
            obj["has_" + name] = int(has)
            obj[name] = _part(np.flatnonzero(mask), values[mask] * sign) if has else None
        return _generated_bsi.Bsi.build(obj)


def _part(rows: np.ndarray, stored: np.ndarray) -> dict:
    """One half: min is always 0 (Paimon's running min starts at 0), slices of the stored values."""
    mx = int(stored.max()) if stored.size else 0
    slices = [serialize_optimized(bm) for bm in cut_slices(rows, stored, mx.bit_length())]
    return {"version": PART_VERSION, "min": 0, "max": mx, "ebm": serialize_optimized(bitmap_of(rows)),
            "slices": slices}
