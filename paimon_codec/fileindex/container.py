"""The file-index container (``FileIndexFormat``, FORMATS.md §1): writer and lazy reader.

``int64 magic | int32 version=1 | int32 head_length | int32 column_count | per column:
writeUTF(name), int32 index_count, per index: writeUTF(type), int32 start, int32 length |
int32 redundant_length=0 | body``.  Starts are absolute; ``start=-1, length=0`` marks an empty
index (EMPTY_INDEX_FLAG).  Strings are Java *modified* UTF-8.

The layout lives in ``schemas/file_index.ksy``.  The head is parsed by the generated
``file_index`` codec (:data:`HEAD_CODEC`: the generated ``FileIndex`` without its positioned
``payload`` instance, so opening a container reads only the head).  Heads are built by
:func:`write_container`, a straight-line mirror of the same schema (the generated Construct
build costs ~15x more per container, and writing containers is a hot path of every data-file
write); ``tests/test_fileindex_container.py`` proves it byte-identical to ``FileIndex.build``.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import construct

from .. import codec_runtime as _rt
from ..errors import CorruptDataError, PaimonCodecError, TruncatedDataError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import file_index as _fi
from ..types import DataType, parse_type
from . import registry
from .reader import EmptyFileIndexReader, FileIndexReader

__all__ = [
    "MAGIC",
    "VERSION",
    "EMPTY_INDEX_FLAG",
    "HEAD_CODEC",
    "encode_modified_utf8",
    "decode_modified_utf8",
    "write_container",
    "FileIndexContainerReader",
]

MAGIC = 1493475289347502
VERSION = 1
EMPTY_INDEX_FLAG = -1
_PREFIX = 16  # magic, version, head_length


def _head_codec() -> construct.Construct:
    """The generated ``FileIndex`` minus the positioned ``payload`` of each index entry.

    Every field codec is the generated one; only the Kaitai instance that jumps into the body is
    left out (Construct instances are eager, Kaitai's are lazy).
    """
    entry = _rt.Struct(*(sc for sc in _fi.IndexEntry.subcons if sc.name != "payload"))

    def replace(struct_: construct.Construct, field: str, inner: construct.Construct) -> construct.Construct:
        subcons = []
        for sc in struct_.subcons:
            if sc.name == field:
                arr = copy.copy(sc.subcon)  # the generated CheckedArray (count + size check)
                arr.subcon = inner
                sc = field / arr
            subcons.append(sc)
        return _rt.Struct(*subcons)

    return replace(_fi.FileIndex, "columns", replace(_fi.Column, "indexes", entry))


#: Parses a whole head (``head_length`` bytes from the start of the container).
HEAD_CODEC = _head_codec()
#: Parses magic, version and head_length (the first 16 bytes).
_PREFIX_CODEC = _rt.Struct(*_fi.FileIndex.subcons[:3])


def encode_modified_utf8(text: str) -> bytes:
    """Java ``DataOutput.writeUTF`` payload (without the 2-byte length)."""
    if text.isascii() and "\x00" not in text:
        return text.encode("ascii")
    return _rt.mutf8_encode(text)


def decode_modified_utf8(data: bytes) -> str:
    """Inverse of :func:`encode_modified_utf8` (surrogate pairs joined back)."""
    try:
        return _rt.mutf8_decode(data)
    except (ValueError, UnicodeError) as exc:
        raise CorruptDataError(f"bad modified UTF-8 string {data[:40]!r}") from exc


def _utf(text: str) -> bytes:
    data = encode_modified_utf8(text)
    if len(data) > 0xFFFF:
        raise CorruptDataError(f"name of {len(data)} bytes does not fit writeUTF (max 65535)")
    return len(data).to_bytes(2, "big") + data


# Mirrors schemas/file_index.ksy (file_index head, column, index_entry) for the write hot path.
_HEAD = struct.Struct(">qii")
_I32 = struct.Struct(">i")
_ENTRY = struct.Struct(">ii")


def write_container(columns: Iterable[tuple[str, Iterable[tuple[str, bytes | None]]]]) -> bytes:
    """Serialize a container: ``[(column, [(index_type, payload or None), ...]), ...]`` in order.

    A ``None`` payload is written as EMPTY_INDEX_FLAG (start -1, length 0).
    """
    cols = [(name, list(indexes)) for name, indexes in columns]
    names = [(_utf(name), [(_utf(t), p) for t, p in idx]) for name, idx in cols]
    head_length = 20 + 4
    for n, idx in names:
        head_length += len(n) + 4 + sum(len(t) + 8 for t, _ in idx)
    parts = [_HEAD.pack(MAGIC, VERSION, head_length), _I32.pack(len(names))]
    body: list[bytes] = []
    pos = head_length
    for n, idx in names:
        parts.append(n)
        parts.append(_I32.pack(len(idx)))
        for t, payload in idx:
            parts.append(t)
            if payload is None:
                parts.append(_ENTRY.pack(EMPTY_INDEX_FLAG, 0))
            else:
                parts.append(_ENTRY.pack(pos, len(payload)))
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
        if len(src) < _PREFIX:
            raise TruncatedDataError(f"file index container of {len(src)} bytes is shorter than its "
                                     "16-byte header", offset=src.base, expected="at least 24 bytes")
        prefix = src.read(0, _PREFIX, "container header")
        try:
            head_length = _PREFIX_CODEC.parse(prefix).head_length
        except construct.ConstructError as exc:
            raise self._translated(exc) from None
        if head_length < 24 or head_length > len(src):
            raise CorruptDataError(f"head length {head_length} outside [24, {len(src)}]", offset=src.base + 12)
        head_bytes = prefix + src.read(_PREFIX, head_length - _PREFIX, "container head")
        try:
            head = HEAD_CODEC.parse_stream(_rt.SubStream(head_bytes, src.base))
        except construct.ConstructError as exc:
            raise self._translated(exc) from None
        self.version = head.version
        self.head_length = head_length
        columns: dict[str, dict[str, tuple[int, int]]] = {}
        order: list[tuple[str, str]] = []
        total = len(src)
        for col in head.columns:
            name = col.column_name
            entry = columns.setdefault(name, {})
            for idx in col.indexes:
                itype, start, length = idx.index_type, idx.start, idx.length
                if start == EMPTY_INDEX_FLAG:
                    if length != 0:
                        raise CorruptDataError(f"empty index of {name!r}/{itype} with length {length}",
                                               offset=src.base + _PREFIX)
                elif start < head_length or length < 0 or start + length > total:
                    raise CorruptDataError(f"index {name!r}/{itype} at [{start}, {start + length}) lies outside "
                                           f"the body [{head_length}, {total})", offset=src.base + _PREFIX)
                entry[itype] = (start, length)
                order.append((name, itype))
        self.columns = columns
        self.order = order

    def _translated(self, exc: construct.ConstructError) -> PaimonCodecError:
        return translate_error(exc, self.path, "file index container head")

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
