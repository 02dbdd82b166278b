"""The deprecated BSI file index (``"bsi"``, Paimon 1.0-1.2; superseded by range-bitmap).

Split by idea: :mod:`._layout` (versions, the long key codec), :mod:`.writer` (the generated codec
builds the payload) and :mod:`.reader` (signed halves walked lazily, predicate answers, top-k).
The bit slices themselves (:mod:`paimon_codec.fileindex.bit_slices`) are shared with range-bitmap.
This module keeps the public names and the registry factories.
"""

from __future__ import annotations

from ...fileio import ByteSource
from ...types import DataType
from ._layout import LONG_MIN, PART_VERSION, VERSION
from .reader import BsiReader
from .writer import BsiWriter

__all__ = ["BsiWriter", "BsiReader", "create_writer", "create_reader", "VERSION", "PART_VERSION", "LONG_MIN"]


def create_writer(dtype: DataType | str, options: dict | None = None) -> BsiWriter:
    return BsiWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str, options: dict | None = None) -> BsiReader:
    return BsiReader(source, dtype, options)
