package paimoncodec.bench;

import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.append.BaseAppendDeleteFileMaintainer;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.manifest.FileKind;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.table.BucketMode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Times Paimon Java's row-level DELETE on an append table with deletion vectors, through the table API.
 *
 * <pre>
 * DvDeleteBench --table DIR --column NAME (--equals STRING | --less-than LONG) [--threads N]
 * </pre>
 *
 * <p>What {@code DeleteFromPaimonTableCommand} + {@code PaimonSparkWriter.persistDeletionVectors} (1.4) do,
 * without Spark: the splits of a scan filtered by {@code NAME = STRING} or {@code NAME < LONG} (manifest stats and file indexes
 * prune); per data file (N threads share them, default: available processors) the file read alone and each
 * row tested with {@code Predicate.test}, the positions that match collected into a deletion vector; one
 * {@code BaseAppendDeleteFileMaintainer} per (partition, bucket) merging them with the old vectors and
 * writing the index files; one commit. Prints one JSON line: {@code files_planned}, {@code rows_deleted},
 * {@code snapshot_id} and {@code ms} (wall time from planning to the committed snapshot, JVM start excluded).
 */
public final class DvDeleteBench {

    private DvDeleteBench() {}

    public static void main(String[] args) throws Exception {
        String table = null;
        String column = null;
        String value = null;
        Long below = null;
        int threads = Runtime.getRuntime().availableProcessors();
        for (int a = 0; a + 1 < args.length; a += 2) {
            switch (args[a]) {
                case "--table":
                    table = args[a + 1];
                    break;
                case "--column":
                    column = args[a + 1];
                    break;
                case "--equals":
                    value = args[a + 1];
                    break;
                case "--less-than":
                    below = Long.parseLong(args[a + 1]);
                    break;
                case "--threads":
                    threads = Integer.parseInt(args[a + 1]);
                    break;
                default:
                    throw new IllegalArgumentException("unknown flag " + args[a]);
            }
        }
        if (table == null || column == null || (value == null) == (below == null)) {
            throw new IllegalArgumentException("--table, --column and one of --equals / --less-than are required");
        }
        FileStoreTable t = FileStoreTableFactory.create(LocalFileIO.create(), new Path(table));
        PredicateBuilder pb = new PredicateBuilder(t.rowType());
        Predicate predicate = value != null
                ? pb.equal(pb.indexOf(column), BinaryString.fromString(value))
                : pb.lessThan(pb.indexOf(column), below);
        boolean bitmap64 = t.coreOptions().deletionVectorBitmap64();
        long t0 = System.nanoTime();
        Snapshot snapshot = t.snapshotManager().latestSnapshot();
        List<Split> splits = t.newReadBuilder().withFilter(predicate).newScan().plan().splits();
        List<DataSplit> files = new ArrayList<>();
        for (Split s : splits) {
            DataSplit split = (DataSplit) s;
            for (DataFileMeta meta : split.dataFiles()) {
                files.add(DataSplit.builder().withSnapshot(split.snapshotId()).withPartition(split.partition())
                        .withBucket(split.bucket()).withBucketPath(split.bucketPath())
                        .withTotalBuckets(split.totalBuckets())
                        .withDataFiles(Collections.singletonList(meta)).isStreaming(false)
                        .rawConvertible(true).build());
            }
        }
        int n = Math.max(1, threads);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<List<Object[]>>> parts = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            final int worker = w;
            parts.add(pool.submit(() -> {
                TableRead read = t.newReadBuilder().newRead();
                List<Object[]> out = new ArrayList<>();
                for (int i = worker; i < files.size(); i += n) {
                    DeletionVector dv = bitmap64 ? new Bitmap64DeletionVector() : new BitmapDeletionVector();
                    long pos = 0;
                    long hits = 0;
                    try (RecordReaderIterator<InternalRow> it =
                            new RecordReaderIterator<>(read.createReader(files.get(i)))) {
                        while (it.hasNext()) {
                            if (predicate.test(it.next())) {
                                dv.delete(pos);
                                hits++;
                            }
                            pos++;
                        }
                    }
                    if (hits > 0) {
                        out.add(new Object[] {files.get(i), dv, hits});
                    }
                }
                return out;
            }));
        }
        IndexFileHandler handler = t.store().newIndexFileHandler();
        boolean unaware = t.bucketMode() == BucketMode.BUCKET_UNAWARE;
        Map<List<Object>, BaseAppendDeleteFileMaintainer> maintainers = new LinkedHashMap<>();
        long rows = 0;
        for (Future<List<Object[]>> part : parts) {
            for (Object[] r : part.get()) {
                DataSplit split = (DataSplit) r[0];
                BinaryRow partition = split.partition();
                List<Object> key = List.of(partition, split.bucket());
                BaseAppendDeleteFileMaintainer m = maintainers.get(key);
                if (m == null) {
                    m = unaware
                            ? BaseAppendDeleteFileMaintainer.forUnawareAppend(handler, snapshot, partition)
                            : BaseAppendDeleteFileMaintainer.forBucketedAppend(
                                    handler, snapshot, partition, split.bucket());
                    maintainers.put(key, m);
                }
                m.notifyNewDeletionVector(split.dataFiles().get(0).fileName(), (DeletionVector) r[1]);
                rows += (Long) r[2];
            }
        }
        pool.shutdown();
        List<CommitMessage> messages = new ArrayList<>();
        for (BaseAppendDeleteFileMaintainer m : maintainers.values()) {
            List<IndexFileMeta> added = new ArrayList<>();
            List<IndexFileMeta> deleted = new ArrayList<>();
            for (IndexManifestEntry e : m.persist()) {
                (e.kind() == FileKind.ADD ? added : deleted).add(e.indexFile());
            }
            messages.add(new CommitMessageImpl(m.getPartition(), m.getBucket(), null,
                    new DataIncrement(Collections.emptyList(), Collections.emptyList(), Collections.emptyList(),
                            added, deleted),
                    CompactIncrement.emptyIncrement()));
        }
        if (!messages.isEmpty()) {
            try (BatchTableCommit commit = t.newBatchWriteBuilder().newCommit()) {
                commit.commit(messages);
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Snapshot after = t.snapshotManager().latestSnapshot();
        System.out.println("{\"files_planned\":" + files.size() + ",\"rows_deleted\":" + rows + ",\"snapshot_id\":"
                + (after == null ? "null" : after.id()) + ",\"ms\":" + ms + "}");
    }
}
