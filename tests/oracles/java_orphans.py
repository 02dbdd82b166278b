"""Oracle operations for orphan files and expiry, run inside the JVM worker (:mod:`oracles.java_worker`) as part
of :class:`oracles.java_ops.PaimonOps`: Paimon's own orphan clean (``LocalOrphanFilesClean``) and snapshot /
changelog expiry with explicit retention (``snapshot.num-retained.*``, ``changelog.num-retained.*``)."""

from __future__ import annotations

from typing import Any

import jpype

J = jpype.JClass


def _plain(path: str) -> str:
    for prefix in ("file://", "file:"):
        if path.startswith(prefix):
            path = path[len(prefix):]
            break
    return "/" + path.lstrip("/")


class OrphanOps:
    """Mixed into ``PaimonOps``: uses its ``_table``."""

    def orphan_files(self, table_path: str, older_than_ms: int, dry_run: bool) -> dict[str, Any]:
        """``LocalOrphanFilesClean(table, older_than_ms, dry_run).clean()``: the paths it deleted (or would)."""
        table = self._table(table_path)
        clean = J("org.apache.paimon.operation.LocalOrphanFilesClean")(table, jpype.JLong(older_than_ms),
                                                                         jpype.JBoolean(dry_run))
        result = clean.clean()
        paths = sorted(_plain(str(p.toString())) for p in result.getDeletedFilesPath())
        return {"paths": paths, "count": int(result.getDeletedFileCount()),
                "bytes": int(result.getDeletedFileTotalLenInBytes())}

    def expire(self, table_path: str, options: dict[str, str], changelogs: bool) -> int:
        """Expire snapshots (or, with ``changelogs``, long-lived changelogs) of a copy of the table carrying
        ``options`` (retention: ``snapshot.num-retained.min/max``, ``changelog.num-retained.min/max``,
        ``*.time-retained``); returns how many were expired."""
        table = self._table(table_path, None, {str(k): str(v) for k, v in options.items()})
        runner = table.newExpireChangelog() if changelogs else table.newExpireSnapshots()
        return int(runner.config(table.coreOptions().expireConfig()).expire())
