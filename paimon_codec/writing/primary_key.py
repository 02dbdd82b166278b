"""Upserts into a primary-key table: level-0 files per (partition, bucket), hash index, one commit.

Rows are records of the table's changelog: ``+I`` by default, or the row kind given per row (``+I``,
``-U``, ``+U``, ``-D``: a ``-D`` deletes its key).  Buckets: fixed buckets by Paimon's bucket hash
(``abs(hash(bucket key) % bucket)``, the bucket key being ``bucket-key`` or the primary key without the
partition keys), dynamic buckets through the HASH index (:mod:`.hash_index_update`).  Records of the kinds
Paimon's writer drops (retractions with ``ignore-delete``, -U with ``ignore-update-before``) are dropped; the
others get sequence numbers in arrival order, continuing the bucket's highest, and are written sorted by key as
level-0 files (:mod:`.key_value`).

A Paimon level-0 file holds each key once: Paimon's write buffer merges a key's records with the merge
function before flushing.  Here a key written several times in one call keeps its last record when the
table deduplicates plainly (``deduplicate``, no ``sequence.field``, no ``ignore-delete``); otherwise its
records go to consecutive level-0 files (its k-th record to the k-th file), which every reader merges by
sequence number exactly as the buffer would have - no merge semantics are restated here.

On a table with deletion vectors (and on ``first-row`` tables) level-0 files are invisible to batch reads
until a compaction (:mod:`.compact`) folds them into a higher level, as in Paimon.

Postpone-bucket tables (``bucket = -2``) get their records in ``bucket-postpone`` files instead
(:mod:`.postpone`).  Refused by name: cross-partition upserts (dynamic buckets with a
primary key that does not hold every partition key), a ``changelog-producer``, ``data-file.thin-mode``,
a ``bucket-function.type`` other than ``default``, data file formats other than Parquet.

Two writers adding to one bucket conflict: the commit checks that the bucket's highest sequence number is
still the one the files were numbered after (:class:`~paimon_codec.errors.CommitConflictError`).
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import storage
from ..bucket import KeyEncoder, fixed_buckets
from ..errors import CommitConflictError, PaimonCodecError, UnsupportedFeatureError
from ..reading.merge.read import _group_starts
from ..table.manifest import POSTPONE_BUCKET, merge_entries
from ..table.snapshot import Snapshot
from ..table.table import PaimonTable
from .append import _COMPRESSION, _conform, _fixed_width_key_columns, _internal
from .commit import CommitResult, FileChange, IndexChange, commit_changes
from .commit.table_layout import detect_layout
from .hash_index_update import HashIndexUpdate
from .key_value import FILE_SOURCE_APPEND, KIND_COLUMN, SEQUENCE_COLUMN, write_key_value_files
from .partitions import partitions_of
from .postpone import write_postpone_files
from .types import arrow_schema_for

__all__ = ["upsert_arrow", "write_primary_key_files", "PrimaryKeyWrite", "ROW_KINDS", "bucket_sequences",
           "check_primary_key_table", "refuse_postpone", "rows_by_partition", "row_kind_codes"]

log = logging.getLogger(__name__)
ROW_KINDS = {"+I": 0, "-U": 1, "+U": 2, "-D": 3}


@dataclass
class PrimaryKeyWrite:
    """What one write produced (nothing committed): file and index changes, and what they were based on -
    ``(partition, bucket) -> highest sequence number`` the records continue, ``partition -> HASH file names``
    the keys were assigned by (dynamic buckets).  Several writes of disjoint partitions (Spark tasks)
    combine with :meth:`merge`."""

    files: list[FileChange]
    indexes: list[IndexChange]
    based_on: dict[tuple[bytes, int], int]
    hash_files: dict[bytes, set[str]]

    def changes(self) -> list[FileChange | IndexChange]:
        return [*self.files, *self.indexes]

    def precondition(self):
        return bucket_check(self.based_on, self.hash_files)

    def discard(self, table: PaimonTable) -> int:
        """Delete the data files and the new HASH index files this write made (a commit attempt that failed
        or lost a conflict: nothing references them); returns how many files were deleted."""
        from ..table.manifest import FILE_KIND_ADD
        from .discard import discard_data_files, discard_files

        removed = discard_data_files(table, self.files)
        return removed + discard_files(storage.join(table.path, "index", c.index_file.file_name)
                                       for c in self.indexes if c.kind == FILE_KIND_ADD)

    @classmethod
    def merge(cls, writes: Sequence[PrimaryKeyWrite]) -> PrimaryKeyWrite:
        out = cls([], [], {}, {})
        for w in writes:
            out.files += w.files
            out.indexes += w.indexes
            out.based_on.update(w.based_on)
            out.hash_files.update(w.hash_files)
        return out


def check_primary_key_table(table: PaimonTable, what: str = "writing") -> str:
    """Refuse what this writer does not do; returns the Parquet compression codec."""
    schema = table.schema
    options = schema.options
    if not schema.primary_keys:
        raise PaimonCodecError(f"{what}: the table has no primary key", path=table.path)
    if schema.bucket == -1 and not set(schema.partition_keys) <= set(schema.primary_keys):
        raise PaimonCodecError(f"{what}: cross-partition upserts (bucket = -1 with a primary key that does not hold "
                               "every partition key) are not supported", path=table.path)
    producer = options.get("changelog-producer", "none").strip().lower()
    if producer != "none":
        raise PaimonCodecError(f"{what} a table with changelog-producer = {producer} is not supported",
                               path=table.path, expected="changelog-producer = none")
    if schema.option_bool("data-file.thin-mode"):
        raise PaimonCodecError(f"{what} a table with data-file.thin-mode is not supported", path=table.path)
    function = options.get("bucket-function.type", "default").strip().lower()
    if function != "default":
        raise PaimonCodecError(f"{what}: bucket-function.type = {function} is not supported", path=table.path,
                               expected="bucket-function.type = default")
    for key in ("row-tracking.enabled", "data-evolution.enabled"):
        if schema.option_bool(key):
            raise PaimonCodecError(f"{what} a primary-key table with {key} is not supported", path=table.path)
    fmt = options.get("file.format", "parquet").strip().lower()
    if fmt != "parquet" or any(k.startswith("file.format.per.level") for k in options):
        raise PaimonCodecError(f"{what} {fmt} data files is not supported", path=table.path,
                               expected="file.format = parquet")
    codec = options.get("file.compression", "zstd").strip().lower()
    if codec not in _COMPRESSION:
        raise PaimonCodecError(f"file.compression {codec} is not supported", path=table.path,
                               expected=", ".join(sorted(_COMPRESSION)))
    return _COMPRESSION[codec]


def refuse_postpone(table: PaimonTable, what: str) -> None:
    """Refuse an operation this library does not do on a postpone-bucket table (its compaction, DELETE)."""
    if table.schema.bucket == POSTPONE_BUCKET:
        raise UnsupportedFeatureError(f"{what} a postpone-bucket table (bucket = -2) is not supported",
                                      path=table.path)


def _bucket_key(table: PaimonTable) -> list[str]:
    schema = table.schema
    keys = [k.strip() for k in schema.options.get("bucket-key", "").split(",") if k.strip()]
    if keys and schema.bucket > 0:
        return keys
    trimmed = [k for k in schema.primary_keys if k not in schema.partition_keys]
    return trimmed or list(schema.primary_keys)


def _key_hashes(table: PaimonTable, data: pa.Table, keys: list[str]) -> np.ndarray:
    types = [table.schema.fields.field(k).type for k in keys]
    encoder = KeyEncoder(types)
    fixed = _fixed_width_key_columns(data, keys, types) if encoder.fixed_width_only else None
    if fixed is not None:
        return encoder.hash_columns(fixed[0], fixed[1])
    columns = [[_internal(v, t) for v in data.column(k).to_pylist()] for k, t in zip(keys, types, strict=True)]
    return encoder.hash_many(list(zip(*columns, strict=True)))


def rows_by_partition(table: PaimonTable, data: pa.Table,
                      kinds: np.ndarray | None = None) -> list[tuple[bytes, pa.Table, np.ndarray | None]]:
    """``data`` in the table's types (columns by name, NOT NULL checked) split by partition: ``(serialized
    partition, its rows in their order, their row kind codes - ``None`` when ``kinds`` is)``, partitions in
    first-row order."""
    data = _conform(data, arrow_schema_for(table.schema.fields), table.path)
    return [(part, data.take(pa.array(rows)), None if kinds is None else kinds[rows])
            for _values, part, rows in partitions_of(table, data)]


def bucket_sequences(table: PaimonTable, latest: Snapshot | None) -> dict[tuple[bytes, int], int]:
    """The highest sequence number of each (partition, bucket) of a snapshot."""
    out: dict[tuple[bytes, int], int] = {}
    if latest is None:
        return out
    for e in merge_entries(table.manifest_entries(latest)):
        key = (e.partition, e.bucket)
        out[key] = max(out.get(key, -1), e.file.max_sequence_number)
    return out


def _plain_deduplicate(table: PaimonTable) -> bool:
    options = table.schema.options
    return options.get("merge-engine", "deduplicate").strip().lower() == "deduplicate" \
        and not options.get("sequence.field") and not table.schema.option_bool("ignore-delete")


def _level0_runs(records: pa.Table, keys: list[str], dedupe: bool) -> list[pa.Table]:
    """The records of one bucket as level-0 files whose keys are unique, each sorted by key."""
    order = pc.sort_indices(records, sort_keys=[(k, "ascending") for k in keys] + [(SEQUENCE_COLUMN, "ascending")])
    ordered = records.take(order)
    starts = _group_starts(ordered.select(keys), tuple(keys))
    gid = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    rank = np.arange(len(starts)) - first[gid]
    if dedupe:
        last = np.append(first[1:], len(starts)) - 1
        return [ordered.take(pa.array(last))]
    return [ordered.filter(pa.array(rank == k)) for k in range(int(rank.max()) + 1 if len(rank) else 0)]


def _ignored_kinds(table: PaimonTable) -> tuple[int, ...]:
    """Row kinds Paimon's writer drops: retractions with ``ignore-delete`` (or its fallback keys), -U with
    ``ignore-update-before``."""
    schema = table.schema
    if any(schema.option_bool(k) for k in ("ignore-delete", "first-row.ignore-delete", "deduplicate.ignore-delete",
                                           "partial-update.ignore-delete")):
        return (1, 3)
    return (1,) if schema.option_bool("ignore-update-before") else ()


def row_kind_codes(row_kinds, n: int, path: str) -> np.ndarray:
    """``row_kinds`` (``'+I'``/``'-U'``/``'+U'``/``'-D'`` or their bytes 0-3; ``None``: all ``+I``) as int8 codes,
    refusing a count other than ``n`` and a kind that is none of them (null included)."""
    if row_kinds is None:
        return np.zeros(n, dtype=np.int8)
    if isinstance(row_kinds, np.ndarray) and row_kinds.dtype.kind in "iu":  # byte values: checked in bulk
        if len(row_kinds) != n:
            raise PaimonCodecError(f"{len(row_kinds)} row kinds for {n} rows", path=path)
        bad = row_kinds[(row_kinds < 0) | (row_kinds > 3)]
        if bad.size:
            raise PaimonCodecError(f"unknown row kind {int(bad[0])!r}", path=path, expected="0, 1, 2 or 3")
        return row_kinds.astype(np.int8)
    values: list[Any] = list(row_kinds)  # strings or ints, checked below
    if len(values) != n:
        raise PaimonCodecError(f"{len(values)} row kinds for {n} rows", path=path)
    try:
        return np.array([ROW_KINDS[v] if isinstance(v, str) else int(v) for v in values],
                        dtype=np.int8)
    except (KeyError, TypeError, ValueError):
        unknown = next((v for v in values if not isinstance(v, (str, int)) or v not in ROW_KINDS and isinstance(v, str)),
                       None)
        raise PaimonCodecError(f"unknown row kind {unknown!r}", path=path, expected="+I, -U, +U or -D") from None


def write_primary_key_files(table_path: str | os.PathLike, data: pa.Table, *,
                            row_kinds: Sequence[str] | np.ndarray | None = None,
                            layout: str | None = None, commit_user: str | None = None) -> PrimaryKeyWrite:
    """Write ``data`` as level-0 files (and dynamic buckets' new HASH files); nothing is committed.

    ``row_kinds`` per row; without them every row is ``+I``, or - for a table with Paimon's ``rowkind.field`` -
    the kind its row names in that column (``+I``/``-U``/``+U``/``-D``; null or another value is refused).
    A postpone-bucket table's records go to its ``bucket-postpone`` files (:mod:`.postpone`), named with
    ``commit_user`` (default: a new one)."""
    table = PaimonTable(os.fspath(table_path))
    compression = check_primary_key_table(table)
    schema = table.schema
    data = _conform(data, arrow_schema_for(schema.fields), table.path)
    field = schema.options.get("rowkind.field")
    if row_kinds is None and field:  # Paimon's RowKindGenerator: each row's kind is that column's value
        row_kinds = data.column(field).to_pylist()
    kinds = row_kind_codes(row_kinds, data.num_rows, table.path)
    dropped = _ignored_kinds(table)
    if dropped and np.isin(kinds, dropped).any():  # Paimon's RowKindFilter: such records never reach a file
        keep = ~np.isin(kinds, dropped)
        data, kinds = data.filter(pa.array(keep)), kinds[keep]
    if data.num_rows == 0:
        return PrimaryKeyWrite([], [], {}, {})
    latest = table.snapshot()
    version = "0.9" if detect_layout(table, latest, layout).layout == "0.9" else None
    if schema.bucket == POSTPONE_BUCKET:  # no bucket, no sequence numbers: nothing to be based on
        files = write_postpone_files(table, data, kinds, compression=compression, paimon_version=version,
                                     commit_user=commit_user or str(uuid.uuid4()))
        return PrimaryKeyWrite(files, [], {}, {})
    sequences = bucket_sequences(table, latest)
    hashes = _key_hashes(table, data, _bucket_key(table))
    dynamic = HashIndexUpdate.of(table) if schema.bucket == -1 else None
    keys = list(schema.primary_keys)
    dedupe = _plain_deduplicate(table)
    changes: list[FileChange] = []
    based_on: dict[tuple[bytes, int], int] = {}
    total = schema.bucket if schema.bucket > 0 else -1
    for values, part, rows in partitions_of(table, data):
        buckets = dynamic.assign(part, hashes[rows]) if dynamic is not None else fixed_buckets(hashes[rows], total)
        for bucket in np.unique(buckets).tolist():
            picked = rows[buckets == bucket]
            first = sequences.get((part, bucket), -1)
            based_on[(part, bucket)] = first
            chunk = data.take(pa.array(picked))
            chunk = chunk.append_column(SEQUENCE_COLUMN, pa.array(np.arange(first + 1, first + 1 + len(picked)),
                                                                   pa.int64()))
            chunk = chunk.append_column(KIND_COLUMN, pa.array(kinds[picked], pa.int8()))
            directory = table.bucket_dir_of(values, bucket)
            for run in _level0_runs(chunk, keys, dedupe):
                for meta in write_key_value_files(table, directory, run, level=0, file_source=FILE_SOURCE_APPEND,
                                                  compression=compression, paimon_version=version):
                    changes.append(FileChange.of(part, bucket, meta, "ADD", total))
    index_changes = dynamic.index_changes() if dynamic is not None else []
    log.info("wrote %d level-0 files (%d records) for %s", len(changes), data.num_rows, table.path)
    hash_files = dynamic.files_by_partition(loaded_only=True) if dynamic is not None else {}
    return PrimaryKeyWrite(changes, index_changes, based_on, hash_files)


def bucket_check(based_on: dict[tuple[bytes, int], int], hash_files: dict[bytes, set[str]] | None = None):
    """A commit precondition: no other commit added to the buckets since their files were numbered, and (dynamic
    buckets) the HASH files of each partition written to are still the ones the keys were assigned by."""

    def check(table: PaimonTable, latest: Snapshot | None) -> None:
        now = bucket_sequences(table, latest)
        for (part, bucket), seq in based_on.items():
            if now.get((part, bucket), -1) != seq:
                raise CommitConflictError(f"bucket {bucket} of partition {table.partition_values(part)} changed "
                                          f"since this write numbered its records after sequence number {seq}: "
                                          "another writer committed to it", path=table.path)
        if hash_files:
            live = HashIndexUpdate.of(table).files_by_partition()
            for part, names in hash_files.items():
                if live.get(part, set()) != names:
                    raise CommitConflictError(f"the hash index of partition {table.partition_values(part)} changed "
                                              "since this write assigned its keys: another writer committed to it",
                                              path=table.path)
    return check


def upsert_arrow(table_path: str | os.PathLike, data: pa.Table, *,
                 row_kinds: Sequence[str] | np.ndarray | None = None, commit_user: str | None = None,
                 retries: int = 50, layout: str | None = None) -> CommitResult:
    """Upsert ``data`` into a primary-key table (``row_kinds`` per row, default ``+I``) as one APPEND snapshot."""
    commit_user = commit_user or str(uuid.uuid4())
    written = write_primary_key_files(table_path, data, row_kinds=row_kinds, layout=layout, commit_user=commit_user)
    return commit_changes(table_path, written.changes(), commit_user=commit_user, retries=retries,
                          layout=layout, precondition=written.precondition())
