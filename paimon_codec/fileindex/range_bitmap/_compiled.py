"""When the range-bitmap comparisons run compiled (:mod:`._jit`), and turning the kernel's answer into a bitmap.

The reference is :class:`~..bit_slices.BitSlices` over pyroaring bitmaps: it answers without numba, with
``PAIMON_CODEC_NO_JIT=1``, for row counts beyond :data:`MAX_KERNEL_ROWS`, and whenever the kernel declines
bytes it does not find well formed (that path then answers, or raises the error naming the bad bitmap).  Tests
hold both to the same rows.

Loading the kernels imports numba: ~0.45 s of CPU from its disk cache (about twice that when they compile),
while they save ~0.09 ms of a 50,000-row file (~2 us a thousand rows).  A process therefore compares on pyroaring
until that path has walked 2^27 rows (:data:`KERNELS`) - about what loading costs, so a process never pays much
more than twice the better of the two choices (rent or buy) and one plan of a 10M-row table never pays the load -
and from then on every comparison of every size runs them.  ``PAIMON_CODEC_JIT=1`` loads them from the first
comparison (a long-lived planner; the planning benchmark).
"""

from __future__ import annotations

import threading
from types import ModuleType

import numpy as np
from pyroaring import BitMap

from ...fileio import ByteSource
from ...jit import LazyKernels

__all__ = ["KERNELS", "MAX_KERNEL_ROWS", "MAX_SCRATCH", "compiled_between", "jit_kernels", "note_reference_rows",
           "scratch_bsi"]

#: the kernel keeps five dense word arrays of the rows: larger files take the reference path (compressed bitmaps)
MAX_KERNEL_ROWS = 1 << 24
#: loaded once the reference comparisons walked 2^27 rows in the process (~0.25 s of pyroaring walks, about what
#: loading numba costs; ~13 plans of a 10M-row table)
KERNELS = LazyKernels(f"{__package__}._jit", "range-bitmap comparisons stay on pyroaring", after=1 << 27)


#: the largest BSI read into the thread's scratch buffer (:func:`scratch_bsi`); a larger one is read as before
MAX_SCRATCH = 8 << 20

_SCRATCH = threading.local()


def scratch_bsi(bsi: ByteSource, offset: int, size: int) -> memoryview | None:
    """``size`` bytes at ``offset`` of a local file's BSI window (its EBM and slices: the bytes
    ``_slice_area`` reads, so a plan's I/O and ``index_bytes_read`` do not depend on which comparison ran),
    read in one system call into this thread's scratch buffer, reused from file to file; None for a source
    that is not a local file or more than :data:`MAX_SCRATCH` bytes.

    A planner compares one literal in each of hundreds of files: reading ~130 KB of slices into a fresh bytes
    object each time made the allocator map (and fault in) new pages for every file, ~40 % of the comparison's
    cost.  The view is valid until this thread's next call: the caller keeps nothing that points into it."""
    if not bsi.local_file or size > MAX_SCRATCH:
        return None
    buf: bytearray | None = getattr(_SCRATCH, "buf", None)
    if buf is None or len(buf) < size:
        # a new buffer rather than a resize: a view of the old one still held (a traceback's frame) cannot block it
        buf = _SCRATCH.buf = bytearray(max(size, 1 << 18))
    return bsi.read_into(offset, buf, size, "bsi ebm and slices")


def note_reference_rows(rows: int) -> None:
    """Count ``rows`` walked by the reference comparisons (what decides when the kernels are worth loading)."""
    KERNELS.note_work(rows)


def jit_kernels() -> ModuleType | None:
    """The compiled kernels, or None: not loaded yet and not worth loading (unless ``PAIMON_CODEC_JIT`` is set), opted
    out (``PAIMON_CODEC_NO_JIT``), or numba unavailable (logged once; the reference answers alike)."""
    return KERNELS.get()


def _readonly(buf: bytes | memoryview) -> np.ndarray:
    """``buf`` as the read-only uint8 array the kernel is typed for (no copy)."""
    a = np.frombuffer(buf, np.uint8)
    a.flags.writeable = False
    return a


def compiled_between(jit: ModuleType, ebm: bytes | memoryview, area: bytes | memoryview, slots: np.ndarray,
                     row_count: int, low: int | None, high: int | None) -> BitMap | None:
    """The EBM's rows whose code is ``>= low`` and ``<= high`` (a bound of None is not checked), by the kernel;
    None when it declines (bytes it does not find well formed) or the file is too large for it."""
    if row_count > MAX_KERNEL_ROWS:
        return None
    out = np.empty(jit.out_size(row_count), np.uint8)
    size = jit.rows_between(_readonly(ebm), _readonly(area), slots, row_count,
                            0 if low is None else low, 0 if high is None else high, low is not None,
                            high is not None, out)
    if size < 0:
        return None
    # pyroaring's stub names bytes; it reads any buffer (no copy)
    return BitMap.deserialize(memoryview(out)[:size])  # type: ignore[arg-type]
