"""When the range-bitmap comparisons run compiled (:mod:`._jit`), and turning the kernel's answer into a bitmap.

The reference is :class:`~..bit_slices.BitSlices` over pyroaring bitmaps: it answers without numba, with
``PAIMON_CODEC_NO_JIT=1``, for row counts beyond :data:`MAX_KERNEL_ROWS`, and whenever the kernel declines
bytes it does not find well formed (that path then answers, or raises the error naming the bad bitmap).  Tests
hold both to the same rows.

Loading the kernels imports numba: ~0.45 s of CPU from its disk cache (about twice that when they compile),
while they save ~0.09 ms of a 50,000-row file (~2 us a thousand rows).  A process therefore compares on pyroaring
until that path has walked :data:`JIT_AFTER_ROWS` rows - about what loading costs, so a process never pays much
more than twice the better of the two choices (rent or buy) and one plan of a 10M-row table never pays the load -
and from then on every comparison of every size runs them.  ``PAIMON_CODEC_JIT=1`` loads them from the first
comparison (a long-lived planner; the planning benchmark).
"""

from __future__ import annotations

import importlib
import logging
import os
from types import ModuleType

import numpy as np
from pyroaring import BitMap

from ..bloom._kernel import NO_JIT_ENV

__all__ = ["JIT_AFTER_ROWS", "JIT_ENV", "MAX_KERNEL_ROWS", "compiled_between", "jit_kernels", "note_reference_rows"]

log = logging.getLogger(__name__)

#: rows the reference comparisons walk in a process before the kernels are loaded (~0.25 s of pyroaring walks,
#: about what loading numba costs; ~13 plans of a 10M-row table)
JIT_AFTER_ROWS = 1 << 27
#: ``PAIMON_CODEC_JIT=1`` loads the kernels from the first comparison
JIT_ENV = "PAIMON_CODEC_JIT"
#: the kernel keeps five dense word arrays of the rows: larger files take the reference path (compressed bitmaps)
MAX_KERNEL_ROWS = 1 << 24

_jit_module: ModuleType | None = None
_jit_failed = False
_reference_rows = 0


def note_reference_rows(rows: int) -> None:
    """Count ``rows`` walked by the reference comparisons (what decides when the kernels are worth loading)."""
    global _reference_rows
    _reference_rows += rows


def jit_kernels() -> ModuleType | None:
    """The compiled kernels, or None: not loaded yet and not worth loading (unless ``PAIMON_CODEC_JIT`` is set), opted
    out (``PAIMON_CODEC_NO_JIT`` set to anything but ``0`` / empty), or numba unavailable (logged once; the reference
    answers alike)."""
    global _jit_module, _jit_failed
    if os.environ.get(NO_JIT_ENV, "0") not in ("", "0"):
        return None
    if _jit_module is not None:
        return _jit_module
    if _jit_failed or (_reference_rows < JIT_AFTER_ROWS and os.environ.get(JIT_ENV, "0") in ("", "0")):
        return None
    try:
        jit = importlib.import_module(f"{__package__}._jit")
    except Exception as exc:  # noqa: BLE001 - no numba, an incompatible numpy, a failed compile: the reference does it
        _jit_failed = True
        log.warning("range-bitmap comparisons stay on pyroaring: compiled kernels unavailable (%s: %s)",
                    type(exc).__name__, exc)
        return None
    _jit_module = jit
    return jit


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
