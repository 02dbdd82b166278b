"""Bloom-filter file index (``"bloom-filter"``): Paimon's ``BloomFilter64`` writer and reader.

Payload: ``int32 BE k`` then ``num_bits / 8`` bytes of bit set (bit i = byte ``i >> 3``, mask
``1 << (i & 7)``).  Sizing from the options ``items`` / ``fpp``; values are hashed by
:mod:`.hashing` (Paimon's ``FastHash``, FORMATS.md §3).  The payload is parsed and built by the
generated ``bloom_filter`` codec.  Whole columns are set and probed by the numpy kernels of
:mod:`._kernel`; single values and literals use pure-int arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...errors import CorruptDataError, InvalidOptionError, PaimonCodecError
from ...fileio import ByteSource
from ...formats import translate_error
from ...generated.construct import bloom_filter as _codec
from ...types import DataType, parse_type
from ..reader import FileIndexReader
from ..result import REMAIN, SKIP, FileIndexResult
from ._kernel import _scalar_positions, add_values, test_values
from .hashing import _M64, _Hasher

__all__ = [
    "BloomFilterWriter",
    "BloomFilterReader",
    "bloom_sizing",
    "create_writer",
    "create_reader",
    "DEFAULT_ITEMS",
    "DEFAULT_FPP",
    "MAX_HASH_FUNCTIONS",
]

DEFAULT_ITEMS = 1_000_000
DEFAULT_FPP = 0.1
#: the generated head (``num_hash_functions``) before the bit set
_HEAD_SIZE = _codec.BLOOM_FILTER_HEAD_SIZE


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


#: The largest hash-function count Paimon's ``BloomFilter64`` sizing can produce (one item at the smallest
#: positive fpp): a probe costs k hashes, so a file may not claim more than a writer could have written.
MAX_HASH_FUNCTIONS = bloom_sizing(1, 5e-324)[1]


def _options(options: Mapping[str, Any] | None) -> tuple[int, float]:
    options = options or {}
    try:
        items = int(str(options.get("items", DEFAULT_ITEMS)).strip())
        fpp = float(str(options.get("fpp", DEFAULT_FPP)).strip())
    except ValueError as exc:
        raise InvalidOptionError(f"bad bloom-filter option: {exc}") from exc
    return items, fpp


def _codec_error(exc: Exception, source: ByteSource, what: str) -> PaimonCodecError:
    return translate_error(exc, source.path, what).with_base_offset(source.base)


class BloomFilterWriter:
    """Collects values of one column and serializes Paimon's bloom-filter payload."""

    index_type = "bloom-filter"

    def __init__(self, dtype: DataType | str, options: Mapping[str, Any] | None = None) -> None:
        self.dtype = parse_type(dtype)
        self._hasher = _Hasher(self.dtype)
        items, fpp = _options(options)
        self.num_bits, self.num_hash_functions = bloom_sizing(items, fpp)
        self._buf = bytearray(self.num_bits // 8)  # the bit set; scalar writes set bits here
        self._bits = np.frombuffer(self._buf, dtype=np.uint8)  # writable numpy view of _buf
        self._empty = True

    def add_hashes(self, hashes: np.ndarray) -> None:
        """Add finished 64-bit hashes (int64)."""
        self._add(np.asarray(hashes, dtype=np.int64), mixed=False)

    def _add(self, values: np.ndarray, mixed: bool) -> None:
        if len(values) == 0:
            return
        add_values(self._bits, self._empty, values, mixed, self.num_hash_functions, self.num_bits)
        self._empty = False

    def write_array(self, values: Any) -> None:
        """Add a whole column (pyarrow / numpy / list); nulls are ignored."""
        arr, mixed = self._hasher.prehash_array(values)
        self._add(arr, mixed)

    def write(self, value: Any) -> None:
        if value is None:
            return
        buf = self._buf
        for p in _scalar_positions(self._hasher.hash_value(value), self.num_hash_functions, self.num_bits):
            buf[p >> 3] |= 1 << (p & 7)
        self._empty = False

    def serialize(self) -> bytes:
        return _codec.BloomFilter.build({"num_hash_functions": self.num_hash_functions,
                                         "bit_set": bytes(self._buf)})


class BloomFilterReader(FileIndexReader):
    """Answers Equal / In from a bloom-filter payload: SKIP when a bit is clear, else REMAIN.

    The header is parsed on open; the bit set is read (and parsed by the generated codec)
    on the first probe.
    """

    def __init__(self, source: ByteSource | bytes, dtype: DataType | str,
                 options: Mapping[str, Any] | None = None) -> None:
        self.source = source if isinstance(source, ByteSource) else ByteSource(source)
        self.dtype = parse_type(dtype)
        self._hasher = _Hasher(self.dtype)
        if len(self.source) < _HEAD_SIZE:
            raise CorruptDataError(f"bloom-filter payload shorter than its {_HEAD_SIZE}-byte header",
                                   path=self.source.path, offset=self.source.base,
                                   expected=f"at least {_HEAD_SIZE} bytes")
        self._bit_set: bytes | None = None
        self._bits_arr: np.ndarray | None = None
        head = self.source.read(0, _HEAD_SIZE, "bloom-filter hash count")
        try:
            self.num_hash_functions = _codec.fast_parse_bloom_filter_head(head)[0]["num_hash_functions"]
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise _codec_error(exc, self.source, "bloom-filter header") from None
        self.num_bits = (len(self.source) - _HEAD_SIZE) * 8
        if self.num_hash_functions <= 0 or self.num_bits <= 0:
            raise CorruptDataError(f"bloom-filter with {self.num_hash_functions} hash functions and "
                                   f"{self.num_bits} bits", path=self.source.path, offset=self.source.base,
                                   expected="at least 1 hash function and a bit set of at least 1 byte")
        if self.num_hash_functions > min(self.num_bits, MAX_HASH_FUNCTIONS):
            raise CorruptDataError(f"bloom-filter claims {self.num_hash_functions} hash functions for "
                                   f"{self.num_bits} bits", path=self.source.path, offset=self.source.base,
                                   expected=f"at most {min(self.num_bits, MAX_HASH_FUNCTIONS)} (the most "
                                            "Paimon's sizing ever gives)")

    def _load(self) -> bytes:
        if self._bit_set is None:
            data = self.source.read(0, len(self.source), "bloom-filter payload")
            try:
                self._bit_set = bytes(_codec.BloomFilter.parse(data).bit_set)
            except Exception as exc:  # noqa: BLE001
                raise _codec_error(exc, self.source, "bloom-filter payload") from None
        return self._bit_set

    @property
    def _bits(self) -> np.ndarray:
        if self._bits_arr is None:
            self._bits_arr = np.frombuffer(self._load(), dtype=np.uint8)
        return self._bits_arr

    def _test(self, values: np.ndarray, mixed: bool) -> np.ndarray:
        """Membership of each value (large batches split over threads by the kernel)."""
        if len(values) == 0:
            return np.empty(0, dtype=np.bool_)
        return test_values(self._bits, values, mixed, self.num_hash_functions, self.num_bits)

    def test_hashes(self, hashes: np.ndarray) -> np.ndarray:
        """Vectorised membership test: True where the filter may contain the hash."""
        return self._test(np.asarray(hashes, dtype=np.int64), mixed=False)

    def test_hash(self, h: int) -> bool:
        """Scalar probe with pure ints, stopping at the first clear bit."""
        bits = self._bit_set if self._bit_set is not None else self._load()
        nb = self.num_bits
        h &= _M64
        c, h2 = h & 0xFFFFFFFF, h >> 32
        for _ in range(self.num_hash_functions):
            c = (c + h2) & 0xFFFFFFFF
            p = (c ^ 0xFFFFFFFF if c & 0x80000000 else c) % nb
            if not (bits[p >> 3] >> (p & 7)) & 1:
                return False
        return True

    def might_contain(self, value: Any) -> bool:
        return value is None or self.test_hash(self._hasher.hash_value(value))

    def might_contain_many(self, values: Sequence[Any] | np.ndarray | pa.Array) -> np.ndarray:
        """Batch probe of non-null values (bool array in input order, nulls dropped)."""
        arr, mixed = self._hasher.prehash_array(values)
        return self._test(arr, mixed)

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
