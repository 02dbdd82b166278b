"""Stored blocks of global-index files (``schemas/btree_global_index.ksy`` ``stored_block``): the CRC32
check, decompression (zstd through ``zstandard``), and the decoded block's entries (aligned or with an
offset table): one at a time through the generated ``entry`` fast path for binary search, or all at once
(:meth:`Block.row_ids`) for walks - the entries' varint lengths and the ``row_ids`` varints decoded
together with numpy (``codec_runtime.varint``), which a full walk of a 200k-key file needs (the
per-entry codec costs ~0.1 ms an entry).  ``tests/test_global_index_lookup.py`` checks the two agree."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..checksum import check_crc32
from ..codec_runtime import varint_runs, varints_at
from ..codec_runtime.streams import CodecError
from ..errors import CorruptDataError, TruncatedDataError, UnsupportedTypeError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import btree_global_index as _gen

__all__ = ["Block", "read_stored_block", "read_footer"]

TRAILER_SIZE = _gen.BLOCK_TRAILER_SIZE
_NAMES = {_gen.BLOCK_COMPRESSION_NONE: "none", _gen.BLOCK_COMPRESSION_ZSTD: "zstd",
          _gen.BLOCK_COMPRESSION_LZ4: "lz4", _gen.BLOCK_COMPRESSION_LZO: "lzo"}


def read_footer(src: ByteSource, size: int, parse: Callable[[bytes], tuple[Any, int]], what: str) -> tuple[Any, int]:
    """The fixed-size footer at the end of a global-index file, parsed by its generated fast parser, and where
    it starts; a file too short for it is truncated, a footer that does not parse is corrupt at its offset."""
    if len(src) < size:
        raise TruncatedDataError(f"{what} of {len(src)} bytes has no footer", path=src.path,
                                 expected=f"at least {size} bytes")
    at = len(src) - size
    try:
        footer, _ = parse(src.read(at, size, f"{what} footer"))
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, src.path, f"{what} footer").with_base_offset(src.base + at) from None
    return footer, at


def read_stored_block(src: ByteSource, offset: int, size: int, what: str) -> bytes:
    """The decompressed bytes of the stored block at ``offset`` (``size`` bytes before its trailer)."""
    raw = src.read(offset, size + TRAILER_SIZE, what)
    try:
        trailer, _ = _gen.fast_parse_block_trailer(raw, size)
    except Exception as e:  # noqa: BLE001
        raise translate_error(e, src.path, what).with_base_offset(src.base + offset) from None
    compression = trailer["compression"]
    # the block bytes, then the trailer's fields before the CRC (the compression byte)
    check_crc32(raw[:size + _gen.BLOCK_TRAILER_CRC32_AT], trailer["crc32"], what, path=src.path, offset=src.base + offset)
    data = raw[:size]
    if compression == _gen.BLOCK_COMPRESSION_NONE:
        return data
    if compression != _gen.BLOCK_COMPRESSION_ZSTD:
        name = _NAMES.get(compression)
        if name is None:
            raise CorruptDataError(f"{what}: unknown block compression {compression}", path=src.path,
                                   offset=src.base + offset + size, expected="0 none, 1 zstd, 2 lz4, 3 lzo")
        raise UnsupportedTypeError(f"{what}: {name}-compressed global-index blocks are not supported",
                                   path=src.path, offset=src.base + offset + size, expected="none or zstd")
    import zstandard  # noqa: PLC0415 - only compressed files need it

    try:
        head = _gen.CompressedBlock.parse(data)
        out = zstandard.ZstdDecompressor().decompressobj().decompress(bytes(head["payload"]))
    except Exception as e:  # noqa: BLE001
        if isinstance(e, zstandard.ZstdError):
            raise CorruptDataError(f"{what}: zstd: {e}", path=src.path, offset=src.base + offset) from None
        raise translate_error(e, src.path, what).with_base_offset(src.base + offset) from None
    if len(out) != head["uncompressed_size"]["value"]:
        raise CorruptDataError(f"{what}: decompressed to {len(out)} bytes", path=src.path, offset=src.base + offset,
                               expected=f"{head['uncompressed_size']['value']} bytes")
    return out


class Block:
    """A decoded block: its entries located through the tail (aligned: one record size; unaligned: the
    offset table), each parsed with the generated ``entry`` codec when asked for."""

    def __init__(self, data: bytes, what: str, path: str | None = None) -> None:
        self.what, self.path = what, path
        if len(data) < _gen.BLOCK_TAIL_SIZE:
            raise CorruptDataError(f"{what}: {len(data)} bytes, shorter than a block tail", path=path,
                                   expected=f"at least {_gen.BLOCK_TAIL_SIZE} bytes")
        tail, _ = _gen.fast_parse_block_tail(data, len(data) - _gen.BLOCK_TAIL_SIZE)
        body = len(data) - _gen.BLOCK_TAIL_SIZE
        n_or_size = tail["record_size_or_count"]
        if tail["aligned_type"] == _gen.BLOCK_ALIGNED_TYPE_ALIGNED:
            if n_or_size <= 0 or body % n_or_size:
                raise CorruptDataError(f"{what}: aligned record size {n_or_size} does not divide {body} bytes",
                                       path=path)
            self.offsets = np.arange(0, body, n_or_size, dtype=np.int64)
            self.end = body
        elif tail["aligned_type"] == _gen.BLOCK_ALIGNED_TYPE_UNALIGNED:
            table = body - n_or_size * _gen.ENTRY_OFFSET_DTYPE.itemsize
            if n_or_size < 0 or table < 0:
                raise CorruptDataError(f"{what}: {n_or_size} entry offsets do not fit {body} bytes", path=path)
            self.offsets = np.frombuffer(data, _gen.ENTRY_OFFSET_DTYPE, n_or_size, table)["offset"].astype(np.int64)
            self.end = table
            if n_or_size and (self.offsets.min() < 0 or self.offsets.max() >= table):
                raise CorruptDataError(f"{what}: an entry offset points outside the block's {table} entry bytes",
                                       path=path)
        else:
            raise CorruptDataError(f"{what}: aligned type {tail['aligned_type']}", path=path,
                                   expected="0 aligned or 1 unaligned")
        self.data = memoryview(data)
        self._spans: tuple[np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.offsets)

    def entry(self, i: int) -> tuple[memoryview, memoryview]:
        """``(key, value)`` of entry ``i``."""
        try:
            e, _ = _gen.fast_parse_entry(self.data, int(self.offsets[i]), self.end)
        except Exception as exc:  # noqa: BLE001
            raise translate_error(exc, self.path, f"{self.what} entry {i}") from None
        return e["key"], e["value"]

    def entries(self, start: int = 0) -> Iterator[tuple[memoryview, memoryview]]:
        for i in range(start, len(self)):
            yield self.entry(i)

    def _value_spans(self) -> tuple[np.ndarray, np.ndarray]:
        """``(start, stop)`` of every entry's value (``entry``: key length, key, value length, value)."""
        if self._spans is None:
            u8 = np.frombuffer(self.data, np.uint8, self.end)
            try:
                key_len, key_at = varints_at(u8, self.offsets, self.end)
                value_len, value_at = varints_at(u8, key_at + key_len.astype(np.int64), self.end)
            except CodecError as e:
                raise CorruptDataError(f"{self.what}: {e}", path=self.path, offset=e.offset,
                                       expected=e.expected) from None
            stop = value_at + value_len.astype(np.int64)
            if stop.size and int(stop.max()) > self.end:
                raise CorruptDataError(f"{self.what}: an entry's value runs past the block's {self.end} entry bytes",
                                       path=self.path)
            self._spans = (value_at, stop)
        return self._spans

    def row_ids(self, start: int = 0, stop: int | None = None) -> np.ndarray:
        """The row ids (uint64, each entry's ascending) of data entries ``start .. stop - 1`` (generated
        ``row_ids``: a varint count >= 1, then that many varints), decoded together."""
        value_at, value_stop = self._value_spans()
        value_at, value_stop = value_at[start:stop], value_stop[start:stop]
        if value_at.size == 0:
            return np.zeros(0, np.uint64)
        u8 = np.frombuffer(self.data, np.uint8, self.end)
        try:
            count, ids_at = varints_at(u8, value_at, self.end)
            if ids_at.size and bool((ids_at > value_stop).any()):
                raise CodecError("row-id count runs past its value", offset=int(value_at[ids_at > value_stop][0]),
                                 expected="a varint")
            ids, found = varint_runs(u8, ids_at, value_stop)
        except CodecError as e:
            raise CorruptDataError(f"{self.what}: {e}", path=self.path, offset=e.offset, expected=e.expected) from None
        if bool((count == 0).any()) or not np.array_equal(found, count.astype(np.int64)):
            bad = int(np.flatnonzero((count == 0) | (found != count.astype(np.int64)))[0])
            raise CorruptDataError(f"{self.what} entry {start + bad}: {int(count[bad])} row ids declared, "
                                   f"{int(found[bad])} stored", path=self.path, expected="a count >= 1 of the ids")
        return ids
