"""Bitmap index reader's in-memory dictionaries: the V1 dictionary (numpy view or small tuples) and
the sorted-search table of a V2 index block.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from ...errors import (
    InvalidOptionError,
    UnsupportedTypeError,
)
from ...types import DataType, parse_type
from ..keys import KeyCodec
from ..options import check_index_type
from ..parse_memo import remembered
from ._layout import _LEN, _LEN_DT, _V1_FIELDS

#: ``find_fixed_once``'s answer for a key stored more than once (a corrupt dictionary)
DUPLICATE = -2


class _FixedTable:
    """Sorted-search table over fixed-size keys (keys as comparator-ordered ints)."""

    __slots__ = ("keys", "cols", "_perm", "_sorted", "_uses")

    def __init__(self, keys: np.ndarray, cols: tuple[np.ndarray, ...], already_sorted: bool) -> None:
        self.keys, self.cols = keys, cols
        self._perm: np.ndarray | None = None
        self._sorted = keys if already_sorted else None
        self._uses = 0

    def sort_now(self) -> _FixedTable:
        """Sort the keys now (a table shared by readers through :mod:`..parse_memo` is never changed later)."""
        if self._sorted is None:
            self._perm = np.argsort(self.keys, kind="stable")
            self._sorted = self.keys[self._perm]
        return self

    def find(self, sk: int) -> int:
        """Index of the entry with comparator key ``sk`` or -1."""
        keys = self.keys
        try:
            keys.dtype.type(sk)
        except OverflowError:  # a literal outside the key type's range matches nothing
            return -1
        if self._sorted is not None:
            # a scalar of the array's dtype: a Python int makes numpy cast the whole array per call
            i = int(self._sorted.searchsorted(self._sorted.dtype.type(sk)))
            if i < len(self._sorted) and self._sorted[i] == sk:
                return i if self._perm is None else int(self._perm[i])
            return -1
        self._uses += 1
        if self._uses > 1 and len(keys) > 64:
            self._perm = np.argsort(keys, kind="stable")
            self._sorted = keys[self._perm]
            return self.find(sk)
        hit = np.flatnonzero(keys == keys.dtype.type(sk))
        return int(hit[0]) if len(hit) else -1


#: fixed-key V1 dictionaries of at least this many bytes share their sorted table, duplicate check and sorted
#: bitmap starts with every reader of the same bytes (:mod:`..parse_memo`); up to SHARED_MAX_BYTES
SHARED_MIN_BYTES = 1 << 16
SHARED_MAX_BYTES = 16 << 20


def _repeats(raw: np.ndarray) -> bool:
    """Whether a fixed-width key is stored twice (compared as stored bits)."""
    s = np.sort(raw)
    return bool(len(s) > 1 and np.any(s[1:] == s[:-1]))


class StringWalk:
    """The walked records of one V1 string dictionary: record starts (and the end of the last record) and
    bitmap offsets, read-only; shared by every reader of the same dictionary bytes (:mod:`..parse_memo`),
    which also share the key table once a second reader of those bytes asks (built from the bytes the
    walk was keyed by, so it is the same table whichever reader builds it)."""

    __slots__ = ("starts", "offsets", "uses", "table", "duplicates", "sorted_for", "spans_for")

    def __init__(self, starts: np.ndarray, offsets: np.ndarray) -> None:
        self.starts, self.offsets = starts, offsets
        self.uses = 0
        self.table: dict | None = None
        self.duplicates: bool | None = None
        #: ``(null bitmap offset or None, every bitmap start sorted)``: where each bitmap ends
        self.sorted_for: tuple[int | None, np.ndarray] | None = None
        #: ``((null bitmap offset or None, body length), key -> (body offset, byte length or -1))``
        self.spans_for: tuple[tuple[int | None, int], dict] | None = None


class _V1Dictionary:
    """A V1 dictionary as read: bitmap offsets in file order plus what finds the keys.

    Fixed-size keys keep the big-endian record view (``raw_keys``); string keys keep the dictionary
    bytes and their :class:`StringWalk`.  The first lookup scans (no table built for one lookup, which is
    what a fresh reader per predicate does - unless another reader of the same bytes built it); later
    lookups build a hash / sorted table once.
    """

    __slots__ = ("offsets", "raw_keys", "data", "starts", "walk", "body_len", "lookups", "extents_asked",
                 "sorted_starts", "spans", "_table", "_keys", "_duplicates")

    def __init__(self, offsets: np.ndarray, *, raw_keys: np.ndarray | None = None, data: bytes = b"",
                 walk: StringWalk | None = None) -> None:
        self.offsets, self.raw_keys, self.data = offsets, raw_keys, data
        self.walk = walk
        self.starts = None if walk is None else walk.starts
        self.body_len = 0
        self.lookups = 0
        self.extents_asked = False
        self.sorted_starts: np.ndarray | None = None
        self.spans: dict | None = None
        self._table: Any = None if walk is None else walk.table
        self._keys: list | None = None
        self._duplicates: bool | None = None if walk is None else walk.duplicates

    def file_keys(self, codec: KeyCodec | None) -> list:
        """Keys in file order (``bytes`` or ints; ``codec`` converts fixed keys, unused for strings)."""
        if self._keys is None:
            if self.raw_keys is not None:
                assert codec is not None, "fixed keys need their codec"
                self._keys = self.raw_keys.astype(codec.np_dtype).tolist()
            else:
                starts = self.starts
                assert starts is not None  # a string dictionary keeps its record starts
                data, bounds = self.data, starts.tolist()
                off = _V1_FIELDS[0].itemsize
                self._keys = [data[s + _LEN:e - off] for s, e in zip(bounds, bounds[1:], strict=False)]
        return self._keys

    def find_fixed_once(self, key: int) -> int:
        keys = self.raw_keys
        assert keys is not None
        try:
            target = keys.dtype.type(key)
        except OverflowError:  # a literal outside the key type's range matches nothing
            return -1
        hit = np.flatnonzero(keys == target)
        if len(hit) > 1:
            return DUPLICATE  # Java's reader keeps the last of them; a writer never stores a key twice
        return int(hit[0]) if len(hit) else -1

    def has_duplicate_key(self) -> bool:
        """Whether a key is stored twice (fixed-width keys compared as stored bits, as Java's ``equals`` of the
        boxed keys; strings as bytes); computed once, by the lookups that build a table anyway."""
        if self._duplicates is None:
            raw = self.raw_keys
            if raw is None:
                self._duplicates = len(self.string_table()) != len(self.file_keys(None))
                if self.walk is not None:
                    self.walk.duplicates = self._duplicates
            elif len(self.data) >= SHARED_MIN_BYTES:  # the same bytes hold the same keys: checked once
                self._duplicates = remembered("bitmap v1 fixed duplicates", (self.data, raw.dtype.str),
                                              len(self.data), lambda: _repeats(raw), max_key_bytes=SHARED_MAX_BYTES)
            else:
                self._duplicates = _repeats(raw)
        return self._duplicates

    def fixed_table(self, codec: KeyCodec) -> _FixedTable:
        if self._table is None:
            raw = self.raw_keys
            assert raw is not None  # a fixed-key dictionary keeps its raw keys
            if len(self.data) >= SHARED_MIN_BYTES:
                # a large dictionary (sorting a million keys costs ~100 ms, hashing its bytes a few): sorted once
                # for every reader of the same bytes (what a reader opened per round or per plan re-reads)
                self._table = remembered("bitmap v1 fixed table", (self.data, codec.kind, codec.root),
                                         len(self.data), lambda: self._new_table(codec).sort_now(),
                                         max_key_bytes=SHARED_MAX_BYTES)
            else:
                self._table = self._new_table(codec)
        return self._table

    def _new_table(self, codec: KeyCodec) -> _FixedTable:
        raw = self.raw_keys
        assert raw is not None
        return _FixedTable(codec.sort_keys(raw.astype(codec.np_dtype)), (), already_sorted=False)

    def find_string_once(self, key: bytes) -> int:
        """Index of the record holding ``key`` (-1, or DUPLICATE when two do): ``bytes.find`` of the
        length-prefixed key, accepted only at a record start (a hit inside another record's bytes is skipped).
        When another reader of the same dictionary bytes looked up before, their shared key table answers."""
        walk = self.walk
        if walk is not None:
            walk.uses += 1
            # a second reader of these bytes: the table (built once) pays for itself; a dictionary holding
            # a key twice (corrupt) is scanned as before, which tells a duplicated key from the others
            if walk.uses > 1 and not self.has_duplicate_key():
                return self.string_table().get(key, -1)
        starts = self.starts
        assert starts is not None
        needle = np.array(len(key), dtype=_LEN_DT).tobytes() + key
        data, end = self.data, int(starts[-1])
        q = data.find(needle, 0, end)
        found = -1
        while q >= 0:
            i = int(starts.searchsorted(q))
            if starts[i] == q:
                if found >= 0:
                    return DUPLICATE  # Java's reader keeps the last of them; a writer never stores a key twice
                found = i
            q = data.find(needle, q + 1, end)
        return found

    def string_table(self) -> dict:
        if self._table is None:
            keys = self.file_keys(None)
            # the first entry wins (a dictionary holding a key twice is refused: has_duplicate_key)
            self._table = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1), strict=True))
            if self.walk is not None:
                self.walk.table = self._table
        return self._table


class _SmallV1:
    """A small fixed-key V1 dictionary as Python tuples (keys as the codec's raw ints)."""

    __slots__ = ("keys", "offsets", "body_len", "_starts")

    def __init__(self, keys: tuple[int, ...], offsets: tuple[int, ...]) -> None:
        self.keys, self.offsets = keys, offsets
        self.body_len = 0
        self._starts: list[int] | None = None

    def find(self, key: int) -> int:
        """Index of the entry holding ``key``, -1 (out-of-range literals match nothing) or DUPLICATE."""
        try:
            i = self.keys.index(key)
        except ValueError:
            return -1
        return DUPLICATE if key in self.keys[i + 1:] else i

    def extent(self, off: int, null_offset: int | None) -> int:
        """Bytes from body offset ``off`` to the next bitmap start (or the end of the body)."""
        starts = self._starts
        if starts is None:
            starts = self._starts = sorted(self.offsets if null_offset is None else (*self.offsets, null_offset))
        i = bisect.bisect_right(starts, off)
        return (starts[i] if i < len(starts) else self.body_len) - off

    def file_keys(self, codec: KeyCodec) -> list:
        return list(self.keys)


#: column type (text, or DataType by identity) -> (DataType, KeyCodec): a reader is created per
#: predicate (as Java does), so the type parsing and KeyCodec are derived once per column type.
_CODECS: dict[Any, tuple[Any, DataType, KeyCodec]] = {}


def _reader_codec(dtype: DataType | str) -> tuple[DataType, KeyCodec]:
    key = dtype if isinstance(dtype, str) else id(dtype)
    hit = _CODECS.get(key)
    if hit is not None and (hit[0] is dtype or key is dtype):  # a str key: equal text
        return hit[1], hit[2]
    parsed = parse_type(dtype)
    try:
        check_index_type("bitmap", parsed)
    except InvalidOptionError as exc:  # pragma: no cover - bitmap is always known
        raise UnsupportedTypeError(str(exc)) from exc
    codec = KeyCodec(parsed, index="bitmap")
    if len(_CODECS) > 256:
        _CODECS.clear()
    _CODECS[key] = (dtype, parsed, codec)  # holds ``dtype``: its id cannot be reused while cached
    return parsed, codec
