"""The changelog files a snapshot, tag or long-lived changelog names (``changelogManifestList``).

A batch read never uses them; the audit decodes their ``.index`` file indexes like any other index file, each
under the schema its changelog file was written with.  Paimon's changelog expiry deletes a changelog manifest
list while a tag (or a branch made from the tag) still names it, so a missing list is no changelog, as Paimon's
own orphan clean reads it (:mod:`~paimon_codec.maintenance.orphans`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import storage
from ..errors import MissingFileError
from .live_files import LiveDataFile
from .manifest import FILE_KIND_ADD
from .snapshot import Snapshot, changelog_ids, load_changelog
from .table import PaimonTable

__all__ = ["changelog_files", "long_lived_changelogs"]


def changelog_files(view: PaimonTable, snap: Snapshot) -> list[LiveDataFile]:
    """The changelog files ``snap`` adds, with their paths and ``.index`` paths (none without a list)."""
    if not snap.changelog_manifest_list:
        return []
    try:
        metas = view.manifest_list(snap.changelog_manifest_list)
    except MissingFileError:
        return []
    out = []
    for m in metas:
        for e in view.manifest(m.file_name):
            if e.kind != FILE_KIND_ADD:
                continue
            schema = view.schema_by_id(e.file.schema_id)
            path = view.data_file_path(e, schema)
            idx = e.file.index_file_name
            out.append(LiveDataFile(e, view.partition_values(e.partition, schema), path,
                                    storage.join(storage.parent(path), idx) if idx else None, None))
    return out


def long_lived_changelogs(view: PaimonTable) -> Iterator[tuple[str, Snapshot]]:
    """``(label, changelog)`` of every ``changelog/changelog-<id>`` file of the table or branch ``view``."""
    where = "" if view.branch is None else f"branch {view.branch} "
    for cid in changelog_ids(view.meta_path):
        yield f"{where}changelog {cid}", load_changelog(view.meta_path, cid)
