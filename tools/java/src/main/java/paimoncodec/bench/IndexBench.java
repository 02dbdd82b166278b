// The index workloads of the performance anchor (shared/anchors/java-bench/workloads.md) on Apache Paimon
// 1.4.2's Java API: the anchor's Bench.java (written for 0.9.0) ported to the 1.4.2 API. The workloads, inputs,
// timed regions and output are unchanged; what differs from the 0.9 harness:
//   * a bitmap index is built with the option version=1 (workloads.md: "bitmap index = version 1"; 1.4.2
//     writes version 2 by default), so the blobs are byte-identical to 0.9's and the crc32 checks hold;
//   * a bitmap lookup's result is a BitmapIndexResult (0.9: BitmapIndexResultLazy);
//   * DeletionVectorsIndexFile takes an IndexPathFactory and bitmap64=false (32-bit DVs, as 0.9) and writes
//     with writeSingleFile; HashIndexFile takes an IndexPathFactory, write returns the IndexFileMeta;
//   * FileIndexPredicate.testPredicate(p) is evaluate(p).remain().
// Build: tools/java/bench/pom.xml (benchmarks/_java_newest.py). Run: java -cp PAIMON_1_4_2_JARS:BENCH_JAR
// paimoncodec.bench.IndexBench [--only W1,W3a] [--warmup N] [--rounds N] (see the anchor's options).

package paimoncodec.bench;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexPredicate;
import org.apache.paimon.fileindex.FileIndexReader;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
import org.apache.paimon.fs.ByteArraySeekableStream;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.IntIterator;
import org.apache.paimon.index.IndexPathFactory;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

public class IndexBench {

    static final String IMPL = "paimon-java-1.4.2";
    /** The JVM's process CPU time in 10 ms clock ticks: the fallback where /proc has no per-thread schedstat. */
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /**
     * CPU nanoseconds of every thread of the JVM (main, GC, JIT), the counterpart of Python's
     * {@code time.process_time}: the sum of /proc/self/task/{tid}/schedstat's first field (ns on a CPU).
     * {@code getProcessCpuTime} counts 10 ms clock ticks on Linux, too coarse for rounds of milliseconds.
     */
    static long processCpuNanos() {
        File[] tasks = new File("/proc/self/task").listFiles();
        if (tasks == null) {
            return OS.getProcessCpuTime();
        }
        long total = 0;
        for (File t : tasks) {
            try {
                String s = new String(Files.readAllBytes(new File(t, "schedstat").toPath()),
                        java.nio.charset.StandardCharsets.US_ASCII);
                total += Long.parseLong(s.substring(0, s.indexOf(' ')));
            } catch (IOException | RuntimeException e) {
                // a thread that ended between the listing and the read: its time is gone with it
            }
        }
        return total;
    }

    // ------------------------------------------------------------------ generator (workloads.md §1)

    static final long GAMMA = 0x9E3779B97F4A7C15L;

    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** i-th output (i = 0, 1, 2, ...) of splitmix64 started with state = seed. */
    static long gen(long seed, long i) {
        return mix64(seed + (i + 1) * GAMMA);
    }

    /** gen(seed, i) taken as an unsigned 64-bit number, modulo n. */
    static long below(long seed, long i, long n) {
        return Long.remainderUnsigned(gen(seed, i), n);
    }

    // ------------------------------------------------------------------ workload inputs

    static final int W1_ROWS = 1_000_000;
    static final int W1_DISTINCT = 1_000;
    static final long SEED_W1 = 101;
    static final int W2_ROWS = 1_000_000;
    static final long W2_MULT = 2654435761L;
    static final int W3_LOOKUPS = 1_000;
    static final long SEED_W3A = 301;
    static final long SEED_W3B = 302;
    static final int W4_ROWS = 1_000_000;
    static final int W4_PROBES = 1_000_000;
    static final long SEED_W4 = 401;
    static final long SEED_W4_ABSENT = 402;
    static final int W5_FILES = 1_000;
    static final int W5_POS_PER_FILE = 10_000;
    static final long W5_POS_RANGE = 1_000_000;
    static final long SEED_W5 = 501;
    static final int W6_INTS = 10_000_000;
    static final long SEED_W6 = 601;
    static final int W7_COLUMNS = 20;
    static final int W7_ROWS = 2_000;
    static final int W7_DISTINCT = 50;
    static final long SEED_W7 = 701;
    static final int W7_LOOKUP_COLUMN = 7;
    static final int W7_LOOKUPS = 1_000;
    static final int W7_LITERAL_RANGE = 64;
    static final long SEED_W7_LOOKUP = 702;
    static final int W7_WRITES = 1_000;

    static String w1Dict(int k) {
        return "value-" + k;
    }

    static int w2Value(int i) {
        return (int) (i * W2_MULT); // low 32 bits of i * 2654435761, as a signed int
    }

    static String w7Column(int k) {
        return String.format(Locale.ROOT, "c%02d", k);
    }

    static String w5FileName(int f) {
        return String.format(Locale.ROOT, "data-%04d.parquet", f);
    }

    // ------------------------------------------------------------------ harness

    /** One workload: setup() once, then per round before() [untimed], run() [timed], after() [untimed]. */
    abstract static class Work {
        final String id;
        final String what;
        int ops = 1; // operations per timed round (lookups, probes, ...); 1 for whole-build workloads
        long bytes = -1; // size of the artifact built / read
        String crc32; // CRC-32 of that artifact, hex
        Long check; // a number the Python side must reproduce (see workloads.md)

        Work(String id, String what) {
            this.id = id;
            this.what = what;
        }

        void setup() throws Exception {}

        void before() throws Exception {}

        abstract void run() throws Exception;

        void after() throws Exception {}

        void teardown() throws Exception {}
    }

    static int warmup = 3;
    static int rounds = 7;
    static int w3aLookups = 20; // fresh-reader lookups per round on W2's index (each parses 1M dictionary entries)
    static File tmpDir;
    static final LocalFileIO IO = LocalFileIO.create();

    public static void main(String[] args) throws Exception {
        List<String> only = null;
        boolean listIds = false;
        boolean info = true;
        String tmpParent = System.getProperty("java.io.tmpdir");
        for (int a = 0; a < args.length; a++) {
            switch (args[a]) {
                case "--warmup":
                    warmup = Integer.parseInt(args[++a]);
                    break;
                case "--rounds":
                    rounds = Integer.parseInt(args[++a]);
                    break;
                case "--only":
                    only = Arrays.asList(args[++a].split(","));
                    break;
                case "--w3a-lookups":
                    w3aLookups = Integer.parseInt(args[++a]);
                    break;
                case "--tmp":
                    tmpParent = args[++a];
                    break;
                case "--selftest":
                    selftest();
                    return;
                case "--ids":
                    listIds = true;
                    break;
                case "--info-only":
                    jvmInfo();
                    return;
                case "--no-info":
                    info = false;
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument " + args[a]);
            }
        }
        if (w3aLookups < 1 || w3aLookups > W3_LOOKUPS) {
            throw new IllegalArgumentException("--w3a-lookups must be in [1, " + W3_LOOKUPS + "]");
        }
        List<Work> selected = new ArrayList<>();
        for (Work w : workloads()) {
            if (only == null || only.stream().anyMatch(o -> o.endsWith("*")
                    ? w.id.startsWith(o.substring(0, o.length() - 1))
                    : w.id.equals(o))) {
                selected.add(w);
            }
        }
        if (only != null && selected.isEmpty()) {
            throw new IllegalArgumentException("no workload matches --only " + only);
        }
        if (listIds) {
            for (Work w : selected) {
                System.out.println(w.id);
            }
            return;
        }
        if (info) {
            jvmInfo();
        }
        tmpDir = Files.createTempDirectory(new File(tmpParent).toPath(), "paimon-anchor-bench-").toFile();
        try {
            for (Work w : selected) {
                measure(w);
            }
        } finally {
            deleteRecursively(tmpDir);
        }
    }

    static void measure(Work w) throws Exception {
        w.setup();
        long[] ns = new long[rounds];
        long[] cpu = new long[rounds]; // the JVM's CPU time in the timed region (every thread: GC, JIT too)
        for (int r = 0; r < warmup + rounds; r++) {
            w.before();
            System.gc();
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            w.run();
            long t1 = System.nanoTime();
            long c1 = processCpuNanos();
            w.after();
            if (r >= warmup) {
                ns[r - warmup] = t1 - t0;
                cpu[r - warmup] = c1 - c0;
            }
        }
        w.teardown();
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        double median = sorted.length % 2 == 1
                ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
        StringBuilder sb = new StringBuilder();
        sb.append("{\"workload\":\"").append(w.id).append('"');
        sb.append(",\"impl\":\"").append(IMPL).append('"');
        sb.append(",\"median_ms\":").append(ms(median));
        sb.append(",\"min_ms\":").append(ms(sorted[0]));
        sb.append(",\"max_ms\":").append(ms(sorted[sorted.length - 1]));
        sb.append(",\"bytes\":").append(w.bytes);
        sb.append(",\"ops\":").append(w.ops);
        if (w.ops > 1) {
            sb.append(",\"median_us_per_op\":").append(fmt(median / 1e3 / w.ops, 4));
        }
        if (w.check != null) {
            sb.append(",\"check\":").append(w.check);
        }
        if (w.crc32 != null) {
            sb.append(",\"crc32\":\"").append(w.crc32).append('"');
        }
        long[] cpuSorted = cpu.clone();
        Arrays.sort(cpuSorted);
        double cpuMedian = cpuSorted.length % 2 == 1
                ? cpuSorted[cpuSorted.length / 2]
                : (cpuSorted[cpuSorted.length / 2 - 1] + cpuSorted[cpuSorted.length / 2]) / 2.0;
        sb.append(",\"cpu_median_ms\":").append(ms(cpuMedian));
        sb.append(",\"warmup\":").append(warmup).append(",\"rounds\":").append(rounds);
        sb.append(",\"rounds_ms\":[");
        for (int i = 0; i < ns.length; i++) {
            sb.append(i == 0 ? "" : ",").append(ms(ns[i]));
        }
        sb.append("],\"what\":\"").append(w.what).append("\"}");
        System.out.println(sb);
        System.out.flush();
    }

    static String ms(double ns) {
        return fmt(ns / 1e6, 3);
    }

    static String fmt(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    static String crc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return String.format(Locale.ROOT, "%08x", c.getValue());
    }

    static String crcFile(File f) throws IOException {
        return crc(Files.readAllBytes(f.toPath()));
    }

    static void jvmInfo() {
        Runtime rt = Runtime.getRuntime();
        StringBuilder gcs = new StringBuilder();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.append(gcs.length() == 0 ? "" : ",").append(gc.getName());
        }
        System.out.println(String.format(Locale.ROOT,
                "{\"info\":\"jvm\",\"java_version\":\"%s\",\"vm\":\"%s %s\",\"vendor\":\"%s\",\"os\":\"%s %s %s\","
                        + "\"cpus\":%d,\"max_heap_mb\":%d,\"gc\":\"%s\",\"input_args\":\"%s\"}",
                Runtime.version(), System.getProperty("java.vm.name"), System.getProperty("java.vm.version"),
                System.getProperty("java.vendor"), System.getProperty("os.name"), System.getProperty("os.version"),
                System.getProperty("os.arch"), rt.availableProcessors(), rt.maxMemory() >> 20, gcs,
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()).replace("\"", "'")));
    }

    static void selftest() {
        System.out.println("splitmix64 gen(seed, i), as unsigned hex and signed decimal:");
        for (long seed : new long[] {0, 101}) {
            for (int i = 0; i < 3; i++) {
                long v = gen(seed, i);
                System.out.println(String.format(Locale.ROOT, "  seed %d i %d: 0x%016x  %d", seed, i, v, v));
            }
        }
        System.out.print("W1 value indices rows 0..7: ");
        for (int i = 0; i < 8; i++) {
            System.out.print(below(SEED_W1, i, W1_DISTINCT) + " ");
        }
        System.out.println();
        System.out.print("W2 values rows 0..4: ");
        for (int i = 0; i < 5; i++) {
            System.out.print(w2Value(i) + " ");
        }
        System.out.println("... row 999999: " + w2Value(W2_ROWS - 1));
        System.out.print("W3a lookup rows 0..4: ");
        for (int j = 0; j < 5; j++) {
            System.out.print(below(SEED_W3A, j, W2_ROWS) + " ");
        }
        System.out.print(" literals 0..4: ");
        for (int j = 0; j < 5; j++) {
            System.out.print(w2Value((int) below(SEED_W3A, j, W2_ROWS)) + " ");
        }
        System.out.println();
        System.out.print("W3b lookup value indices 0..4: ");
        for (int j = 0; j < 5; j++) {
            System.out.print(below(SEED_W3B, j, W1_DISTINCT) + " ");
        }
        System.out.println();
        System.out.print("W4 build values 0..2: ");
        for (int i = 0; i < 3; i++) {
            System.out.print(gen(SEED_W4, i) + " ");
        }
        System.out.println();
        System.out.print("W4 probes 0..3: ");
        for (int j = 0; j < 4; j++) {
            System.out.print((j % 2 == 0 ? gen(SEED_W4, j) : gen(SEED_W4_ABSENT, j)) + " ");
        }
        System.out.println();
        System.out.print("W5 file 0 positions 0..4: ");
        for (int p = 0; p < 5; p++) {
            System.out.print(below(SEED_W5, p, W5_POS_RANGE) + " ");
        }
        System.out.print(" file 1 positions 0..1: ");
        for (int p = 0; p < 2; p++) {
            System.out.print(below(SEED_W5, W5_POS_PER_FILE + p, W5_POS_RANGE) + " ");
        }
        System.out.println();
        System.out.print("W6 ints 0..4: ");
        for (int i = 0; i < 5; i++) {
            System.out.print((int) gen(SEED_W6, i) + " ");
        }
        System.out.println();
        System.out.print("W7 c00 rows 0..4: ");
        for (int r = 0; r < 5; r++) {
            System.out.print(below(SEED_W7, r, W7_DISTINCT) + " ");
        }
        System.out.print(" c01 rows 0..1: ");
        for (int r = 0; r < 2; r++) {
            System.out.print(below(SEED_W7, W7_ROWS + r, W7_DISTINCT) + " ");
        }
        System.out.print(" lookup literals 0..4: ");
        for (int j = 0; j < 5; j++) {
            System.out.print(below(SEED_W7_LOOKUP, j, W7_LITERAL_RANGE) + " ");
        }
        System.out.println();
    }

    static void deleteRecursively(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File c : children) {
                deleteRecursively(c);
            }
        }
        f.delete();
    }

    static IndexPathFactory pathFactory(File dir, String prefix) {
        dir.mkdirs();
        return new IndexPathFactory() {
            int n = 0;

            @Override
            public Path newPath() {
                return new Path(new File(dir, prefix + "-" + (n++)).getAbsolutePath());
            }

            @Override
            public Path toPath(String fileName) {
                return new Path(new File(dir, fileName).getAbsolutePath());
            }

            @Override
            public boolean isExternalPath() {
                return false;
            }
        };
    }

    // ------------------------------------------------------------------ shared builders

    static Object[] w1Rows() {
        Object[] rows = new Object[W1_ROWS];
        for (int i = 0; i < W1_ROWS; i++) {
            // a distinct BinaryString object per row, as rows read from a data file would carry
            rows[i] = BinaryString.fromString(w1Dict((int) below(SEED_W1, i, W1_DISTINCT)));
        }
        return rows;
    }

    static Object[] w2Rows() {
        Object[] rows = new Object[W2_ROWS];
        for (int i = 0; i < W2_ROWS; i++) {
            rows[i] = w2Value(i);
        }
        return rows;
    }

    static byte[] buildIndex(String type, DataType dt, Options opts, Object[] rows) {
        FileIndexWriter w = FileIndexer.create(type, dt, opts).createWriter();
        for (Object v : rows) {
            w.writeRecord(v);
        }
        return w.serializedBytes();
    }

    /** workloads.md: the bitmap index is version 1 (1.4.2's default is version 2). */
    static Options bitmapOptions() {
        Map<String, String> m = new HashMap<>();
        m.put("version", "1");
        return new Options(m);
    }

    static Options bloomOptions() {
        Map<String, String> m = new HashMap<>();
        m.put("items", String.valueOf(W4_ROWS));
        m.put("fpp", "0.01");
        return new Options(m);
    }

    /** Bitmap build (W1, W2). */
    static Work bitmapBuild(String id, String what, DataType dt, java.util.function.Supplier<Object[]> rowsGen) {
        return new Work(id, what) {
            Object[] rows;
            byte[] out;

            @Override
            void setup() {
                rows = rowsGen.get();
            }

            @Override
            void run() {
                out = buildIndex("bitmap", dt, bitmapOptions(), rows);
            }

            @Override
            void after() {
                bytes = out.length;
                crc32 = crc(out);
                out = null;
            }

            @Override
            void teardown() {
                rows = null;
            }
        };
    }

    /** Bitmap point lookups with a fresh reader per lookup (W3a, W3b). */
    static Work bitmapLookups(
            String id, String what, DataType dt, java.util.function.Supplier<Object[]> rowsGen,
            java.util.function.IntFunction<Object> literal, int nLookups, boolean reuseReader) {
        return new Work(id, what) {
            byte[] index;
            Object[] literals;
            FieldRef ref;
            long sum;

            @Override
            void setup() {
                index = buildIndex("bitmap", dt, bitmapOptions(), rowsGen.get());
                bytes = index.length;
                crc32 = crc(index);
                // the literal list has W3_LOOKUPS entries; a round uses its first nLookups
                literals = new Object[nLookups];
                for (int j = 0; j < nLookups; j++) {
                    literals[j] = literal.apply(j);
                }
                ref = new FieldRef(0, "v", dt);
                ops = nLookups;
            }

            @Override
            void run() throws Exception {
                long s = 0;
                FileIndexReader shared = reuseReader
                        ? FileIndexer.create("bitmap", dt, bitmapOptions())
                                .createReader(new ByteArraySeekableStream(index), 0, index.length)
                        : null;
                for (Object lit : literals) {
                    FileIndexReader reader = reuseReader
                            ? shared
                            : FileIndexer.create("bitmap", dt, bitmapOptions())
                                    .createReader(new ByteArraySeekableStream(index), 0, index.length);
                    FileIndexResult res = reader.visitEqual(ref, lit);
                    s += ((BitmapIndexResult) res).get().getCardinality(); // materialise the row set
                }
                sum = s;
            }

            @Override
            void after() {
                check = sum;
            }
        };
    }

    // ------------------------------------------------------------------ workloads

    static List<Work> workloads() {
        List<Work> ws = new ArrayList<>();

        ws.add(bitmapBuild("W1", "bitmap build STRING 1M rows 1000 distinct + serializedBytes",
                DataTypes.STRING(), IndexBench::w1Rows));
        ws.add(bitmapBuild("W2", "bitmap build INT 1M rows all distinct + serializedBytes",
                DataTypes.INT(), IndexBench::w2Rows));

        java.util.function.IntFunction<Object> w3aLiteral =
                j -> (Object) w2Value((int) below(SEED_W3A, j, W2_ROWS));
        java.util.function.IntFunction<Object> w3bLiteral =
                j -> (Object) BinaryString.fromString(w1Dict((int) below(SEED_W3B, j, W1_DISTINCT)));
        ws.add(bitmapLookups("W3a", "first " + w3aLookups + " of the 1000 W3a Equal lookups on W2's bitmap index,"
                        + " fresh reader per lookup",
                DataTypes.INT(), IndexBench::w2Rows, w3aLiteral, w3aLookups, false));
        ws.add(bitmapLookups("W3b", "1000 Equal lookups on W1's bitmap index, fresh reader per lookup",
                DataTypes.STRING(), IndexBench::w1Rows, w3bLiteral, W3_LOOKUPS, false));
        ws.add(bitmapLookups("W3a.reuse", "1000 W3a Equal lookups on W2's bitmap index, one reader for all (extra)",
                DataTypes.INT(), IndexBench::w2Rows, w3aLiteral, W3_LOOKUPS, true));
        ws.add(bitmapLookups("W3b.reuse", "1000 W3b Equal lookups on W1's bitmap index, one reader for all (extra)",
                DataTypes.STRING(), IndexBench::w1Rows, w3bLiteral, W3_LOOKUPS, true));

        // W4 bloom filter
        ws.add(new Work("W4.build", "bloom-filter build BIGINT 1M rows items=1M fpp=0.01 + serializedBytes") {
            Object[] rows;
            byte[] out;

            @Override
            void setup() {
                rows = new Object[W4_ROWS];
                for (int i = 0; i < W4_ROWS; i++) {
                    rows[i] = gen(SEED_W4, i);
                }
            }

            @Override
            void run() {
                out = buildIndex("bloom-filter", DataTypes.BIGINT(), bloomOptions(), rows);
            }

            @Override
            void after() {
                bytes = out.length;
                crc32 = crc(out);
                out = null;
            }

            @Override
            void teardown() {
                rows = null;
            }
        });
        ws.add(new Work("W4.probe", "1M bloom-filter Equal tests (500k present, 500k absent), one reader") {
            byte[] index;
            Object[] probes;
            FieldRef ref = new FieldRef(0, "v", DataTypes.BIGINT());
            long hits;

            @Override
            void setup() {
                Object[] rows = new Object[W4_ROWS];
                Set<Long> present = new HashSet<>();
                for (int i = 0; i < W4_ROWS; i++) {
                    rows[i] = gen(SEED_W4, i);
                    present.add((Long) rows[i]);
                }
                index = buildIndex("bloom-filter", DataTypes.BIGINT(), bloomOptions(), rows);
                bytes = index.length;
                crc32 = crc(index);
                probes = new Object[W4_PROBES];
                for (int j = 0; j < W4_PROBES; j++) {
                    probes[j] = j % 2 == 0 ? gen(SEED_W4, j) : gen(SEED_W4_ABSENT, j);
                    if (j % 2 == 1 && present.contains((Long) probes[j])) {
                        throw new IllegalStateException("absent probe " + j + " is present");
                    }
                }
                ops = W4_PROBES;
            }

            @Override
            void run() {
                FileIndexReader reader = FileIndexer.create("bloom-filter", DataTypes.BIGINT(), bloomOptions())
                        .createReader(new ByteArraySeekableStream(index), 0, index.length);
                long h = 0;
                for (Object p : probes) {
                    if (reader.visitEqual(ref, p).remain()) {
                        h++;
                    }
                }
                hits = h;
            }

            @Override
            void after() {
                check = hits;
            }
        });

        // W5 deletion vectors
        final int[][][] w5 = new int[1][][];
        java.util.function.Supplier<int[][]> w5Positions = () -> {
            if (w5[0] == null) {
                int[][] pos = new int[W5_FILES][W5_POS_PER_FILE];
                for (int f = 0; f < W5_FILES; f++) {
                    for (int p = 0; p < W5_POS_PER_FILE; p++) {
                        pos[f][p] = (int) below(SEED_W5, (long) f * W5_POS_PER_FILE + p, W5_POS_RANGE);
                    }
                }
                w5[0] = pos;
            }
            return w5[0];
        };
        ws.add(new Work("W5.build", "build the 1000 BitmapDeletionVectors from the positions only (extra)") {
            int[][] pos;
            LinkedHashMap<String, DeletionVector> m;

            @Override
            void setup() {
                pos = w5Positions.get();
                ops = W5_FILES;
            }

            @Override
            void run() {
                LinkedHashMap<String, DeletionVector> mm = new LinkedHashMap<>();
                for (int f = 0; f < W5_FILES; f++) {
                    BitmapDeletionVector dv = new BitmapDeletionVector();
                    for (int p : pos[f]) {
                        dv.delete(p);
                    }
                    mm.put(w5FileName(f), dv);
                }
                m = mm;
            }

            @Override
            void after() {
                long total = 0;
                for (DeletionVector dv : m.values()) {
                    total += dv.getCardinality();
                }
                check = total;
                m = null;
            }
        });
        ws.add(new Work("W5.write", "build 1000 DVs from 10k positions each + DeletionVectorsIndexFile.write (one file)") {
            int[][] pos;
            File dir;
            DeletionVectorsIndexFile dvif;
            List<IndexFileMeta> metas;

            @Override
            void setup() {
                pos = w5Positions.get();
                dir = new File(tmpDir, "w5-write");
                dvif = new DeletionVectorsIndexFile(IO, pathFactory(dir, "index-w5"), MemorySize.parse("1 gb"), false);
            }

            @Override
            void run() {
                LinkedHashMap<String, DeletionVector> m = new LinkedHashMap<>();
                for (int f = 0; f < W5_FILES; f++) {
                    BitmapDeletionVector dv = new BitmapDeletionVector();
                    for (int p : pos[f]) {
                        dv.delete(p);
                    }
                    m.put(w5FileName(f), dv);
                }
                metas = java.util.Collections.singletonList(dvif.writeSingleFile(m));
            }

            @Override
            void after() throws Exception {
                if (metas.size() != 1) {
                    throw new IllegalStateException("expected one DV index file, got " + metas.size());
                }
                IndexFileMeta meta = metas.get(0);
                File file = new File(dir, meta.fileName());
                bytes = meta.fileSize();
                crc32 = crcFile(file);
                long total = 0;
                for (DeletionVector dv : dvif.readAllDeletionVectors(meta).values()) {
                    total += dv.getCardinality();
                }
                check = total;
                dvif.delete(meta);
            }
        });
        ws.add(new Work("W5.read", "DeletionVectorsIndexFile.readAllDeletionVectors of the W5 file (1000 DVs)") {
            File dir;
            DeletionVectorsIndexFile dvif;
            IndexFileMeta meta;
            LinkedHashMap<String, DeletionVector> m;
            Map<String, DeletionVector> back;

            @Override
            void setup() throws Exception {
                int[][] pos = w5Positions.get();
                dir = new File(tmpDir, "w5-read");
                dvif = new DeletionVectorsIndexFile(IO, pathFactory(dir, "index-w5"), MemorySize.parse("1 gb"), false);
                m = new LinkedHashMap<>();
                for (int f = 0; f < W5_FILES; f++) {
                    BitmapDeletionVector dv = new BitmapDeletionVector();
                    for (int p : pos[f]) {
                        dv.delete(p);
                    }
                    m.put(w5FileName(f), dv);
                }
                List<IndexFileMeta> metas = java.util.Collections.singletonList(dvif.writeSingleFile(m));
                meta = metas.get(0);
                bytes = meta.fileSize();
                crc32 = crcFile(new File(dir, meta.fileName()));
                ops = W5_FILES;
            }

            @Override
            void run() {
                back = dvif.readAllDeletionVectors(meta);
            }

            @Override
            void after() {
                if (back.size() != W5_FILES) {
                    throw new IllegalStateException("read back " + back.size() + " DVs");
                }
                for (Map.Entry<String, DeletionVector> e : m.entrySet()) {
                    if (!e.getValue().equals(back.get(e.getKey()))) {
                        throw new IllegalStateException("DV read-back differs for " + e.getKey());
                    }
                }
                long total = 0;
                for (DeletionVector dv : back.values()) {
                    total += dv.getCardinality();
                }
                check = total;
                back = null;
            }

            @Override
            void teardown() {
                w5[0] = null;
            }
        });

        // W6 hash index
        final int[][] w6 = new int[1][];
        java.util.function.Supplier<int[]> w6Ints = () -> {
            if (w6[0] == null) {
                int[] a = new int[W6_INTS];
                for (int i = 0; i < W6_INTS; i++) {
                    a[i] = (int) gen(SEED_W6, i);
                }
                w6[0] = a;
            }
            return w6[0];
        };
        ws.add(new Work("W6.write", "HashIndexFile.write of 10M ints") {
            int[] ints;
            File dir;
            HashIndexFile hif;
            IndexFileMeta name;

            @Override
            void setup() {
                ints = w6Ints.get();
                dir = new File(tmpDir, "w6-write");
                hif = new HashIndexFile(IO, pathFactory(dir, "index-w6"));
            }

            @Override
            void run() throws Exception {
                name = hif.write(IntIterator.create(ints));
            }

            @Override
            void after() throws Exception {
                bytes = hif.fileSize(name);
                crc32 = crcFile(new File(dir, name.fileName()));
                hif.delete(name);
            }
        });
        ws.add(new Work("W6.read", "HashIndexFile.read of the W6 file, all 10M ints into an int[]") {
            int[] ints;
            File dir;
            HashIndexFile hif;
            IndexFileMeta name;
            int[] back;

            @Override
            void setup() throws Exception {
                ints = w6Ints.get();
                dir = new File(tmpDir, "w6-read");
                hif = new HashIndexFile(IO, pathFactory(dir, "index-w6"));
                name = hif.write(IntIterator.create(ints));
                bytes = hif.fileSize(name);
                crc32 = crcFile(new File(dir, name.fileName()));
                ops = W6_INTS;
            }

            @Override
            void run() throws Exception {
                // the way Paimon consumes a hash index (PartitionIndex.loadIndex): next() until EOFException
                int[] out = new int[W6_INTS];
                int n = 0;
                try (IntIterator it = hif.read(name)) {
                    while (true) {
                        int v;
                        try {
                            v = it.next();
                        } catch (EOFException e) {
                            break;
                        }
                        out[n++] = v;
                    }
                }
                back = out;
            }

            @Override
            void after() {
                if (!Arrays.equals(back, ints)) {
                    throw new IllegalStateException("hash index read-back differs");
                }
                long x = 0;
                for (int v : back) {
                    x += v;
                }
                check = x;
                back = null;
            }

            @Override
            void teardown() {
                w6[0] = null;
            }
        });

        // W7 file-index container
        final Object[] w7 = new Object[2]; // [0] = LinkedHashMap of blobs, [1] = RowType
        java.util.function.Supplier<LinkedHashMap<String, Map<String, byte[]>>> w7Blobs = () -> {
            if (w7[0] == null) {
                LinkedHashMap<String, Map<String, byte[]>> m = new LinkedHashMap<>();
                List<DataField> fields = new ArrayList<>();
                for (int k = 0; k < W7_COLUMNS; k++) {
                    Object[] rows = new Object[W7_ROWS];
                    for (int r = 0; r < W7_ROWS; r++) {
                        rows[r] = (int) below(SEED_W7, (long) k * W7_ROWS + r, W7_DISTINCT);
                    }
                    Map<String, byte[]> one = new LinkedHashMap<>();
                    one.put("bitmap", buildIndex("bitmap", DataTypes.INT(), bitmapOptions(), rows));
                    m.put(w7Column(k), one);
                    fields.add(new DataField(k, w7Column(k), DataTypes.INT()));
                }
                w7[0] = m;
                w7[1] = new RowType(fields);
            }
            @SuppressWarnings("unchecked")
            LinkedHashMap<String, Map<String, byte[]>> m = (LinkedHashMap<String, Map<String, byte[]>>) w7[0];
            return m;
        };
        ws.add(new Work("W7.write", "FileIndexFormat container of 20 prebuilt small bitmap indexes, written 1000x") {
            LinkedHashMap<String, Map<String, byte[]>> blobs;
            byte[] last;

            @Override
            void setup() {
                blobs = w7Blobs.get();
                ops = W7_WRITES;
            }

            @Override
            void run() throws Exception {
                byte[] b = null;
                for (int n = 0; n < W7_WRITES; n++) {
                    ByteArrayOutputStream baos = new ByteArrayOutputStream();
                    FileIndexFormat.Writer w = FileIndexFormat.createWriter(baos);
                    w.writeColumnIndexes(blobs);
                    w.close();
                    b = baos.toByteArray();
                }
                last = b;
            }

            @Override
            void after() {
                bytes = last.length;
                crc32 = crc(last);
            }
        });
        ws.add(new Work("W7.lookup", "open FileIndexPredicate on the W7 container, 1000 Equal tests on column c07") {
            byte[] file;
            RowType rowType;
            Predicate[] preds;
            long hits;

            @Override
            void setup() throws Exception {
                LinkedHashMap<String, Map<String, byte[]>> blobs = w7Blobs.get();
                rowType = (RowType) w7[1];
                ByteArrayOutputStream baos = new ByteArrayOutputStream();
                FileIndexFormat.Writer w = FileIndexFormat.createWriter(baos);
                w.writeColumnIndexes(blobs);
                w.close();
                file = baos.toByteArray();
                bytes = file.length;
                crc32 = crc(file);
                PredicateBuilder pb = new PredicateBuilder(rowType);
                preds = new Predicate[W7_LOOKUPS];
                for (int j = 0; j < W7_LOOKUPS; j++) {
                    preds[j] = pb.equal(W7_LOOKUP_COLUMN, (int) below(SEED_W7_LOOKUP, j, W7_LITERAL_RANGE));
                }
                ops = W7_LOOKUPS;
            }

            @Override
            void run() throws Exception {
                long h = 0;
                try (FileIndexPredicate fip = new FileIndexPredicate(file, rowType)) {
                    for (Predicate p : preds) {
                        if (fip.evaluate(p).remain()) {
                            h++;
                        }
                    }
                }
                hits = h;
            }

            @Override
            void after() {
                check = hits;
            }
        });
        return ws;
    }
}
