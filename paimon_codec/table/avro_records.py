"""Reading Paimon's Avro metadata files (manifest lists, manifests, index manifests) with fastavro.

Paimon writes these with a ``_VERSION`` field per record; versions this library does not know are
:class:`~paimon_codec.errors.UnsupportedVersionError`, undecodable files :class:`CorruptDataError`.
Field names are looked up through alias lists because they changed between Paimon versions.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

import fastavro

from ..errors import CorruptDataError, UnsupportedVersionError

__all__ = ["read_avro_records", "check_version", "field"]

try:  # fastavro needs an extra package for zstd-compressed files (Paimon's default manifest codec)
    import backports.zstd  # noqa: F401
except ImportError:  # pragma: no cover - Python >= 3.14 has compression.zstd
    pass


def read_avro_records(path: str | os.PathLike, what: str) -> list[dict]:
    """All records of one Avro file; any decoding failure becomes CorruptDataError."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            return list(fastavro.reader(fh))
    except (FileNotFoundError, IsADirectoryError, PermissionError):
        raise
    except Exception as exc:  # fastavro raises many kinds for corrupt input
        raise CorruptDataError(f"cannot read {what} (Avro): {type(exc).__name__}: {exc}", path=path) from None


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
        raise CorruptDataError(f"{what} record lacks field {'/'.join(names)}", path=path)
    return default
