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

from types import ModuleType

import numpy as np
from pyroaring import BitMap

from ...jit import LazyKernels

__all__ = ["KERNELS", "MAX_KERNEL_ROWS", "compiled_between", "jit_kernels", "note_reference_rows"]

#: the kernel keeps five dense word arrays of the rows: larger files take the reference path (compressed bitmaps)
MAX_KERNEL_ROWS = 1 << 24
#: loaded once the reference comparisons walked 2^27 rows in the process (~0.25 s of pyroaring walks, about what
#: loading numba costs; ~13 plans of a 10M-row table)
KERNELS = LazyKernels(f"{__package__}._jit", "range-bitmap comparisons stay on pyroaring", after=1 << 27)


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
