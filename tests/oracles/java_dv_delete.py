"""Oracle operation: Paimon's row-level DELETE on an append table with deletion vectors, run inside the JVM worker
(:mod:`oracles.java_worker`) as part of :class:`oracles.java_ops.PaimonOps`.

Paimon Java runs that DELETE in its Spark / Flink commands; this is their table-API half, as
``DeleteFromPaimonTableCommand`` + ``PaimonSparkWriter.persistDeletionVectors`` (1.4) do it: the candidate
splits of a scan filtered by the predicate; per data file, the positions of the rows ``Predicate.test``
accepts (the file read alone, without its deletion vector: positions are physical); one
``BaseAppendDeleteFileMaintainer`` per (partition, bucket) (``forBucketedAppend`` / ``forUnawareAppend``)
that merges each new vector with the file's old one and ``persist()``s the index files; one commit of the
maintainers' ``DataIncrement`` index files (``totalBuckets`` null, as the Spark writer sends them).
"""

from __future__ import annotations

from typing import Any

import jpype

J = jpype.JClass


class DvDeleteOps:
    """Mixed into ``PaimonOps``: uses its ``_table``, ``_predicate`` and ``snapshot_id``."""

    def delete_dv(self, table_path: str, where: dict[str, Any], branch: str | None) -> dict[str, Any]:
        """Java's DELETE by deletion vectors; returns the new snapshot id (None: nothing matched), the files
        the scan planned and the positions deleted per data file (sorted)."""
        table = self._table(table_path, branch)
        predicate = self._predicate(where, table.rowType())
        snapshot = table.snapshotManager().latestSnapshot()
        splits = table.newReadBuilder().withFilter(predicate).newScan().plan().splits()
        bitmap64 = bool(table.coreOptions().deletionVectorBitmap64())
        unaware = str(table.bucketMode().name()) == "BUCKET_UNAWARE"
        handler = table.store().newIndexFileHandler()
        read = table.newReadBuilder().newRead()
        maintainers: dict[tuple, Any] = {}
        positions: dict[str, list[int]] = {}
        planned = 0
        for split in splits:
            for meta in split.dataFiles():
                planned += 1
                one = (J("org.apache.paimon.table.source.DataSplit").builder()
                       .withSnapshot(split.snapshotId()).withPartition(split.partition())
                       .withBucket(split.bucket()).withBucketPath(split.bucketPath())
                       .withTotalBuckets(split.totalBuckets())
                       .withDataFiles(J("java.util.Collections").singletonList(meta))
                       .isStreaming(False).rawConvertible(True).build())
                dv = (J("org.apache.paimon.deletionvectors.Bitmap64DeletionVector")() if bitmap64
                      else J("org.apache.paimon.deletionvectors.BitmapDeletionVector")())
                hits = []
                it = J("org.apache.paimon.reader.RecordReaderIterator")(read.createReader(one))
                try:
                    pos = 0
                    while it.hasNext():
                        if predicate.test(it.next()):
                            dv.delete(jpype.JLong(pos))
                            hits.append(pos)
                        pos += 1
                finally:
                    it.close()
                if not hits:
                    continue
                positions[str(meta.fileName())] = hits
                key = (split.partition(), int(split.bucket()))
                m = maintainers.get(key)
                if m is None:
                    cls = J("org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer")
                    m = (cls.forUnawareAppend(handler, snapshot, split.partition()) if unaware
                         else cls.forBucketedAppend(handler, snapshot, split.partition(), split.bucket()))
                    maintainers[key] = m
                m.notifyNewDeletionVector(meta.fileName(), dv)
        if not maintainers:
            return {"snapshot_id": None, "files_planned": planned, "positions": positions}
        messages = J("java.util.ArrayList")()
        empty = J("java.util.Collections").emptyList
        for m in maintainers.values():
            added, deleted = J("java.util.ArrayList")(), J("java.util.ArrayList")()
            for e in m.persist():
                (added if str(e.kind().name()) == "ADD" else deleted).add(e.indexFile())
            inc = J("org.apache.paimon.io.DataIncrement")(empty(), empty(), empty(), added, deleted)
            messages.add(J("org.apache.paimon.table.sink.CommitMessageImpl")(
                m.getPartition(), m.getBucket(), None, inc, J("org.apache.paimon.io.CompactIncrement").emptyIncrement()))
        builder = table.newBatchWriteBuilder()
        commit = builder.newCommit()
        try:
            commit.commit(messages)
        finally:
            commit.close()
        return {"snapshot_id": self.snapshot_id(table_path, branch), "files_planned": planned,
                "positions": positions}
