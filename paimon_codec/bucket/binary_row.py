"""Paimon's key hash (``BinaryRow.hashCode()``) of key rows, one at a time or vectorised.

The BinaryRow bytes themselves come from :mod:`paimon_codec.binary_row` (the one owner of the
layout); the hash is MurmurHash3 x86_32 (seed 42) over all bytes of the row.  :func:`murmur3_rows`
hashes many equal-length rows at once with numpy, and :meth:`KeyEncoder.hash_columns` builds and
hashes fixed-width key columns without a per-row Python loop.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..binary_row import EMPTY_ROW, BinaryRowCodec
from ..errors import PaimonCodecError
from ..javahash import murmur_words
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


_C1, _C2 = np.uint32(0xCC9E2D51), np.uint32(0x1B873593)


def _rotl(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def murmur3_rows(rows: np.ndarray, seed: int = 42) -> np.ndarray:
    """MurmurHash3 x86_32 of every row of an ``(n, L)`` uint8 matrix (L a multiple of 4), as int32."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    n, length = rows.shape
    if length % 4:
        raise PaimonCodecError(f"row length {length} is not a multiple of 4")
    words = rows.view("<u4").astype(np.uint32, copy=False)
    h = np.full(n, seed & 0xFFFFFFFF, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for j in range(length // 4):
            k = words[:, j] * _C1
            k = _rotl(k, 15) * _C2
            h = _rotl(h ^ k, 13) * np.uint32(5) + np.uint32(0xE6546B64)
        h ^= np.uint32(length & 0xFFFFFFFF)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h.view(np.int32)
