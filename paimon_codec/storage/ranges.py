"""Random access to an object with few, bounded GETs (lazy index lookups on object stores).

A lazy reader (a file-index container, a deletion-vector index file) asks for many small pieces: the
container head, then the one index block a predicate needs, then a few bytes of it at a time.  On local
disk each ``read`` is a cheap syscall; on an object store each would be one HTTP GET.  :class:`RangeReader`
turns them into few GETs: every miss fetches at least ``min_get`` bytes (64 KiB by default) from the
requested offset, and the fetched window serves the reads that follow, so "container head, then one
block" costs two GETs - never the whole object unless it is that small.  A reader that knows the extent of
the block it is about to walk (the container knows each index's start and length) announces it with
:meth:`RangeReader.prefetch`, so a lazy walk through the block (range-bitmap dictionary, then bit slices)
costs one GET instead of one per hop.  A reader given ``whole_below`` fetches an object of at most that size
whole with its first GET (an index file of a few hundred KiB: one request of ~0.5 MB instead of two
round trips, when latency and not bandwidth bounds the read).  :attr:`RangeReader.gets` and
:attr:`RangeReader.bytes_fetched` count what was actually transferred.
"""

from __future__ import annotations

from typing import Any

from .positioned import PositionedReader

__all__ = ["RangeReader", "DEFAULT_MIN_GET"]

DEFAULT_MIN_GET = 64 * 1024
#: a block announced with :meth:`RangeReader.prefetch` up to this size is fetched in one GET
MAX_PREFETCH = 8 * 1024 * 1024


class RangeReader(PositionedReader):
    """A seekable read-only binary file over ``raw`` (a pyarrow ``RandomAccessFile``: ``size()``,
    ``read_at(n, offset)``) that fetches at least ``min_get`` bytes per GET and keeps the last window; an
    object of at most ``whole_below`` bytes is fetched whole by the first GET."""

    def __init__(self, raw: Any, *, size: int | None = None, min_get: int = DEFAULT_MIN_GET,
                 name: str | None = None, whole_below: int = 0) -> None:
        super().__init__(int(raw.size()) if size is None else int(size), name)
        self._raw = raw
        self._min_get = max(1, int(min_get))
        self._whole_below = int(whole_below)
        self._win_start = 0
        self._win = b""
        self.gets = 0
        self.bytes_fetched = 0

    def _fetch(self, offset: int, size: int) -> None:
        if self.gets == 0 and self._size <= self._whole_below:  # then every later read is in the window
            offset, size = 0, self._size
        want = min(max(size, self._min_get), self._size - offset)
        data = self._raw.read_at(want, offset) if want > 0 else b""
        self.gets += 1
        self.bytes_fetched += len(data)
        self._win_start, self._win = offset, bytes(data)

    def prefetch(self, offset: int, length: int) -> None:
        """Announce that ``[offset, offset + length)`` (one index block) is about to be read piecewise: fetch
        it in one GET (if at most :data:`MAX_PREFETCH` bytes and not already held)."""
        end = min(offset + length, self._size)
        if offset < 0 or length > MAX_PREFETCH or offset >= end:
            return
        if self._win_start <= offset and end <= self._win_start + len(self._win):
            return
        self._fetch(offset, end - offset)

    def read(self, size: int = -1) -> bytes:
        if self._pos >= self._size:
            return b""
        if size is None or size < 0:
            size = self._size - self._pos
        size = min(size, self._size - self._pos)
        start, end = self._pos, self._pos + size
        win_end = self._win_start + len(self._win)
        if not (self._win_start <= start and end <= win_end):
            if self._win_start <= start < win_end:  # keep the tail we have, fetch the rest
                head = self._win[start - self._win_start:]
                self._fetch(win_end, end - win_end)
                out = head + self._win[:end - win_end]
                self._pos = start + len(out)
                return out
            self._fetch(start, size)
        out = self._win[start - self._win_start:end - self._win_start]
        self._pos = start + len(out)
        return out

    def close(self) -> None:
        if not self.closed:
            try:
                self._raw.close()
            finally:
                super().close()
