"""The range-bitmap reader's chunked sorted dictionary (key -> dense code).

Read lazily: the chunk directory once, then only the chunk whose key range holds a literal.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from typing import Any, overload

import numpy as np

from ...errors import CorruptDataError, UnsupportedVersionError
from ...fileio import ByteSource
from ...formats import translate_error
from ...generated.construct import range_bitmap as _codec
from ...generated.construct.paimon_key import STRING_LENGTH_DTYPE as _STRING_LENGTH
from ...generated.construct.range_bitmap import VARIABLE_CHUNK_KEYS_KEY_OFFSETS_DTYPE as _KEY_OFFSET
from .._field import number_at
from .._once import once
from ..keys import KeyCodec
from ..parse_memo import remembered
from ._header import _RangeHeader
from ._layout import _DICT_HEADER_LENGTH, _chunk_dtype


class _Chunk:
    __slots__ = ("first", "code", "keys_offset", "size", "offsets_length", "keys_length")

    def __init__(self, first: Any, code: int, keys_offset: int, size: int, offsets_length: int,
                 keys_length: int) -> None:
        self.first, self.code, self.keys_offset, self.size = first, code, keys_offset, size
        self.offsets_length, self.keys_length = offsets_length, keys_length


class _FixedChunks(Sequence[_Chunk]):
    """The chunk headers of a fixed-width dictionary as the generated record array's columns: checked
    all at once, and a :class:`_Chunk` built only for a chunk a lookup lands in (a planner opens the
    dictionaries of hundreds of files and looks up one or two keys in each)."""

    def __init__(self, rec: np.ndarray) -> None:
        self.keys = rec["key"].astype(np.int64)
        self.codes = rec["code"].astype(np.int64)
        self.keys_offsets = rec["keys_offset"].astype(np.int64)
        self.sizes = rec["size"].astype(np.int64)
        self.keys_lengths = rec["keys_length"].astype(np.int64)
        for column in (self.keys, self.codes, self.keys_offsets, self.sizes, self.keys_lengths):
            column.flags.writeable = False  # shared by every reader of these bytes (parse_memo)

    def __len__(self) -> int:
        return int(self.codes.size)

    @overload
    def __getitem__(self, i: int) -> _Chunk: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[_Chunk]: ...

    def __getitem__(self, i: int | slice) -> _Chunk | Sequence[_Chunk]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return _Chunk(int(self.keys[i]), int(self.codes[i]), int(self.keys_offsets[i]), int(self.sizes[i]), 0,
                      int(self.keys_lengths[i]))

    def consistent(self, keys_base: int, dict_length: int, cardinality: int) -> bool:
        """The checks :meth:`_RangeDictionary._directory` makes chunk by chunk, at once: codes dense from 0
        (each chunk's first key plus its ``size`` others), sizes >= 0, keys inside the dictionary."""
        c, n = self.codes, self.sizes
        if not c.size:
            return cardinality == 0
        ends = c + n + 1
        # ndarray methods, not np.all: a planner checks the directories of hundreds of files
        return bool(c[0] == 0 and (c[1:] == ends[:-1]).all() and (n >= 0).all() and ends[-1] == cardinality
                    and (self.keys_offsets >= 0).all()
                    and ((self.keys_offsets + self.keys_lengths) <= dict_length - keys_base).all())


class _RangeDictionary(_RangeHeader):
    """Mixin of :class:`~.reader.RangeBitmapReader`: key decoding and the dictionary."""

    src: ByteSource
    codec: KeyCodec
    key_kind: str
    cardinality: int
    dictionary_offset: int
    _dict_src: ByteSource
    _chunk_cache: dict[int, Any]
    _min_cmp: Any
    _max_cmp: Any

    def _stored(self, value: Any) -> Any:
        """Stored key (int / raw float bits / UTF-8 bytes) of a key value decoded by the codec."""
        if self.codec.is_string:
            return value.encode("utf-8", "surrogatepass")
        if self.codec.is_float:
            return self.codec.scalar(float(value))
        return int(value)

    def _key_at(self, buf: bytes, pos: int) -> tuple[Any, int]:
        """Decode one serialised key at ``pos`` of ``buf``: (stored key, next position)."""
        if self.codec.is_string:
            w = _STRING_LENGTH.itemsize
            if pos + w > len(buf):
                raise self._corrupt("key length runs past the header", pos, f"{w} bytes")
            n = int(np.frombuffer(buf, _STRING_LENGTH, 1, pos)[0])
            if n < 0 or pos + w + n > len(buf):
                raise self._corrupt(f"string key of {n} bytes does not fit", pos,
                                    f"0 to {max(0, len(buf) - pos - w)} bytes")
            return bytes(buf[pos + w:pos + w + n]), pos + w + n
        fw = self.codec.width
        assert fw is not None
        if pos + fw > len(buf):
            raise self._corrupt("key runs past its region", pos, f"{fw} bytes")
        return int(self.codec.decode_fixed(bytes(buf[pos:pos + fw]), 1)[0]), pos + fw

    def _cmp_key(self, key: Any) -> Any:
        """Comparable form of a stored key (sortable int or bytes)."""
        if self.codec.is_string:
            return key
        if self.codec.is_float:
            return int(self.codec.sortable(np.array([key], dtype=np.int64))[0])
        return int(key)

    # -- dictionary
    @once
    def _directory(self) -> tuple[Any, Sequence[_Chunk], int]:
        """(comparable first keys, chunk list, keys base) - read once per reader; the same directory bytes
        in a dictionary of the same size and key type parse the same (:mod:`..parse_memo`)."""
        d = self._dict_src
        dhl = self._length_prefix(d, "dictionary header length")
        at = _codec.DICTIONARY_PREFIX_SIZE
        if dhl < _DICT_HEADER_LENGTH or dhl > d.length - at:
            raise CorruptDataError(f"dictionary header length {dhl}", path=d.path, offset=d.base,
                                   expected=f"{_DICT_HEADER_LENGTH} to {d.length - at}")
        dict_head = d.read(at, _DICT_HEADER_LENGTH, "dictionary header")
        return self._directory_of(dict_head, dhl)

    def _directory_of(self, dict_head: bytes, dhl: int) -> tuple[Any, Sequence[_Chunk], int]:
        d = self._dict_src
        # the same header bytes in a dictionary of the same size and cardinality check the same (parse_memo): the
        # generated parser builds a Container, a few microseconds a file of a plan
        count, offsets_length, chunks_length = remembered(
            "range-bitmap dictionary header", (dict_head, dhl, d.length, self.cardinality), len(dict_head),
            lambda: self._dictionary_sizes(dict_head, dhl))
        base = _codec.DICTIONARY_PREFIX_SIZE + dhl
        both = d.read(base, offsets_length + chunks_length, "chunk offsets and headers")  # adjacent: one read
        codec = self.codec
        return remembered("range-bitmap directory", (dict_head, both, dhl, d.length, self.cardinality, codec.kind,
                                                     codec.root), len(both),
                          lambda: self._parsed_directory(both, count, offsets_length, chunks_length, base))

    def _dictionary_sizes(self, dict_head: bytes, dhl: int) -> tuple[int, int, int]:
        """(chunk count, offsets length, chunks length) of the dictionary header, checked."""
        d = self._dict_src
        at = _codec.DICTIONARY_PREFIX_SIZE
        version = number_at(dict_head, _codec.DICTIONARY_VERSION_DTYPE, _codec.DICTIONARY_VERSION_AT)
        if version > _codec.DICTIONARY_VERSION_V1:
            raise UnsupportedVersionError(f"dictionary version {version}", path=d.path,
                                          offset=d.base + at + _codec.DICTIONARY_VERSION_AT,
                                          expected=f"<= {_codec.DICTIONARY_VERSION_V1}")
        try:
            hd = _codec.fast_parse_dictionary_header(dict_head)[0]
        except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
            raise translate_error(exc, self.src.path, "dictionary header").with_base_offset(
                self.src.base + self.dictionary_offset + at) from None
        count, offsets_length, chunks_length = hd["chunk_count"], hd["offsets_length"], hd["chunks_length"]
        base = at + dhl
        if count < 0 or offsets_length != _codec.DICTIONARY_OFFSETS_DTYPE.itemsize * count or chunks_length < 0 or \
                base + offsets_length + chunks_length > d.length:
            raise CorruptDataError(f"dictionary of {count} chunks ({offsets_length}+{chunks_length} bytes) "
                                   f"does not fit {d.length} bytes", path=d.path, offset=d.base,
                                   expected="count >= 0, 4 bytes of offsets per chunk, all inside the dictionary")
        if (count == 0) != (self.cardinality == 0):
            raise CorruptDataError(f"{count} chunks for cardinality {self.cardinality}", path=d.path,
                                   offset=d.base, expected="no chunks exactly when the cardinality is 0")
        return count, offsets_length, chunks_length

    def _parsed_directory(self, both: bytes, count: int, offsets_length: int, chunks_length: int,
                          base: int) -> tuple[Any, Sequence[_Chunk], int]:
        d = self._dict_src
        offsets = np.frombuffer(both, dtype=_codec.DICTIONARY_OFFSETS_DTYPE, count=count).astype(np.int64)
        area = both[offsets_length:]
        keys_base = base + offsets_length + chunks_length
        chunks = self._parse_chunks(offsets, area)
        if isinstance(chunks, _FixedChunks) and chunks.consistent(keys_base, d.length, self.cardinality):
            sortable = self.codec.sortable(chunks.keys)
            if not (sortable[1:] <= sortable[:-1]).any():
                sortable.flags.writeable = False  # shared by every reader of these bytes (parse_memo)
                return sortable, chunks, keys_base
        # the checks one chunk at a time: the first inconsistent chunk named (a fixed-width directory gets
        # here only when it is corrupt)
        expect = 0
        for c in chunks:
            if c.code != expect or c.size < 0:
                raise CorruptDataError(f"chunk code {c.code} where {expect} was expected", path=d.path,
                                       offset=d.base + keys_base, expected=f"code {expect}")
            expect = c.code + c.size + 1
            if c.keys_offset < 0 or keys_base + c.keys_offset + c.offsets_length + c.keys_length > d.length:
                raise CorruptDataError("chunk keys run past the dictionary", path=d.path,
                                       offset=d.base + keys_base + max(c.keys_offset, 0),
                                       expected=f"keys inside the dictionary ({d.length} bytes)")
        if expect != self.cardinality:
            raise CorruptDataError(f"dictionary holds {expect} keys, header says {self.cardinality}",
                                   path=d.path, offset=d.base, expected=f"{self.cardinality} keys")
        firsts = [self._cmp_key(c.first) for c in chunks]
        if self.codec.is_string:
            if any(a >= b for a, b in zip(firsts, firsts[1:], strict=False)):
                raise CorruptDataError("chunk first keys are not ascending", path=d.path, offset=d.base,
                                       expected="chunk first keys in ascending order")
            first_keys: Any = firsts
        else:
            first_keys = np.array(firsts, dtype=np.int64)
            if np.any(first_keys[1:] <= first_keys[:-1]):
                raise CorruptDataError("chunk first keys are not ascending", path=d.path, offset=d.base,
                                       expected="chunk first keys in ascending order")
            first_keys.flags.writeable = False
        return first_keys, chunks, keys_base

    def _parse_chunks(self, offsets: np.ndarray, area: bytes) -> Sequence[_Chunk]:
        n = offsets.size
        d = self._dict_src
        w = self.codec.width
        if w is not None:
            dt = _chunk_dtype(self.codec)
            if n and len(area) >= n * dt.itemsize and (offsets == np.arange(0, n * dt.itemsize, dt.itemsize)).all():
                rec = np.frombuffer(area, count=n, dtype=dt)
                if (rec["version"] > _codec.CHUNK_VERSION_V1).any():
                    raise UnsupportedVersionError(f"chunk version > {_codec.CHUNK_VERSION_V1}", path=d.path,
                                                  offset=d.base, expected=f"<= {_codec.CHUNK_VERSION_V1}")
                if (rec["fixed_length"] != w).any() or (rec["keys_length"] != rec["size"] * w).any():
                    raise CorruptDataError(f"fixed-length chunk with a key width other than {w}",
                                           path=d.path, offset=d.base,
                                           expected=f"key width {w}, keys length = size x {w}")
                return _FixedChunks(rec)
        chunks = []
        for off in offsets.tolist():
            if off < 0 or off >= len(area):
                raise CorruptDataError(f"chunk offset {off} outside the chunk area", path=d.path, offset=d.base,
                                       expected=f"0 to {len(area) - 1}")
            if area[off] > _codec.CHUNK_VERSION_V1:
                raise UnsupportedVersionError(f"chunk version {area[off]}", path=d.path, offset=d.base + off,
                                              expected=f"<= {_codec.CHUNK_VERSION_V1}")
            head = self._generated(_codec.Chunk, area[off:], "chunk header",
                                   self.dictionary_offset + off, key_kind=self.key_kind)
            key = self._stored(head["key"])
            code, keys_offset, size = head["code"], head["keys_offset"], head["size"]
            a, b = (head["keys_length"], head["fixed_length"]) if w is not None else (
                head["offsets_length"], head["keys_length"])
            if w is not None:  # keys_length, fixed_length
                if b != w or a != size * w:
                    raise CorruptDataError(f"fixed-length chunk with a key width other than {w}",
                                           path=d.path, offset=d.base + off,
                                           expected=f"key width {w}, keys length = size x {w}")
                chunks.append(_Chunk(key, code, keys_offset, size, 0, a))
            else:  # offsets_length, keys_length
                if a != _KEY_OFFSET.itemsize * size or b < 0:
                    raise CorruptDataError("variable-length chunk with inconsistent lengths", path=d.path,
                                           offset=d.base + off,
                                           expected=f"offsets length = {_KEY_OFFSET.itemsize} x size, keys length >= 0")
                chunks.append(_Chunk(key, code, keys_offset, size, a, b))
        return chunks

    def _chunk_keys(self, index: int) -> Any:
        """Comparable keys stored in chunk ``index``'s key region (cached)."""
        cached = self._chunk_cache.get(index)
        if cached is not None:
            return cached
        _, chunks, keys_base = self._directory
        d = self._dict_src
        if isinstance(chunks, _FixedChunks):  # the columns, no _Chunk built (one lookup of each of many files)
            return self._fixed_chunk_keys(index, chunks, keys_base)
        c = chunks[index]
        start = keys_base + c.keys_offset
        if self.codec.is_string:
            raw = d.read(start, c.offsets_length + c.keys_length, "chunk keys")
            rel = np.frombuffer(raw, dtype=_KEY_OFFSET, count=c.size).astype(np.int64)
            body = raw[c.offsets_length:]
            keys = []
            for r in rel.tolist():
                if r < 0:
                    raise CorruptDataError("negative key offset", path=d.path, offset=d.base + start,
                                           expected="key offsets >= 0")
                k, _ = self._key_at(body, r)
                keys.append(k)
            if any(a >= b for a, b in zip([c.first, *keys], keys, strict=False)):
                raise CorruptDataError("chunk keys are not ascending", path=d.path, offset=d.base + start,
                                       expected="keys in ascending order")
            out: Any = keys
        else:
            raw = d.read(start, c.keys_length, "chunk keys")
            stored = self.codec.decode_fixed(raw, c.size)
            out = self.codec.sortable(stored)
            if out.size and (out[0] <= self._cmp_key(c.first) or (out[1:] <= out[:-1]).any()):
                raise CorruptDataError("chunk keys are not ascending", path=d.path, offset=d.base + start,
                                       expected="keys in ascending order")
        self._chunk_cache[index] = out
        return out

    def _fixed_chunk_keys(self, index: int, chunks: _FixedChunks, keys_base: int) -> Any:
        """:meth:`_chunk_keys` of a fixed-width dictionary, read from the directory's columns."""
        start = keys_base + int(chunks.keys_offsets[index])
        raw = self._dict_src.read(start, int(chunks.keys_lengths[index]), "chunk keys")
        out = self.codec.sortable(self.codec.decode_fixed(raw, int(chunks.sizes[index])))
        # count_nonzero, not .any(): no Python wrapper (one chunk of each of hundreds of files a plan)
        if out.size and (out[0] <= self._directory[0][index] or np.count_nonzero(out[1:] <= out[:-1])):
            raise CorruptDataError("chunk keys are not ascending", path=self._dict_src.path,
                                   offset=self._dict_src.base + start, expected="keys in ascending order")
        self._chunk_cache[index] = out
        return out

    def find(self, key: Any) -> int:
        """Code of comparable ``key``, or ``-(insertion code) - 1`` when absent (Paimon's find)."""
        if self.cardinality == 0:
            return -1
        if key < self._min_cmp:
            return -1
        if key > self._max_cmp:
            return -self.cardinality - 1
        firsts, chunks, _ = self._directory
        if self.codec.is_string:
            i = bisect.bisect_right(firsts, key) - 1
        else:
            i = int(firsts.searchsorted(key, side="right")) - 1
        if i < 0:
            return -1
        code = int(chunks.codes[i]) if isinstance(chunks, _FixedChunks) else chunks[i].code
        if firsts[i] == key:
            return code
        keys = self._chunk_keys(i)
        if self.codec.is_string:
            j = bisect.bisect_left(keys, key)
        else:
            j = int(keys.searchsorted(key, side="left"))
        if j < len(keys) and keys[j] == key:
            return code + 1 + j
        return -(code + 1 + j) - 1

    def keys_by_code(self) -> list[Any]:
        """Every stored key in code order (reads the whole dictionary)."""
        _, chunks, _ = self._directory
        out: list[Any] = []
        for i, c in enumerate(chunks):
            out.append(c.first)
            keys = self._chunk_keys(i)
            if self.codec.is_string:
                out.extend(keys)
            else:
                raw = self._dict_src.read(self._directory[2] + c.keys_offset, c.keys_length, "chunk keys")
                out.extend(self.codec.decode_fixed(raw, c.size).tolist())
        return out

    # -- bit-sliced index
