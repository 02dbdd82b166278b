"""Opening the files a judge reads: file-index files and deletion-vector index files.

Locally each is a plain file.  On an object store the way a file is opened decides how many round trips
judging costs: a small file-index file is fetched whole by its first GET (:data:`INDEX_WHOLE_GET`), an index
read in two steps (predicate, then top-N) keeps what the first step fetched (:func:`held_source`), and one
deletion-vector index file is shared by the judging threads behind a lock (:class:`SharedSource`) with the
span of every entry they need fetched at once (:func:`open_dv_source`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from .. import storage
from ..errors import CorruptDataError
from ..fileio import ByteSource

if TYPE_CHECKING:
    from .probe import FileProbe

__all__ = ["INDEX_WHOLE_GET", "SharedSource", "open_dv_source", "index_source", "held_source"]


class SharedSource(ByteSource):
    """A ByteSource several judging threads read through: reading is seek-then-read on one file
    handle, so each read (and prefetch) holds a lock.  Only :meth:`read`/:meth:`prefetch` are used on
    deletion-vector files; windows (:meth:`sub`) would bypass the lock and are refused."""

    def __init__(self, data: str) -> None:
        super().__init__(data)
        self._lock = threading.Lock()

    def read(self, offset: int, size: int, what: str = "bytes") -> bytes:
        with self._lock:
            return super().read(offset, size, what)

    def prefetch(self, offset: int, length: int) -> None:
        with self._lock:
            super().prefetch(offset, length)

    def sub(self, offset: int, length: int) -> ByteSource:
        raise NotImplementedError("a shared deletion-vector source is read whole-entry, never windowed")


def open_dv_source(f: FileProbe, sources: dict[str, ByteSource], extents: dict[str, tuple[int, int]],
               kind: Callable[[str], ByteSource]) -> ByteSource | None:
    """The open deletion-vector index file of ``f`` from ``sources``, or None.

    Opened on first use, with the span of all its entries the files need announced (``extents``): on an
    object store one GET then serves every vector, in whatever order the threads ask for them."""
    if f.deletion is None:
        return None
    source = sources.get(f.deletion[0])
    if source is None:
        try:  # opening is the existence check, as for file-index files
            source = sources[f.deletion[0]] = kind(f.deletion[0])
        except (FileNotFoundError, IsADirectoryError):
            raise CorruptDataError("deletion-vector index file listed in the index manifest does not exist",
                                   path=f.deletion[0], expected="a deletion-vector index file") from None
        lo, hi = extents.get(f.deletion[0], (0, 0))
        if 0 <= lo < min(hi, source.length):
            source.prefetch(lo, min(hi, source.length) - lo)
    return source


class HeldSource(ByteSource):
    """A ByteSource that closes the file it reads: over :class:`~paimon_codec.planning.held_ranges.HeldRanges`, an
    index read in two steps (predicate, then top-N) keeps what the first fetched, so the second fetches no byte
    again; over a store's reader (:func:`index_source`)."""

    def close(self) -> None:
        super().close()
        if self._file is not None:
            self._file.close()


#: On an object store a file-index file of at most this size is fetched whole by its first GET: the container
#: head and the block a predicate needs cost one round trip instead of two (measured on the S3 server,
#: benchmarks/scale.py --store s3, 200 index files of 608 KB: planning 4.7 -> 1.7 s, 411 -> 211 GETs, index
#: bytes 26 -> 122 MB; latency, not bandwidth, bounds these reads).
INDEX_WHOLE_GET = 1 << 20

#: Bytes of a local file-index file read at once when it is opened (one page): the container head and the
#: headers and dictionary directory of its first index lie there for the files of typical tables, ~7 small
#: reads a file answered by one (:meth:`ByteSource.keep_head`; the page counts as index bytes read)
INDEX_HEAD_READ = 4096


def index_source(path: str) -> ByteSource:
    """The file-index file at ``path`` (fetched whole by the first GET when small and on a store)."""
    if storage.is_local(path):
        source = ByteSource(path)
        source.keep_head(INDEX_HEAD_READ)
        return source
    return HeldSource(storage.open_input(path, whole_below=INDEX_WHOLE_GET), path=path)


def held_source(path: str) -> ByteSource:
    from .. import storage
    from .held_ranges import HeldRanges

    handle = storage.open_input(path, min_get=1)
    if not hasattr(handle, "prefetch"):  # a local file: nothing is fetched
        handle.close()
        return ByteSource(path)
    return HeldSource(HeldRanges(handle, storage.DEFAULT_MIN_GET), path=path)
