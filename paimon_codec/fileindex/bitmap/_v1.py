"""The bitmap index reader's V1 dictionary: read once on the first lookup, validated, then searched.

Fixed-size keys are viewed with numpy (a small dictionary as plain tuples); string records are walked
once for their bounds only.  Kept apart from the reader (:mod:`.reader`), which owns the head, the V2
blocks and the bitmaps; this mixin only needs the reader's head fields and its prefetching ``_read``.
"""

from __future__ import annotations

import numpy as np

from ...fileio import ByteSource
from ..keys import KeyCodec
from ..parse_memo import remembered
from ._dictionary import DUPLICATE, SHARED_MAX_BYTES, SHARED_MIN_BYTES, StringWalk, _SmallV1, _V1Dictionary
from ._layout import (
    _SMALL_V1,
    _V1_FIELDS,
    _corrupt,
    _NegativeLength,
    _small_v1_struct,
    _string_record_bounds,
    _v1_dtype,
    _view_at_every_byte,
)

__all__ = ["V1Reads"]

#: string dictionaries up to this many bytes have their record walk remembered by their bytes
_WALK_MEMO_BYTES = 1 << 20


def _sorted_starts(offsets: np.ndarray, null: int | None) -> np.ndarray:
    """Every bitmap's body offset (and the null bitmap's), sorted, read-only."""
    starts = offsets[offsets >= 0]
    if null is not None:
        starts = np.append(starts, null)
    out = np.sort(starts)
    out.flags.writeable = False
    return out


def _string_records(data: bytes, nd: int) -> StringWalk | None:
    """``(record starts followed by the end of the last record, bitmap offsets)`` of the first ``nd`` V1
    string records of ``data``, or None when they run past it; read-only arrays (shared by every reader
    of these bytes through :mod:`..parse_memo`).  A negative length raises :class:`_NegativeLength`."""
    starts = _string_record_bounds(data, nd)
    if starts is None:
        return None
    if nd:
        off = _V1_FIELDS[0]
        offsets = _view_at_every_byte(data, off)[starts[1:] - off.itemsize].astype(np.int64)
    else:
        offsets = np.zeros(0, np.int64)
    starts.flags.writeable = False
    offsets.flags.writeable = False
    return StringWalk(starts, offsets)


class V1Reads:
    """Mixin of :class:`~.reader.BitmapIndexReader`: loading and searching the V1 dictionary."""

    source: ByteSource
    codec: KeyCodec
    non_null_bitmap_number: int
    has_null_value: bool
    null_value_offset: int
    body_start: int
    _dict_start: int
    _v1: _V1Dictionary | _SmallV1 | None
    _spans: dict[int | bytes, tuple[int, int]] | None

    def _read(self, offset: int, size: int, what: str) -> bytes:
        raise NotImplementedError

    def _load_v1(self) -> _V1Dictionary | _SmallV1:
        """The V1 dictionary: read once, validated (every bitmap offset inside the body)."""
        if self._v1 is not None:
            return self._v1
        src, codec, nd = self.source, self.codec, self.non_null_bitmap_number
        if codec.kind != "string":
            dt = _v1_dtype(codec)
            data = self._read(self._dict_start, nd * dt.itemsize, "bitmap dictionary")
            v1: _V1Dictionary | _SmallV1
            small_struct = _small_v1_struct(codec, nd) if nd <= _SMALL_V1 else None
            if small_struct is not None:
                ints = small_struct.unpack(data)
                small = v1 = _SmallV1(ints[0::2], ints[1::2])
                top = max(small.offsets, default=-1)
            else:
                raw = np.frombuffer(data, dtype=dt)
                full = v1 = _V1Dictionary(raw["offset"], raw_keys=raw["key"], data=data)  # big-endian views
                top = int(full.offsets.max())
        else:
            walked = v1 = self._walk_string_dictionary()
            top = int(walked.offsets.max()) if nd else -1
        if self.body_start > len(src):
            raise _corrupt("bitmap dictionary runs past the payload", src, self._dict_start,
                          f"the dictionary inside the payload ({len(src)} bytes)")
        body_len = len(src) - self.body_start
        if self.has_null_value and self.null_value_offset > top:
            top = self.null_value_offset
        if top >= body_len:
            raise _corrupt(f"bitmap offset {top} beyond the body ({body_len} bytes)", src, self.body_start,
                          f"bitmap offsets below {body_len}")
        v1.body_len = body_len
        self._v1 = v1
        return v1

    def _walk_string_dictionary(self) -> _V1Dictionary:
        """Walk the V1 string records (``int32 length, key bytes, int32 offset``) once.

        Only the record bounds are collected (:func:`_string_record_bounds`); offsets are then gathered
        with numpy and keys sliced only if a lookup table or ``describe`` needs them.
        Reads a guess, and more while the records run past what was read (never past the payload).
        The walk of the bytes first read is remembered by those bytes (:mod:`..parse_memo`): a reader
        opened per predicate on the same index walks a thousand records in Python (~0.2 ms) where
        hashing the bytes costs a few microseconds; the bytes themselves are still read every time.
        """
        src, nd, start = self.source, self.non_null_bitmap_number, self._dict_start
        avail = len(src) - start
        size = min(avail, max(4096, nd * 24))
        data = self._read(start, size, "bitmap dictionary")
        try:
            walked = remembered("bitmap v1 string records", (data, nd), len(data),
                                lambda: _string_records(data, nd), max_key_bytes=_WALK_MEMO_BYTES)
            while walked is None:
                if size == avail:
                    raise _corrupt("bitmap dictionary runs past the payload or holds a negative length", src,
                                   start, f"{nd} records inside the payload ({avail} bytes from here)")
                size = min(avail, size * 2)  # the records run past what was read: read more and walk again
                data = data + src.read(start + len(data), size - len(data), "bitmap dictionary")
                walked = _string_records(data, nd)
        except _NegativeLength as exc:
            raise _corrupt("bitmap dictionary holds a negative key length", src, start + exc.at,
                           "key length >= 0") from None
        self.body_start = start + int(walked.starts[-1])
        return _V1Dictionary(walked.offsets, data=data, walk=walked)

    def _v1_extent(self, off: int) -> int:
        """Bytes from body offset ``off`` to the next bitmap (or the end of the payload)."""
        v1 = self._load_v1()
        if isinstance(v1, _SmallV1):
            return v1.extent(off, self.null_value_offset if self.has_null_value and self.null_value_offset >= 0
                             else None)
        shared = v1.walk.sorted_for if v1.walk is not None else None
        if v1.sorted_starts is None and shared is not None and shared[0] == self._null_start():
            v1.sorted_starts = shared[1]  # another reader of these bytes sorted them
        if v1.sorted_starts is None and not v1.extents_asked and (v1.walk is None or v1.walk.uses <= 1):
            v1.extents_asked = True  # one bitmap of bytes no other reader asked: a masked minimum, no sort
            later = v1.offsets[v1.offsets > off]
            nxt = int(later.min()) if len(later) else v1.body_len
        else:
            starts = self._v1_sorted_starts(v1)
            i = int(starts.searchsorted(off, side="right"))
            return (int(starts[i]) if i < len(starts) else v1.body_len) - off
        if self.has_null_value and off < self.null_value_offset < nxt:
            nxt = self.null_value_offset
        return nxt - off

    def _v1_sorted_starts(self, v1: _V1Dictionary) -> np.ndarray:
        """Every bitmap's body offset (the null bitmap's too), sorted once: where each bitmap ends."""
        if v1.sorted_starts is None:
            null = self._null_start()
            if v1.walk is None and len(v1.data) >= SHARED_MIN_BYTES:  # a large fixed-key dictionary: sorted once
                v1.sorted_starts = remembered("bitmap v1 sorted starts", (v1.data, v1.offsets.dtype.str, null),
                                              len(v1.data), lambda: _sorted_starts(v1.offsets, null),
                                              max_key_bytes=SHARED_MAX_BYTES)
            else:
                v1.sorted_starts = _sorted_starts(v1.offsets, null)
            if v1.walk is not None:
                v1.walk.sorted_for = (null, v1.sorted_starts)
        return v1.sorted_starts

    def _v1_spans(self, v1: _V1Dictionary) -> dict:
        """``key -> (body offset, byte length)`` of every string key's bitmap (length -1 for a row stored
        inline), worked out at once: a reader asked for key after key then needs one dict lookup each.
        Shared by the readers of the same dictionary bytes, null offset and body length."""
        if v1.spans is not None:
            return v1.spans
        shape = (self._null_start(), v1.body_len)
        shared = v1.walk.spans_for if v1.walk is not None else None
        if shared is not None and shared[0] == shape:
            v1.spans = shared[1]
            return v1.spans
        offs = v1.offsets
        starts = self._v1_sorted_starts(v1)
        i = np.searchsorted(starts, offs, side="right")
        nxt = np.where(i < len(starts), starts[np.minimum(i, len(starts) - 1)] if len(starts) else 0, v1.body_len)
        lengths = np.where(offs >= 0, nxt - offs, -1)
        # keys are distinct here (a dictionary holding one twice is refused before this is asked)
        spans = dict(zip(v1.file_keys(None), zip(offs.tolist(), lengths.tolist(), strict=True), strict=True))
        v1.spans = spans
        if v1.walk is not None:
            v1.walk.spans_for = (shape, spans)
        return spans

    def _null_start(self) -> int | None:
        """Body offset of the null bitmap when it is stored in the body."""
        return self.null_value_offset if self.has_null_value and self.null_value_offset >= 0 else None

    def _refuse_duplicate_keys(self, v1: _V1Dictionary | _SmallV1) -> None:
        """A key stored twice: Java's reader answers with the last copy and ours would with the first - no
        answer to give, the dictionary is corrupt by name."""
        if isinstance(v1, _SmallV1) or v1.has_duplicate_key():
            raise _corrupt("bitmap dictionary holds a key twice", self.source, self._dict_start,
                           "each key once (the writer stores a map)")

    def _find_v1(self, key: int | bytes) -> tuple[int, int] | None:
        v1 = self._load_v1()
        if isinstance(v1, _SmallV1):
            i = v1.find(key) if isinstance(key, int) else -1  # small dictionaries hold fixed keys only
            if i == DUPLICATE:
                self._refuse_duplicate_keys(v1)
            return None if i < 0 else (v1.offsets[i], -1)
        v1.lookups += 1
        if self.codec.kind == "string":
            if v1.lookups == 1:
                # kind "string": the codec maps literals to bytes (KeyCodec's int | bytes is split by kind)
                i = v1.find_string_once(key)  # type: ignore[arg-type]
            else:
                self._refuse_duplicate_keys(v1)
                # checked once for all: the reader's later lookups go to the spans directly (bitmap_of_key)
                spans = self._spans = self._v1_spans(v1)
                return spans.get(key)
            if i == DUPLICATE:
                self._refuse_duplicate_keys(v1)
            return None if i < 0 else (int(v1.offsets[i]), -1)
        if v1.lookups == 1:
            # a fixed kind: the codec maps literals to ints
            i = v1.find_fixed_once(key)  # type: ignore[arg-type]
        else:
            self._refuse_duplicate_keys(v1)
            sk = self.codec.sort_key(key)  # a fixed kind: an int (bytes only for strings)
            i = -1 if isinstance(sk, bytes) else v1.fixed_table(self.codec).find(sk)
        if i == DUPLICATE:
            self._refuse_duplicate_keys(v1)
        return None if i < 0 else (int(v1.offsets[i]), -1)
