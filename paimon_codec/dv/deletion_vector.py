"""Deletion vectors: the set of deleted row positions of one data file, 32-bit or 64-bit.

Serialised forms ("bins", FORMATS.md §6.2), byte-identical to Paimon's Java writers:

* **32-bit** (default): ``int32 BE magic 1581511376`` + Roaring32 portable bitmap (run-optimised).
  Positions must be at most 2**31 - 1.
* **64-bit** (``deletion-vectors.bitmap64``; also Iceberg's ``deletion-vector-v1`` payload):
  ``int32 LE magic 1681511377`` + ``int64 LE bitmap count`` + for every key ``0..max``:
  ``int32 LE key`` + Roaring32 portable bitmap of the low 32 bits of the positions whose high 32 bits
  are ``key``.  The writer emits the keys densely (empty bitmaps included), as Paimon and Iceberg do;
  the reader also accepts sparse ascending keys.

Internally a vector is a dict ``high 32 bits -> BitMap of low 32 bits`` so both kinds share every
operation, and everything that touches many positions goes through numpy / pyroaring bulk calls.
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap, BitMap64

from ..errors import CorruptDataError, TruncatedDataError, UsageError
from ..formats import translate_error
from ..generated.construct.deletion_vector import (
    DV64_BITMAP_COUNT_DTYPE,
    DV64_BUCKET_KEY_DTYPE,
    DV_JAVA_MAGIC_BITMAP32,
    DV_JAVA_MAGIC_BITMAP64,
    DV_MAGIC_BITMAP32,
    DV_MAGIC_BITMAP64,
    DV_MAGIC_DTYPE,
    DvBin,
)
from ..positions import ranges_of
from ..roaring import EMPTY_PORTABLE, portable_size, read_bitmap, serialize_optimized
from ..runs import Runs, bitmap_runs, join_parts

__all__ = [
    "DeletionVector", "MAGIC_32", "MAGIC_64", "MAX_POSITION_32", "MAX_POSITION_64", "MAGIC_SIZE", "bin_is_32",
    "bin_magic_hex", "bin_kind", "bin_length"
]

#: The magics as the generated ``DvBin`` reads them (one big-endian number before the switch) and as stored.
_MAGIC_32_VALUE = DV_MAGIC_BITMAP32
_MAGIC_64_VALUE = DV_MAGIC_BITMAP64
_MAGIC_32_BYTES = np.array(DV_MAGIC_BITMAP32, DV_MAGIC_DTYPE).tobytes()
_MAGIC_64_BYTES = np.array(DV_MAGIC_BITMAP64, DV_MAGIC_DTYPE).tobytes()
#: Bytes of a bin's magic; a 64-bit bin's bucket count follows it, each bucket's roaring bitmap its key.
MAGIC_SIZE = DV_MAGIC_DTYPE.itemsize
_DV64_HEAD = MAGIC_SIZE + DV64_BITMAP_COUNT_DTYPE.itemsize
_BUCKET_KEY = DV64_BUCKET_KEY_DTYPE.itemsize
#: Paimon's int magics (Java constants, the schema's ``dv_java_magic``): 32-bit written BE, 64-bit LE.
MAGIC_32: int = DV_JAVA_MAGIC_BITMAP32
MAGIC_64: int = DV_JAVA_MAGIC_BITMAP64
MAX_POSITION_32 = 2**31 - 1
#: Largest position a 64-bit vector may hold (Paimon / Iceberg: key <= 0x7FFFFFFE, plus the low bits).
MAX_POSITION_64 = (0x7FFFFFFE << 32) | 0x80000000
_MAX_KEY_64 = 0x7FFFFFFE
_LOW = np.int64(0xFFFFFFFF)
_NO_RUNS32 = np.zeros(0, np.uint32)


def bin_kind(magic: bytes, *, path: str | None = None, offset: int | None = None) -> str:
    """``"32"`` or ``"64"`` from the magic (the first :data:`MAGIC_SIZE` bytes) of a bin, else CorruptDataError."""
    if magic == _MAGIC_32_BYTES:
        return "32"
    if magic == _MAGIC_64_BYTES:
        return "64"
    raise CorruptDataError(f"unknown deletion-vector magic {magic.hex()}", path=path, offset=offset,
                           expected=f"{_MAGIC_32_BYTES.hex()} (32-bit) or {_MAGIC_64_BYTES.hex()} (64-bit)")


def bin_magic_hex(kind: str) -> str:
    return (_MAGIC_32_BYTES if kind == "32" else _MAGIC_64_BYTES).hex()  # a "32" / "64"-bit bin's, for messages


def _bitmap_from_sorted_u32(values: np.ndarray) -> BitMap:
    # pyroaring's fast path takes an array.array of uint32; sorted input makes the insert cheap.
    return BitMap(array.array("I", values.astype(np.uint32, copy=False).tobytes()))


def _part_positions(key: int, bm: BitMap) -> np.ndarray:
    """Full int64 positions of one part (``key`` = high 32 bits, ``bm`` = low 32 bits)."""
    return np.frombuffer(bm.to_array(), dtype=np.uint32).astype(np.int64) + (key << 32)


def _sorted_unique(arr: np.ndarray) -> np.ndarray:
    s = np.sort(arr) if arr.size > 1 else arr
    if s.size > 1:
        s = s[np.concatenate(([True], s[1:] != s[:-1]))]
    return s


class DeletionVector:
    """Deleted row positions of one data file.

    Build with :meth:`from_array` (numpy, fastest), :meth:`from_ranges`, :meth:`from_bitmap` or the
    constructor (any iterable of ints).  ``bitmap64`` chooses the serialised kind.
    """

    __slots__ = ("_parts", "bitmap64")

    def __init__(self, positions: Iterable[int] | np.ndarray | None = None, *, bitmap64: bool = False) -> None:
        self.bitmap64 = bool(bitmap64)
        self._parts: dict[int, BitMap] = {}
        if positions is not None:
            self.delete_many(positions)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_array(cls, positions: np.ndarray | Sequence[int], *, bitmap64: bool = False) -> DeletionVector:
        dv = cls(bitmap64=bitmap64)
        dv.delete_many(positions)
        return dv

    @classmethod
    def from_ranges(cls, ranges: Iterable[Sequence[int]], *, bitmap64: bool = False) -> DeletionVector:
        """From ``[start, end)`` runs (end exclusive), e.g. the golden / CLI position encoding."""
        dv = cls(bitmap64=bitmap64)
        for start, end in ranges:
            dv.delete_range(int(start), int(end))
        return dv

    @classmethod
    def from_bitmap(cls, bitmap: BitMap | BitMap64, *, bitmap64: bool | None = None) -> DeletionVector:
        wide = isinstance(bitmap, BitMap64)
        dv = cls(bitmap64=wide if bitmap64 is None else bitmap64)
        if wide:
            dv.delete_many(np.frombuffer(bitmap.to_array(), dtype=np.uint64).astype(np.int64))
        elif len(bitmap):
            dv._check_max(int(bitmap.max()))
            dv._parts[0] = BitMap(bitmap)
        return dv

    @classmethod
    def from_parts(cls, parts: Mapping[int, BitMap], *, bitmap64: bool = True) -> DeletionVector:
        """From ``high 32 bits -> BitMap of low 32 bits`` (taken over, not copied)."""
        dv = cls(bitmap64=bitmap64)
        for key, bm in parts.items():
            if len(bm):
                dv._parts[int(key)] = bm
        if dv._parts:
            dv._check_max((max(dv._parts) << 32) | int(dv._parts[max(dv._parts)].max()))
        return dv

    def _check_max(self, largest: int) -> None:
        limit = MAX_POSITION_64 if self.bitmap64 else MAX_POSITION_32
        if largest > limit:
            kind = "64-bit" if self.bitmap64 else "32-bit"
            raise UsageError(f"position {largest} does not fit a {kind} deletion vector",
                                   expected=f"positions in [0, {limit}]")

    # ------------------------------------------------------------------ mutation
    def delete(self, position: int) -> None:
        position = int(position)
        if position < 0:
            raise UsageError(f"negative row position {position}")
        self._check_max(position)
        self._parts.setdefault(position >> 32, BitMap()).add(position & 0xFFFFFFFF)

    def delete_range(self, start: int, end: int) -> None:
        """Delete every position in ``[start, end)``."""
        if end <= start:
            return
        if start < 0:
            raise UsageError(f"negative row position {start}")
        self._check_max(end - 1)
        key = start >> 32
        while start < end:
            stop = min(end, (key + 1) << 32)
            self._parts.setdefault(key, BitMap()).add_range(start & 0xFFFFFFFF, stop - (key << 32))
            start, key = stop, key + 1

    def delete_many(self, positions: Iterable[int] | np.ndarray) -> None:
        """Delete many positions at once (duplicates and any order allowed)."""
        if isinstance(positions, (BitMap, BitMap64)):
            positions = np.frombuffer(positions.to_array(), dtype=np.uint32 if isinstance(positions, BitMap)
                                      else np.uint64)
        if not isinstance(positions, np.ndarray):
            positions = np.fromiter((int(p) for p in positions), dtype=np.int64)
        if positions.size == 0:
            return
        if positions.dtype.kind not in "iu":
            raise UsageError(f"row positions must be integers, got {positions.dtype}")
        if positions.dtype.kind == "i" and int(positions.min()) < 0:
            raise UsageError(f"negative row position {int(positions.min())}")
        largest = int(positions.max())
        self._check_max(largest)
        if largest <= 0xFFFFFFFF:
            self._merge_part(0, _sorted_unique(positions.astype(np.uint32, copy=False)))
            return
        values = _sorted_unique(positions.astype(np.int64, copy=False))
        highs = values >> 32
        keys, starts = np.unique(highs, return_index=True)
        bounds = list(starts) + [values.size]
        for i, key in enumerate(keys.tolist()):
            self._merge_part(key, (values[bounds[i]:bounds[i + 1]] & _LOW).astype(np.uint32))

    def _merge_part(self, key: int, low_sorted: np.ndarray) -> None:
        bm = _bitmap_from_sorted_u32(low_sorted)
        old = self._parts.get(key)
        if old is None:
            self._parts[key] = bm
        else:
            old |= bm

    def merge(self, other: DeletionVector) -> DeletionVector:
        """Add every position of ``other`` (Paimon's ``DeletionVector.merge``); returns self."""
        for key, bm in other._parts.items():
            mine = self._parts.get(key)
            if mine is None:
                if key or len(bm):
                    self._check_max((key << 32) | int(bm.max()))
                self._parts[key] = BitMap(bm)
            else:
                mine |= bm
        return self

    # ------------------------------------------------------------------ queries
    @property
    def cardinality(self) -> int:
        return sum(len(bm) for bm in self._parts.values())

    def __len__(self) -> int:
        return self.cardinality

    def is_empty(self) -> bool:
        return not any(len(bm) for bm in self._parts.values())

    def is_deleted(self, position: int) -> bool:
        if position < 0:
            return False
        bm = self._parts.get(position >> 32)
        return bm is not None and (position & 0xFFFFFFFF) in bm

    def __contains__(self, position: int) -> bool:
        return self.is_deleted(int(position))

    def contains_many(self, positions: np.ndarray | Sequence[int]) -> np.ndarray:
        """Vectorised :meth:`is_deleted`: a bool array, True where the position is deleted."""
        pos = np.asarray(positions, dtype=np.int64)
        out = np.zeros(pos.shape, dtype=bool)
        for key, bm in self._parts.items():
            if not len(bm):
                continue
            out |= np.isin(pos, _part_positions(key, bm), assume_unique=False)
        return out

    def mask(self, n: int, start: int = 0) -> np.ndarray:
        """Bool array over rows ``[start, start + n)``: True where the row is deleted."""
        out = np.zeros(int(n), dtype=bool)
        end = start + n
        for key, bm in self._parts.items():
            lo, hi = key << 32, (key + 1) << 32
            if hi <= start or lo >= end or not len(bm):
                continue
            deleted = _part_positions(key, bm) - start
            deleted = deleted[(deleted >= 0) & (deleted < n)]
            out[deleted] = True
        return out

    def keep_mask(self, n: int, start: int = 0) -> np.ndarray:
        """Bool array over rows ``[start, start + n)``: True where the row survives."""
        return ~self.mask(n, start)

    def filter(self, positions: np.ndarray | Sequence[int]) -> np.ndarray:
        """The given positions that are *not* deleted (order kept)."""
        pos = np.asarray(positions, dtype=np.int64)
        return pos[~self.contains_many(pos)]

    def to_array(self) -> np.ndarray:
        """Sorted deleted positions as int64."""
        chunks = []
        for key in sorted(self._parts):
            bm = self._parts[key]
            if len(bm):
                chunks.append(_part_positions(key, bm))
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)

    def run_arrays(self) -> Runs:
        """Runs of deleted positions (``starts``, inclusive ``lasts``), part by part from the roaring
        containers: the cost follows the bitmaps' size, not the number of deleted rows.  A 32-bit vector's
        runs are ``uint32`` (8 bytes a run, at most 32x the bitmap's bytes), a 64-bit vector's ``int64``."""
        if not self.bitmap64:  # only part 0 (to_bin refuses anything else)
            part = self._parts.get(0)
            return bitmap_runs(part) if part is not None and len(part) else Runs(_NO_RUNS32, _NO_RUNS32)
        return join_parts([(key, bitmap_runs(self._parts[key])) for key in sorted(self._parts)])

    def ranges(self) -> list[list[int]]:
        """Maximal ``[start, end)`` runs of deleted positions."""
        return ranges_of(self)

    def to_bitmap(self) -> BitMap | BitMap64:
        """A pyroaring BitMap (only positions < 2**32) or BitMap64 copy of the positions."""
        keys = [k for k, bm in self._parts.items() if len(bm)]
        if not keys or keys == [0]:
            return BitMap(self._parts.get(0, BitMap()))
        return BitMap64(self.to_array().astype(np.uint64))

    def parts(self) -> dict[int, BitMap]:
        """``high 32 bits -> BitMap`` of the non-empty parts (shared, do not mutate)."""
        return {k: bm for k, bm in sorted(self._parts.items()) if len(bm)}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DeletionVector):
            return NotImplemented
        return self.parts() == other.parts()

    def __repr__(self) -> str:
        kind = "64" if self.bitmap64 else "32"
        return f"DeletionVector(kind={kind}, cardinality={self.cardinality})"

    # ------------------------------------------------------------------ bins
    def to_bin(self) -> dict[str, Any]:
        """This vector as a generated ``DvBin`` object (roaring payloads as run-optimised bytes).

        64-bit vectors list every key from 0 to the largest, empty bitmaps included (dense), as the
        schema and Paimon / Iceberg write them.  Run-optimises the bitmaps in place.
        """
        if not self.bitmap64:
            keys = [k for k, bm in self._parts.items() if len(bm)]
            if keys and keys != [0]:
                raise UsageError("a 32-bit deletion vector cannot hold positions >= 2**32")
            return {"magic": _MAGIC_32_VALUE, "bitmap": {"roaring": serialize_optimized(self._parts.get(0, BitMap()))}}
        parts = self.parts()
        count = (max(parts) + 1) if parts else 0
        buckets = [{"key": key, "roaring": serialize_optimized(parts[key]) if key in parts else EMPTY_PORTABLE}
                   for key in range(count)]
        return {"magic": _MAGIC_64_VALUE, "bitmap": {"bitmaps": buckets}}

    def serialize(self) -> bytes:
        """The bin (magic + bitmap) exactly as Paimon writes it; run-optimises the bitmaps in place."""
        return DvBin.build(self.to_bin())

    @classmethod
    def from_bin(cls, obj: Mapping[str, Any], *, path: str | None = None, base: int = 0) -> DeletionVector:
        """Decode a parsed ``DvBin`` (``base`` = file offset of its magic, for error messages).

        Checks what the layout alone cannot: a 32-bit roaring payload is exactly one bitmap (pyroaring
        ignores trailing bytes), 64-bit keys ascend within ``[0, 0x7FFFFFFE]``.
        """
        bitmap = obj["bitmap"]
        if bin_is_32(obj):
            data = bitmap["roaring"]
            at = base + MAGIC_SIZE
            size = portable_size(data, path=path, base=at)
            if size != len(data):
                raise CorruptDataError(f"{len(data) - size} stray bytes after the bitmap", path=path,
                                       offset=at + size, expected=f"bin of {MAGIC_SIZE + size} bytes")
            bm = read_bitmap(data, what="deletion vector bitmap", offset=at, path=path)
            dv = cls(bitmap64=False)
            if len(bm):
                dv._parts[0] = bm
            return dv
        dv, last_key, pos = cls(bitmap64=True), -1, base + _DV64_HEAD
        for bucket in bitmap["bitmaps"]:
            key, data = bucket["key"], bucket["roaring"]
            if key <= last_key or key > _MAX_KEY_64:
                raise CorruptDataError(f"64-bit deletion vector key {key} out of order or range", path=path,
                                       offset=pos, expected=f"ascending keys in [0, {_MAX_KEY_64}]")
            bm = read_bitmap(data, what="64-bit deletion vector bitmap", offset=pos + _BUCKET_KEY, path=path)
            if len(bm):
                dv._parts[key] = bm
            pos += _BUCKET_KEY + len(data)
            last_key = key
        return dv

    @classmethod
    def deserialize(cls, data: bytes | memoryview, *, path: str | None = None, base: int = 0) -> DeletionVector:
        """Decode a bin (magic + bitmap); the whole of ``data`` must be consumed."""
        if len(data) < MAGIC_SIZE:
            raise TruncatedDataError("deletion vector shorter than its magic", path=path, offset=base,
                                     expected=f"at least {MAGIC_SIZE} bytes")
        bin_kind(bytes(data[:MAGIC_SIZE]), path=path, offset=base)
        try:
            obj = DvBin.parse(data)
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, path, "deletion vector").with_base_offset(base) from None
        used = bin_length(obj)
        if used != len(data):
            raise CorruptDataError(f"{len(data) - used} stray bytes after the last bitmap", path=path,
                                   offset=base + used, expected=f"bin of {used} bytes")
        return cls.from_bin(obj, path=path, base=base)


def bin_length(obj: Mapping[str, Any]) -> int:
    """Byte length of a parsed or to-be-built ``DvBin`` (what the entry's ``size`` field holds)."""
    bitmap = obj["bitmap"]
    if bin_is_32(obj):
        return MAGIC_SIZE + len(bitmap["roaring"])
    return _DV64_HEAD + sum(_BUCKET_KEY + len(b["roaring"]) for b in bitmap["bitmaps"])


def bin_is_32(obj: Mapping[str, Any]) -> bool:
    """Whether a parsed or to-be-built ``DvBin`` is a 32-bit bin (its magic as the codec reads it)."""
    return bool(obj["magic"] == _MAGIC_32_VALUE)
