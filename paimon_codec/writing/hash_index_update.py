"""Dynamic buckets (``bucket = -1``) of a primary-key table: keys to buckets through the HASH index.

As Paimon's ``HashBucketAssigner`` with one assigner: for each partition written to, the partition's HASH
index files of the latest snapshot are loaded (every hash maps to its file's bucket and counts towards
that bucket's rows), known keys go to their bucket and new keys are assigned by
:class:`~paimon_codec.bucket.DynamicBucketAssigner` (``dynamic-bucket.target-row-num``,
``dynamic-bucket.max-buckets``).  ``dynamic-bucket.initial-buckets`` only sets how many parallel
assigners Paimon's Flink sink starts; one writer is one assigner, as Paimon's batch writers are.

As ``DynamicBucketIndexMaintainer``: a bucket that got a key it did not hold gets a new HASH file with all
its key hashes (``<table>/index/index-<uuid>-<n>``), and the commit replaces the bucket's old file in the
index manifest.  Paimon keeps a bucket's hashes in a hash set, so its file order differs from ours; the
key -> bucket map is the same.

When every allowed bucket exists (``max-buckets`` reached), Paimon 1.4 picks one of them at random for a
new key; this writer picks ``existing[abs(hash % count)]`` - one of the buckets Paimon could have picked.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass, field

import numpy as np

from .. import storage
from ..bucket import DynamicBucketAssigner
from ..bucket.assign import DEFAULT_TARGET_ROW_NUM
from ..bucket.hash_index import INDEX_TYPE, encode_hash_index, read_hash_index
from ..table.index_manifest import IndexFileMeta, IndexManifestEntry
from ..table.table import PaimonTable
from .commit import IndexChange

__all__ = ["HashIndexUpdate"]


@dataclass
class HashIndexUpdate:
    """The dynamic-bucket assignment of one write: load, assign, then the index files to commit.

    Known keys are resolved with one sorted array of the partition's loaded hashes (no per-key Python work);
    only new keys go through the assigner, which holds the buckets' row counts."""

    table: PaimonTable
    entries: list[IndexManifestEntry]
    assigner: DynamicBucketAssigner = field(init=False)
    _loaded: dict[bytes, dict[int, IndexManifestEntry]] = field(init=False, default_factory=dict)
    _hashes: dict[bytes, dict[int, np.ndarray]] = field(init=False, default_factory=dict)
    _lookup: dict[bytes, tuple[np.ndarray, np.ndarray]] = field(init=False, default_factory=dict)
    _added: dict[bytes, list[tuple[np.ndarray, np.ndarray]]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        options = self.table.schema.options
        self.assigner = DynamicBucketAssigner(
            int(options.get("dynamic-bucket.target-row-num", DEFAULT_TARGET_ROW_NUM)),
            max_buckets=int(options.get("dynamic-bucket.max-buckets", "-1")))

    @classmethod
    def of(cls, table: PaimonTable) -> HashIndexUpdate:
        latest = table.snapshot()
        entries = [e for e in table.index_entries(latest) if e.index_file.index_type == INDEX_TYPE] \
            if latest is not None else []
        return cls(table, entries)

    def _load(self, partition: bytes) -> None:
        if partition in self._loaded:
            return
        mine = {e.bucket: e for e in self.entries if e.partition == partition}
        per_bucket: dict[int, np.ndarray] = {}
        for bucket, entry in sorted(mine.items()):
            hashes = read_hash_index(self.table.index_file_path(entry))
            self.assigner.load_count(bucket, int(hashes.size), partition=partition)
            per_bucket[bucket] = hashes
        flat = np.concatenate(list(per_bucket.values())) if per_bucket else np.zeros(0, np.int32)
        owners = np.concatenate([np.full(h.size, b, np.int32) for b, h in per_bucket.items()]) if per_bucket \
            else np.zeros(0, np.int32)
        order = np.argsort(flat)
        self._loaded[partition] = mine
        self._hashes[partition] = per_bucket
        self._lookup[partition] = (flat[order], owners[order])

    def assign(self, partition: bytes, hashes: np.ndarray) -> np.ndarray:
        """Buckets of the key hashes of one partition, in arrival order."""
        self._load(partition)
        hashes = np.asarray(hashes, dtype=np.int32)
        known_hashes, known_buckets = self._lookup[partition]
        buckets = np.empty(hashes.size, dtype=np.int32)
        known = np.zeros(hashes.size, dtype=bool)
        if known_hashes.size:
            pos = np.minimum(np.searchsorted(known_hashes, hashes), known_hashes.size - 1)
            known = known_hashes[pos] == hashes
            buckets[known] = known_buckets[pos[known]]
        new = np.flatnonzero(~known)
        if new.size:
            buckets[new] = self.assigner.assign_many(hashes[new], partition)
            self._added.setdefault(partition, []).append((hashes[new], buckets[new]))
        return buckets

    def files_by_partition(self, loaded_only: bool = False) -> dict[bytes, set[str]]:
        """``partition -> names of its HASH files`` (``loaded_only``: of the partitions this write loaded)."""
        out: dict[bytes, set[str]] = {}
        for e in self.entries:
            out.setdefault(e.partition, set()).add(e.index_file.file_name)
        if loaded_only:
            return {p: out.get(p, set()) for p in self._loaded}
        return out

    def index_changes(self) -> list[IndexChange]:
        """Write the new HASH files of every bucket that got a new key; the changes replacing the old ones."""
        changes: list[IndexChange] = []
        directory = storage.join(self.table.path, "index")
        run, counter = uuid.uuid4(), itertools.count()
        for partition, parts in self._added.items():
            storage.makedirs(directory)
            added = np.concatenate([h for h, _ in parts])
            owners = np.concatenate([b for _, b in parts])
            for bucket in np.unique(owners).tolist():
                fresh = added[owners == bucket]
                _, first = np.unique(fresh, return_index=True)
                fresh = fresh[np.sort(first)]  # first-assignment order, each hash once
                old_hashes = self._hashes[partition].get(bucket)
                hashes = fresh if old_hashes is None else np.concatenate([old_hashes, fresh])
                data = encode_hash_index(hashes)
                name = f"index-{run}-{next(counter)}"
                storage.write_atomic(storage.join(directory, name), data)
                old = self._loaded[partition].get(bucket)
                if old is not None:
                    changes.append(IndexChange.delete_entry(old))
                meta = IndexFileMeta(INDEX_TYPE, name, len(data), int(hashes.size), None)
                changes.append(IndexChange.of(partition, bucket, meta))
        return changes
