"""The snapshot JSON a commit writes, with the fields the table's Paimon version writes.

Paimon 1.4 writes ``baseManifestListSize`` / ``deltaManifestListSize`` and ``nextRowId`` and leaves
out null fields (``changelogManifestList``, ``indexManifest``, ``watermark``, ``logOffsets``);
Paimon 0.9 writes ``changelogManifestList: null``, ``logOffsets: {}`` and
``changelogRecordCount: 0``.  Both are ``version: 3``; readers of either version ignore fields they
do not know.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

__all__ = ["SnapshotFields", "snapshot_json", "BATCH_COMMIT_IDENTIFIER"]

BATCH_COMMIT_IDENTIFIER = 2**63 - 1  # Long.MAX_VALUE: what Paimon's batch commits use


@dataclass(frozen=True)
class SnapshotFields:
    id: int
    schema_id: int
    base_manifest_list: str
    base_manifest_list_size: int
    delta_manifest_list: str
    delta_manifest_list_size: int
    index_manifest: str | None
    commit_user: str
    commit_identifier: int
    commit_kind: str
    time_millis: int
    total_record_count: int
    delta_record_count: int
    watermark: int | None = None
    next_row_id: int | None = None


def snapshot_json(s: SnapshotFields, layout: str) -> bytes:
    obj: dict = {"version": 3, "id": s.id, "schemaId": s.schema_id, "baseManifestList": s.base_manifest_list}
    if layout == "0.9":
        obj.update({"deltaManifestList": s.delta_manifest_list, "changelogManifestList": None})
        if s.index_manifest:
            obj["indexManifest"] = s.index_manifest
        obj.update({"commitUser": s.commit_user, "commitIdentifier": s.commit_identifier,
                    "commitKind": s.commit_kind, "timeMillis": s.time_millis, "logOffsets": {},
                    "totalRecordCount": s.total_record_count, "deltaRecordCount": s.delta_record_count,
                    "changelogRecordCount": 0})
        if s.watermark is not None:
            obj["watermark"] = s.watermark
    else:
        obj.update({"baseManifestListSize": s.base_manifest_list_size, "deltaManifestList": s.delta_manifest_list,
                    "deltaManifestListSize": s.delta_manifest_list_size})
        if s.index_manifest:
            obj["indexManifest"] = s.index_manifest
        obj.update({"commitUser": s.commit_user, "commitIdentifier": s.commit_identifier,
                    "commitKind": s.commit_kind, "timeMillis": s.time_millis,
                    "totalRecordCount": s.total_record_count, "deltaRecordCount": s.delta_record_count})
        if s.watermark is not None:
            obj["watermark"] = s.watermark
        obj["nextRowId"] = s.next_row_id if s.next_row_id is not None else 0
    return json.dumps(obj, indent=2).encode("utf-8")
