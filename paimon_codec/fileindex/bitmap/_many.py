"""Many equality lookups on one bitmap index in one call (:meth:`ManyLookups.lookup_many`).

A lookup at a time costs a dozen Python calls (map the literal, find its key, work out where its bitmap
ends, read, decode): ~10-30 us however little the bitmap holds, where Java's lookup costs a few.  Asked
for many literals at once, the reader maps them all, finds every key of a large fixed-width V1
dictionary in one vectorised pass (the per-key path sorts the whole dictionary first), works out every
bitmap's extent with one ``searchsorted``, reads the span holding the wanted bitmaps in one read and
decodes each from it.  The answers are the per-lookup path's (same keys, same first-entry-wins rule,
same extents, same checks - a bitmap naming a row past the row count is corrupt on both); both fill and
use the reader's bitmap cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pyroaring import BitMap

from ...fileio import ByteSource
from ...roaring import read_bitmap
from ._dictionary import _SmallV1, _V1Dictionary
from ._layout import _EMPTY, _V1, _corrupt

#: low bits of the candidate table of a vectorised key search (2**20 flags: 1 MB)
_TABLE_BITS = 20
#: a span read at once may hold this many bytes besides the wanted bitmaps (else: one read each)
_SPAN_SLACK = 1 << 20


class ManyLookups:
    """Mixin of :class:`~.reader.BitmapIndexReader`: batched equality lookups."""

    source: ByteSource
    codec: Any
    version: int
    body_start: int
    row_count: int
    _cache: dict[Any, BitMap]

    def _map_literal(self, literal: Any) -> int | bytes:
        raise NotImplementedError

    def null_bitmap(self) -> BitMap:
        raise NotImplementedError

    def _load_v1(self) -> _V1Dictionary | _SmallV1:
        raise NotImplementedError

    def _find_v1(self, key: int | bytes) -> tuple[int, int] | None:
        raise NotImplementedError

    def _refuse_duplicate_keys(self, v1: _V1Dictionary | _SmallV1) -> None:
        raise NotImplementedError

    def _find_v2(self, key: int | bytes) -> tuple[int, int] | None:
        raise NotImplementedError

    def _v1_extent(self, off: int) -> int:
        raise NotImplementedError

    def _v1_sorted_starts(self, v1: _V1Dictionary) -> np.ndarray:
        raise NotImplementedError

    def _read(self, offset: int, size: int, what: str) -> bytes:
        raise NotImplementedError

    def _within_rows(self, bm: BitMap, off: int) -> BitMap:
        raise NotImplementedError

    def lookup_many(self, literals: Sequence[Any]) -> list[BitMap]:
        """Rows equal to each literal, in order (``None``: the null rows, as :meth:`lookup`).

        The bitmaps are the reader's cached ones: treat them as read-only (copy before changing one)."""
        if self.codec.kind == "string":  # KeyCodec.map_value of str / bytes inline: ~1 us a literal less
            keys = [lit.encode("utf-8", "surrogatepass") if type(lit) is str else lit if type(lit) is bytes
                    else None if lit is None else self._map_literal(lit) for lit in literals]
        else:
            keys = [None if lit is None else self._map_literal(lit) for lit in literals]
        cache = self._cache
        todo = list(dict.fromkeys(k for k in keys if k is not None and k not in cache))
        if todo:
            self._read_many(self._locate_many(todo))
        null = self.null_bitmap() if any(k is None for k in keys) else _EMPTY
        return [null if k is None else cache[k] for k in keys]

    def _locate_many(self, keys: list[Any]) -> dict[Any, tuple[int, int] | None]:
        """``key -> (body offset, length or -1)`` of its bitmap, or None when the index holds no such key."""
        if self.version == _V1:
            v1 = self._load_v1()
            if isinstance(v1, _V1Dictionary) and v1.raw_keys is not None and v1.raw_keys.dtype.kind in "iu" \
                    and len(keys) > 1:  # float keys: -0.0 == 0.0 as values, not as bits - one at a time
                self._refuse_duplicate_keys(v1)
                return _first_hits(v1, keys)
            if isinstance(v1, _V1Dictionary) and self.codec.kind == "string" and len(keys) > 1:
                # many string keys: the dictionary's key table once (what the second per-key lookup builds),
                # checked for duplicate keys once, then a dict lookup a key
                self._refuse_duplicate_keys(v1)
                table, offsets = v1.string_table(), v1.offsets
                out: dict[Any, tuple[int, int] | None] = {}
                for k in keys:
                    i = table.get(k, -1)
                    out[k] = None if i < 0 else (int(offsets[i]), -1)
                return out
            return {k: self._find_v1(k) for k in keys}
        return {k: self._find_v2(k) for k in keys}

    def _read_many(self, locs: dict[Any, tuple[int, int] | None]) -> None:
        """Read and cache the bitmap of every located key (inline single rows need no read)."""
        cache, src = self._cache, self.source
        wanted: list[tuple[Any, int]] = []
        recorded: list[int] = []  # each wanted bitmap's recorded length (V2; -1: to the payload's end)
        for key, loc in locs.items():
            if loc is None:
                cache[key] = _EMPTY
            elif loc[0] < 0:
                cache[key] = self._within_rows(BitMap([-1 - loc[0]]), loc[0])
            else:
                wanted.append((key, loc[0]))
                recorded.append(loc[1])
        if not wanted:
            return
        offs = np.fromiter((off for _, off in wanted), dtype=np.int64, count=len(wanted))
        lengths = self._extents(offs, recorded)
        starts = self.body_start + offs
        for (_, off), start, length in zip(wanted, starts.tolist(), lengths.tolist(), strict=True):
            if start + length > len(src) or length < 0:
                raise _corrupt(f"bitmap at body offset {off} ({length} bytes) runs past the payload", src, start,
                               f"a bitmap inside the body ({len(src) - self.body_start} bytes)")
        lo, hi = int(starts.min()), int((starts + lengths).max())
        if hi - lo > int(lengths.sum()) + _SPAN_SLACK:  # far apart: one read each
            span, lo = None, 0
        else:
            pre = getattr(self, "_pre", b"")
            # the span of the wanted bitmaps: a view of an in-memory payload (a copy of megabytes otherwise)
            span = memoryview(pre[lo:hi] if hi <= len(pre) else src.view(lo, hi - lo, "bitmaps"))
        rows, deserialize = self.row_count, BitMap.deserialize
        for (key, off), start, length in zip(wanted, starts.tolist(), lengths.tolist(), strict=True):
            data = span[start - lo:start - lo + length] if span is not None else self._read(start, length, "bitmap")
            bm = None
            if length >= 8:  # the checked decoder's fast path; anything it would refuse is decoded by it below
                try:
                    bm = deserialize(data)  # type: ignore[arg-type]  # any buffer (memoryview: no copy)
                except Exception:  # noqa: BLE001 - read_bitmap raises the one error for these bytes
                    bm = None
            if bm is None:
                bm = read_bitmap(data, what=f"roaring bitmap at body offset {off}", path=src.path,
                                 offset=src.base + start)
            cache[key] = bm if not bm or bm.max() < rows else self._within_rows(bm, off)

    def _extents(self, offs: np.ndarray, lengths: list[int]) -> np.ndarray:
        """Byte length of each bitmap at body offset ``offs`` (V1: up to the next bitmap; V2: as recorded,
        a negative length running to the end of the payload)."""
        if self.version != _V1:
            out = np.asarray(lengths, dtype=np.int64)
            to_end = len(self.source) - self.body_start - offs
            return np.where(out < 0, to_end, out)
        v1 = self._load_v1()
        if isinstance(v1, _SmallV1):
            return np.fromiter((self._v1_extent(int(o)) for o in offs), dtype=np.int64, count=len(offs))
        starts = self._v1_sorted_starts(v1)
        i = np.searchsorted(starts, offs, side="right")
        nxt = np.where(i < len(starts), starts[np.minimum(i, len(starts) - 1)] if len(starts) else 0, v1.body_len)
        return nxt - offs


def _first_hits(v1: _V1Dictionary, keys: list[Any]) -> dict[Any, tuple[int, int] | None]:
    """Every key's first entry in a fixed-width V1 dictionary, by one pass over its keys (a key the key
    type cannot hold matches nothing, as in :meth:`_V1Dictionary.find_fixed_once`)."""
    raw = v1.raw_keys
    assert raw is not None
    out: dict[Any, tuple[int, int] | None] = dict.fromkeys(keys)
    typed: list[Any] = []
    kept: list[Any] = []
    for k in keys:
        try:
            typed.append(raw.dtype.type(k))
            kept.append(k)
        except OverflowError:
            continue
    if not kept:
        return out
    targets = np.array(typed, dtype=raw.dtype.newbyteorder("="))
    order = np.argsort(targets, kind="stable")
    sorted_targets = targets[order]
    native = raw.astype(sorted_targets.dtype, copy=False)
    # candidates first: a table of the targets' low bits, looked up by every key's low bits (a gather;
    # numpy's searchsorted of a million keys into a thousand targets costs ~0.4 us a key), then the
    # candidates - the hits and ~one false one per target - searched exactly
    unsigned = np.dtype(f"u{native.itemsize}")
    low_bits = min(_TABLE_BITS, 8 * native.itemsize)
    mask = unsigned.type((1 << low_bits) - 1)
    table = np.zeros(1 << low_bits, dtype=bool)
    table[(targets.view(unsigned) & mask).astype(np.intp)] = True
    candidates = np.flatnonzero(table[(native.view(unsigned) & mask).astype(np.intp)])
    values = native[candidates]
    pos = np.minimum(np.searchsorted(sorted_targets, values), len(sorted_targets) - 1)
    exact = sorted_targets[pos] == values
    hit, pos = candidates[exact], pos[exact]
    # first entry per key: hits are in dictionary order, np.unique keeps the first index of each
    found, first = np.unique(pos, return_index=True)
    entry = hit[first]
    offsets = v1.offsets
    for t, i in zip(order[found].tolist(), entry.tolist(), strict=True):  # distinct keys: distinct targets
        out[kept[t]] = (int(offsets[i]), -1)
    return out
