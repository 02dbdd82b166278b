"""DELETION_VECTORS index files: ``version byte 1`` then ``size | bin | crc32`` per data file.

Writer (:class:`DvIndexFileWriter`, :func:`write_dv_index`) follows Paimon's
``DeletionVectorIndexFileWriter``: entries in input order; with rolling on, a new file is started
after an entry once the current file's position exceeds the target size (default ``2 mb``,
``deletion-vector.index-file.target-size``).  An empty input still writes one file holding only the
version byte (Paimon 0.9).  Each file is written atomically.  The writer returns, per file, the
``IndexFileMeta`` fields, including the ``_DELETIONS_VECTORS_RANGES`` rows
``(data file, offset, length, cardinality)``: ``offset`` = position of the entry's size field,
``length`` = size for 32-bit bins and size + 8 (the whole entry) for 64-bit bins (FORMATS.md §6.3).

Readers verify everything Java's newest reader does *and* the CRC-32 (which Java skipped until
2026-09): version byte, magic, ``size`` against the recorded length, and the checksum.  One data
file's vector is read from its ``(offset, length)`` alone - only those bytes are read.
"""

from __future__ import annotations

import os
import struct
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from ..errors import ChecksumMismatchError, CorruptDataError, TruncatedDataError, UnsupportedVersionError
from ..fileio import ByteSource, atomic_write_bytes
from ..memory_size import parse_memory_size
from .checksum import crc32
from .deletion_vector import DeletionVector, bin_kind

__all__ = [
    "VERSION",
    "INDEX_TYPE",
    "DEFAULT_TARGET_SIZE",
    "DeletionFileRange",
    "DvIndexFileMeta",
    "DvEntry",
    "DvIndexFile",
    "encode_entry",
    "encode_dv_files",
    "DvIndexFileWriter",
    "write_dv_index",
    "read_dv_index",
    "read_entry",
    "read_deletion_vector",
    "read_deletion_vectors",
    "range_length",
]

VERSION = 1
INDEX_TYPE = "DELETION_VECTORS"
DEFAULT_TARGET_SIZE = 2 * 1024 * 1024
_INT = struct.Struct(">i")
_MAX_INT = 2**31 - 1

DvInput = Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]]


@dataclass(frozen=True)
class DeletionFileRange:
    """One ``_DELETIONS_VECTORS_RANGES`` row: where a data file's vector sits in an index file."""

    data_file: str
    offset: int
    length: int
    cardinality: int | None = None

    def to_json(self) -> list:
        return [self.data_file, self.offset, self.length, self.cardinality]


@dataclass
class DvIndexFileMeta:
    """The ``IndexFileMeta`` of one written DV index file."""

    file_name: str
    file_size: int
    row_count: int
    ranges: list[DeletionFileRange] = field(default_factory=list)
    path: str | None = None
    index_type: str = INDEX_TYPE

    def to_json(self) -> dict:
        return {"file_name": self.file_name, "file_size": self.file_size, "row_count": self.row_count,
                "ranges": [r.to_json() for r in self.ranges]}


def range_length(size: int, kind: str) -> int:
    """The ``length`` a manifest records for an entry whose size field is ``size``."""
    return size + 8 if kind == "64" else size


def encode_entry(dv: DeletionVector) -> bytes:
    """``size | bin | crc32`` of one vector (the bytes Paimon appends to an index file)."""
    data = dv.serialize()
    if len(data) > _MAX_INT:
        raise CorruptDataError(f"deletion vector of {len(data)} bytes does not fit an int size field")
    return b"".join((_INT.pack(len(data)), data, struct.pack(">I", crc32(data))))


def _items(dvs: DvInput) -> Iterator[tuple[str, DeletionVector]]:
    return iter(dvs.items()) if isinstance(dvs, Mapping) else iter(dvs)


def encode_dv_files(dvs: DvInput, *, target_size: int | str | None = DEFAULT_TARGET_SIZE
                    ) -> list[tuple[bytes, list[DeletionFileRange]]]:
    """Encode vectors into index-file byte strings (rolling past ``target_size``; None = one file).

    Returns ``[(file bytes, ranges), ...]`` - the in-memory half of :class:`DvIndexFileWriter`.
    """
    target = None if target_size is None else parse_memory_size(target_size)
    files: list[tuple[bytes, list[DeletionFileRange]]] = []
    chunks: list[bytes] = [bytes([VERSION])]
    ranges: list[DeletionFileRange] = []
    pos = 1
    for name, dv in _items(dvs):
        entry = encode_entry(dv)
        size = len(entry) - 8
        kind = "64" if dv.bitmap64 else "32"
        if pos > _MAX_INT:
            raise CorruptDataError(f"index file offset {pos} does not fit an int range offset")
        ranges.append(DeletionFileRange(str(name), pos, range_length(size, kind), dv.cardinality))
        chunks.append(entry)
        pos += len(entry)
        if target is not None and pos > target:
            files.append((b"".join(chunks), ranges))
            chunks, ranges, pos = [bytes([VERSION])], [], 1
    if ranges or not files:
        files.append((b"".join(chunks), ranges))
    return files


class DvIndexFileWriter:
    """Writes DELETION_VECTORS index files into ``directory``.

    ``target_size``: roll to a new file once a file passes it (Paimon's bucket-unaware writer);
    ``None`` writes everything into one file (Paimon's ``writeSingleFile`` for bucketed tables).
    ``name_factory(n)`` names the n-th file; default ``index-<uuid>-<n>`` like Paimon.
    """

    def __init__(self, directory: str | os.PathLike, *, target_size: int | str | None = DEFAULT_TARGET_SIZE,
                 name_factory: Callable[[int], str] | None = None) -> None:
        self.directory = os.fspath(directory)
        self.target_size = None if target_size is None else parse_memory_size(target_size)
        if name_factory is None:
            prefix = f"index-{uuid.uuid4()}-"
            counter = iter(range(1 << 62))
            name_factory = lambda _n: prefix + str(next(counter))  # noqa: E731 - one shared counter
        self.name_factory = name_factory
        self._files_written = 0

    def write(self, dvs: DvInput) -> list[DvIndexFileMeta]:
        metas = []
        for data, ranges in encode_dv_files(dvs, target_size=self.target_size):
            name = self.name_factory(self._files_written)
            self._files_written += 1
            path = os.path.join(self.directory, name)
            atomic_write_bytes(path, data)
            metas.append(DvIndexFileMeta(name, len(data), len(ranges), ranges, path=path))
        return metas


def write_dv_index(directory: str | os.PathLike, dvs: DvInput, *,
                   target_size: int | str | None = DEFAULT_TARGET_SIZE,
                   name_factory: Callable[[int], str] | None = None) -> list[DvIndexFileMeta]:
    """Write vectors (``{data file: DeletionVector}`` in write order) as DV index files."""
    return DvIndexFileWriter(directory, target_size=target_size, name_factory=name_factory).write(dvs)


# ---------------------------------------------------------------------------------------------- reading
@dataclass
class DvEntry:
    """One ``size | bin | crc32`` entry as found in a file."""

    offset: int
    size: int
    kind: str
    crc: int
    dv: DeletionVector

    @property
    def length(self) -> int:
        return range_length(self.size, self.kind)

    @property
    def cardinality(self) -> int:
        return self.dv.cardinality


@dataclass
class DvIndexFile:
    version: int
    entries: list[DvEntry]
    path: str | None = None


def _source(data: ByteSource | bytes | bytearray | memoryview | BinaryIO | str | os.PathLike,
            path: str | None) -> tuple[ByteSource, bool]:
    if isinstance(data, ByteSource):
        return data, False
    return ByteSource(data, path=path), True


def _decode_entry(buf: memoryview, pos: int, *, path: str | None, base: int = 0,
                  expected_length: int | None = None, verify_crc: bool = True) -> DvEntry:
    """Decode the entry whose size field is at ``buf[pos]`` (``base`` = file offset of ``buf[0]``)."""
    end = len(buf)
    if pos + 8 > end:
        raise TruncatedDataError("deletion-vector entry header runs past the end", path=path,
                                 offset=base + pos, expected="4-byte size and 4-byte magic")
    (size,) = _INT.unpack_from(buf, pos)
    kind = bin_kind(bytes(buf[pos + 4:pos + 8]), path=path, offset=base + pos + 4)
    if size < 4 or pos + 4 + size + 4 > end:
        raise TruncatedDataError(f"deletion-vector size {size} runs past the end", path=path,
                                 offset=base + pos, expected=f"at most {max(end - pos - 8, 0)} bytes")
    if expected_length is not None and range_length(size, kind) != expected_length:
        want = expected_length - 8 if kind == "64" else expected_length
        raise CorruptDataError(f"deletion-vector size {size} does not match the recorded length "
                               f"{expected_length} ({kind}-bit)", path=path, offset=base + pos,
                               expected=f"size {want}")
    data = buf[pos + 4:pos + 4 + size]
    (stored,) = struct.unpack_from(">I", buf, pos + 4 + size)
    if verify_crc:
        actual = crc32(data)
        if actual != stored:
            raise ChecksumMismatchError(
                f"deletion-vector checksum mismatch: stored {stored:08x}, computed {actual:08x} "
                f"(checksum field at offset {base + pos + 4 + size})", path=path, offset=base + pos,
                expected=f"crc32 {actual:08x}")
    dv = DeletionVector.deserialize(data, path=path, base=base + pos + 4)
    return DvEntry(base + pos, size, kind, stored, dv)


def read_dv_index(data: ByteSource | bytes | BinaryIO | str | os.PathLike, *, path: str | None = None,
                  verify_crc: bool = True) -> DvIndexFile:
    """Read every entry of a DV index file (version byte, then entries to the end)."""
    src, owned = _source(data, path)
    try:
        buf = memoryview(src.read_all())
        path = src.path
        if not buf:
            raise TruncatedDataError("empty deletion-vector index file", path=path, offset=0,
                                     expected="version byte 1")
        if buf[0] != VERSION:
            raise UnsupportedVersionError(f"deletion-vector index file version {buf[0]}", path=path,
                                          offset=0, expected=f"version {VERSION}")
        entries, pos = [], 1
        while pos < len(buf):
            entry = _decode_entry(buf, pos, path=path, verify_crc=verify_crc)
            entries.append(entry)
            pos += entry.size + 8
        return DvIndexFile(VERSION, entries, path)
    finally:
        if owned:
            src.close()


def read_entry(data: ByteSource | bytes | BinaryIO | str | os.PathLike, *, path: str | None = None,
               verify_crc: bool = True) -> DvEntry:
    """Read a stand-alone ``size | bin | crc32`` entry (the whole input must be that one entry)."""
    src, owned = _source(data, path)
    try:
        buf = memoryview(src.read_all())
        entry = _decode_entry(buf, 0, path=src.path, verify_crc=verify_crc)
        if entry.size + 8 != len(buf):
            raise CorruptDataError(f"{len(buf) - entry.size - 8} stray bytes after the entry", path=src.path,
                                   offset=entry.size + 8, expected=f"{entry.size + 8} bytes")
        return entry
    finally:
        if owned:
            src.close()


def read_deletion_vector(data: ByteSource | bytes | BinaryIO | str | os.PathLike, offset: int, length: int, *,
                         path: str | None = None, verify_crc: bool = True) -> DeletionVector:
    """Read one data file's vector from its recorded ``(offset, length)``, reading only that entry."""
    src, owned = _source(data, path)
    try:
        if offset < 1 or length < 4:
            raise CorruptDataError(f"invalid deletion-vector range ({offset}, {length})", path=src.path,
                                   offset=offset, expected="offset >= 1 and length >= 4")
        head = src.read(offset, 8, "deletion-vector entry header")
        (size,) = _INT.unpack_from(head, 0)
        kind = bin_kind(head[4:8], path=src.path, offset=src.base + offset + 4)
        if range_length(size, kind) != length:
            want = length - 8 if kind == "64" else length
            raise CorruptDataError(f"deletion-vector size {size} does not match the recorded length "
                                   f"{length} ({kind}-bit)", path=src.path, offset=src.base + offset,
                                   expected=f"size {want}")
        rest = src.read(offset + 8, size, "deletion-vector bin and checksum")
        return _decode_entry(memoryview(head + rest), 0, path=src.path, base=src.base + offset,
                             verify_crc=verify_crc).dv
    finally:
        if owned:
            src.close()


def read_deletion_vectors(data: ByteSource | bytes | BinaryIO | str | os.PathLike,
                          ranges: Iterable[DeletionFileRange | tuple], *, path: str | None = None,
                          verify_crc: bool = True) -> dict[str, DeletionVector]:
    """``readAllDeletionVectors``: every recorded range of one index file -> ``{data file: vector}``.

    The file is read once; the version byte, every size against its length, and every CRC are checked.
    """
    src, owned = _source(data, path)
    try:
        buf = memoryview(src.read_all())
        if not buf or buf[0] != VERSION:
            raise UnsupportedVersionError(
                f"deletion-vector index file version {buf[0] if buf else 'missing'}", path=src.path,
                offset=0, expected=f"version {VERSION}")
        out: dict[str, DeletionVector] = {}
        for r in ranges:
            r = r if isinstance(r, DeletionFileRange) else DeletionFileRange(*r)
            if r.offset < 1:
                raise CorruptDataError(f"invalid deletion-vector offset {r.offset}", path=src.path,
                                       offset=r.offset, expected="offset >= 1")
            entry = _decode_entry(buf, r.offset, path=src.path, expected_length=r.length, verify_crc=verify_crc)
            out[r.data_file] = entry.dv
        return out
    finally:
        if owned:
            src.close()
