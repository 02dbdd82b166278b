"""Paimon's ``FastHash`` for the bloom-filter index: one 64-bit hash per value, per column type.

Strings and binary hash as XXH64 (seed 0) of their bytes (:mod:`.xxh64` for whole Arrow columns);
every other supported type maps to its int64 key (:class:`~paimon_codec.fileindex.keys.KeyCodec`,
float bits included) and is mixed by Thomas Wang's 64-bit hash with arithmetic shifts.  Single
values use pure-int arithmetic; columns use numpy (:func:`_wang_inplace`, also run by the bloom
kernels chunk by chunk).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyarrow as pa
import xxhash

from ...errors import UnsupportedTypeError
from ...types import DataType, parse_type
from ..keys import KeyCodec
from .xxh64 import xxh64_binary_array

__all__ = ["wang_hash64", "wang_hash64_array", "fast_hash", "fast_hash_array", "SUPPORTED_TYPES"]

#: the Paimon types the bloom-filter index accepts
SUPPORTED_TYPES = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME_WITHOUT_TIME_ZONE",
                   "TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "FLOAT", "DOUBLE",
                   "CHAR", "VARCHAR", "BINARY", "VARBINARY"}
_M64 = 0xFFFFFFFFFFFFFFFF
_U64 = np.uint64
# Thomas Wang's shift-add steps written as wrapping multiplications (mod 2**64):
# ~k + (k << 21) = k * (2**21 - 1) - 1;  k + (k << 3) + (k << 8) = k * 265;
# k + (k << 2) + (k << 4) = k * 21;  k + (k << 31) = k * (2**31 + 1).
_MUL_21, _MUL_265, _MUL_21B, _MUL_31 = (1 << 21) - 1, 265, 21, (1 << 31) + 1

_SIGN_FILL = {n: ((1 << n) - 1) << (64 - n) for n in (14, 24, 28)}  # bits an arithmetic shift copies in


def wang_hash64(k: int) -> int:
    """Thomas Wang's 64-bit mix with arithmetic right shifts, as a signed int64."""
    k = (k * _MUL_21 - 1) & _M64
    k ^= (k >> 24) | _SIGN_FILL[24] if k >> 63 else k >> 24
    k = (k * _MUL_265) & _M64
    k ^= (k >> 14) | _SIGN_FILL[14] if k >> 63 else k >> 14
    k = (k * _MUL_21B) & _M64
    k ^= (k >> 28) | _SIGN_FILL[28] if k >> 63 else k >> 28
    k = (k * _MUL_31) & _M64
    return k - (1 << 64) if k >> 63 else k


def _wang_inplace(k: np.ndarray, scratch: np.ndarray, source: np.ndarray | None = None) -> np.ndarray:
    """Vectorised :func:`wang_hash64` into int64 ``k`` (``scratch``: same shape).

    Mixes ``k`` in place, or - given ``source`` (int64, same length) - mixes ``source`` into ``k``
    without a separate copy pass (the first multiplication reads ``source``).
    """
    u = k.view(np.uint64)
    np.multiply(u if source is None else source.view(np.uint64), _U64(_MUL_21), out=u)
    u -= _U64(1)
    np.right_shift(k, 24, out=scratch)  # int64: arithmetic shift
    k ^= scratch
    u *= _U64(_MUL_265)
    np.right_shift(k, 14, out=scratch)
    k ^= scratch
    u *= _U64(_MUL_21B)
    np.right_shift(k, 28, out=scratch)
    k ^= scratch
    u *= _U64(_MUL_31)
    return k


def wang_hash64_array(values: np.ndarray) -> np.ndarray:
    """Vectorised :func:`wang_hash64` of an int64 array (wrap-around arithmetic)."""
    k = np.array(values, dtype=np.int64)  # a copy we may overwrite
    return _wang_inplace(k, np.empty_like(k))


def _check_type(dtype: DataType) -> None:
    if dtype.root not in SUPPORTED_TYPES:
        raise UnsupportedTypeError(f"bloom-filter index does not support type {dtype}")


class _Hasher:
    """FastHash of one column type: value -> signed 64-bit hash."""

    def __init__(self, dtype: DataType) -> None:
        _check_type(dtype)
        self.dtype = dtype
        self.binary = dtype.is_string or dtype.is_binary
        self.codec = None if dtype.is_binary else KeyCodec(dtype, index="bloom-filter")

    def hash_value(self, v: Any) -> int:
        if self.binary:
            data = v if isinstance(v, (bytes, bytearray, memoryview)) else str(v).encode("utf-8", "surrogatepass")
            h = xxhash.xxh64_intdigest(bytes(data))
            return h - (1 << 64) if h >> 63 else h
        assert self.codec is not None
        # fixed-size kinds map a value to an int key (callers never hash a null)
        return wang_hash64(int(self.codec.map_value(v)))  # type: ignore[arg-type]

    def prehash_array(self, values: Any) -> tuple[np.ndarray, bool]:
        """``(int64 array, mixed)`` for the non-null values of a column.

        Strings/binary give their finished XXH64 hashes (``mixed`` False); every other type gives
        its int64 keys, still to be mixed by Wang's hash (``mixed`` True) - the bloom kernels mix
        them chunk by chunk while the chunk is in cache.
        """
        if self.binary:
            if isinstance(values, pa.ChunkedArray):
                values = values.combine_chunks()
            if isinstance(values, pa.Array):
                flat = _as_binary(values)
                if flat is not None:
                    return xxh64_binary_array(flat).view(np.int64), False
                values = values.to_pylist()
            items = [v if isinstance(v, (bytes, bytearray)) else str(v).encode("utf-8", "surrogatepass")
                     for v in values if v is not None]
            digest = xxhash.xxh64_intdigest
            return np.array([digest(b) for b in items], dtype=np.uint64).view(np.int64), False
        assert self.codec is not None
        keys, valid = self.codec.map_array(values)
        keys = np.asarray(keys)
        if not valid.all():
            keys = keys[valid]
        return keys.astype(np.int64, copy=False), True

    def hash_array(self, values: Any) -> np.ndarray:
        """Hashes of the non-null values of a column, as int64."""
        arr, mixed = self.prehash_array(values)
        return wang_hash64_array(arr) if mixed else np.array(arr, dtype=np.int64)


def _as_binary(values: pa.Array) -> pa.Array | None:
    """The non-null values of a string/binary Arrow array as ``binary`` / ``large_binary``, or None
    when the type has no cast to those (the caller then hashes Python values)."""
    if isinstance(values.type, pa.DictionaryType):
        values = values.dictionary_decode()
    t = values.type
    if pa.types.is_large_string(t) or pa.types.is_large_binary(t):
        target = pa.large_binary()
    elif pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        target = pa.binary()
    else:
        return None
    if values.null_count:
        values = values.drop_null()
    return values if values.type == target else values.cast(target)


def fast_hash(dtype: DataType | str, value: Any) -> int:
    """Paimon's ``FastHash`` of one value (signed int64)."""
    return _Hasher(parse_type(dtype)).hash_value(value)


def fast_hash_array(dtype: DataType | str, values: Any) -> np.ndarray:
    """``FastHash`` of every non-null value of a column (int64 array)."""
    return _Hasher(parse_type(dtype)).hash_array(values)

