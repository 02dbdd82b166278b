package paimoncodec.bench;

import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.FileIndexProcessor;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32;

/**
 * Times Paimon Java's own file-index rewrite step over every live data file of a table.
 *
 * <pre>
 * IndexRewriteBench --table DIR [--threads N] [--keep false]
 * </pre>
 *
 * <p>For each live data file of the latest snapshot, {@code FileIndexProcessor.process} (the per-file step
 * of Paimon's {@code rewrite_file_index} procedure) reads the file's indexed columns and builds every index
 * the table's current options ask for; {@code N} threads (default: available processors) share the files,
 * one processor per thread. Nothing is committed. Prints one JSON line: {@code files}, {@code ms} (wall
 * time of the whole rewrite, JVM start excluded), {@code container_bytes}, and {@code crc32}: the CRC-32
 * over, for every file in name order, its name (UTF-8) followed by its container bytes, which the
 * benchmark compares with ours. The index files it wrote are deleted afterwards unless {@code --keep true}.
 */
public final class IndexRewriteBench {

    private IndexRewriteBench() {}

    public static void main(String[] args) throws Exception {
        String table = null;
        int threads = Runtime.getRuntime().availableProcessors();
        boolean keep = false;
        for (int a = 0; a + 1 < args.length; a += 2) {
            switch (args[a]) {
                case "--table":
                    table = args[a + 1];
                    break;
                case "--threads":
                    threads = Integer.parseInt(args[a + 1]);
                    break;
                case "--keep":
                    keep = Boolean.parseBoolean(args[a + 1]);
                    break;
                default:
                    throw new IllegalArgumentException("unknown flag " + args[a]);
            }
        }
        if (table == null) {
            throw new IllegalArgumentException("--table DIR is required");
        }
        FileIO io = LocalFileIO.create();
        FileStoreTable t = FileStoreTableFactory.create(io, new Path(table));
        List<ManifestEntry> entries = t.store().newScan().plan().files();
        int n = Math.max(1, threads);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        long t0 = System.nanoTime();
        List<Future<List<Object[]>>> parts = new ArrayList<>();
        for (int w = 0; w < n; w++) {
            final int worker = w;
            parts.add(pool.submit(() -> {
                FileIndexProcessor processor = new FileIndexProcessor(t);
                List<Object[]> out = new ArrayList<>();
                for (int i = worker; i < entries.size(); i += n) {
                    ManifestEntry e = entries.get(i);
                    out.add(new Object[] {e, processor.process(e.partition(), e.bucket(), e)});
                }
                return out;
            }));
        }
        List<Object[]> results = new ArrayList<>();
        for (Future<List<Object[]>> f : parts) {
            results.addAll(f.get());
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        pool.shutdown();

        TreeMap<String, byte[]> containers = new TreeMap<>();
        List<Path> written = new ArrayList<>();
        for (Object[] r : results) {
            ManifestEntry e = (ManifestEntry) r[0];
            DataFileMeta meta = (DataFileMeta) r[1];
            byte[] bytes = meta.embeddedIndex();
            for (String extra : meta.extraFiles()) {
                if (extra.endsWith(".index") && !e.file().extraFiles().contains(extra)) {
                    Path p = new Path(t.store().pathFactory().bucketPath(e.partition(), e.bucket()), extra);
                    try (InputStream in = io.newInputStream(p)) {
                        bytes = in.readAllBytes();
                    }
                    written.add(p);
                }
            }
            containers.put(meta.fileName(), bytes == null ? new byte[0] : bytes);
        }
        CRC32 crc = new CRC32();
        long total = 0;
        for (var entry : containers.entrySet()) {
            crc.update(entry.getKey().getBytes(StandardCharsets.UTF_8));
            crc.update(entry.getValue());
            total += entry.getValue().length;
        }
        if (!keep) {
            for (Path p : written) {
                io.deleteQuietly(p);
            }
        }
        System.out.println(String.format(Locale.ROOT,
                "{\"impl\": \"%s\", \"files\": %d, \"threads\": %d, \"ms\": %d, \"container_bytes\": %d, "
                        + "\"crc32\": \"%08x\"}",
                TableBench.IMPL, containers.size(), n, ms, total, crc.getValue()));
    }
}
