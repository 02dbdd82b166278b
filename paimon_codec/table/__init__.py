"""Paimon table metadata (filesystem catalog): schemas, snapshots, manifests, index manifests.

>>> from paimon_codec.table import PaimonTable
>>> t = PaimonTable("warehouse/db.db/orders")
>>> [f.path for f in t.data_files()]          # live data files of the latest snapshot
"""

from ..binary_row import decode_binary_row, decode_serialized_row
from .index_manifest import (
    DELETION_VECTORS_INDEX,
    HASH_INDEX,
    DeletionVectorRange,
    IndexFileMeta,
    IndexManifestEntry,
)
from .local_read import read_table
from .manifest import DataFileMeta, ManifestEntry, ManifestFileMeta
from .schema import TableSchema, load_schema
from .snapshot import Snapshot, earliest_snapshot_id, latest_snapshot_id, load_snapshot, snapshot_ids
from .table import DeletionFile, IndexFile, LiveDataFile, PaimonTable, is_table_dir, list_tables

__all__ = [
    "PaimonTable", "LiveDataFile", "DeletionFile", "IndexFile", "list_tables", "is_table_dir",
    "TableSchema", "load_schema", "Snapshot", "load_snapshot", "snapshot_ids", "latest_snapshot_id",
    "earliest_snapshot_id", "ManifestEntry", "ManifestFileMeta", "DataFileMeta", "IndexManifestEntry",
    "IndexFileMeta", "DeletionVectorRange", "HASH_INDEX", "DELETION_VECTORS_INDEX",
    "decode_binary_row", "decode_serialized_row", "read_table",
]
