"""Committing to a Paimon table: manifests, manifest lists, index manifests and snapshots, written in
the layout of the table's Paimon version with Paimon's commit protocol.

>>> from paimon_codec.writing.commit import commit_changes, FileChange
>>> commit_changes("warehouse/db.db/t", [FileChange.of((), 0, meta)])   # -> CommitResult(snapshot_id=...)

A conflict is :class:`paimon_codec.CommitConflictError`; ``kind=`` takes :class:`paimon_codec.CommitKind`.
"""

from .changes import ADD, DELETE, CommitResult, FileChange, IndexChange
from .layout import LAYOUTS, index_manifest_schema, manifest_list_schema, manifest_schema
from .protocol import COMMIT_KINDS, commit_changes

__all__ = ["commit_changes", "FileChange", "IndexChange", "CommitResult", "ADD", "DELETE",
           "COMMIT_KINDS", "LAYOUTS", "manifest_schema", "manifest_list_schema", "index_manifest_schema"]
