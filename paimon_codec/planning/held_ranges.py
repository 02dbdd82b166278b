"""A file on an object store read piecewise over several planning steps, no byte fetched twice.

Top-N planning reads one index file in steps far apart in time (its header while probing every file,
maybe a dictionary chunk, later its bit slices), each step a few small reads.  A
:class:`~paimon_codec.storage.RangeReader` keeps only its last window and reads ahead a fixed size, so
a later step re-fetches bytes an earlier one already had.  :class:`HeldRanges` keeps every byte it
fetched (a few KiB per file until planning ends) and fetches only missing bytes: a miss reads ahead
``read_ahead`` bytes (small reads of a header come in one request) but never into bytes it holds, and
:meth:`prefetch` fetches exactly the missing part of an announced block.
"""

from __future__ import annotations

import bisect
import io
from typing import Any

from ..errors import TruncatedDataError
from ..storage.positioned import PositionedReader

__all__ = ["HeldRanges"]


class HeldRanges(PositionedReader):
    """A seekable read-only binary file over ``handle`` (read exactly: a store reader with no read-ahead)."""

    def __init__(self, handle: Any, read_ahead: int) -> None:
        super().__init__(handle.seek(0, io.SEEK_END), getattr(handle, "name", None))
        self._h = handle
        self._starts: list[int] = []  # held segments: sorted, disjoint
        self._data: list[bytes] = []
        self.read_ahead = max(1, read_ahead)
        self.fetched = 0

    def _gaps(self, start: int, end: int) -> list[tuple[int, int]]:
        """Parts of ``[start, end)`` not held."""
        out, at = [], start
        i = max(0, bisect.bisect_right(self._starts, start) - 1)
        while at < end and i < len(self._starts):
            s, e = self._starts[i], self._starts[i] + len(self._data[i])
            if e <= at:
                i += 1
                continue
            if s >= end:
                break
            if s > at:
                out.append((at, s))
            at = max(at, e)
            i += 1
        if at < end:
            out.append((at, end))
        return out

    def _next_start(self, offset: int) -> int:
        i = bisect.bisect_right(self._starts, offset)
        return self._starts[i] if i < len(self._starts) else self._size

    def _fetch(self, start: int, end: int) -> None:
        self._h.seek(start)
        data = self._h.read(end - start)
        self.fetched += len(data)
        if len(data) != end - start:  # the object changed under us (or the store cut the answer short)
            raise TruncatedDataError(f"short read: {len(data)} of {end - start} bytes", path=self.name,
                                     offset=start, expected=f"{end - start} bytes")
        i = bisect.bisect_left(self._starts, start)
        self._starts.insert(i, start)
        self._data.insert(i, bytes(data))

    def prefetch(self, offset: int, length: int) -> None:
        """Fetch the missing bytes of ``[offset, offset + length)`` (one request per gap, no read-ahead)."""
        for a, b in self._gaps(max(0, offset), min(self._size, offset + length)):
            self._fetch(a, b)

    def read(self, size: int = -1) -> bytes:
        start = min(self._pos, self._size)
        end = self._size if size is None or size < 0 else min(self._size, start + size)
        for a, b in self._gaps(start, end):
            self._fetch(a, min(max(b, a + self.read_ahead), self._next_start(a)))
        out = bytearray()
        i = max(0, bisect.bisect_right(self._starts, start) - 1)
        at = start
        while at < end:
            s, d = self._starts[i], self._data[i]
            if s + len(d) > at:
                out += d[at - s:min(end, s + len(d)) - s]
                at = min(end, s + len(d))
            i += 1
        self._pos = end
        return bytes(out)

    def close(self) -> None:
        if not self.closed:
            try:
                self._h.close()
            finally:
                self._starts, self._data = [], []
                super().close()
