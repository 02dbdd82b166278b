"""Range-bitmap index layout constants (from the generated codec of ``schemas/range_bitmap.ksy``) and
its options (``chunk-size`` with Paimon's per-type default).
"""

from __future__ import annotations

import numpy as np

from ...errors import InvalidOptionError
from ...generated.construct import range_bitmap as _codec
from ...memory_size import parse_memory_size
from ...types import DataType, parse_type
from .._key_order import STORED_DTYPES
from ..keys import KeyCodec

VERSION = _codec.RANGE_BITMAP_VERSION_V1
DEFAULT_CHUNK_SIZE = 16 * 1024
_ONE_KEY_PER_CHUNK = ("BOOLEAN", "TINYINT", "SMALLINT")
_DICT_HEADER_LENGTH = _codec.DICTIONARY_HEADER_SIZE
#: the smallest header (no min/max keys: an empty dictionary)
_MIN_HEADER_LENGTH = _codec.RANGE_BITMAP_HEADER_COUNTS_SIZE + _codec.RANGE_BITMAP_HEADER_DICTIONARY_LENGTH_SIZE
_MAX_SLICES = 64
_SLICE_REF_SIZE = _codec.BSI_HEADER_SLICE_REFS_DTYPE.itemsize
MAX_DECODED_ROWS = 50_000_000  # row_codes()/describe() allocate per row


# ------------------------------------------------------------------------------------------ options
def chunk_size_of(dtype: DataType, options: dict | None) -> int:
    """``chunk-size`` option (per-index options dict) with Paimon's per-type default."""
    options = options or {}
    value = None
    for key, v in options.items():
        if key == "chunk-size" or key.endswith(".chunk-size"):
            value = v
    if value is None:
        return 0 if dtype.root in _ONE_KEY_PER_CHUNK else DEFAULT_CHUNK_SIZE
    size = parse_memory_size(value)
    if size < 0 or size > 2**31 - 1:
        raise InvalidOptionError(f"chunk-size {value!r} out of range")
    return size


def _as_type(dtype: DataType | str) -> DataType:
    return parse_type(dtype) if isinstance(dtype, str) else dtype


def _chunk_dtype(codec: KeyCodec) -> np.dtype:
    """The generated fixed-length chunk header record, with a float key read as its raw IEEE bits
    (u4 / i8: how range keys of FLOAT / DOUBLE columns are ordered and stored here)."""
    dt = _codec.CHUNK_DTYPES[codec.kind]
    assert dt is not None and dt.names is not None and dt.fields is not None  # fixed-size keys only
    if not codec.is_float:
        return dt
    bits = STORED_DTYPES[codec.kind]  # the key kind's stored bits dtype (schemas/paimon_key.ksy)
    return np.dtype({"names": dt.names, "formats": [bits if n == "key" else dt[n] for n in dt.names],
                     "offsets": [dt.fields[n][1] for n in dt.names], "itemsize": dt.itemsize})
