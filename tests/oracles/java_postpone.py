"""Oracle operation: Paimon's compaction of a postpone-bucket table (``bucket = -2``), run inside the JVM worker
(:mod:`oracles.java_worker`) as part of :class:`oracles.java_ops.PaimonOps`.

Paimon Java runs that compaction as a Flink job (``CompactAction.buildForPostponeBucketCompaction`` +
``PostponeBucketCompactSplitSource`` + ``RewritePostponeBucketCommittableOperator`` +
``RemovePostponeBucketFilesOperator``, 1.4); this is that job with one task, through the core classes it uses:

* the partitions holding ``bucket = -2`` files; per partition, its bucket count (the ``totalBuckets`` of its real
  buckets' files, else ``postpone.default-bucket-num``) and the table copied with that ``bucket``;
* the partition's postpone files sorted by creation time (the job's "we must replay the written records in exact
  order"), each read ALONE as a ``bucket = -2`` split - ``MergeFileSplitRead`` reads those without merging, row
  kinds kept - and every row written, in that order, through the real table's ``TableWriteImpl`` (fixed buckets,
  new sequence numbers);
* the writers' messages folded by ``BucketFiles`` into compaction results (``compactAfter``), plus one message
  per postpone split deleting its files (``compactBefore``); all committed in one commit.
"""

from __future__ import annotations

from typing import Any

import jpype

J = jpype.JClass


class PostponeOps:
    """Mixed into ``PaimonOps``: uses its ``_table``, ``_io_manager`` and ``snapshot_id``."""

    def compact_postpone(self, table_path: str, branch: str | None) -> int | None:
        """Compact the postpone bucket of every partition into real buckets; returns the new snapshot id."""
        table = self._table(table_path, branch)  # type: ignore[attr-defined]
        core = J("org.apache.paimon.CoreOptions")
        default_num = int(J("org.apache.paimon.options.Options")(table.options())
                          .get(core.POSTPONE_DEFAULT_BUCKET_NUM))

        def with_buckets(n: int) -> Any:
            options = J("java.util.HashMap")(table.options())
            options.put("bucket", str(n))
            return table.copy(table.schema().copy(options))

        postpone = J("org.apache.paimon.table.BucketMode").POSTPONE_BUCKET
        partitions = list(with_buckets(default_num).newSnapshotReader().withBucket(postpone).partitions())
        if not partitions:
            return None
        before = self.snapshot_id(table_path, branch)  # type: ignore[attr-defined]
        commit_user = str(J("java.util.UUID").randomUUID())
        collections = J("java.util.Collections")
        messages = J("java.util.ArrayList")()
        for partition in partitions:
            only = collections.singletonList(partition)
            buckets = default_num
            it = table.newSnapshotReader().withPartitionFilter(only).onlyReadRealBuckets().readFileIterator()
            if it.hasNext():
                buckets = int(it.next().totalBuckets())
            real = with_buckets(buckets)
            splits = list(real.newSnapshotReader().withPartitionFilter(only).withBucket(postpone).read().splits())
            write = real.newWrite(commit_user).withIOManager(self._io_manager)  # type: ignore[attr-defined]
            read = real.newRead()
            try:
                for split in splits:
                    files = sorted(split.dataFiles(), key=lambda f: int(f.creationTime().getMillisecond()))
                    for meta in files:
                        single = (J("org.apache.paimon.table.source.DataSplit").builder()
                                  .withPartition(split.partition()).withBucket(split.bucket())
                                  .withBucketPath(split.bucketPath()).withTotalBuckets(split.totalBuckets())
                                  .withDataFiles(collections.singletonList(meta)).isStreaming(False).build())
                        rows = J("org.apache.paimon.reader.RecordReaderIterator")(read.createReader(single))
                        try:
                            while rows.hasNext():
                                write.write(rows.next())
                        finally:
                            rows.close()
                    messages.add(J("org.apache.paimon.table.sink.CommitMessageImpl")(
                        split.partition(), split.bucket(), split.totalBuckets(),
                        J("org.apache.paimon.io.DataIncrement").emptyIncrement(),
                        J("org.apache.paimon.io.CompactIncrement")(J("java.util.ArrayList")(split.dataFiles()),
                                                                   collections.emptyList(),
                                                                   collections.emptyList())))
                written = write.prepareCommit(True, J("java.lang.Long").MAX_VALUE)
            finally:
                write.close()
            path_factory = real.store().pathFactory()
            by_bucket: dict[int, Any] = {}
            for message in written:
                bucket = int(message.bucket())
                files = by_bucket.get(bucket)
                if files is None:
                    files = J("org.apache.paimon.postpone.BucketFiles")(
                        path_factory.createDataFilePathFactory(partition, bucket), real.fileIO())
                    by_bucket[bucket] = files
                files.update(message)
            for bucket, files in by_bucket.items():
                messages.add(files.makeMessage(partition, bucket))
        commit = with_buckets(default_num).newBatchWriteBuilder().newCommit()
        try:
            commit.commit(messages)
        finally:
            commit.close()
        after = self.snapshot_id(table_path, branch)  # type: ignore[attr-defined]
        return after if after != before else None
