"""Per-input allocation bounds of the fuzz harness.

Three meters (``--memory``):

* ``rss`` (default) - the input's peak resident memory.  Before the input the kernel's high-water mark is
  reset (``5`` written to ``/proc/self/clear_refs``: ``VmHWM`` becomes the current ``VmRSS``); after it,
  ``VmHWM - VmRSS_before`` is what the input made resident at its peak: Python objects, numpy / pyroaring /
  Arrow buffers, any thread's.  It costs two small system calls per input instead of tracemalloc's 3-4x.
  For it to see what is freed again, the worker makes glibc hand blocks of 128 KiB and more straight from
  ``mmap`` (``M_MMAP_THRESHOLD``, which also switches off glibc's sliding threshold) and trim the heap top
  (``M_TRIM_THRESHOLD``), Arrow uses the system allocator (``ARROW_DEFAULT_MEMORY_POOL=system``: jemalloc /
  mimalloc would keep freed pages resident) and, when resident memory has crept up by ``TRIM_SLACK``
  since the last trim, ``malloc_trim(0)`` gives back free heap pages.  What it cannot see: memory freed by an
  earlier input that is still resident (at most ``TRIM_SLACK`` plus Python's partly used arenas) and reused.
* ``tracemalloc`` - the exact Python-level peak (every allocation through Python's allocators, numpy's
  included; pyroaring's and Arrow's C allocations are not traced), 3-4x slower.
* ``none`` - only ``RLIMIT_AS``.

Every meter also runs the input under ``RLIMIT_AS`` (address space at the start + bound + 64 MiB): an
allocation that is reserved but never touched (``np.zeros``, ``calloc``) is not resident, and this stops
it with ``MemoryError``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import resource
import tracemalloc

__all__ = ["MEMORY_MODES", "Meter", "alloc_bound", "tune_allocator"]

MEMORY_MODES = ("rss", "tracemalloc", "none")
TRIM_SLACK = 8 * 2**20
ROOM, ROOM_RSS = 64 * 2**20, 256 * 2**20
_PAGE = os.sysconf("SC_PAGE_SIZE")
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc mallopt parameters (malloc.h)

os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")  # read when pyarrow first allocates


def alloc_bound(size: int) -> int:
    """Issue 12's bound: 50 x the input + 10 MB."""
    return 50 * size + 10 * 2**20


def _libc():
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name) if name else None


def tune_allocator() -> bool:
    """Make glibc return blocks >= 128 KiB to the kernel on free (so resident memory follows allocation);
    False when there is no glibc ``mallopt`` (the RSS meter then over-approximates nothing, it may only
    miss reused memory)."""
    libc = _libc()
    if libc is None or not hasattr(libc, "mallopt"):
        return False
    return bool(libc.mallopt(_M_MMAP_THRESHOLD, 128 * 1024)) and bool(libc.mallopt(_M_TRIM_THRESHOLD, 128 * 1024))


class Meter:
    """One worker's allocation meter; ``start`` before an input, ``stop`` after it (the peak in bytes)."""

    def __init__(self, mode: str = "rss", *, rlimit: bool = True) -> None:
        if mode not in MEMORY_MODES:
            raise ValueError(f"memory mode {mode!r}: one of {MEMORY_MODES}")
        self.mode, self.rlimit = mode, rlimit
        self._status = self._clear = self._statm = -1
        self._libc = None
        self._base = 0
        self._trimmed_at = 0
        self.trims = 0

    # ------------------------------------------------------------------------------------ set-up
    def open(self) -> None:
        """In the worker process (``/proc/self`` is the worker's): open the files read per input."""
        self._statm = os.open("/proc/self/statm", os.O_RDONLY)
        if self.mode == "rss":
            self._status = os.open("/proc/self/status", os.O_RDONLY)
            self._clear = os.open("/proc/self/clear_refs", os.O_WRONLY)
            self._libc = _libc()
            self._check_clear_refs()
            if self.mode == "rss":
                self._trimmed_at = self._read()[0]
        elif self.mode == "tracemalloc" and not tracemalloc.is_tracing():
            tracemalloc.start()

    def _check_clear_refs(self) -> None:
        """Resetting the high-water mark must really work here (an old kernel, a sandbox): otherwise a peak
        from an earlier input would be charged to every later one - refuse rather than mislead."""
        block = bytearray(24 * 2**20)  # resident, then freed (an mmap'd block: returned at once)
        del block
        os.write(self._clear, b"5")
        rss, hwm = self._read()
        if hwm > rss + 12 * 2**20:  # not reset: fall back to the exact (slower) Python-level meter
            logging.getLogger(__name__).warning("/proc/self/clear_refs does not reset VmHWM: tracemalloc")
            os.close(self._status)
            os.close(self._clear)
            self.mode = "tracemalloc"
            tracemalloc.start()

    def _read(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) in bytes."""
        text = os.pread(self._status, 4096, 0)
        rss = hwm = 0
        for line in text.split(b"\n"):
            if line.startswith(b"VmHWM:"):
                hwm = int(line.split()[1]) * 1024
            elif line.startswith(b"VmRSS:"):
                rss = int(line.split()[1]) * 1024
                break  # VmRSS follows VmHWM in /proc/<pid>/status
        return rss, hwm

    # ----------------------------------------------------------------------------------- per input
    def start(self, bound: int, room: int | None = None) -> None:
        """``room``: address space beyond the bound (interpreter arenas, thread stacks, malloc arenas); with
        the RSS meter 256 MiB, so that a touched allocation up to that much is measured rather than stopped -
        C code that gets NULL from malloc may crash the worker (CRoaring segfaults) instead of raising."""
        if room is None:
            room = ROOM_RSS if self.mode == "rss" else ROOM
        size, resident = os.pread(self._statm, 64, 0).split()[:2]
        if self.rlimit:
            limit = int(size) * _PAGE + bound + room
            resource.setrlimit(resource.RLIMIT_AS, (limit, resource.RLIM_INFINITY))
        if self.mode == "rss":
            os.write(self._clear, b"5")
            self._base = int(resident) * _PAGE
        elif self.mode == "tracemalloc":
            tracemalloc.reset_peak()
            self._base = tracemalloc.get_traced_memory()[0]

    def stop(self) -> int:
        """The input's peak allocation in bytes (0 for ``none``); lifts RLIMIT_AS again.

        RSS: ``getrusage``'s ``ru_maxrss`` is never below ``VmHWM`` (it is the larger of it and the peaks of
        exited threads), so when it is within the bound the input is; only above it is the exact ``VmHWM``
        read (``/proc/self/status`` costs ~30 us, ``getrusage`` ~4)."""
        if self.rlimit:
            resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        if self.mode == "rss":
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - self._base
            if peak > alloc_bound(0):  # maybe over some bound: the exact figure
                peak = self._read()[1] - self._base
            rss = int(os.pread(self._statm, 64, 0).split()[1]) * _PAGE
            if rss > self._trimmed_at + TRIM_SLACK:
                self.trim()
            return max(0, peak)
        if self.mode == "tracemalloc":
            return max(0, tracemalloc.get_traced_memory()[1] - self._base)
        return 0

    def trim(self) -> None:
        """Give free memory back (before a confirming re-run, or when resident memory crept up)."""
        gc.collect()
        if self._libc is not None and hasattr(self._libc, "malloc_trim"):
            self._libc.malloc_trim(0)
        if self.mode == "rss":
            self._trimmed_at = self._read()[0]
        self.trims += 1
