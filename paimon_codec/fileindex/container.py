"""The file-index container (``FileIndexFormat``, FORMATS.md §1): writer and lazy reader.

``int64 magic | int32 version=1 | int32 head_length | int32 column_count | per column:
writeUTF(name), int32 index_count, per index: writeUTF(type), int32 start, int32 length |
int32 redundant_length=0 | body``.  Starts are absolute; ``start=-1, length=0`` marks an empty
index (EMPTY_INDEX_FLAG).  Strings are Java *modified* UTF-8.

The layout lives in ``schemas/file_index.ksy``.  Heads are parsed and containers built by the
plain-Python functions the generator derives from it (``fast_parse_file_index_prefix`` for magic ..
head_length, ``fast_parse_file_index`` for the whole head without reading any payload,
``fast_build_file_index`` with start/length/head_length derived): opening a container reads and
parses only its head, one per data file in a scan, and writing one is on every data-file write.
The Construct ``FileIndex`` stays the reference; ``tests/test_schemas_fast.py`` proves them equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import codec_runtime as _rt
from ..errors import CorruptDataError, PaimonCodecError, TruncatedDataError
from ..fileio import ByteSource
from ..formats import translate_error
from ..generated.construct import file_index as _fi
from ..generated.construct.file_index import FILE_INDEX_MAGIC_INT, FILE_INDEX_VERSION_V1
from ..report import JsonForm
from ..types import DataType, parse_type
from . import registry
from .parse_memo import remembered
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

MAGIC: int = FILE_INDEX_MAGIC_INT  # Java's long 1493475289347502 (the generated magic bytes as the schema reads them)
VERSION = FILE_INDEX_VERSION_V1
EMPTY_INDEX_FLAG = -1
_PREFIX = _fi.FILE_INDEX_PREFIX_SIZE  # magic, version, head_length


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


def write_container(columns: Iterable[tuple[str, Iterable[tuple[str, bytes | None]]]]) -> bytes:
    """Serialize a container: ``[(column, [(index_type, payload or None), ...]), ...]`` in order.

    A ``None`` payload is written as EMPTY_INDEX_FLAG (start -1, length 0).
    """
    obj = {"version": VERSION, "redundant": b"",
           "columns": [{"column_name": name, "indexes": [{"index_type": t, "payload": p} for t, p in idx]}
                       for name, idx in columns]}
    try:
        return _fi.fast_build_file_index(obj)
    except _rt.CodecError as exc:  # a name over 65535 bytes, a start or length beyond an int32 (2 GiB)
        raise translate_error(exc, None, "file index container") from None


class FileIndexContainerReader(JsonForm):
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
            head_length = _fi.fast_parse_file_index_prefix(prefix)[0]["head_length"]
        except _rt.CodecError as exc:
            raise self._translated(exc) from None
        if head_length < 24 or head_length > len(src):
            raise CorruptDataError(f"head length {head_length} outside [24, {len(src)}]", offset=src.base + 12,
                                   expected=f"24 to {len(src)} (the file's size)")
        head_bytes = prefix + src.read(_PREFIX, head_length - _PREFIX, "container head")
        self.head_length = head_length
        # the same head bytes in a file of the same size parse to the same columns (parse_memo)
        self.version, self.columns, self.order = remembered(
            "container head", (head_bytes, len(src)), len(head_bytes), lambda: self._parsed_head(head_bytes))
        # start -> payload window: a window is stateless (bounds + the shared read counter), so the
        # readers built for each predicate (Java's model) can share one instead of cutting their own
        self._windows: dict[int, ByteSource] = {}

    def _parsed_head(self, head_bytes: bytes) -> tuple[int, dict[str, dict[str, tuple[int, int]]],
                                                       list[tuple[str, str]]]:
        """(version, column -> {index type: (start, length)}, (column, type) in order), checked."""
        src, head_length = self.source, self.head_length
        try:
            head, _ = _fi.fast_parse_file_index(head_bytes)
        except _rt.CodecError as exc:
            raise self._translated(exc) from None
        columns: dict[str, dict[str, tuple[int, int]]] = {}
        order: list[tuple[str, str]] = []
        total = len(src)
        for col in head["columns"]:
            name = col["column_name"]
            entry = columns.setdefault(name, {})
            for idx in col["indexes"]:
                itype, start, length = idx["index_type"], idx["start"], idx["length"]
                if start == EMPTY_INDEX_FLAG:
                    if length != 0:
                        raise CorruptDataError(f"empty index of {name!r}/{itype} with length {length}",
                                               offset=src.base + _PREFIX, expected="length 0")
                elif start < head_length or length < 0 or start + length > total:
                    raise CorruptDataError(f"index {name!r}/{itype} at [{start}, {start + length}) lies outside "
                                           f"the body [{head_length}, {total})", offset=src.base + _PREFIX,
                                           expected="a start and length inside the body")
                entry[itype] = (start, length)
                order.append((name, itype))
        return head["version"], columns, order

    def _translated(self, exc: _rt.CodecError) -> PaimonCodecError:
        if exc.offset is not None:  # offsets of the head bytes -> offsets in the source
            exc.offset += self.source.base
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
        if type(dtype) is not DataType:
            dtype = parse_type(dtype)
        out: list[FileIndexReader] = []
        for itype, (start, length) in self.columns.get(column, {}).items():
            if start == EMPTY_INDEX_FLAG:
                out.append(EmptyFileIndexReader())
                continue
            opts: Mapping[str, Any] | None = options
            if options and itype in options and isinstance(options[itype], Mapping):
                opts = options[itype]
            window = self._windows.get(start)
            if window is None or window.length != length:
                window = self._windows[start] = self.source.sub(start, length)
                self.source.prefetch(start, length)  # on an object store: the block in one GET
            try:  # registry.create_reader, minus its type parsing (dtype is parsed above)
                out.append(registry.index_module(itype).create_reader(window, dtype, dict(opts) if opts else {}))
            except PaimonCodecError as exc:
                if exc.offset is None:  # e.g. an index type no reader knows: where its entry's payload starts
                    exc.offset = self.source.base + start
                    exc.args = (str(exc),)
                raise exc.with_path(self.path) from None
        return out

    def to_dict(self) -> dict:
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
