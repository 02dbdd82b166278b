"""Bloom-filter file index (``"bloom-filter"``): Paimon's ``BloomFilter64`` + ``FastHash``.

Payload: ``int32 BE k`` then ``num_bits / 8`` bytes of bit set (bit i = byte ``i >> 3``, mask
``1 << (i & 7)``).  Sizing from the options ``items`` / ``fpp``; hashes are XXH64 (seed 0) of the
bytes for strings/binary and Thomas Wang's 64-bit mix (arithmetic shifts) of the value as int64
for numbers, times and float bits (FORMATS.md §3).  The payload is parsed and built by the generated
``bloom_filter`` codec.  Building and probing run chunked numpy kernels (:class:`_PositionKernel`:
no per-value Python work, scratch buffers reused per chunk); strings are hashed by
:mod:`.xxh64`; single literals use pure-int arithmetic.  A large build is split over up to
``_MAX_THREADS`` threads (numpy releases the GIL in every kernel call, including the scatter), which
all store into one byte-per-bit array; its cost is dominated by those random stores (about 60% of
a single-threaded build of 1M values), so extra cores are the one lever numpy leaves.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pyarrow as pa
import xxhash

from ..errors import CorruptDataError, InvalidOptionError, PaimonCodecError, UnsupportedTypeError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import bloom_filter as _codec
from ..types import DataType, parse_type
from .keys import KeyCodec
from .reader import FileIndexReader
from .result import REMAIN, SKIP, FileIndexResult
from .xxh64 import xxh64_binary_array

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
#: the generated head (``num_hash_functions``) before the bit set
_HEAD_SIZE = _codec.BLOOM_FILTER_HEAD_SIZE
_CHUNK = 16384  # values per kernel pass: the (k, chunk) uint32 / intp blocks stay within L2/L3
_PARALLEL_MIN = 1 << 17  # values from which a dense build is split across threads
_MAX_THREADS = 4
_U64 = np.uint64
# Thomas Wang's shift-add steps written as wrapping multiplications (mod 2**64):
# ~k + (k << 21) = k * (2**21 - 1) - 1;  k + (k << 3) + (k << 8) = k * 265;
# k + (k << 2) + (k << 4) = k * 21;  k + (k << 31) = k * (2**31 + 1).
_MUL_21, _MUL_265, _MUL_21B, _MUL_31 = (1 << 21) - 1, 265, 21, (1 << 31) + 1


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


def _scalar_positions(h: int, k: int, num_bits: int) -> list[int]:
    """Bit positions of one hash, in pure ints (one value does not pay numpy's call overhead)."""
    h &= _M64
    c, h2 = h & 0xFFFFFFFF, h >> 32
    out = []
    for _ in range(k):
        c = (c + h2) & 0xFFFFFFFF
        out.append((c ^ 0xFFFFFFFF if c & 0x80000000 else c) % num_bits)
    return out


_LO, _HI = (0, 1) if sys.byteorder == "little" else (1, 0)  # uint32 halves of an int64


class _PositionKernel:
    """Bit positions of many hashes, a chunk at a time, in preallocated buffers.

    For a hash h: ``h1`` = low 32 bits, ``h2`` = high 32 bits; for i in 1..k ``c = h1 + i * h2``
    wraps like a Java int, a negative ``c`` becomes ``~c``, and the position is ``c % num_bits``.
    In uint32, ``c`` is negative as an int exactly when ``c >= 2**31``, and then ``~c < 2**31 <= c``:
    the folded value is ``min(c, ~c)``.  It is non-negative, so the remainder runs in uint32 as
    ``c - (c // n) * n`` (numpy divides uint32 by a scalar with a precomputed reciprocal; its
    remainder loop is several times slower).  The k rows of a chunk live in one ``(k, m)`` uint32
    block, so the fold and the remainder are five whole-block calls rather than five per row; the
    block is then widened to intp, shape ``(k, m)``, which is what fancy indexing wants.
    """

    def __init__(self, k: int, num_bits: int, size: int) -> None:
        self.k = k
        self.nb = np.uint32(num_bits)
        self.chunk = max(1, min(_CHUNK, size))
        c = self.chunk
        self._h = np.empty(c, dtype=np.int64)
        self._t = np.empty(c, dtype=np.int64)
        self._h2 = np.empty(c, dtype=np.uint32)
        self._c = np.empty((k, c), dtype=np.uint32)
        self._f = np.empty((k, c), dtype=np.uint32)
        self._pos = np.empty((k, c), dtype=np.intp)

    def chunks(self, values: np.ndarray, mixed: bool) -> Iterator[tuple[int, np.ndarray]]:
        """``(start, positions)`` per chunk of ``values`` (int64 hashes, or keys when ``mixed``).

        ``positions`` is a view of an internal buffer, valid until the next chunk.
        """
        n = len(values)
        for start in range(0, n, self.chunk):
            m = min(self.chunk, n - start)
            h = self._h[:m]
            if mixed:
                _wang_inplace(h, self._t[:m], values[start:start + m])
            else:
                h[...] = values[start:start + m]
            yield start, self._positions(h)

    def _positions(self, h: np.ndarray) -> np.ndarray:
        m = len(h)
        halves = h.view(np.uint32)
        c, f, h2 = self._c[:, :m], self._f[:, :m], self._h2[:m]
        h2[...] = halves[_HI::2]
        np.add(halves[_LO::2], h2, out=c[0])
        for i in range(1, self.k):
            np.add(c[i - 1], h2, out=c[i])
        nb = self.nb
        np.invert(c, out=f)
        np.minimum(c, f, out=c)
        np.floor_divide(c, nb, out=f)
        f *= nb
        c -= f
        pos = self._pos[:, :m]
        np.copyto(pos, c, casting="unsafe")
        return pos


def _build_threads() -> int:
    """Threads for a large dense build: the CPUs this process may use, at most ``_MAX_THREADS``."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(_MAX_THREADS, cpus))


def _split(n: int, threads: int) -> list[tuple[int, int]]:
    """``[start, end)`` slices of ``n`` values, one per thread, each at least ``_PARALLEL_MIN / 2``."""
    parts = max(1, min(threads, n // max(1, _PARALLEL_MIN // 2)))
    cuts = [n * i // parts for i in range(parts + 1)]
    return list(zip(cuts[:-1], cuts[1:], strict=True))


def _scatter(dense: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int) -> None:
    """Set ``dense[p] = True`` (one byte per bit) for every bit position of ``values``.

    Safe to run in several threads over one ``dense``: numpy releases the GIL in these loops, and
    concurrent threads only ever store the byte 1 (no read-modify-write), so no store is lost.
    """
    kernel = _PositionKernel(k, num_bits, len(values))
    for _, pos in kernel.chunks(values, mixed):
        dense[pos] = True


def _probe(bits: np.ndarray, values: np.ndarray, mixed: bool, k: int, num_bits: int,
           out: np.ndarray) -> None:
    """``out[i]`` = every probe bit of ``values[i]`` is set: gather the byte of each bit, shift it
    down, AND across k."""
    kernel = _PositionKernel(k, num_bits, len(values))
    c = kernel.chunk
    byte_idx = np.empty((k, c), dtype=np.intp)
    shift = np.empty((k, c), dtype=np.uint8)
    got = np.empty((k, c), dtype=np.uint8)
    for start, pos in kernel.chunks(values, mixed):
        m = pos.shape[1]
        bi, sh, g = byte_idx[:, :m], shift[:, :m], got[:, :m]
        np.right_shift(pos, 3, out=bi)
        np.bitwise_and(pos, 7, out=sh, casting="unsafe")
        np.take(bits, bi, out=g, mode="clip")  # positions are < num_bits by construction
        np.right_shift(g, sh, out=g)
        r = out[start:start + m].view(np.uint8)
        r[...] = g[0]
        for i in range(1, k):
            r &= g[i]
        r &= 1


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
        n = len(values)
        if n == 0:
            return
        k, nb = self.num_hash_functions, self.num_bits
        kernel = _PositionKernel(k, nb, n)
        if n * k * 64 < nb:  # a few values: OR their bits into the packed set (``.at`` handles repeats)
            for _, pos in kernel.chunks(values, mixed):
                np.bitwise_or.at(self._bits, pos >> 3, np.left_shift(1, pos & 7).astype(np.uint8))
        else:  # many values: scatter into one byte per bit, then pack
            dense = (np.zeros(nb, dtype=np.bool_) if self._empty
                     else np.unpackbits(self._bits, bitorder="little").view(np.bool_))
            parts = _split(n, _build_threads())
            if len(parts) == 1:
                _scatter(dense, values, mixed, k, nb)
            else:
                with ThreadPoolExecutor(len(parts)) as pool:
                    for f in [pool.submit(_scatter, dense, values[a:b], mixed, k, nb) for a, b in parts]:
                        f.result()
            self._bits[:] = np.packbits(dense, bitorder="little")
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
                                   path=self.source.path, offset=self.source.base)
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
                                   f"{self.num_bits} bits", path=self.source.path, offset=self.source.base)
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
        """Membership of each value (large batches split over threads, each filling its own slice)."""
        n = len(values)
        out = np.empty(n, dtype=np.bool_)
        if n == 0:
            return out
        bits, k, nb = self._bits, self.num_hash_functions, self.num_bits
        parts = _split(n, _build_threads())
        if len(parts) == 1:
            _probe(bits, values, mixed, k, nb, out)
        else:
            with ThreadPoolExecutor(len(parts)) as pool:
                for f in [pool.submit(_probe, bits, values[a:b], mixed, k, nb, out[a:b]) for a, b in parts]:
                    f.result()
        return out

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
