"""The one CRC-32 check: ``java.util.zip.CRC32`` (zlib's polynomial) of stored bytes against a stored value.

Deletion-vector entries, B-tree blocks and null bitmaps of global indexes, blob records and the ``inspect``
validator all check their checksums through :func:`check_crc32`.  The CRC uses ISA-L's carry-less-multiply
implementation (``isal``) when installed - about 4x faster than zlib's on large bins - and falls back to
:func:`zlib.crc32`; both give identical values.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from .errors import ChecksumMismatchError

__all__ = ["crc32", "crc32_signed", "check_crc32", "IMPLEMENTATION"]

_M32 = 0xFFFFFFFF

crc32: Callable[..., int]
try:  # pragma: no cover - depends on the environment
    from isal.isal_zlib import crc32 as _isal_crc32

    crc32 = _isal_crc32
    IMPLEMENTATION = "isal"
except ImportError:  # pragma: no cover
    crc32 = zlib.crc32
    IMPLEMENTATION = "zlib"


def crc32_signed(data: bytes | bytearray | memoryview) -> int:
    """The CRC-32 as the signed int32 that ``DataOutput.writeInt`` stores."""
    v = crc32(data)
    return v - (1 << 32) if v >= 1 << 31 else v


def check_crc32(data: bytes | bytearray | memoryview, stored: int, what: str, *, path: str | None = None,
                offset: int | None = None) -> None:
    """Raise :class:`ChecksumMismatchError` naming ``what`` unless CRC-32 of ``data`` is ``stored`` (signed
    or unsigned; ``offset``: where the checked bytes start in the file)."""
    actual = crc32(data)
    if actual != stored & _M32:
        raise ChecksumMismatchError(f"{what}: CRC-32 {actual:#010x}, stored {stored & _M32:#010x}", path=path,
                                    offset=offset, expected=f"crc32 {actual:#010x}")
