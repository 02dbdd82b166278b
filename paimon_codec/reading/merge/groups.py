"""Per-key groups of a sorted record batch: positions of the first/last record matching a mask."""

from __future__ import annotations

from dataclasses import InitVar, dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

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
        self.gid = np.cumsum(self.starts) - 1
        self.first = np.flatnonzero(self.starts)
        self.count = len(self.first)
        self.last = np.append(self.first[1:], len(self.starts)) - 1
        self.size = self.last - self.first + 1
        self.merged: np.ndarray = self.size > 1 if merged_keys is None else merged_keys

    def _where(self, mask: np.ndarray, last: bool) -> np.ndarray:
        pos = np.flatnonzero(mask)
        out = np.full(self.count, -1, dtype=np.int64)
        if len(pos):
            g = self.gid[pos]
            edge = np.r_[g[1:] != g[:-1], True] if last else np.r_[True, g[1:] != g[:-1]]
            out[g[edge]] = pos[edge]
        return out

    def first_where(self, mask: np.ndarray) -> np.ndarray:
        """Per key: position of its first record where ``mask`` (-1: none)."""
        return self._where(mask, last=False)

    def last_where(self, mask: np.ndarray) -> np.ndarray:
        """Per key: position of its last record where ``mask`` (-1: none)."""
        return self._where(mask, last=True)

    def any(self, mask: np.ndarray) -> np.ndarray:
        return self.first_where(mask) >= 0


def take_or_null(column: pa.Array | pa.ChunkedArray, positions: np.ndarray) -> pa.Array:
    """``column[positions]`` with a null wherever the position is -1."""
    return pc.take(column, pa.array(positions, type=pa.int64(), mask=positions < 0))
