"""Dynamic-bucket HASH index files: a flat array of big-endian int32 key hashes, no header.

Layout and element dtype come from the generated ``hash_index`` codec (``HashIndex`` for in-memory
bytes, its ``HASHES_DTYPE`` for the file fast paths that read into / write from one numpy array without
an extra copy); never per element.
"""

from __future__ import annotations

import os
from typing import BinaryIO

import numpy as np

from ..errors import CorruptDataError
from ..fileio import ByteSource, atomic_write
from ..formats import translate_error
from ..generated.construct.hash_index import HASHES_DTYPE, HashIndex

__all__ = ["INDEX_TYPE", "HASH_DTYPE", "read_hash_index", "encode_hash_index", "write_hash_index"]

INDEX_TYPE = "HASH"
#: On-disk element type of a hash index file (the dtype the generated ``hash_index`` codec exports).
HASH_DTYPE = HASHES_DTYPE


def read_hash_index(data: ByteSource | bytes | bytearray | memoryview | BinaryIO | str | os.PathLike, *,
                    path: str | None = None) -> np.ndarray:
    """All hashes of a HASH index file as a native-endian int32 array (file order)."""
    if isinstance(data, (str, os.PathLike)):
        from .. import storage

        if storage.is_local(os.fspath(data)):
            return _read_hash_file(storage.split_uri(os.fspath(data))[2])
        path = os.fspath(data)
        data = storage.read_bytes(path)  # one GET
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw, where = data, path
    else:
        with ByteSource.opened(data, path) as src:
            raw, where = src.read_all(), src.path
    if len(raw) % 4:
        raise CorruptDataError(f"hash index of {len(raw)} bytes is not a whole number of int32 values",
                               path=where, offset=len(raw) - len(raw) % 4, expected="a multiple of 4 bytes")
    try:
        hashes = HashIndex.parse(raw)["hashes"]
    except Exception as exc:  # noqa: BLE001 - every codec failure becomes one of our errors
        raise translate_error(exc, where, "hash index") from None
    return hashes.astype(np.int32)


def _read_hash_file(path: str | os.PathLike) -> np.ndarray:
    """Bulk path for files: read straight into the array, then byte-swap in place (no extra copy)."""
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size % 4:
            raise CorruptDataError(f"hash index of {size} bytes is not a whole number of int32 values",
                                   path=os.fspath(path), offset=size - size % 4, expected="a multiple of 4 bytes")
        out = np.empty(size // 4, dtype=HASH_DTYPE)
        got = fh.readinto(out.data.cast("B"))
        if got != size:
            raise CorruptDataError(f"short read: {got} of {size} bytes", path=os.fspath(path), offset=got)
    return out.byteswap(inplace=True).view(np.int32) if HASH_DTYPE.byteorder != "=" else out


def _to_file_order(hashes: np.ndarray | list[int]) -> np.ndarray:
    arr = np.asarray(hashes)
    if arr.size and arr.dtype.kind not in "iu":
        raise CorruptDataError(f"hashes must be integers, got {arr.dtype}")
    if arr.dtype != np.int32 and arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < -(2**31) or hi > 2**31 - 1:
            raise CorruptDataError(f"hash {lo if lo < -(2**31) else hi} does not fit an int32")
    return arr.astype(HASH_DTYPE, copy=False)


def encode_hash_index(hashes: np.ndarray | list[int]) -> bytes:
    """The file bytes for ``hashes`` (int32 values; Python ints must fit a signed int32)."""
    return HashIndex.build({"hashes": _to_file_order(hashes)})


def write_hash_index(path: str | os.PathLike, hashes: np.ndarray | list[int]) -> int:
    """Write a HASH index file atomically; returns its row count (number of hashes)."""
    arr = np.ascontiguousarray(_to_file_order(hashes))
    with atomic_write(path) as fh:
        fh.write(arr.data.cast("B"))
    return int(arr.size)
