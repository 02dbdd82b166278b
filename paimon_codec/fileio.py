"""Bounded, accounted reads and atomic writes.

:class:`ByteSource` wraps bytes or a seekable binary file.  Every read is bounds-checked *before*
anything is allocated (a hostile length field can never make us allocate more than the input holds)
and counted in :attr:`ByteSource.bytes_read`, which the lazy readers' tests use to prove how little
they read.  :func:`atomic_write` writes to a temporary file in the target directory and renames it
into place, so a failed write leaves the old file untouched.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from .errors import TruncatedDataError
from .storage import files as storage_files

__all__ = ["ByteSource", "atomic_write", "atomic_write_bytes"]


def _store_errors() -> Any:
    """:func:`paimon_codec.storage.store_errors` (imported on first use: storage imports this module);
    looked up once, not on every read (a planner reads a few ranges of each of many index files)."""
    global _STORE_ERRORS
    if _STORE_ERRORS is None:
        from .storage import store_errors

        _STORE_ERRORS = store_errors
    return _STORE_ERRORS


_STORE_ERRORS: Any = None
_STORAGE: Any = None


def _open_input() -> Callable[[str], BinaryIO]:
    """:func:`paimon_codec.storage.open_input` (the module imported once: storage imports this module; the
    function looked up on each call, so a wrapper installed on the module - tests, instrumentation - is used)."""
    global _STORAGE
    if _STORAGE is None:
        from . import storage

        _STORAGE = storage
    return _STORAGE.open_input


_PREAD = hasattr(os, "pread")
_PREADV = hasattr(os, "preadv")


class ByteSource:
    """Random access to a byte range of bytes or a seekable file.

    ``base``/``length`` select a window (e.g. one index slice inside a container); offsets given
    to :meth:`read` are relative to that window, while errors report absolute file offsets.
    """

    def __init__(
        self,
        data: bytes | bytearray | memoryview | BinaryIO | io.RawIOBase | str | os.PathLike,
        *,
        base: int = 0,
        length: int | None = None,
        path: str | None = None,
    ) -> None:
        self._owned = False
        if isinstance(data, (str, os.PathLike)):
            path = str(data) if path is None else path
            # local: a plain file; a URI: a RangeReader (few ranged GETs, never the whole object)
            data = _open_input()(os.fspath(data))
            self._owned = True
        # a local file opened here is read by position (os.pread): one system call a read, no seek, no
        # buffer copy, and safe from several threads (a planner reads ~12 ranges of each of hundreds of files)
        self._fd: int | None = data.fileno() if self._owned and _PREAD and isinstance(data, io.BufferedReader) \
            else None
        if isinstance(data, (bytes, bytearray, memoryview)):
            self._buf: memoryview | None = memoryview(data).cast("B") if not isinstance(data, bytes) else memoryview(data)
            self._file: BinaryIO | io.RawIOBase | None = None
            total = len(self._buf)
        else:
            self._buf = None
            self._file = data
            total = data.seek(0, io.SEEK_END)
        self.path = path
        if base < 0 or base > total:
            raise TruncatedDataError("window starts beyond the end of the input", path=path, offset=base,
                                     expected=f"at most {total}")
        self.base = base
        self.length = total - base if length is None else length
        if self.length < 0 or base + self.length > total:
            raise TruncatedDataError(
                f"window of {self.length} bytes runs past the end of the input ({total} bytes)",
                path=path, offset=base, expected=f"{self.length} bytes")
        self._counter = [0]

    #: the window's first bytes read ahead by :meth:`keep_head` (file offset ``_head_at``), shared by its windows
    _head: bytes | None = None
    _head_at = 0

    def keep_head(self, size: int) -> None:
        """Read the first ``size`` bytes of the window now, in one read, and answer later reads that lie
        inside them from memory.  A file index's headers (container head, an index's header, its
        dictionary directory) are a few small reads at its start: one system call instead of ~7 a file
        when a planner opens hundreds.  The bytes are counted once, here, whether or not they are asked
        for later; a read-ahead past the window's end is cut to it (no error: the reads that follow
        raise as they would have)."""
        n = min(max(size, 0), self.length)
        if n and self._file is not None:
            self._head, self._head_at = self.read(0, n, "head of the input"), self.base

    @property
    def bytes_read(self) -> int:
        """Bytes read through this source and every window cut from it."""
        return self._counter[0]

    def __len__(self) -> int:
        return self.length

    def read(self, offset: int, size: int, what: str = "bytes") -> bytes:
        """Read exactly ``size`` bytes at window offset ``offset`` or raise TruncatedDataError."""
        if offset < 0 or size < 0 or offset + size > self.length:
            raise TruncatedDataError(
                f"{what}: {size} bytes at {offset} run past the end of {self.length} bytes",
                path=self.path, offset=self.base + max(offset, 0), expected=f"{size} bytes of {what}")
        start = self.base + offset
        head = self._head
        if head is not None and start >= self._head_at and start + size <= self._head_at + len(head):
            at = start - self._head_at
            return head[at:at + size]  # counted when it was read
        self._counter[0] += size
        if self._buf is not None:
            return bytes(self._buf[start:start + size])
        assert self._file is not None
        try:
            if self._fd is not None and not self._file.closed:  # closed: its number may name another file now
                out = os.pread(self._fd, size, start)
            else:
                self._file.seek(start)
                out = self._file.read(size)
        except OSError:  # a store's failure becomes a StorageError naming the path (no context manager a read)
            with _store_errors()(self.path or "", "range read"):
                raise
        if len(out) != size:
            raise TruncatedDataError(f"{what}: short read", path=self.path, offset=start,
                                     expected=f"{size} bytes")
        return out

    @property
    def local_file(self) -> bool:
        """Whether reads are positional reads of a local file (what :meth:`read_into` saves an allocation on)."""
        return self._fd is not None and _PREADV

    def read_into(self, offset: int, buf: bytearray, size: int, what: str = "bytes") -> memoryview:
        """:meth:`read` into the first ``size`` bytes of ``buf`` (which must hold them) -> a view of them.

        For a caller that reuses one buffer across many reads: a fresh bytes object of ~128 KB or more is a fresh
        mapping from the OS on every read (glibc hands such blocks back on free), and faulting its pages in costs
        about as much again as the copy from the page cache.  The bytes are counted like :meth:`read`'s."""
        if size > len(buf):
            raise ValueError(f"a buffer of {len(buf)} bytes cannot take {size}")
        out = memoryview(buf)[:size]
        start = self.base + offset
        head = self._head
        inside_head = head is not None and start >= self._head_at and start + size <= self._head_at + len(head)
        if not self.local_file or inside_head or self._file is None or self._file.closed \
                or offset < 0 or size < 0 or offset + size > self.length:
            out[:] = self.read(offset, size, what)  # the bounds error, the head, a store's or a closed file's read
            return out
        self._counter[0] += size
        try:
            got = os.preadv(self._fd, [out], start)  # type: ignore[arg-type]  # _fd is set: local_file
        except OSError:
            with _store_errors()(self.path or "", "range read"):
                raise
        if got != size:
            raise TruncatedDataError(f"{what}: short read", path=self.path, offset=start, expected=f"{size} bytes")
        return out

    def view(self, offset: int, size: int, what: str = "bytes") -> bytes | memoryview:
        """:meth:`read`, without the copy when the source is in memory (a read-only view of its bytes)."""
        if self._buf is None:
            return self.read(offset, size, what)
        if offset < 0 or size < 0 or offset + size > self.length:
            return self.read(offset, size, what)  # raises the bounds error
        self._counter[0] += size
        start = self.base + offset
        return self._buf[start:start + size].toreadonly()

    def prefetch(self, offset: int, length: int) -> None:
        """Hint that the window ``[offset, offset + length)`` is about to be read piecewise: an object-store
        file fetches it in one request; local files and bytes ignore the hint."""
        hint = getattr(self._file, "prefetch", None)
        if hint is not None and 0 <= offset and length >= 0 and offset + length <= self.length:
            from .storage import store_errors

            with store_errors(self.path or "", "range read"):
                hint(self.base + offset, length)

    def read_all(self) -> bytes:
        return self.read(0, self.length, "whole input")

    def sub(self, offset: int, length: int) -> ByteSource:
        """A window inside this window (shares the file and the read counter's owner)."""
        if offset < 0 or length < 0 or offset + length > self.length:
            raise TruncatedDataError(
                f"slice of {length} bytes at {offset} runs past the end of {self.length} bytes",
                path=self.path, offset=self.base + max(offset, 0), expected=f"{length} bytes")
        child = ByteSource.__new__(ByteSource)
        child._owned = False
        child._buf, child._file, child._fd = self._buf, self._file, self._fd
        child.path, child.base, child.length = self.path, self.base + offset, length
        child._counter = self._counter
        child._head, child._head_at = self._head, self._head_at
        return child

    @classmethod
    @contextlib.contextmanager
    def opened(cls, data: ByteSource | bytes | bytearray | memoryview | BinaryIO | str | os.PathLike,
               path: str | None = None) -> Iterator[ByteSource]:
        """``data`` as a ByteSource for the ``with`` block: a source opened here is closed on exit,
        a caller's ByteSource is passed through and left open."""
        if isinstance(data, ByteSource):
            yield data
        else:
            with cls(data, path=path) as src:
                yield src

    def close(self) -> None:
        if self._owned and self._file is not None:
            self._file.close()

    def __enter__(self) -> ByteSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike, mode: str = "wb") -> Iterator[BinaryIO]:
    """A file to write ``path`` through; ``path`` appears (whole) only if the block succeeds.

    Locally a temporary file next to ``path``, ``fsync``, ``rename`` over it, ``fsync`` of the directory: a
    crash (or power loss) at any point leaves the old file or the whole new one, plus at most a ``.tmp-*``
    file the audit reports as an orphan - never a mix.  On an object store the bytes are buffered and put in
    one request (:func:`paimon_codec.storage.write_atomic`).
    """
    from . import storage

    path = os.fspath(path)
    if not storage.is_local(path):
        buf = io.BytesIO() if "b" in mode else io.StringIO()
        yield buf  # type: ignore[misc]  # a text buffer for a text mode: typed for the binary default
        data = buf.getvalue()
        storage.write_atomic(path, data if isinstance(data, bytes) else data.encode("utf-8"))
        return
    with storage.local_atomic_file(storage.split_uri(path)[2], mode) as fh:
        yield fh


#: Name prefix of :func:`atomic_write`'s temporary files (what a killed writer leaves behind).
TEMP_PREFIX = storage_files.TEMP_PREFIX


def atomic_write_bytes(path: str | os.PathLike, data: bytes | bytearray | memoryview) -> None:
    """Write ``data`` to ``path`` crash-safely (local disk or object store)."""
    from . import storage

    storage.write_atomic(os.fspath(path), bytes(data))
