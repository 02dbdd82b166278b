"""Bitmap file index (``"bitmap"``, FORMATS.md §2): V1 and V2 writer and lazy reader.

The index is split by idea: :mod:`._layout` (generated record dtypes, record packers and walkers),
:mod:`.writer` (dictionary encoding, Java ``HashMap`` body order, V2 blocks), :mod:`._dictionary`
(the reader's in-memory dictionaries), :mod:`._v1` (reading and searching the V1 dictionary),
:mod:`.reader` (lazy head / block / bitmap reads), :mod:`._visits` (what each predicate means over
key bitmaps) and :mod:`._describe` (the decoded structure for tests and ``inspect``).  This module
keeps the public names and the registry factories.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...fileio import ByteSource
from ...types import DataType
from ._layout import (
    DEFAULT_BLOCK_SIZE,
    DEFAULT_VERSION,
    _NegativeLength,
    _string_record_bounds,
    serialize_bitmap,
)
from .reader import BitmapIndexReader
from .writer import BitmapIndexWriter

__all__ = [
    "BitmapIndexWriter",
    "BitmapIndexReader",
    "create_writer",
    "create_reader",
    "serialize_bitmap",
    "DEFAULT_VERSION",
    "DEFAULT_BLOCK_SIZE",
    "_NegativeLength",
    "_string_record_bounds",
]


def create_writer(dtype: DataType | str, options: Mapping[str, Any] | None = None) -> BitmapIndexWriter:
    return BitmapIndexWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str,
                  options: Mapping[str, Any] | None = None) -> BitmapIndexReader:
    return BitmapIndexReader(source, dtype, options)
