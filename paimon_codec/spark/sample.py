"""A small Paimon append table written by this library (for the demo and the benchmark).

Made with the library's own table writer and commit path (:mod:`paimon_codec.writing`,
:mod:`paimon_codec.writing.commit`): Parquet data files with their file-index containers (embedded in
the manifest or as ``<data file>.index`` by ``file-index.in-manifest-threshold``), deletion vectors
for some files (a ``DELETION_VECTORS`` index file + index manifest), all committed as one snapshot in
the metadata layout of the chosen Paimon version.  Rows are generated from a seed, so every run holds
the same rows.

Two variants, chosen by ``paimon_version``:

* ``"0.9"`` (default): only what Paimon 0.9 reads - bitmap indexes in the V1 layout (the table
  options say ``file-index.bitmap.<col>.version = 1`` explicitly) and a bloom filter;
* ``"latest"``: Paimon >= 1.3 - bitmap V2, plus range-bitmap indexes on ``amount`` and ``ts``
  (range predicates and top-N); ``amount`` is null in every 97th row so null ordering matters; the
  newest metadata layout (``_VALUE_STATS_COLS`` ...), so pypaimon 2.x opens it too.
"""

from __future__ import annotations

import os
import uuid

import numpy as np
import pyarrow as pa

from .. import storage

__all__ = ["write_sample_table", "sample_options", "SAMPLE_SCHEMA", "SAMPLE_OPTIONS", "SAMPLE_OPTIONS_LATEST",
           "SAMPLE_VERSIONS"]

SAMPLE_SCHEMA = "id INT NOT NULL, status STRING, region STRING, amount BIGINT, ts TIMESTAMP(3)"
SAMPLE_VERSIONS = ("0.9", "latest")
# Paimon 0.9: bitmap V1 (0.9 fails on V2: "plugin version is lower than 2") and bloom filters only
SAMPLE_OPTIONS = {
    "file-index.bitmap.columns": "status,region",
    "file-index.bitmap.status.version": "1",
    "file-index.bitmap.region.version": "1",
    "file-index.bloom-filter.columns": "id",
    "file-index.in-manifest-threshold": "500 b",
    "deletion-vectors.enabled": "true",
    "file.format": "parquet",
}
# newest Paimon: bitmap V2 (its default) and range bitmaps for range predicates and top-N
SAMPLE_OPTIONS_LATEST = {
    "file-index.bitmap.columns": "status,region",
    "file-index.bloom-filter.columns": "id",
    "file-index.range-bitmap.columns": "amount,ts",
    "file-index.in-manifest-threshold": "500 b",
    "deletion-vectors.enabled": "true",
    "file.format": "parquet",
}
_STATUSES = np.array(["NEW", "PAID", "SHIPPED", "DELIVERED"], dtype=object)
_REGIONS = np.array(["EU", "US", "APAC"], dtype=object)


def _uuid(rng: np.random.Generator) -> uuid.UUID:
    return uuid.UUID(bytes=rng.bytes(16), version=4)


def sample_options(paimon_version: str = "0.9") -> dict[str, str]:
    """The sample table's options for a Paimon version (``"0.9"`` or ``"latest"``)."""
    if paimon_version not in SAMPLE_VERSIONS:
        from ..errors import InvalidOptionError

        raise InvalidOptionError(f"unknown sample paimon_version {paimon_version!r}", expected="'0.9' or 'latest'")
    return dict(SAMPLE_OPTIONS if paimon_version == "0.9" else SAMPLE_OPTIONS_LATEST)


def _file_rows(k: int, n: int, start_id: int, rng: np.random.Generator, null_amounts: bool = False) -> pa.Table:
    ids = np.arange(start_id, start_id + n, dtype=np.int32)
    status = _STATUSES[rng.integers(0, len(_STATUSES), n)]
    if k % 3 == 1:  # refunds only ever land in every third file: the bitmap index skips the others
        status[rng.random(n) < 0.02] = "REFUNDED"
    status[rng.random(n) < 0.01] = None
    region = _REGIONS[rng.integers(0, len(_REGIONS) - (1 if k % 2 else 0), n)]  # APAC only in even files
    amount = rng.integers(1, 100_000, n).astype(np.int64)
    amount_nulls = (ids % 97 == 0) if null_amounts else None
    ts = (1_700_000_000_000 + ids.astype(np.int64) * 1000).astype("datetime64[ms]")
    return pa.table({"id": pa.array(ids, pa.int32()), "status": pa.array(status.tolist(), pa.string()),
                     "region": pa.array(region.tolist(), pa.string()),
                     "amount": pa.array(amount, pa.int64(), mask=amount_nulls),
                     "ts": pa.array(ts, pa.timestamp("ms"))})


def write_sample_table(warehouse: str | os.PathLike, *, database: str = "demo", table: str = "orders",
                       files: int = 4, rows_per_file: int = 2500, seed: int = 7,
                       deleted_every: int = 10, paimon_version: str = "0.9") -> str:
    """Write a one-snapshot append table under ``<warehouse>/<database>.db/<table>``; returns its path.

    File 0 (and every fourth after it) gets a deletion vector deleting every ``deleted_every``-th row
    (0 = no deletion vectors).  ``paimon_version``: ``"0.9"`` (readable and filterable by Paimon 0.9;
    the 0.9 metadata layout) or ``"latest"`` (bitmap V2 and range-bitmap indexes, the newest metadata
    layout that Paimon 1.4 and pypaimon 2.x read; see the module docstring).  The table is created,
    written and committed through :mod:`paimon_codec.writing` / :mod:`paimon_codec.writing.commit`.
    An existing table at that path is an error.
    """
    from ..dv.deletion_vector import DeletionVector
    from ..dv.index_file import write_dv_index
    from ..table.index_manifest import DELETION_VECTORS_INDEX, DeletionVectorRange, IndexFileMeta
    from ..writing import create_table, write_data_files
    from ..writing.commit import FileChange, IndexChange, commit_changes

    layout = "0.9" if paimon_version == "0.9" else "newest"
    path = storage.join(os.fspath(warehouse), f"{database}.db", table)
    options = dict(sample_options(paimon_version),
                   **{"file-index.bloom-filter.id.items": str(max(rows_per_file, 1))})
    create_table(path, SAMPLE_SCHEMA, options)
    rng = np.random.default_rng(seed)
    changes: list[FileChange | IndexChange] = []
    dvs = {}
    total = 0
    for k in range(files):
        data = _file_rows(k, rows_per_file, total, rng, null_amounts=paimon_version != "0.9")
        written = write_data_files(path, data, layout=layout)
        changes.extend(written)
        if deleted_every and k % 4 == 0:
            for change in written:
                dvs[change.file.file_name] = DeletionVector.from_array(
                    np.arange(0, change.file.row_count, deleted_every, dtype=np.int64))
        total += rows_per_file
    if dvs:
        index_dir = storage.join(path, "index")
        storage.makedirs(index_dir)
        index_uuid = _uuid(rng)
        for m in write_dv_index(index_dir, dvs, name_factory=lambda n: f"index-{index_uuid}-{n}"):
            ranges = tuple(DeletionVectorRange(r.data_file, r.offset, r.length, r.cardinality) for r in m.ranges)
            changes.append(IndexChange.of((), 0, IndexFileMeta(DELETION_VECTORS_INDEX, m.file_name, m.file_size,
                                                               m.row_count, ranges)))
    commit_changes(path, changes, commit_user="paimon-codec-sample", layout=layout)
    return path
