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

    def read_changelog(self, table_path: str, start: int, end: int, branch: str | None) -> list[str]:
        """The changelog rows of snapshots ``start`` to ``end`` as Paimon's streaming read delivers them
        (``scan.mode = from-snapshot``; long-lived changelogs of expired snapshots included): sorted
        ``"<row kind> <values>"`` lines."""
        from .java_values import getter

        table = self._table(table_path, branch, {"scan.mode": "from-snapshot", "scan.snapshot-id": str(start)})
        fields = list(table.rowType().getFields())
        getters = [getter(f.type()) for f in fields]
        builder = table.newReadBuilder()
        scan = builder.newStreamScan()
        read = builder.newRead()
        out = []
        for _ in range(end - start + 3):
            splits = scan.plan().splits()
            if len(splits):
                it = J("org.apache.paimon.reader.RecordReaderIterator")(read.createReader(splits))
                try:
                    while it.hasNext():
                        row = it.next()
                        values = [None if row.isNullAt(k) else g(row, k) for k, g in enumerate(getters)]
                        out.append(f"{row.getRowKind().shortString()} {values!r}")
                finally:
                    it.close()
            nxt = scan.checkpoint()
            if nxt is not None and int(nxt) > end:
                break
        return sorted(out)
