"""Loading one data file's deletion vector from its ``(path, offset, length)`` in a DV index file.

Reads only that entry (``int32 BE size`` + bin + ``int32 BE crc``), verifies the CRC and the
size/length relation of FORMATS §6.3 (32-bit: ``length == size``; 64-bit: ``length == size + 8``)
and decodes the bin with :class:`paimon_codec.dv.deletion_vector.DeletionVector`.
"""

from __future__ import annotations

import struct
import zlib

from ..dv.deletion_vector import DeletionVector, bin_kind
from ..errors import ChecksumMismatchError, CorruptDataError, PaimonCodecError, UnsupportedVersionError
from ..fileio import ByteSource

__all__ = ["read_deletion_vector", "check_dv_file_version"]

DV_FILE_VERSION = 1


def check_dv_file_version(source: ByteSource) -> None:
    version = source.read(0, 1, "DV index file version")[0]
    if version != DV_FILE_VERSION:
        raise UnsupportedVersionError(f"deletion-vector index file version {version}", path=source.path,
                                      offset=0, expected=str(DV_FILE_VERSION))


def read_deletion_vector(path: str, offset: int, length: int, *, verify_crc: bool = True) -> DeletionVector:
    """The deletion vector stored at ``offset`` (position of its size field) of a DV index file."""
    with ByteSource(path) as src:
        try:
            check_dv_file_version(src)
            if offset < 1 or length < 4:
                raise CorruptDataError(f"deletion-vector range ({offset}, {length}) is impossible",
                                       path=path, offset=offset)
            (size,) = struct.unpack(">i", src.read(offset, 4, "deletion-vector size"))
            magic = src.read(offset + 4, 4, "deletion-vector magic")
            kind = bin_kind(magic, path=path, offset=offset + 4)
            want = length if kind == "32" else length - 8
            if size != want:
                raise CorruptDataError(f"deletion-vector size field {size} does not match the manifest length "
                                       f"{length}", path=path, offset=offset, expected=str(want))
            body = src.read(offset + 4, size, "deletion-vector bin")
            (crc,) = struct.unpack(">I", src.read(offset + 4 + size, 4, "deletion-vector CRC"))
            if verify_crc and zlib.crc32(body) != crc:
                raise ChecksumMismatchError(
                    f"deletion-vector CRC {zlib.crc32(body):08x} does not match the stored {crc:08x}",
                    path=path, offset=offset + 4 + size)
            return DeletionVector.deserialize(body, path=path, base=offset + 4)
        except PaimonCodecError as exc:
            raise exc.with_path(path) from None
