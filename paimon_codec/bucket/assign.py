"""Bucket assignment: fixed buckets by arithmetic, dynamic buckets by Paimon's hash bucket assigner.

* Fixed bucket mode: ``bucket = abs(hash % n)`` with Java's remainder (sign of the dividend), i.e.
  ``abs(hash) % n`` - :func:`fixed_bucket`, vectorised :func:`fixed_buckets`.
* Dynamic bucket mode (``bucket = -1``), :class:`DynamicBucketAssigner` (Paimon's ``HashBucketAssigner``
  / ``PartitionIndex``; with nothing loaded it gives the same answers as ``SimpleHashBucketAssigner``):
  per partition a ``hash -> bucket`` map and a row count per bucket;

  1. a hash seen before keeps its bucket;
  2. else the first non-full bucket owned by this assigner (ascending bucket id) whose count is below
     ``dynamic-bucket.target-row-num`` takes it (full buckets are dropped from the candidates);
  3. else a new bucket: the smallest id owned by this assigner (``id % num_assigners == assign_id``)
     not in use, up to ``dynamic-bucket.max-buckets`` (-1 = unlimited; hard cap 32767);
  4. else (every allowed bucket exists) an existing bucket chosen by ``abs(hash % count)`` among the
     sorted existing ids.

  Existing assignments are loaded from HASH index files (:meth:`DynamicBucketAssigner.load`): every
  hash in a bucket's file maps to that bucket and counts towards its rows.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable

import numpy as np

from ..errors import InvalidOptionError
from .hash_index import read_hash_index

__all__ = [
    "fixed_bucket",
    "fixed_buckets",
    "DynamicBucketAssigner",
    "DEFAULT_TARGET_ROW_NUM",
    "MAX_BUCKETS_CAP",
    "assigner_channel",
]

DEFAULT_TARGET_ROW_NUM = 2_000_000
MAX_BUCKETS_CAP = 32767  # Short.MAX_VALUE: bucket ids are stored as shorts


def fixed_bucket(hash_code: int, num_buckets: int) -> int:
    """``Math.abs(hash % numBuckets)`` (Java remainder)."""
    if num_buckets <= 0:
        raise InvalidOptionError(f"number of buckets must be positive, got {num_buckets}")
    return abs(int(hash_code)) % num_buckets


def fixed_buckets(hashes: np.ndarray | Iterable[int], num_buckets: int) -> np.ndarray:
    """Vectorised :func:`fixed_bucket` (int32 array)."""
    if num_buckets <= 0:
        raise InvalidOptionError(f"number of buckets must be positive, got {num_buckets}")
    h = np.asarray(hashes if isinstance(hashes, np.ndarray) else list(hashes), dtype=np.int64)
    return (np.abs(h) % num_buckets).astype(np.int32)


def assigner_channel(partition_hash: int, key_hash: int, num_channels: int, num_assigners: int) -> int:
    """Which assigner task a record is routed to: ``(abs(p % ch) + abs(k % as)) % ch``."""
    return (fixed_bucket(partition_hash, num_channels) + fixed_bucket(key_hash, num_assigners)) % num_channels


class _PartitionIndex:
    __slots__ = ("hash_to_bucket", "non_full", "order", "total")

    def __init__(self) -> None:
        self.hash_to_bucket: dict[int, int] = {}
        self.non_full: dict[int, int] = {}  # bucket -> rows, candidates for new keys
        self.order: list[int] = []  # the keys of non_full, ascending
        self.total: set[int] = set()

    def add_candidate(self, bucket: int, rows: int) -> None:
        if bucket not in self.non_full:
            bisect.insort(self.order, bucket)
        self.non_full[bucket] = rows


class DynamicBucketAssigner:
    """Stateful dynamic-bucket assigner for one assigner task (``assign_id`` of ``num_assigners``)."""

    def __init__(self, target_row_num: int = DEFAULT_TARGET_ROW_NUM, *, max_buckets: int = -1,
                 num_assigners: int = 1, assign_id: int = 0) -> None:
        if target_row_num <= 0:
            raise InvalidOptionError(f"dynamic-bucket.target-row-num must be positive, got {target_row_num}")
        if max_buckets == 0 or max_buckets < -1:
            raise InvalidOptionError(f"dynamic-bucket.max-buckets must be -1 or positive, got {max_buckets}")
        if num_assigners <= 0 or not 0 <= assign_id < num_assigners:
            raise InvalidOptionError(f"assigner {assign_id} of {num_assigners} is not valid")
        self.target_row_num = int(target_row_num)
        self.max_buckets = int(max_buckets)
        self.num_assigners = int(num_assigners)
        self.assign_id = int(assign_id)
        self._partitions: dict[bytes, _PartitionIndex] = {}

    def _is_mine(self, bucket: int) -> bool:
        return bucket % self.num_assigners == self.assign_id

    def _index(self, partition: bytes) -> _PartitionIndex:
        idx = self._partitions.get(partition)
        if idx is None:
            idx = self._partitions[partition] = _PartitionIndex()
        return idx

    # ------------------------------------------------------------------------------ loading
    def load(self, bucket: int, hashes: np.ndarray | Iterable[int] | str | os.PathLike, *,
             partition: bytes = b"") -> None:
        """Load one bucket's existing keys (an int32 array, or the path of its HASH index file)."""
        if isinstance(hashes, (str, os.PathLike)):
            hashes = read_hash_index(hashes)
        arr = np.asarray(hashes if isinstance(hashes, np.ndarray) else list(hashes), dtype=np.int64)
        if not 0 <= bucket <= MAX_BUCKETS_CAP:
            raise InvalidOptionError(f"bucket {bucket} out of range", expected=f"0..{MAX_BUCKETS_CAP}")
        idx = self._index(partition)
        idx.hash_to_bucket.update(dict.fromkeys(arr.tolist(), int(bucket)))
        self.load_count(bucket, int(arr.size), partition=partition)

    def load_count(self, bucket: int, rows: int, *, partition: bytes = b"") -> None:
        """Count ``rows`` existing keys in ``bucket`` without their hashes: for a caller that resolves known
        keys itself and passes only new ones to :meth:`assign` (what :meth:`load` does after mapping them)."""
        if not 0 <= bucket <= MAX_BUCKETS_CAP:
            raise InvalidOptionError(f"bucket {bucket} out of range", expected=f"0..{MAX_BUCKETS_CAP}")
        idx = self._index(partition)
        if self._is_mine(bucket):
            idx.add_candidate(bucket, idx.non_full.get(bucket, 0) + int(rows))
            idx.total.add(bucket)

    # ------------------------------------------------------------------------------ assigning
    def assign(self, hash_code: int, partition: bytes = b"") -> int:
        """The bucket for a key hash (updates the state, like writing the record would)."""
        idx = self._index(partition)
        known = idx.hash_to_bucket.get(hash_code)
        if known is not None:
            return known
        while idx.order:
            bucket = idx.order[0]
            rows = idx.non_full[bucket]
            if rows < self.target_row_num:
                idx.non_full[bucket] = rows + 1
                idx.hash_to_bucket[hash_code] = bucket
                return bucket
            del idx.non_full[bucket]  # full: no longer a candidate
            idx.order.pop(0)
        limit = (MAX_BUCKETS_CAP if self.max_buckets == -1 else min(self.max_buckets, MAX_BUCKETS_CAP)) - 1
        max_existing = max(idx.total) if idx.total else -1
        if not idx.total or max_existing < limit:
            for bucket in range(limit + 1):
                if self._is_mine(bucket) and bucket not in idx.total:
                    idx.add_candidate(bucket, 1)
                    idx.total.add(bucket)
                    idx.hash_to_bucket[hash_code] = bucket
                    return bucket
        existing = sorted(idx.total)
        if not existing:
            raise InvalidOptionError("no bucket can be assigned: this assigner owns no bucket id under the limit")
        bucket = existing[fixed_bucket(hash_code, len(existing))]
        idx.hash_to_bucket[hash_code] = bucket
        return bucket

    def assign_many(self, hashes: np.ndarray | Iterable[int], partition: bytes = b"") -> np.ndarray:
        """Assign in arrival order; returns the bucket of each hash (int32 array) - the answers and the state
        :meth:`assign` called once per hash would give, found in bulk: a run of new keys fills the first
        candidate bucket up to its target in one slice, and once no bucket can be added the rest go by
        ``abs(hash % count)`` at once."""
        arr = np.asarray(hashes if isinstance(hashes, np.ndarray) else [int(h) for h in hashes], dtype=np.int64)
        out = np.empty(arr.size, dtype=np.int32)
        if not arr.size:
            return out
        idx = self._index(partition)
        unique, first, inverse = np.unique(arr, return_index=True, return_inverse=True)
        arrival = np.argsort(first, kind="stable")  # the distinct hashes in the order they first arrive
        ordered = unique[arrival].tolist()
        buckets = np.empty(len(ordered), dtype=np.int32)
        known = idx.hash_to_bucket
        new_at = []
        for i, h in enumerate(ordered):
            b = known.get(h)
            if b is None:
                new_at.append(i)
            else:
                buckets[i] = b
        self._assign_new(idx, [ordered[i] for i in new_at], new_at, buckets, partition)
        by_unique = np.empty(len(ordered), dtype=np.int32)
        by_unique[arrival] = buckets
        out[:] = by_unique[inverse.reshape(-1)]
        return out

    def _assign_new(self, idx: _PartitionIndex, new: list[int], at: list[int], buckets: np.ndarray,
                    partition: bytes) -> None:
        """Buckets of distinct hashes none of which is known, in order, into ``buckets[at]``."""
        pos = 0
        while pos < len(new):
            if idx.order:
                bucket = idx.order[0]
                rows = idx.non_full[bucket]
                if rows >= self.target_row_num:
                    del idx.non_full[bucket]
                    idx.order.pop(0)
                    continue
                take = min(self.target_row_num - rows, len(new) - pos)
                idx.non_full[bucket] = rows + take
                buckets[at[pos:pos + take]] = bucket
                idx.hash_to_bucket.update(dict.fromkeys(new[pos:pos + take], bucket))
                pos += take
                continue
            buckets[at[pos]] = self.assign(new[pos], partition)  # a new bucket, or none can be added
            pos += 1
            if not idx.order:  # none could be added, and none will: the rest by abs(hash % count)
                existing = np.array(sorted(idx.total), dtype=np.int32)
                rest = np.array(new[pos:], dtype=np.int64)
                chosen = existing[fixed_buckets(rest, len(existing))] if rest.size else rest.astype(np.int32)
                buckets[at[pos:]] = chosen
                idx.hash_to_bucket.update(zip(new[pos:], chosen.tolist(), strict=True))
                return

    def bucket_hashes(self, partition: bytes = b"") -> dict[int, np.ndarray]:
        """``bucket -> hashes`` of a partition, in first-assignment order (what its HASH files hold)."""
        out: dict[int, list[int]] = {}
        for h, b in self._index(partition).hash_to_bucket.items():
            out.setdefault(b, []).append(h)
        return {b: np.array(v, dtype=np.int32) for b, v in sorted(out.items())}
