"""The position bookkeeping shared by the read-only, seekable binary files over a store object.

:class:`~paimon_codec.storage.RangeReader` (a window of the last GET) and
:class:`~paimon_codec.planning.held_ranges.HeldRanges` (every byte fetched, kept) differ only in how they
fetch and hold bytes; the file protocol around that (a size known up front, a position, ``seek`` /
``tell``, ``readinto`` / ``readall`` in terms of ``read``) lives here once.
"""

from __future__ import annotations

import io
from typing import Any

__all__ = ["PositionedReader"]


class PositionedReader(io.RawIOBase):
    """A read-only binary file of ``size`` bytes with a position; subclasses implement :meth:`read`
    (which must advance :attr:`_pos`) and may extend :meth:`close`."""

    def __init__(self, size: int, name: str | None = None) -> None:
        super().__init__()
        self._size = int(size)
        self._pos = 0
        self.name = name

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def size(self) -> int:
        return self._size

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_SET:
            base = 0
        elif whence == io.SEEK_CUR:
            base = self._pos
        elif whence == io.SEEK_END:
            base = self._size
        else:
            raise ValueError(f"bad whence {whence}")
        if base + offset < 0:
            raise ValueError("negative seek position")
        self._pos = base + offset
        return self._pos

    def read(self, size: int = -1) -> bytes:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        return self.read(-1)
