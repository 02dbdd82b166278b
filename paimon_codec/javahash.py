"""Java hash functions whose results leak into Paimon's bytes.

* :func:`murmur_words` - ``MurmurHashUtils.hashUnsafeBytesByWords``: MurmurHash3 x86_32 over 4-byte
  little-endian words, seed 42; used by ``BinaryRow.hashCode()`` (the bucket hash).  Equal to
  standard MurmurHash3 when the length is a multiple of 4, so it is computed by ``mmh3``.
* :func:`murmur_bytes` - ``MurmurHashUtils.hashBytes``: the same word rounds, but each trailing byte
  (sign-extended) is mixed as its own full round; used as ``BinaryString.hashCode()`` and therefore
  decides Java ``HashMap`` order of string keys.
* Java ``hashCode`` of boxed keys: :func:`long_hash_code`, :func:`float_hash_code`, ...
"""

from __future__ import annotations

import struct

import mmh3

__all__ = [
    "DEFAULT_SEED",
    "murmur_words",
    "murmur_bytes",
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


def _mix_k1(k1: int) -> int:
    k1 = (k1 * _C1) & _M32
    k1 = ((k1 << 15) | (k1 >> 17)) & _M32
    return (k1 * _C2) & _M32


def _mix_h1(h1: int, k1: int) -> int:
    h1 ^= k1
    h1 = ((h1 << 13) | (h1 >> 19)) & _M32
    return (h1 * 5 + 0xE6546B64) & _M32


def _fmix(h1: int, length: int) -> int:
    h1 ^= length
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _M32
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _M32
    h1 ^= h1 >> 16
    return int32(h1)


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
