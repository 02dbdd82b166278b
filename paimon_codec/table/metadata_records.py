"""Reading Paimon's metadata files (manifest lists, manifests, index manifests) as plain records.

``manifest.format`` may be Avro (the default), ORC or Parquet; the encoding is taken from the file's
magic bytes (``Obj\x01``, ``ORC``, ``PAR1``), not from the option, so a table whose option changed
after some manifests were written still reads.  Every encoding yields the same record model: one
``dict`` per row, ``{"_FIELD": python value}``, nested records (``_FILE``, ``_PARTITION_STATS``,
``_GLOBAL_INDEX``) as dicts and arrays as lists (fastavro for Avro, pyarrow for ORC/Parquet).

Paimon writes these with a ``_VERSION`` field per record; versions this library does not know are
:class:`~paimon_codec.errors.UnsupportedVersionError`, undecodable files :class:`CorruptDataError`.
Field names are looked up through alias lists because they changed between Paimon versions.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import fastavro

from .. import storage
from ..errors import (
    CorruptDataError,
    MissingFileError,
    PaimonCodecError,
    UnsupportedTypeError,
    UnsupportedVersionError,
)

__all__ = ["read_metadata_records", "read_decoded", "metadata_encoding", "check_version", "field"]

try:  # fastavro needs an extra package for zstd-compressed files (Paimon's default manifest codec)
    import backports.zstd  # noqa: F401
except ImportError:  # pragma: no cover - Python >= 3.14 has compression.zstd
    pass


_MAGICS = ((b"Obj\x01", "avro"), (b"ORC", "orc"), (b"PAR1", "parquet"))


def metadata_encoding(head: bytes) -> str | None:
    """``"avro"``, ``"orc"`` or ``"parquet"`` from a file's first bytes; ``None`` when none matches."""
    for magic, name in _MAGICS:
        if head.startswith(magic):
            return name
    return None


_EXPECTED_ENCODING = {
    "avro": "an Avro object container file: header (magic, metadata, sync marker), then blocks of records",
    "orc": "an ORC file (postscript, footer, stripes)",
    "parquet": "a Parquet file (row groups, footer, PAR1 at both ends)",
}


def avro_records(fh) -> list[dict]:
    """Every record of an Avro file whose schema is a record (Paimon's metadata and data files).

    fastavro yields any Avro value; a file whose top-level values are not records is refused here
    (ValueError: the callers turn it into a :class:`CorruptDataError` naming the file)."""
    out: list[dict] = []
    reader = fastavro.reader(fh)
    try:
        for value in reader:
            if not isinstance(value, dict):
                raise ValueError(f"its values are {type(value).__name__}s, not records (the schema is not a record)")
            out.append(value)
    except ValueError as exc:
        _refuse_missing_codec(exc, reader.codec)
        raise
    return out


# fastavro's words for a codec it knows but whose library is not installed, and for one it does not know
_MISSING_LIBRARY = re.compile(r"codec is supported but you need to install one of the following libraries: \((.*)\)")


def _refuse_missing_codec(exc: ValueError, codec: str) -> None:
    """A block codec that cannot be decoded here is a missing feature, never corrupt data: raise
    :class:`UnsupportedTypeError` naming the package it needs (or the codec), else return."""
    missing = _MISSING_LIBRARY.search(str(exc))
    if missing is not None:
        needs = " or ".join(name.strip(" '\"") for name in missing.group(1).split(",") if name.strip(" '\""))
        raise UnsupportedTypeError(f"unsupported: Avro {codec} compression needs {needs} (pip install {needs})") from None
    if str(exc).startswith("Unrecognized codec"):
        raise UnsupportedTypeError(f"unsupported: Avro compression codec {codec!r}",
                                   expected="null, deflate, snappy, zstandard, bzip2, xz or lz4") from None


def _micros(t):
    """``t`` with nanosecond timestamps as microseconds (``_CREATION_TIME`` in ORC manifests is
    ``timestamp[ns]``, which ``to_pylist`` cannot turn into ``datetime`` without pandas)."""
    import pyarrow as pa

    if pa.types.is_timestamp(t) and t.unit == "ns":
        return pa.timestamp("us", t.tz)
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_micros(f.type)) for f in t])
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_micros(t.value_type)))
    if pa.types.is_map(t):
        return pa.map_(t.key_field.with_type(_micros(t.key_type)), t.item_field.with_type(_micros(t.item_type)))
    return t


def _read_columnar(data: bytes, encoding: str) -> list[dict]:
    import pyarrow as pa

    if encoding == "orc":
        from pyarrow import orc

        table = orc.ORCFile(pa.BufferReader(data)).read()
    else:
        import pyarrow.parquet as pq

        table = pq.ParquetFile(pa.BufferReader(data)).read()
    target = pa.schema([f.with_type(_micros(f.type)) for f in table.schema])
    if target != table.schema:
        table = table.cast(target, safe=False)
    return table.to_pylist()


def _read_bytes(path: str, what: str) -> bytes:
    try:
        return storage.read_bytes(path)  # metadata files are small: one GET on an object store
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError) as exc:
        raise MissingFileError(f"{what} is missing ({type(exc).__name__})", path=path) from None


def _decode(data: bytes, path: str, what: str) -> list[dict]:
    head = data[:4]
    encoding = metadata_encoding(head)
    if encoding is None:
        raise CorruptDataError(f"cannot read {what}: not an Avro, ORC or Parquet file (starts {head!r})",
                               path=path, expected="manifest.format avro, orc or parquet")
    fh = io.BytesIO(data)
    try:
        if encoding == "avro":
            return avro_records(fh)
        return _read_columnar(data, encoding)
    except PaimonCodecError as exc:  # a codec this machine cannot decode: unsupported, not corrupt
        raise exc.with_path(path) from None
    except Exception as exc:  # fastavro / pyarrow raise many kinds for corrupt input
        # fastavro reads sequentially: where it stopped is where the bad bytes are (or just past them)
        raise CorruptDataError(f"cannot read {what} ({encoding}): {type(exc).__name__}: {exc}", path=path,
                               offset=fh.tell() if encoding == "avro" else None,
                               expected=_EXPECTED_ENCODING[encoding]) from None


def read_metadata_records(path: str | os.PathLike, what: str) -> list[dict]:
    """All records of one metadata file in any of Paimon's manifest encodings.

    A missing file raises :class:`MissingFileError` (also a ``FileNotFoundError``); an
    unknown encoding and any decoding failure are :class:`CorruptDataError` naming the file.
    """
    path = os.fspath(path)
    return _decode(_read_bytes(path, what), path, what)


# Decoded metadata by content: manifests, manifest lists and index manifests are immutable once written
# (every commit writes new names), yet each plan re-reads all of them - a table opened per query decodes
# and checks the same files again (~1 ms each).  The key is a digest of the bytes, never the name or a
# modification time, so a file rewritten in place (or a different table's file) cannot be served stale.
_CACHE: OrderedDict[tuple[str, bytes, int], tuple] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_ENTRIES, _CACHE_BYTES = 512, 16 * 2**20
_cached_bytes = [0]


def read_decoded(path: str | os.PathLike, what: str, build: Callable[[list[dict]], list]) -> list:
    """``build(records)`` of the metadata file at ``path``, remembered by the file's content.

    ``build`` turns checked records into immutable objects (frozen dataclasses) and raises on bad ones;
    failures are not remembered.  Each call returns a new list of the shared objects."""
    path = os.fspath(path)
    data = _read_bytes(path, what)
    key = (what, hashlib.blake2b(data, digest_size=16).digest(), len(data))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return list(hit)
    objects = tuple(build(_decode(data, path, what)))
    if len(data) <= _CACHE_BYTES // 8:
        with _CACHE_LOCK:
            if key not in _CACHE:
                _CACHE[key] = objects
                _cached_bytes[0] += len(data)
                while len(_CACHE) > _CACHE_ENTRIES or _cached_bytes[0] > _CACHE_BYTES:
                    (_, _digest, size), _ = _CACHE.popitem(last=False)
                    _cached_bytes[0] -= size
    return list(objects)


def check_version(record: Mapping[str, Any], supported: Iterable[int], what: str, path: str) -> int:
    """Check a record's ``_VERSION`` against the versions Paimon's serializer accepts."""
    supported = tuple(supported)
    if "_VERSION" not in record:
        raise UnsupportedVersionError(f"{what} record has no _VERSION field", path=path,
                                      expected=f"_VERSION in {supported}")
    version = record["_VERSION"]
    if version not in supported:
        raise UnsupportedVersionError(f"unsupported {what} version {version}", path=path,
                                      expected=" or ".join(map(str, supported)))
    return version


_MISSING = object()


def field(record: Mapping[str, Any], names: Iterable[str], what: str, path: str, default: Any = _MISSING) -> Any:
    """The first present field among ``names`` (aliases across Paimon versions)."""
    for name in names:
        if name in record:
            return record[name]
    if default is _MISSING:
        raise CorruptDataError(f"{what} record lacks field {'/'.join(names)}", path=path,
                               expected=f"a field {' or '.join(names)}")
    return default
