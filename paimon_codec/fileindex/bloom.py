"""Bloom-filter file index (``"bloom-filter"``): Paimon's ``BloomFilter64`` + ``FastHash``.

Payload: ``int32 BE k`` then ``num_bits / 8`` bytes of bit set (bit i = byte ``i >> 3``, mask
``1 << (i & 7)``).  Sizing from the options ``items`` / ``fpp``; hashes are XXH64 (seed 0) of the
bytes for strings/binary and Thomas Wang's 64-bit mix (arithmetic shifts) of the value as int64
for numbers, times and float bits (FORMATS.md §3).  Building and probing are vectorised with numpy.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import xxhash

from ..errors import CorruptDataError, InvalidOptionError, UnsupportedTypeError
from ..fileio import ByteSource
from ..types import DataType, parse_type
from .keys import KeyCodec
from .reader import FileIndexReader
from .result import REMAIN, SKIP, FileIndexResult

__all__ = [
    "BloomFilterWriter",
    "BloomFilterReader",
    "bloom_sizing",
    "wang_hash64",
    "wang_hash64_array",
    "fast_hash",
    "fast_hash_array",
    "create_writer",
    "create_reader",
    "DEFAULT_ITEMS",
    "DEFAULT_FPP",
]

DEFAULT_ITEMS = 1_000_000
DEFAULT_FPP = 0.1
_SUPPORTED = {"TINYINT", "SMALLINT", "INTEGER", "BIGINT", "DATE", "TIME_WITHOUT_TIME_ZONE",
              "TIMESTAMP_WITHOUT_TIME_ZONE", "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "FLOAT", "DOUBLE",
              "CHAR", "VARCHAR", "BINARY", "VARBINARY"}
_M64 = 0xFFFFFFFFFFFFFFFF


def _java_round(x: float) -> int:
    """``Math.round(double)``: floor(x + 0.5)."""
    return math.floor(x + 0.5)


def bloom_sizing(items: int, fpp: float) -> tuple[int, int]:
    """``(num_bits, num_hash_functions)`` of ``BloomFilter64(items, fpp)``."""
    if items <= 0:
        raise InvalidOptionError(f"bloom-filter items must be positive, got {items}")
    if not 0.0 < fpp < 1.0:
        raise InvalidOptionError(f"bloom-filter fpp must be in (0, 1), got {fpp}")
    nb = int(-items * math.log(fpp) / (math.log(2) ** 2))
    nb = nb + (8 - nb % 8)
    k = max(1, _java_round(nb / items * math.log(2)))
    return nb, k


def wang_hash64(k: int) -> int:
    """Thomas Wang's 64-bit mix with arithmetic right shifts, as a signed int64."""
    k &= _M64

    def sar(x: int, n: int) -> int:
        return ((x - (1 << 64) if x >> 63 else x) >> n) & _M64

    k = (~k + (k << 21)) & _M64
    k ^= sar(k, 24)
    k = (k + (k << 3) + (k << 8)) & _M64
    k ^= sar(k, 14)
    k = (k + (k << 2) + (k << 4)) & _M64
    k ^= sar(k, 28)
    k = (k + (k << 31)) & _M64
    return k - (1 << 64) if k >> 63 else k


def wang_hash64_array(values: np.ndarray) -> np.ndarray:
    """Vectorised :func:`wang_hash64` of an int64 array (wrap-around arithmetic, in place)."""
    k = np.array(values, dtype=np.int64)  # a copy we may overwrite
    t = np.empty_like(k)
    with np.errstate(over="ignore"):
        np.left_shift(k, 21, out=t)
        np.invert(k, out=k)
        k += t
        np.right_shift(k, 24, out=t)
        k ^= t
        np.left_shift(k, 3, out=t)
        t += k
        k <<= 8
        k += t
        np.right_shift(k, 14, out=t)
        k ^= t
        np.left_shift(k, 2, out=t)
        t += k
        k <<= 4
        k += t
        np.right_shift(k, 28, out=t)
        k ^= t
        np.left_shift(k, 31, out=t)
        k += t
    return k


def _check_type(dtype: DataType) -> None:
    if dtype.root not in _SUPPORTED:
        raise UnsupportedTypeError(f"bloom-filter index does not support type {dtype}")


class _Hasher:
    """FastHash of one column type: value -> signed 64-bit hash."""

    def __init__(self, dtype: DataType) -> None:
        _check_type(dtype)
        self.dtype = dtype
        self.binary = dtype.is_string or dtype.is_binary
        self.codec = None if dtype.is_binary else KeyCodec(dtype)

    def hash_value(self, v: Any) -> int:
        if self.binary:
            data = v if isinstance(v, (bytes, bytearray, memoryview)) else str(v).encode("utf-8", "surrogatepass")
            h = xxhash.xxh64_intdigest(bytes(data))
            return h - (1 << 64) if h >> 63 else h
        assert self.codec is not None
        return wang_hash64(int(self.codec.map_value(v)))  # type: ignore[arg-type]

    def hash_array(self, values: Any) -> np.ndarray:
        """Hashes of the non-null values of a column, as int64."""
        if self.binary:
            if isinstance(values, pa.ChunkedArray):
                values = values.combine_chunks()
            if isinstance(values, pa.Array):
                if pa.types.is_string(values.type) or pa.types.is_large_string(values.type):
                    values = values.cast(pa.binary())
                items = values.drop_null().to_pylist()
            else:
                items = [v if isinstance(v, (bytes, bytearray)) else str(v).encode("utf-8", "surrogatepass")
                         for v in values if v is not None]
            out = np.fromiter((xxhash.xxh64_intdigest(b) for b in items), dtype=np.uint64, count=len(items))
            return out.view(np.int64)
        assert self.codec is not None
        keys, valid = self.codec.map_array(values)
        keys = np.asarray(keys)
        if not valid.all():
            keys = keys[valid]
        return wang_hash64_array(keys.astype(np.int64))


def fast_hash(dtype: DataType | str, value: Any) -> int:
    """Paimon's ``FastHash`` of one value (signed int64)."""
    return _Hasher(parse_type(dtype)).hash_value(value)


def fast_hash_array(dtype: DataType | str, values: Any) -> np.ndarray:
    """``FastHash`` of every non-null value of a column (int64 array)."""
    return _Hasher(parse_type(dtype)).hash_array(values)


def _positions(hashes: np.ndarray, k: int, num_bits: int) -> np.ndarray:
    """Bit positions (shape ``(k, n)``, uint32) that the k hash functions select for each hash.

    ``c = h1 + i * h2`` wraps like a Java int (done in uint32); negative ``c`` becomes ``~c``.
    """
    h = np.asarray(hashes, dtype=np.int64)
    h1 = h.astype(np.uint32)  # low 32 bits
    h2 = (h.view(np.uint64) >> np.uint64(32)).astype(np.uint32)
    out = np.empty((k, len(h)), dtype=np.uint32)
    c = h1.copy()
    nb = np.uint32(num_bits)
    for i in range(k):
        c += h2
        np.remainder(np.where(c >= np.uint32(0x80000000), ~c, c), nb, out=out[i])
    return out


def _options(options: Mapping[str, Any] | None) -> tuple[int, float]:
    options = options or {}
    try:
        items = int(str(options.get("items", DEFAULT_ITEMS)).strip())
        fpp = float(str(options.get("fpp", DEFAULT_FPP)).strip())
    except ValueError as exc:
        raise InvalidOptionError(f"bad bloom-filter option: {exc}") from exc
    return items, fpp


class BloomFilterWriter:
    """Collects values of one column and serializes Paimon's bloom-filter payload."""

    index_type = "bloom-filter"

    def __init__(self, dtype: DataType | str, options: Mapping[str, Any] | None = None) -> None:
        self.dtype = parse_type(dtype)
        self._hasher = _Hasher(self.dtype)
        items, fpp = _options(options)
        self.num_bits, self.num_hash_functions = bloom_sizing(items, fpp)
        self._bits = np.zeros(self.num_bits // 8, dtype=np.uint8)

    def add_hashes(self, hashes: np.ndarray) -> None:
        if len(hashes) == 0:
            return
        pos = _positions(hashes, self.num_hash_functions, self.num_bits).ravel()
        if len(pos) < 4096:
            np.bitwise_or.at(self._bits, pos >> 3, (1 << (pos & 7)).astype(np.uint8))
            return
        bits = np.zeros(self.num_bits, dtype=np.bool_) if not self._bits.any() else \
            np.unpackbits(self._bits, bitorder="little").view(np.bool_)
        bits[pos] = True
        self._bits = np.packbits(bits, bitorder="little")

    def write_array(self, values: Any) -> None:
        """Add a whole column (pyarrow / numpy / list); nulls are ignored."""
        self.add_hashes(self._hasher.hash_array(values))

    def write(self, value: Any) -> None:
        if value is not None:
            self.add_hashes(np.array([self._hasher.hash_value(value)], dtype=np.int64))

    def serialize(self) -> bytes:
        return struct.pack(">i", self.num_hash_functions) + self._bits.tobytes()


class BloomFilterReader(FileIndexReader):
    """Answers Equal / In from a bloom-filter payload: SKIP when a bit is clear, else REMAIN."""

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str,
                 options: Mapping[str, Any] | None = None) -> None:
        self.source = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype = parse_type(dtype)
        self._hasher = _Hasher(self.dtype)
        if len(self.source) < 4:
            raise CorruptDataError("bloom-filter payload shorter than its 4-byte header",
                                   path=self.source.path, offset=self.source.base)
        self._bits_arr: np.ndarray | None = None
        self._unpacked: np.ndarray | None = None
        head = self.source.read(0, 4, "bloom-filter hash count")
        self.num_hash_functions = struct.unpack(">i", head)[0]
        self.num_bits = (len(self.source) - 4) * 8
        if self.num_hash_functions <= 0 or self.num_bits <= 0:
            raise CorruptDataError(f"bloom-filter with {self.num_hash_functions} hash functions and "
                                   f"{self.num_bits} bits", path=self.source.path, offset=self.source.base)
        if self.num_hash_functions > self.num_bits:
            raise CorruptDataError(f"bloom-filter claims {self.num_hash_functions} hash functions for "
                                   f"{self.num_bits} bits", path=self.source.path, offset=self.source.base)

    @property
    def _bits(self) -> np.ndarray:
        if self._bits_arr is None:
            self._bits_arr = np.frombuffer(self.source.read(4, len(self.source) - 4, "bloom-filter bits"),
                                           dtype=np.uint8)
        return self._bits_arr

    def test_hashes(self, hashes: np.ndarray) -> np.ndarray:
        """Vectorised membership test: True where the filter may contain the hash."""
        hashes = np.asarray(hashes, dtype=np.int64)
        if len(hashes) < 4096:
            pos = _positions(hashes, self.num_hash_functions, self.num_bits)
            hit = (self._bits[pos >> 3] >> (pos & 7).astype(np.uint8)) & 1
            return hit.all(axis=0)
        if self._unpacked is None:
            self._unpacked = np.unpackbits(self._bits, bitorder="little").view(np.bool_)
        pos = _positions(hashes, self.num_hash_functions, self.num_bits)
        result = self._unpacked[pos[0]]
        for i in range(1, self.num_hash_functions):
            result &= self._unpacked[pos[i]]
        return result

    def test_hash(self, h: int) -> bool:
        bits = self._bits
        h &= _M64
        h1 = h & 0xFFFFFFFF
        h2 = h >> 32
        nb = self.num_bits
        for i in range(1, self.num_hash_functions + 1):
            c = (h1 + i * h2) & 0xFFFFFFFF
            if c & 0x80000000:
                c = ~c & 0x7FFFFFFF
            p = c % nb
            if not (bits[p >> 3] >> (p & 7)) & 1:
                return False
        return True

    def might_contain(self, value: Any) -> bool:
        return value is None or self.test_hash(self._hasher.hash_value(value))

    def might_contain_many(self, values: Sequence[Any] | np.ndarray | pa.Array) -> np.ndarray:
        """Batch probe of non-null values (bool array in input order, nulls dropped)."""
        return self.test_hashes(self._hasher.hash_array(values))

    def visit_equal(self, literal: Any) -> FileIndexResult:
        if literal is None:
            return REMAIN
        return REMAIN if self.test_hash(self._hasher.hash_value(literal)) else SKIP

    def visit_in(self, literals: Sequence[Any]) -> FileIndexResult:
        for lit in literals:
            if lit is None or self.test_hash(self._hasher.hash_value(lit)):
                return REMAIN
        return SKIP


def create_writer(dtype: DataType | str, options: Mapping[str, Any] | None = None) -> BloomFilterWriter:
    return BloomFilterWriter(dtype, options)


def create_reader(source: ByteSource | bytes, dtype: DataType | str,
                  options: Mapping[str, Any] | None = None) -> BloomFilterReader:
    return BloomFilterReader(source, dtype, options)
