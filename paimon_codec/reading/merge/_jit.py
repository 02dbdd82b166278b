"""Per-key picks and folds of the merge engines as compiled loops (numba): one pass over each key's records.

The numpy kernels of :mod:`.kernels` make several passes over every record for each field (a validity gather
into merge order, a marked-position array, a ``reduceat`` whose per-key overhead dominates when most keys hold
one record, a gather back to file positions); here one loop walks each key's records from its last one back and
stops at the first match, or folds them in order.  The numpy path stays the reference: tests compare both.

Only :func:`.kernels.jit_kernels` imports this module (numba's import and the cached kernels' load cost ~0.45 s
of CPU once per process); compiled code is cached on disk as for the bloom-filter kernels
(:mod:`paimon_codec.fileindex.bloom._jit`).
"""

from __future__ import annotations

import logging
from typing import Any

import numba
from numba import types

log = logging.getLogger(__name__)


def _compile(sig: Any) -> Any:
    """Compile for ``sig`` without the GIL, cached on disk where a cache directory is writable."""
    def wrap(fn: Any) -> Any:
        try:
            return numba.njit(sig, cache=True, nogil=True)(fn)
        except RuntimeError as exc:  # no locator available for the file: compile in this process
            log.info("merge kernel %s compiled without an on-disk cache: %s", fn.__name__, exc)
            return numba.njit(sig, cache=False, nogil=True)(fn)
    return wrap


_POSITIONS = types.Array(types.int64, 1, "C", readonly=True)
_FLAGS = types.Array(types.boolean, 1, "C", readonly=True)
_OUT_POSITIONS = types.Array(types.int64, 1, "C")
_OUT_FLAGS = types.Array(types.boolean, 1, "C")


@_compile(types.void(_POSITIONS, _POSITIONS, _POSITIONS, _FLAGS, _OUT_POSITIONS))
def last_valid(first: Any, last: Any, order: Any, valid: Any, out: Any) -> None:
    """``out[g]``: the file position ``order[i]`` of key g's last record i (merge order) with ``valid[order[i]]``,
    -1 when none."""
    for g in range(first.shape[0]):
        picked = -1
        for i in range(last[g], first[g] - 1, -1):
            j = order[i]
            if valid[j]:
                picked = j
                break
        out[g] = picked


@_compile(types.void(_POSITIONS, _POSITIONS, _FLAGS, types.boolean, _OUT_POSITIONS))
def where(first: Any, last: Any, mask: Any, from_end: bool, out: Any) -> None:
    """``out[g]``: key g's last (``from_end``) or first record marked in ``mask``, -1 when none."""
    for g in range(first.shape[0]):
        picked = -1
        if from_end:
            for i in range(last[g], first[g] - 1, -1):
                if mask[i]:
                    picked = i
                    break
        else:
            for i in range(first[g], last[g] + 1):
                if mask[i]:
                    picked = i
                    break
        out[g] = picked


@_compile(types.void(_POSITIONS, _POSITIONS, _POSITIONS, _FLAGS, _FLAGS, types.boolean, _OUT_POSITIONS,
                     _OUT_FLAGS))
def fold_integers(first: Any, last: Any, values: Any, rows: Any, negate: Any, product: bool, acc: Any,
                  seen: Any) -> None:
    """Per key, the sum (``product``: product) of its records' ``values`` where ``rows`` (``negate``: subtracted),
    in int64 arithmetic, which wraps as Java's (the caller narrows to the column's width)."""
    for g in range(first.shape[0]):
        total = 1 if product else 0
        any_row = False
        for i in range(first[g], last[g] + 1):
            if rows[i]:
                any_row = True
                if product:
                    total *= values[i]
                elif negate[i]:
                    total -= values[i]
                else:
                    total += values[i]
        acc[g] = total
        seen[g] = any_row


@_compile(types.void(_POSITIONS, _POSITIONS, _POSITIONS, _FLAGS, types.boolean, _OUT_POSITIONS, _OUT_FLAGS))
def fold_extreme(first: Any, last: Any, values: Any, rows: Any, largest: bool, acc: Any, seen: Any) -> None:
    """Per key, the largest (``largest``) or smallest of its records' ``values`` where ``rows``."""
    for g in range(first.shape[0]):
        best = 0
        any_row = False
        for i in range(first[g], last[g] + 1):
            if rows[i]:
                v = values[i]
                if not any_row or (v > best if largest else v < best):
                    best = v
                any_row = True
        acc[g] = best
        seen[g] = any_row
