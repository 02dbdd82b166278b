"""Per-key kernels of the merge engines: numpy (the reference) or compiled loops (:mod:`._jit`) at scale.

Loading the compiled kernels costs ~0.46 s of CPU once per process (numba's import and the cached kernels;
~1 s when they compile after an install or a change of ``_jit.py``) and saves ~30 ns per record grouped
against the numpy kernels (one bucket of the 5M-row benchmark table, 1.25M records, ~1M keys: a string
column's last non-null value per key 19 -> 4 ms, an integer ``sum`` 20 -> 4 ms).  So a process loads them
once it has grouped 2^24 records (:data:`KERNELS`), whose numpy kernels cost about what the load does (a
rent-or-buy rule: never more than twice the better choice's CPU).  A one-off read of a few million records
stays on numpy; a long-lived reader (Spark's reused Python workers, repeated reads) switches after a few
such reads, and every merge after that uses them.
``PAIMON_CODEC_JIT=1`` (the range-bitmap kernels' switch too) loads them at the first merge, for a long-lived
reader that knows it will merge a lot; ``PAIMON_CODEC_NO_JIT=1`` keeps every merge on numpy; without numba (or
when it fails) numpy answers alike.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ...jit import LazyKernels

__all__ = ["KERNELS", "jit_kernels", "last_valid", "where", "fold_integers", "fold_extreme"]

#: loaded once this process has grouped 2^24 records by key (deduplicate merges never ask)
KERNELS = LazyKernels(f"{__package__}._jit", "merge kernels fall back to numpy", after=1 << 24)


def jit_kernels(records: int) -> ModuleType | None:
    """The compiled kernels for grouping ``records`` more records, or None for numpy (until this process has
    grouped enough, unless ``PAIMON_CODEC_JIT``; ``PAIMON_CODEC_NO_JIT``; numba missing or failing: logged once)."""
    return KERNELS.get(records)


def _readonly(values: np.ndarray, dtype: type) -> np.ndarray:
    """``values`` as the C-contiguous read-only array the compiled kernels are typed for (a view when it is)."""
    v = np.ascontiguousarray(values, dtype=dtype).view()
    v.flags.writeable = False
    return v


def _where_numpy(first: np.ndarray, mask: np.ndarray, n: int, from_end: bool) -> np.ndarray:
    """One ``reduceat`` over the keys' contiguous records: the max (min) position where ``mask``."""
    none = -1 if from_end else n
    marked = np.where(mask, np.arange(n, dtype=np.int64), none)
    if from_end:
        return np.maximum.reduceat(marked, first)
    out = np.minimum.reduceat(marked, first)
    out[out == none] = -1
    return out


def where(first: np.ndarray, last: np.ndarray, mask: np.ndarray, from_end: bool,
          jit: ModuleType | None) -> np.ndarray:
    """Per key (records ``first[g]..last[g]``, contiguous from 0): its last (``from_end``) or first record
    marked in ``mask``, -1 when none (``jit``: the compiled kernels, None for numpy)."""
    if not len(first):
        return np.empty(0, dtype=np.int64)
    mask = np.broadcast_to(mask, int(last[-1]) + 1)
    if jit is None:
        return _where_numpy(first, mask, len(mask), from_end)
    out = np.empty(len(first), dtype=np.int64)
    jit.where(_readonly(first, np.int64), _readonly(last, np.int64), _readonly(mask, np.bool_), from_end, out)
    return out


def last_valid(first: np.ndarray, last: np.ndarray, order: np.ndarray, valid: np.ndarray,
               jit: ModuleType | None) -> np.ndarray:
    """Per key: the file position of its last record (merge order ``order``) whose value is valid (``valid``:
    per file position), -1 when none."""
    if not len(first):
        return np.empty(0, dtype=np.int64)
    if jit is None:
        picked = _where_numpy(first, valid[order], len(order), True)
        out = order[picked]     # -1 picks the last record: masked below
        out[picked < 0] = -1
        return out
    out = np.empty(len(first), dtype=np.int64)
    jit.last_valid(_readonly(first, np.int64), _readonly(last, np.int64), _readonly(order, np.int64),
                   _readonly(valid, np.bool_), out)
    return out


def fold_integers(first: np.ndarray, last: np.ndarray, values: np.ndarray, rows: np.ndarray, negate: np.ndarray,
                  product: bool, jit: ModuleType | None) -> tuple[np.ndarray, np.ndarray]:
    """Per key: the sum of its records' ``values`` where ``rows`` (``negate``: subtracted), or their
    ``product``, wrapping modulo 2^bits of ``values``' type as Java's integers (so any grouping of the
    operations gives Java's fold), and whether any record counted."""
    if not len(first):
        return values[:0].copy(), np.zeros(0, dtype=bool)
    if jit is None:
        seen = np.logical_or.reduceat(np.asarray(rows, dtype=bool), first)
        vals = np.where(rows, values, values.dtype.type(1 if product else 0))
        with np.errstate(over="ignore"):
            if not product and negate.any():
                vals = np.where(negate, -vals, vals)    # two's complement wrap (-MIN is MIN), as Java
            acc = (np.multiply if product else np.add).reduceat(vals, first).astype(values.dtype)
        return acc, seen
    acc = np.empty(len(first), dtype=np.int64)
    seen = np.empty(len(first), dtype=bool)
    jit.fold_integers(_readonly(first, np.int64), _readonly(last, np.int64), _readonly(values, np.int64),
                      _readonly(rows, np.bool_), _readonly(negate, np.bool_), product, acc, seen)
    return acc.astype(values.dtype), seen


def fold_extreme(first: np.ndarray, last: np.ndarray, values: np.ndarray, rows: np.ndarray, largest: bool,
                 jit: ModuleType | None) -> tuple[np.ndarray, np.ndarray]:
    """Per key: the largest (``largest``) or smallest of its records' integer ``values`` where ``rows``, and
    whether any record counted."""
    if not len(first):
        return values[:0].copy(), np.zeros(0, dtype=bool)
    if jit is None:
        seen = np.logical_or.reduceat(np.asarray(rows, dtype=bool), first)
        info = np.iinfo(values.dtype)
        vals = np.where(rows, values, values.dtype.type(info.min if largest else info.max))
        return (np.maximum if largest else np.minimum).reduceat(vals, first), seen
    acc = np.empty(len(first), dtype=np.int64)
    seen = np.empty(len(first), dtype=bool)
    jit.fold_extreme(_readonly(first, np.int64), _readonly(last, np.int64), _readonly(values, np.int64),
                     _readonly(rows, np.bool_), largest, acc, seen)
    return acc.astype(values.dtype), seen
