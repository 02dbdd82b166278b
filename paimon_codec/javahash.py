"""Java hash functions whose results leak into Paimon's bytes.

* :func:`murmur_words` - ``MurmurHashUtils.hashUnsafeBytesByWords``: MurmurHash3 x86_32 over 4-byte
  little-endian words, seed 42; used by ``BinaryRow.hashCode()`` (the bucket hash).  Equal to
  standard MurmurHash3 when the length is a multiple of 4, so one value is computed by ``mmh3`` (C);
  :func:`murmur3_rows` is the same hash of many equal-length rows at once.
* :func:`murmur_bytes` - ``MurmurHashUtils.hashBytes``: the same word rounds, but each trailing byte
  (sign-extended) is mixed as its own full round; used as ``BinaryString.hashCode()`` and therefore
  decides Java ``HashMap`` order of string keys.
* Java ``hashCode`` of boxed keys: :func:`long_hash_code`, :func:`float_hash_code`, ...
"""

from __future__ import annotations

import struct
from typing import Any

import mmh3
import numpy as np

from .errors import UsageError

__all__ = [
    "DEFAULT_SEED",
    "murmur_words",
    "murmur_bytes",
    "murmur3_rows",
    "int32",
    "long_hash_code",
    "float_hash_code",
    "double_hash_code",
    "bool_hash_code",
]

DEFAULT_SEED = 42
_C1, _C2, _M32 = 0xCC9E2D51, 0x1B873593, 0xFFFFFFFF


def int32(x: int) -> int:
    """The low 32 bits of ``x`` as a signed int."""
    x &= _M32
    return x - (1 << 32) if x & 0x80000000 else x


def murmur_words(data: bytes, seed: int = DEFAULT_SEED) -> int:
    """MurmurHash3 x86_32 of ``data`` (length a multiple of 4) as a signed int."""
    if len(data) % 4:
        raise ValueError(f"word hash needs a multiple of 4 bytes, got {len(data)}")
    return mmh3.hash(data, seed, signed=True)


# The MurmurHash3 x86_32 rounds, written once for Python ints and numpy uint32 arrays alike (the masks
# keep Python ints to 32 bits and are no-ops on uint32, whose arithmetic wraps by itself).

def _mix_k1(k1: Any) -> Any:  # an int or a uint32 array
    k1 = (k1 * _C1) & _M32
    k1 = ((k1 << 15) | (k1 >> 17)) & _M32
    return (k1 * _C2) & _M32


def _mix_h1(h1: Any, k1: Any) -> Any:
    h1 ^= k1
    h1 = ((h1 << 13) | (h1 >> 19)) & _M32
    return (h1 * 5 + 0xE6546B64) & _M32


def _fmix_unsigned(h1: Any, length: int) -> Any:
    h1 ^= length & _M32
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _M32
    h1 ^= h1 >> 16
    return h1


def _fmix(h1: int, length: int) -> int:
    return int32(_fmix_unsigned(h1, length))


def murmur3_rows(rows: np.ndarray, seed: int = DEFAULT_SEED) -> np.ndarray:
    """MurmurHash3 x86_32 of every row of an ``(n, L)`` uint8 matrix (L a multiple of 4), as int32:
    :func:`murmur_words` of each row, in one numpy pass over the word columns."""
    rows = np.ascontiguousarray(rows, dtype=np.uint8)
    n, length = rows.shape
    if length % 4:
        raise UsageError(f"row length {length} is not a multiple of 4")
    # the hash input as little-endian words (Java reads the row's memory segment with getInt)
    words = rows.view(np.dtype("<u4")).astype(np.uint32, copy=False)
    h = np.full(n, seed & _M32, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for j in range(length // 4):
            h = _mix_h1(h, _mix_k1(words[:, j]))
        h = _fmix_unsigned(h, length)
    return h.astype(np.uint32).view(np.int32)


def murmur_bytes(data: bytes, seed: int = DEFAULT_SEED) -> int:
    """Paimon's ``MurmurHashUtils.hashBytes`` (per-byte tail rounds) as a signed int."""
    n = len(data)
    aligned = n - n % 4
    if n == aligned:
        return mmh3.hash(data, seed, signed=True)
    # Body: standard word rounds. Recover the pre-finalisation state by hashing the body ourselves.
    h1 = seed & _M32
    for (k,) in struct.iter_unpack("<I", data[:aligned]):
        h1 = _mix_h1(h1, _mix_k1(k))
    for b in data[aligned:]:
        k1 = b - 256 if b >= 128 else b  # Java byte, sign-extended to int
        h1 = _mix_h1(h1, _mix_k1(k1 & _M32))
    return _fmix(h1, n)


def long_hash_code(v: int) -> int:
    """``Long.hashCode``: ``(int)(v ^ (v >>> 32))``."""
    u = v & 0xFFFFFFFFFFFFFFFF
    return int32(u ^ (u >> 32))


def float_hash_code(v: float) -> int:
    """``Float.hashCode`` = ``floatToIntBits`` (NaN canonicalised)."""
    if v != v:
        return 0x7FC00000
    return struct.unpack(">i", struct.pack(">f", v))[0]


def double_hash_code(v: float) -> int:
    """``Double.hashCode`` of ``doubleToLongBits`` (NaN canonicalised)."""
    bits = 0x7FF8000000000000 if v != v else struct.unpack(">q", struct.pack(">d", v))[0]
    return long_hash_code(bits)


def bool_hash_code(v: bool) -> int:
    return 1231 if v else 1237
