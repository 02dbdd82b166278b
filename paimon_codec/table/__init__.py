"""The stored table's metadata (filesystem catalog): schemas, snapshots, manifests, index manifests.

Planning a scan is :mod:`paimon_codec.planning`, reading rows :mod:`paimon_codec.reading`, writing
:mod:`paimon_codec.writing`, maintenance jobs :mod:`paimon_codec.maintenance`.

>>> from paimon_codec.table import PaimonTable
>>> t = PaimonTable("warehouse/db.db/orders")
>>> [f.path for f in t.data_files()]          # live data files of the latest snapshot
>>> t.resolve_snapshot(tag="t1")               # time travel: snapshot id, tag or timestamp_ms
>>> PaimonTable("warehouse/db.db/orders", branch="dev")
"""

from ..binary_row import decode_binary_row, decode_serialized_row
from .index_manifest import (
    DELETION_VECTORS_INDEX,
    HASH_INDEX,
    DeletionVectorRange,
    GlobalIndexMeta,
    IndexFileMeta,
    IndexManifestEntry,
)
from .manifest import DataFileMeta, ManifestEntry, ManifestFileMeta
from .schema import TableSchema, load_schema
from .snapshot import (
    Snapshot,
    earliest_snapshot_id,
    latest_snapshot_id,
    load_snapshot,
    load_tag,
    snapshot_at_time,
    snapshot_ids,
    tag_names,
)
from .table import DeletionFile, IndexFile, LiveDataFile, PaimonTable, branch_names, is_table_dir, list_tables

__all__ = [
    "PaimonTable", "LiveDataFile", "DeletionFile", "IndexFile", "list_tables", "is_table_dir",
    "TableSchema", "load_schema", "Snapshot", "load_snapshot", "snapshot_ids", "latest_snapshot_id",
    "earliest_snapshot_id", "ManifestEntry", "ManifestFileMeta", "DataFileMeta", "IndexManifestEntry",
    "IndexFileMeta", "GlobalIndexMeta", "DeletionVectorRange", "load_tag", "tag_names", "snapshot_at_time",
    "branch_names", "HASH_INDEX", "DELETION_VECTORS_INDEX",
    "decode_binary_row", "decode_serialized_row",
]
