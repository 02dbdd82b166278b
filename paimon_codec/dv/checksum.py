"""CRC-32 (``java.util.zip.CRC32`` = zlib's polynomial) of deletion-vector bins.

Uses ISA-L's carry-less-multiply implementation (``isal``) when installed - about 4x faster than
zlib's on large bins - and falls back to :func:`zlib.crc32`; both give identical values.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

__all__ = ["crc32", "IMPLEMENTATION"]

crc32: Callable[..., int]
try:  # pragma: no cover - depends on the environment
    from isal.isal_zlib import crc32 as _isal_crc32

    crc32 = _isal_crc32
    IMPLEMENTATION = "isal"
except ImportError:  # pragma: no cover
    crc32 = zlib.crc32
    IMPLEMENTATION = "zlib"
