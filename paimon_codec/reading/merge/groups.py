"""Per-key groups of a sorted record batch: positions of the first/last record matching a mask."""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from functools import cached_property
from types import ModuleType

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import kernels

__all__ = ["Groups", "take_or_null"]


@dataclass
class Groups:
    """``starts[i]``: record i begins a new key.  ``gid``: key number of each record.

    ``merged[g]``: key g goes through the merge function.  Paimon's ``ReducerMergeFunctionWrapper`` hands a
    key's only record on untouched and merges keys of several records; a lookup merge may leave one
    record of such a key, which is still merged (default: the keys of more than one record).
    """

    starts: np.ndarray
    merged_keys: InitVar[np.ndarray | None] = None

    def __post_init__(self, merged_keys: np.ndarray | None) -> None:
        self.first = np.flatnonzero(self.starts)
        self.count = len(self.first)
        self.last = np.empty_like(self.first)
        self.last[:-1] = self.first[1:] - 1
        if self.count:
            self.last[-1] = len(self.starts) - 1
        self.size = self.last - self.first + 1
        self.merged: np.ndarray = self.size > 1 if merged_keys is None else merged_keys

    @cached_property
    def jit(self) -> ModuleType | None:
        """The compiled kernels (None: numpy), decided at the first per-key pick or fold of these records."""
        return kernels.jit_kernels(len(self.starts))

    @cached_property
    def gid(self) -> np.ndarray:
        """Key number of each record."""
        return np.cumsum(self.starts) - 1

    def _where(self, mask: np.ndarray, last: bool) -> np.ndarray:
        return kernels.where(self.first, self.last, mask, last, self.jit)

    def first_where(self, mask: np.ndarray) -> np.ndarray:
        """Per key: position of its first record where ``mask`` (-1: none)."""
        return self._where(mask, last=False)

    def last_where(self, mask: np.ndarray) -> np.ndarray:
        """Per key: position of its last record where ``mask`` (-1: none)."""
        return self._where(mask, last=True)

    def any(self, mask: np.ndarray) -> np.ndarray:
        """Per key: whether any of its records is marked in ``mask``."""
        if not self.count or self.jit is not None:
            return self.first_where(mask) >= 0
        return np.logical_or.reduceat(np.asarray(mask, dtype=bool), self.first)


def take_or_null(column: pa.Array | pa.ChunkedArray, positions: np.ndarray) -> pa.Array:
    """``column[positions]`` with a null wherever the position is -1."""
    none = positions < 0
    indices = pa.array(positions, type=pa.int64(), mask=none) if none.any() else pa.array(positions, type=pa.int64())
    return pc.take(column, indices)
