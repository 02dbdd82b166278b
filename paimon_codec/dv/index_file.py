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

Framing is the generated codecs' (``schemas/deletion_vectors.ksy`` / ``deletion_vector.ksy``): whole
files are parsed and built by ``DeletionVectors`` (its build derives every ``size`` and ``crc``), one
entry read by range by the ``DeletionVector`` entry codec.  When a generated parse fails, a checksum
mismatch found on the way to the failure is reported instead (Java checks the CRC before it decodes a
bin), see :func:`_raise_first_bad_frame`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, BinaryIO

import numpy as np

from .. import storage
from ..checksum import check_crc32
from ..errors import CorruptDataError, PaimonCodecError, TruncatedDataError, UnsupportedVersionError
from ..fileio import ByteSource, atomic_write_bytes
from ..formats import translate_error
from ..generated.construct import deletion_vectors as _deletion_vectors
from ..generated.construct.deletion_vector import DV_CRC_DTYPE as _CRC
from ..generated.construct.deletion_vector import DV_MAGIC_DTYPE as _MAGIC
from ..generated.construct.deletion_vector import DV_SIZE_DTYPE as _SIZE
from ..generated.construct.deletion_vector import DeletionVector as EntryCodec
from ..generated.construct.deletion_vector import fast_parse_deletion_vector_entry as _fast_parse_entry
from ..generated.construct.deletion_vectors import DeletionVectors as FileCodec
from ..memory_size import parse_memory_size
from ..report import JsonForm
from .deletion_vector import DeletionVector, bin_is_32, bin_kind, bin_length

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
    "MIN_ENTRY_SIZE",
    "SIZE_FIELD",
]

VERSION = _deletion_vectors.DELETION_VECTORS_VERSION_V1
INDEX_TYPE = "DELETION_VECTORS"
DEFAULT_TARGET_SIZE = 2 * 1024 * 1024
_MAX_INT = 2**31 - 1
_FRAME = _SIZE.itemsize + _CRC.itemsize  # the size and crc fields around a bin
_HEAD = _SIZE.itemsize + _MAGIC.itemsize  # the size field and the bin's magic
#: Bytes of an entry's ``size`` field (the bin follows it).
SIZE_FIELD = _SIZE.itemsize
#: The smallest entry: size, magic and crc.
MIN_ENTRY_SIZE = _HEAD + _CRC.itemsize
_FIRST_ENTRY = _deletion_vectors.DELETION_VECTORS_VERSION_SIZE  # entries follow the version byte
_VERSION_DTYPE = _deletion_vectors.DELETION_VECTORS_VERSION_DTYPE

DvInput = Mapping[str, DeletionVector] | Iterable[tuple[str, DeletionVector]]


@dataclass(frozen=True)
class DeletionFileRange(JsonForm):
    """One ``_DELETIONS_VECTORS_RANGES`` row: where a data file's vector sits in an index file."""

    data_file: str
    offset: int
    length: int
    cardinality: int | None = None

    def to_dict(self) -> list:
        return [self.data_file, self.offset, self.length, self.cardinality]


@dataclass
class DvIndexFileMeta(JsonForm):
    """The ``IndexFileMeta`` of one written DV index file."""

    file_name: str
    file_size: int
    row_count: int
    ranges: list[DeletionFileRange] = field(default_factory=list)
    path: str | None = None
    index_type: str = INDEX_TYPE

    def to_dict(self) -> dict:
        return {"file_name": self.file_name, "file_size": self.file_size, "row_count": self.row_count,
                "ranges": [r.to_dict() for r in self.ranges]}


def range_length(size: int, kind: str) -> int:
    """The ``length`` a manifest records for an entry whose size field is ``size``."""
    return size + _FRAME if kind == "64" else size


def _kind_of(bin_obj: Mapping[str, Any]) -> str:
    return "32" if bin_is_32(bin_obj) else "64"


def encode_entry(dv: DeletionVector) -> bytes:
    """``size | bin | crc32`` of one vector (the bytes Paimon appends to an index file)."""
    bin_obj = dv.to_bin()
    if bin_length(bin_obj) > _MAX_INT:
        raise CorruptDataError(f"deletion vector of {bin_length(bin_obj)} bytes does not fit an int size field")
    return EntryCodec.build({"bin": bin_obj})


def _items(dvs: DvInput) -> Iterator[tuple[str, DeletionVector]]:
    return iter(dvs.items()) if isinstance(dvs, Mapping) else iter(dvs)


def _build_file(entries: list[dict], size: int) -> bytes:
    data = FileCodec.build({"version": VERSION, "entries": entries})
    if len(data) != size:  # the ranges were computed from bin_length: they must match what was built
        raise PaimonCodecError(f"built deletion-vector file has {len(data)} bytes, its ranges say {size}")
    return data


def encode_dv_files(dvs: DvInput, *, target_size: int | str | None = DEFAULT_TARGET_SIZE
                    ) -> list[tuple[bytes, list[DeletionFileRange]]]:
    """Encode vectors into index-file byte strings (rolling past ``target_size``; None = one file):
    ``[(file bytes, ranges), ...]``, the in-memory half of :class:`DvIndexFileWriter`."""
    target = None if target_size is None else parse_memory_size(target_size)
    files: list[tuple[bytes, list[DeletionFileRange]]] = []
    entries: list[dict] = []
    ranges: list[DeletionFileRange] = []
    pos = _FIRST_ENTRY
    for name, dv in _items(dvs):
        bin_obj = dv.to_bin()
        size = bin_length(bin_obj)
        if size > _MAX_INT:
            raise CorruptDataError(f"deletion vector of {size} bytes does not fit an int size field")
        if pos > _MAX_INT:
            raise CorruptDataError(f"index file offset {pos} does not fit an int range offset")
        ranges.append(DeletionFileRange(str(name), pos, range_length(size, _kind_of(bin_obj)), dv.cardinality))
        entries.append({"bin": bin_obj})
        pos += size + _FRAME
        if target is not None and pos > target:
            files.append((_build_file(entries, pos), ranges))
            entries, ranges, pos = [], [], _FIRST_ENTRY
    if ranges or not files:
        files.append((_build_file(entries, pos), ranges))
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
            path = storage.join(self.directory, name)
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


def _check_crc(buf: bytes | memoryview, pos: int, size: int, stored: int, *, path: str | None,
               base: int) -> None:
    """Compare the CRC-32 of the bin after the size field of the entry at ``buf[pos]`` with ``stored`` (entry
    at file offset ``base + pos``)."""
    sw = _SIZE.itemsize
    check_crc32(memoryview(buf)[pos + sw:pos + sw + size], stored,
                f"deletion-vector checksum (field at offset {base + pos + sw + size})", path=path, offset=base + pos)


def _frame_size(buf: bytes | memoryview, pos: int) -> int:
    """The ``size`` field of the entry at ``buf[pos]`` (the generated entry's dtype)."""
    return int(np.frombuffer(buf, _SIZE, 1, pos)[0])


def _raise_first_bad_frame(buf: bytes | memoryview, pos: int, end: int, *, path: str | None, base: int) -> None:
    """After a failed generated parse: raise for the first entry with a bad magic or CRC, if any.

    Java checks the magic and the CRC of an entry before it decodes its bin, so a flipped bit
    inside a 64-bit bin is a checksum error, not the structural error the bin's parse ran into.  Walks only
    the ``size`` and ``crc`` frames (error path only); returns if every whole frame is fine."""
    sw, cw, mw = _SIZE.itemsize, _CRC.itemsize, _MAGIC.itemsize
    end = min(end, len(buf))  # a declared size may point past the data: never read beyond it
    while pos + sw + mw <= end:
        size = _frame_size(buf, pos)
        bin_kind(bytes(buf[pos + sw:pos + sw + mw]), path=path, offset=base + pos + sw)
        if size < mw or pos + sw + size + cw > end:
            return
        crc = int(np.frombuffer(buf, _CRC, 1, pos + sw + size)[0])
        _check_crc(buf, pos, size, crc, path=path, base=base)
        pos += sw + size + cw


def _entry_of(obj: Mapping[str, Any], buf: bytes | memoryview, pos: int, *, path: str | None, base: int,
              expected_length: int | None, verify_crc: bool) -> DvEntry:
    """A parsed ``size | bin | crc`` at ``buf[pos]`` -> DvEntry (length, CRC, then the bin checked)."""
    size, bin_obj = obj["size"], obj["bin"]
    kind = _kind_of(bin_obj)
    if expected_length is not None and range_length(size, kind) != expected_length:
        want = expected_length - _FRAME if kind == "64" else expected_length
        raise CorruptDataError(f"deletion-vector size {size} does not match the recorded length "
                               f"{expected_length} ({kind}-bit)", path=path, offset=base + pos,
                               expected=f"size {want}")
    if verify_crc:
        _check_crc(buf, pos, size, obj["crc"], path=path, base=base)
    used = bin_length(bin_obj)
    if used != size:
        raise CorruptDataError(f"{size - used} stray bytes after the last bitmap", path=path,
                               offset=base + pos + _SIZE.itemsize + used, expected=f"bin of {used} bytes")
    dv = DeletionVector.from_bin(bin_obj, path=path, base=base + pos + _SIZE.itemsize)
    return DvEntry(base + pos, size, kind, obj["crc"] & 0xFFFFFFFF, dv)


def _decode_entry(buf: bytes | memoryview, pos: int = 0, *, path: str | None, base: int = 0,
                  expected_length: int | None = None, verify_crc: bool = True) -> DvEntry:
    """The one entry at ``buf[pos:]`` (``base``: file offset of buf[0]): the generated fast parser (~1 us), else the
    Construct codec (~40 us), which raises the error naming a bad entry."""
    view = memoryview(buf)
    try:
        obj = _fast_parse_entry(view, pos)[0]
    except Exception:  # noqa: BLE001 - parsed again below by the reference codec, which names the fault
        obj = None
    if obj is not None:
        return _entry_of(obj, buf, pos, path=path, base=base, expected_length=expected_length, verify_crc=verify_crc)
    try:
        obj = EntryCodec.parse(view[pos:])
    except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
        err = translate_error(exc, path, "deletion-vector entry").with_base_offset(base + pos)
        if verify_crc:
            _raise_first_bad_frame(buf, pos, pos + _SIZE.itemsize + _CRC.itemsize + max(_frame_size(buf, pos), 0)
                                   if len(buf) >= pos + _SIZE.itemsize else len(buf), path=path, base=base)
        raise err from None
    return _entry_of(obj, buf, pos, path=path, base=base, expected_length=expected_length, verify_crc=verify_crc)


def _parse_file(buf: bytes, *, path: str | None, verify_crc: bool) -> list[tuple[int, Any]]:
    """The whole file through the generated ``DeletionVectors`` codec -> ``[(offset, entry), ...]``."""
    if len(buf) < _FIRST_ENTRY:
        raise TruncatedDataError("deletion-vector index file shorter than its version", path=path, offset=0,
                                 expected=f"version {VERSION} in {_FIRST_ENTRY} bytes")
    version = int(np.frombuffer(buf, _VERSION_DTYPE, 1)[0])  # the file's first field (the schema's seq)
    if version != VERSION:
        raise UnsupportedVersionError(f"deletion-vector index file version {version}", path=path,
                                      offset=0, expected=f"version {VERSION}")
    try:
        obj = FileCodec.parse(buf)
    except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
        err = translate_error(exc, path, "deletion-vector index file")
        if verify_crc:
            _raise_first_bad_frame(buf, _FIRST_ENTRY, len(buf), path=path, base=0)
        raise err from None
    out, pos = [], _FIRST_ENTRY
    for entry in obj["entries"]:
        out.append((pos, entry))
        pos += entry["size"] + _FRAME
    return out


def read_dv_index(data: ByteSource | bytes | BinaryIO | str | os.PathLike, *, path: str | None = None,
                  verify_crc: bool = True) -> DvIndexFile:
    """Read every entry of a DV index file (version byte, then entries to the end)."""
    with ByteSource.opened(data, path) as src:
        buf = src.read_all()
        path = src.path
        entries = [_entry_of(e, buf, pos, path=path, base=0, expected_length=None, verify_crc=verify_crc)
                   for pos, e in _parse_file(buf, path=path, verify_crc=verify_crc)]
        return DvIndexFile(VERSION, entries, path)


def read_entry(data: ByteSource | bytes | BinaryIO | str | os.PathLike, *, path: str | None = None,
               verify_crc: bool = True) -> DvEntry:
    """Read a stand-alone ``size | bin | crc32`` entry (the whole input must be that one entry)."""
    with ByteSource.opened(data, path) as src:
        buf = src.read_all()
        entry = _decode_entry(buf, 0, path=src.path, verify_crc=verify_crc)
        if entry.size + _FRAME != len(buf):
            raise CorruptDataError(f"{len(buf) - entry.size - _FRAME} stray bytes after the entry", path=src.path,
                                   offset=entry.size + _FRAME, expected=f"{entry.size + _FRAME} bytes")
        return entry


def read_deletion_vector(data: ByteSource | bytes | BinaryIO | str | os.PathLike, offset: int, length: int, *,
                         path: str | None = None, verify_crc: bool = True) -> DeletionVector:
    """Read one data file's vector from its recorded ``(offset, length)``, reading only that entry.

    The magic (4 bytes after ``offset``) says how ``length`` maps to the entry's extent (FORMATS §6.3);
    the entry itself is decoded by the generated entry codec.
    """
    with ByteSource.opened(data, path) as src:
        if offset < _FIRST_ENTRY or length < _MAGIC.itemsize:
            raise CorruptDataError(f"invalid deletion-vector range ({offset}, {length})", path=src.path,
                                   offset=offset, expected=f"offset >= {_FIRST_ENTRY} and length >= {_MAGIC.itemsize}")
        head = src.read(offset, _HEAD, "deletion-vector entry header")
        kind = bin_kind(head[_SIZE.itemsize:_HEAD], path=src.path, offset=src.base + offset + _SIZE.itemsize)
        extent = length if kind == "64" else length + _FRAME
        if extent < _HEAD + _CRC.itemsize:
            raise CorruptDataError(f"invalid deletion-vector length {length} for a {kind}-bit vector",
                                   path=src.path, offset=src.base + offset, expected="a whole entry")
        entry = head + src.read(offset + _HEAD, extent - _HEAD, "deletion-vector bin and checksum")
        return _decode_entry(entry, 0, path=src.path, base=src.base + offset, expected_length=length,
                             verify_crc=verify_crc).dv


def read_deletion_vectors(data: ByteSource | bytes | BinaryIO | str | os.PathLike,
                          ranges: Iterable[DeletionFileRange | tuple], *, path: str | None = None,
                          verify_crc: bool = True) -> dict[str, DeletionVector]:
    """``readAllDeletionVectors``: every recorded range of one index file -> ``{data file: vector}``.

    The file is read and framed once (generated ``DeletionVectors``); every range must start at an
    entry, and its size against its length and its CRC are checked.
    """
    with ByteSource.opened(data, path) as src:
        buf = src.read_all()
        by_offset = dict(_parse_file(buf, path=src.path, verify_crc=verify_crc))
        out: dict[str, DeletionVector] = {}
        for r in ranges:
            r = r if isinstance(r, DeletionFileRange) else DeletionFileRange(*r)
            entry = by_offset.get(r.offset)
            if entry is None:
                raise CorruptDataError(f"no deletion-vector entry starts at offset {r.offset}", path=src.path,
                                       offset=r.offset, expected="the offset of an entry's size field")
            out[r.data_file] = _entry_of(entry, buf, r.offset, path=src.path, base=0, expected_length=r.length,
                                         verify_crc=verify_crc).dv
        return out
