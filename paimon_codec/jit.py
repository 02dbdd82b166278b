"""Compiled (numba) kernels, loaded once per process and only when they pay for their loading.

Three parts of the library keep compiled loops beside a reference path in numpy or pyroaring: the bloom
filter's build and probe, the range bitmap's comparisons and the merge engines' per-key kernels.  Importing
numba and loading cached kernels costs ~0.45 s of CPU once per process (about twice that the first time after an
install, when they compile), far more than most calls save, so each set is loaded lazily by a
:class:`LazyKernels` that decides when:

* ``min_call``: a call doing less work stays on the reference path while the kernels are not loaded (the bloom
  filter: small filters never pay the load);
* ``after``: the reference path must first have done this much work in the process (rent or buy: a process never
  pays much more than twice the better of the two choices);
* once loaded, every call of every size uses them.

``PAIMON_CODEC_NO_JIT=1`` keeps every call on the reference paths; ``PAIMON_CODEC_JIT=1`` loads a set at its
first call (a long-lived planner or reader that knows it will do a lot); without numba, or when loading fails
(logged once per set), the reference paths answer alike.
"""

from __future__ import annotations

import importlib
import logging
import os
from types import ModuleType

__all__ = ["JIT_ENV", "NO_JIT_ENV", "LazyKernels"]

log = logging.getLogger(__name__)

#: ``PAIMON_CODEC_NO_JIT=1`` keeps every call on the reference (numpy / pyroaring) paths
NO_JIT_ENV = "PAIMON_CODEC_NO_JIT"
#: ``PAIMON_CODEC_JIT=1`` loads each kernel set at its first call
JIT_ENV = "PAIMON_CODEC_JIT"


def _switched_on(name: str) -> bool:
    return os.environ.get(name, "0") not in ("", "0")


class LazyKernels:
    """One module of compiled kernels (``module``, imported on demand) and the rule that decides when to load it.

    ``fallback`` completes the warning logged when loading fails (e.g. "bloom-filter kernels fall back to numpy").
    """

    def __init__(self, module: str, fallback: str, *, min_call: int = 0, after: int = 0) -> None:
        self.module_name = module
        self.fallback = fallback
        self.min_call = min_call
        self.after = after
        self.module: ModuleType | None = None
        self.failed = False
        self.work_done = 0

    def note_work(self, work: int) -> None:
        """Count ``work`` the reference path did (what ``after`` is measured in)."""
        self.work_done += work

    def get(self, work: int = 0) -> ModuleType | None:
        """The compiled module for a call doing ``work``, or None for the reference path (``work`` is counted
        toward ``after`` while the kernels are not loaded)."""
        if _switched_on(NO_JIT_ENV):
            return None
        if self.module is not None:
            return self.module
        if self.failed:
            return None
        self.work_done += work
        if not _switched_on(JIT_ENV) and (work < self.min_call or self.work_done < self.after):
            return None
        try:
            module = importlib.import_module(self.module_name)
        except Exception as exc:  # noqa: BLE001 - no numba, an incompatible numpy, a failed compile: the reference
            self.failed = True
            log.warning("%s: numba unavailable (%s: %s)", self.fallback, type(exc).__name__, exc)
            return None
        self.module = module
        return module
