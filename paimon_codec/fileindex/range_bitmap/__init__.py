"""The range-bitmap file index (``"range-bitmap"``, Paimon >= 1.3.0): writer and lazy reader.

Layout (FORMATS §4): a header (row count, cardinality, min, max), a chunked sorted dictionary
(key -> dense code, codes ascending with the keys) and a bit-sliced index of every row's code with an
existence bitmap (EBM) of the non-null rows.

The writer dictionary-encodes the column with one ``np.unique`` (pyarrow for strings), packs chunks
with numpy arithmetic, and cuts bit slices with numpy bit operations; every bitmap is built in bulk.

The reader is lazy: constructing it reads only the header.  A comparison reads the dictionary's
chunk directory once, then only the chunk whose key range holds the literal, then the BSI header, the
EBM and the slices the O'Neil comparison walks (each read once and cached).  Literals outside
``[min, max]`` and IS [NOT] NULL never touch the dictionary or the slices.

The index is split by idea: :mod:`._layout` (constants, options), :mod:`.writer`,
:mod:`._dictionary` (the reader's chunked dictionary) and :mod:`.reader`.  This
module keeps the public names and the registry factories.
"""

from __future__ import annotations

from ...fileio import ByteSource
from ...types import DataType
from ._layout import DEFAULT_CHUNK_SIZE, MAX_DECODED_ROWS, VERSION, chunk_size_of
from .reader import RangeBitmapReader
from .writer import RangeBitmapWriter

__all__ = [
    "RangeBitmapWriter",
    "RangeBitmapReader",
    "create_writer",
    "create_reader",
    "chunk_size_of",
    "DEFAULT_CHUNK_SIZE",
    "MAX_DECODED_ROWS",
    "VERSION",
]


# ------------------------------------------------------------------------------------------ registry
def create_writer(dtype: DataType | str, options: dict | None = None) -> RangeBitmapWriter:
    return RangeBitmapWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> RangeBitmapReader:
    return RangeBitmapReader(source, dtype, options)

