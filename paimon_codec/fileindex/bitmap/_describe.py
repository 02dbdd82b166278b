"""The decoded structure of a bitmap index (tests, ``inspect``), in the golden ``expected_meta`` shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...fileio import ByteSource
from ._layout import _V1, _v2_dtype

__all__ = ["BitmapDescribe"]


class BitmapDescribe:
    """``describe()`` of :class:`~.reader.BitmapIndexReader` (a mixin, like :class:`~._visits.BitmapVisits`):
    what it reads of the reader is declared here, so this module imports no reader."""

    codec: Any
    source: ByteSource
    version: int
    row_count: int
    non_null_bitmap_number: int
    has_null_value: bool
    null_value_offset: int
    null_bitmap_length: int
    body_start: int
    index_block_start: int
    _block_offsets: Any
    _block_first_keys: Any

    def _load_v1(self) -> Any:
        raise NotImplementedError

    def _block(self, i: int) -> Any:
        raise NotImplementedError

    def describe(self) -> dict:
        """The decoded structure (reads everything), in the golden ``expected_meta`` shape."""
        return _describe(self)


def _describe(reader: BitmapDescribe) -> dict:
    codec = reader.codec
    out: dict[str, Any] = {
        "version": reader.version, "row_count": reader.row_count,
        "non_null_bitmap_number": reader.non_null_bitmap_number,
        "has_null_value": reader.has_null_value, "null_value_offset": reader.null_value_offset,
    }
    if reader.version == _V1:
        v1 = reader._load_v1()
        out["body_start"] = reader.body_start
        out["entries_in_file_order"] = [[codec.to_python(k), int(o)]
                                        for k, o in zip(v1.file_keys(codec), list(v1.offsets), strict=True)]
        return out
    out["null_bitmap_length"] = reader.null_bitmap_length if reader.has_null_value else None
    out["index_block_start"] = reader.index_block_start
    out["body_start"] = reader.body_start
    blocks = []
    for i in range(len(reader._block_offsets)):
        blk = reader._block(i)
        if codec.kind == "string":
            entries = [[codec.to_python(k), o, ln] for k, (o, ln) in blk.items()]
        else:
            start = reader.index_block_start + int(reader._block_offsets[i])
            dt = _v2_dtype(codec)
            raw = np.frombuffer(reader.source.read(start + 4, len(blk.keys) * dt.itemsize), dtype=dt)
            entries = [[codec.to_python(k), o, ln] for k, o, ln in
                       zip(raw["key"].tolist(), raw["offset"].tolist(), raw["length"].tolist(), strict=True)]
        first = reader._block_first_keys[i]
        blocks.append({"first_key": codec.to_python(first if isinstance(first, bytes) else int(first)),
                       "offset": int(reader._block_offsets[i]), "entries": entries})
    out["index_blocks"] = blocks
    return out
