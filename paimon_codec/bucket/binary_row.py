"""Paimon's key hash (``BinaryRow.hashCode()``) of key rows, one at a time or vectorised.

The BinaryRow bytes themselves come from :mod:`paimon_codec.binary_row` (the one owner of the
layout); the hash is MurmurHash3 x86_32 (seed 42) over all bytes of the row (:mod:`paimon_codec.javahash`,
the one Murmur3; its :func:`murmur3_rows` hashes many equal-length rows at once with numpy), and
:meth:`KeyEncoder.hash_columns` builds and hashes fixed-width key columns without a per-row Python loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..binary_row import EMPTY_ROW, BinaryRowCodec
from ..javahash import murmur3_rows, murmur_words
from ..types import DataType

__all__ = ["KeyEncoder", "binary_row", "row_hash", "murmur3_rows", "EMPTY_ROW", "EMPTY_ROW_HASH"]

#: ``hashCode()`` of the arity-0 row (an empty partition).
EMPTY_ROW_HASH = murmur_words(EMPTY_ROW)


class KeyEncoder(BinaryRowCodec):
    """Encodes key rows of fixed ``types`` into BinaryRow bytes and hashes them."""

    def hash(self, values: Sequence[Any]) -> int:
        """``BinaryRow.hashCode()`` of one key row."""
        return murmur_words(self.encode(values))

    def hash_many(self, rows: Iterable[Sequence[Any]]) -> np.ndarray:
        """Hashes of many rows (int32 array).  Equal-length rows are hashed in one numpy pass."""
        encoded = self.encode_many(rows)
        if not encoded:
            return np.zeros(0, dtype=np.int32)
        length = len(encoded[0])
        if all(len(b) == length for b in encoded):
            return murmur3_rows(np.frombuffer(b"".join(encoded), dtype=np.uint8).reshape(len(encoded), length))
        return np.fromiter((murmur_words(b) for b in encoded), dtype=np.int32, count=len(encoded))

    def hash_columns(self, columns: Sequence[np.ndarray | Sequence[Any]],
                     nulls: Sequence[np.ndarray | None] | None = None) -> np.ndarray:
        """Vectorised hashes of fixed-width key columns (see :meth:`encode_columns`)."""
        return murmur3_rows(self.encode_columns(columns, nulls))


def binary_row(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> bytes:
    """BinaryRow bytes of one row of ``types``."""
    return KeyEncoder(types).encode(values)


def row_hash(types: Sequence[DataType | str] | str, values: Sequence[Any]) -> int:
    """``BinaryRow.hashCode()`` of one row of ``types``."""
    return KeyEncoder(types).hash(values)
