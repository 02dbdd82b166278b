"""The file-index container (``FileIndexFormat``, FORMATS.md §1): writer and lazy reader.

``int64 magic | int32 version=1 | int32 head_length | int32 column_count | per column:
writeUTF(name), int32 index_count, per index: writeUTF(type), int32 start, int32 length |
int32 redundant_length=0 | body``.  Starts are absolute; ``start=-1, length=0`` marks an empty
index (EMPTY_INDEX_FLAG).  Strings are Java *modified* UTF-8.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import CorruptDataError, PaimonCodecError, TruncatedDataError, UnsupportedVersionError
from ..fileio import ByteSource
from ..types import DataType, parse_type
from . import registry
from .reader import EmptyFileIndexReader, FileIndexReader

__all__ = [
    "MAGIC",
    "VERSION",
    "EMPTY_INDEX_FLAG",
    "encode_modified_utf8",
    "decode_modified_utf8",
    "write_container",
    "FileIndexContainerReader",
]

MAGIC = 1493475289347502
VERSION = 1
EMPTY_INDEX_FLAG = -1
_HEAD = struct.Struct(">qii")
_NON_BMP = re.compile("[\U00010000-\U0010FFFF]")


def _to_surrogates(m: re.Match) -> str:
    cp = ord(m.group(0)) - 0x10000
    return chr(0xD800 + (cp >> 10)) + chr(0xDC00 + (cp & 0x3FF))


def encode_modified_utf8(text: str) -> bytes:
    """Java ``DataOutput.writeUTF`` payload (without the 2-byte length)."""
    if text.isascii() and "\x00" not in text:
        return text.encode("ascii")
    data = _NON_BMP.sub(_to_surrogates, text).encode("utf-8", "surrogatepass")
    return data.replace(b"\x00", b"\xc0\x80")


def decode_modified_utf8(data: bytes) -> str:
    """Inverse of :func:`encode_modified_utf8` (surrogate pairs joined back)."""
    try:
        text = data.replace(b"\xc0\x80", b"\x00").decode("utf-8", "surrogatepass")
        return text.encode("utf-16-be", "surrogatepass").decode("utf-16-be", "surrogatepass")
    except UnicodeError as exc:
        raise CorruptDataError(f"bad modified UTF-8 string {data[:40]!r}") from exc


def _utf(text: str) -> bytes:
    data = encode_modified_utf8(text)
    if len(data) > 0xFFFF:
        raise CorruptDataError(f"name of {len(data)} bytes does not fit writeUTF (max 65535)")
    return struct.pack(">H", len(data)) + data


def write_container(columns: Iterable[tuple[str, Iterable[tuple[str, bytes | None]]]]) -> bytes:
    """Serialize a container: ``[(column, [(index_type, payload or None), ...]), ...]`` in order.

    A ``None`` payload is written as EMPTY_INDEX_FLAG (start -1, length 0).
    """
    cols = [(name, list(indexes)) for name, indexes in columns]
    names = [(_utf(name), [(_utf(t), p) for t, p in idx]) for name, idx in cols]
    head_length = 20 + 4
    for n, idx in names:
        head_length += len(n) + 4 + sum(len(t) + 8 for t, _ in idx)
    parts = [_HEAD.pack(MAGIC, VERSION, head_length), struct.pack(">i", len(names))]
    body: list[bytes] = []
    pos = head_length
    for n, idx in names:
        parts.append(n)
        parts.append(struct.pack(">i", len(idx)))
        for t, payload in idx:
            parts.append(t)
            if payload is None:
                parts.append(struct.pack(">ii", EMPTY_INDEX_FLAG, 0))
            else:
                parts.append(struct.pack(">ii", pos, len(payload)))
                body.append(payload)
                pos += len(payload)
                if pos > 0x7FFFFFFF:
                    raise CorruptDataError("file index container larger than 2 GiB")
    parts.append(b"\x00\x00\x00\x00")
    parts.extend(body)
    return b"".join(parts)


class FileIndexContainerReader:
    """Reads the head of a container; hands out readers for one column's index slices.

    ``columns`` maps column name -> ``{index_type: (start, length)}`` (start absolute, -1 = empty).
    Nothing of the body is read until a reader reads it.
    """

    def __init__(self, source: ByteSource | bytes | Any, path: str | None = None) -> None:
        if not isinstance(source, ByteSource):
            source = ByteSource(source, path=path)
        self.source = source
        self.path = source.path if path is None else path
        try:
            self._parse_head()
        except PaimonCodecError as exc:
            raise exc.with_path(self.path) from None

    def _parse_head(self) -> None:
        src = self.source
        if len(src) < 16:
            raise TruncatedDataError(f"file index container of {len(src)} bytes is shorter than its "
                                     "16-byte header", offset=src.base, expected="at least 24 bytes")
        magic, version, head_length = _HEAD.unpack(src.read(0, 16, "container header"))
        if magic != MAGIC:
            raise CorruptDataError(f"not a file index file: magic {magic}", offset=src.base,
                                   expected=f"magic {MAGIC}")
        if version != VERSION:
            raise UnsupportedVersionError(f"file index container version {version}", offset=src.base + 8,
                                          expected=f"version {VERSION}")
        if head_length < 24 or head_length > len(src):
            raise CorruptDataError(f"head length {head_length} outside [24, {len(src)}]", offset=src.base + 12)
        self.version = version
        self.head_length = head_length
        head = src.read(16, head_length - 16, "container head")
        end = len(head)
        pos = 0

        def need(n: int, what: str) -> None:
            if pos + n > end:
                raise TruncatedDataError(f"{what} runs past the head ({head_length} bytes)",
                                         offset=src.base + 16 + pos)

        def utf(what: str) -> str:
            nonlocal pos
            need(2, what)
            n = int.from_bytes(head[pos:pos + 2], "big")
            need(2 + n, what)
            s = decode_modified_utf8(head[pos + 2:pos + 2 + n])
            pos += 2 + n
            return s

        need(4, "column count")
        count = int.from_bytes(head[0:4], "big", signed=True)
        pos = 4
        if count < 0 or count * 10 > end:
            raise CorruptDataError(f"column count {count} does not fit in the head", offset=src.base + 16)
        columns: dict[str, dict[str, tuple[int, int]]] = {}
        order: list[tuple[str, str]] = []
        total = len(src)
        for _ in range(count):
            name = utf("column name")
            need(4, "index count")
            n_idx = int.from_bytes(head[pos:pos + 4], "big", signed=True)
            pos += 4
            if n_idx < 0 or n_idx * 10 > end - pos:
                raise CorruptDataError(f"index count {n_idx} of column {name!r} does not fit in the head",
                                       offset=src.base + 16 + pos - 4)
            entry = columns.setdefault(name, {})
            for _ in range(n_idx):
                itype = utf("index type")
                need(8, "index start/length")
                start, length = struct.unpack_from(">ii", head, pos)
                if start == EMPTY_INDEX_FLAG:
                    if length != 0:
                        raise CorruptDataError(f"empty index of {name!r}/{itype} with length {length}",
                                               offset=src.base + 16 + pos)
                elif start < head_length or length < 0 or start + length > total:
                    raise CorruptDataError(f"index {name!r}/{itype} at [{start}, {start + length}) lies outside "
                                           f"the body [{head_length}, {total})", offset=src.base + 16 + pos)
                pos += 8
                entry[itype] = (start, length)
                order.append((name, itype))
        need(4, "redundant length")
        redundant = int.from_bytes(head[pos:pos + 4], "big", signed=True)
        if redundant < 0 or pos + 4 + redundant > end:
            raise CorruptDataError(f"redundant length {redundant} does not fit in the head",
                                   offset=src.base + 16 + pos)
        self.columns = columns
        self.order = order

    def __contains__(self, column: str) -> bool:
        return column in self.columns

    def index_types(self, column: str) -> list[str]:
        return list(self.columns.get(column, {}))

    def slice(self, column: str, index_type: str) -> ByteSource | None:
        """The payload window of one index (None for an empty index)."""
        start, length = self.columns[column][index_type]
        if start == EMPTY_INDEX_FLAG:
            return None
        return self.source.sub(start, length)

    def read_payload(self, column: str, index_type: str) -> bytes | None:
        s = self.slice(column, index_type)
        return None if s is None else s.read_all()

    def readers_for(self, column: str, dtype: DataType | str,
                    options: Mapping[str, Mapping[str, Any]] | Mapping[str, Any] | None = None
                    ) -> list[FileIndexReader]:
        """Readers of every index of ``column`` (empty list if the column has none).

        ``options``: per-index-type options (``{"bitmap": {...}}``) or one flat dict for all.
        """
        dtype = parse_type(dtype)
        out: list[FileIndexReader] = []
        for itype, (start, length) in self.columns.get(column, {}).items():
            if start == EMPTY_INDEX_FLAG:
                out.append(EmptyFileIndexReader())
                continue
            opts: Mapping[str, Any] | None = options
            if options and itype in options and isinstance(options[itype], Mapping):
                opts = options[itype]  # type: ignore[assignment]
            try:
                out.append(registry.create_reader(itype, self.source.sub(start, length), dtype, opts))
            except PaimonCodecError as exc:
                raise exc.with_path(self.path) from None
        return out

    def to_json(self) -> dict:
        return {
            "magic": MAGIC, "version": self.version, "head_length": self.head_length,
            "columns": [{"column": c, "indexes": [{"index_type": t, "start": s, "length": n}
                                                  for t, (s, n) in idx.items()]}
                        for c, idx in self.columns.items()],
        }


def container_columns(entries: Sequence[tuple[str, str, bytes | None]]) -> list[tuple[str, list[tuple[str, bytes | None]]]]:
    """Group flat ``(column, index_type, payload)`` triples by column, keeping first-seen order."""
    grouped: dict[str, list[tuple[str, bytes | None]]] = {}
    for col, itype, payload in entries:
        grouped.setdefault(col, []).append((itype, payload))
    return list(grouped.items())
