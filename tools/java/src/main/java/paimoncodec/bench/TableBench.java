package paimoncodec.bench;

import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.io.File;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a primary-key table in bulk with Paimon Java, and times Paimon Java's own batch read of a table.
 *
 * <pre>
 * TableBench write --warehouse DIR --table db.name --rows N --buckets B --commits R
 *                  [--updates F] [--deletes F] [--merge-engine E] [--option k=v ...] [--write-only false]
 *                  [--compact-first true]
 * TableBench read  --warehouse DIR --table db.name [--warmup 3] [--rounds 7]
 * TableBench compact --warehouse DIR --table db.name
 * </pre>
 *
 * <p>{@code --buckets -1} makes a dynamic-bucket table: each commit assigns buckets with Paimon's
 * {@code HashBucketAssigner} (one assigner, loaded from the latest snapshot's hash index). {@code --stop-after C}
 * writes commits [0, C) only; {@code --resume-at C} writes commits [C, R) into the existing table (the
 * upsert benchmark copies the table in between). The write report lists each commit's wall time
 * ({@code commit_ms}). {@code compact} runs one full compaction of every (partition, bucket) holding files and
 * commits it, timed once.
 *
 * <p>The table is {@code k BIGINT NOT NULL (primary key), v BIGINT, s STRING}, bucket = B. Its rows come
 * from the splitmix64 generator of the anchor's workloads.md §1, so Python regenerates them
 * ({@code benchmarks/_java_newest.py}). Row i (i in [0, N)) belongs to commit c = the c with
 * {@code start(c) <= i < start(c + 1)}, {@code start(c) = floor(c * N / R)}:
 * <ul>
 *   <li>kind: in commit 0 an insert; later, {@code u = below(802, i, 1e6)}: u &lt; updates·1e6 an update,
 *       u &lt; (updates + deletes)·1e6 a delete ({@code RowKind.DELETE}), else an insert;</li>
 *   <li>{@code target(i) = i} for an insert, {@code below(803, i, start(c))} (a row of an earlier commit)
 *       for an update or a delete;</li>
 *   <li>{@code k = int64(gen(801, target(i)))}, {@code v = int64(gen(804, i))}, {@code s = "r" + i};</li>
 *   <li>with {@code --merge-engine partial-update} an update sets one field only: {@code below(805, i, 2)} = 0
 *       writes v as null, 1 writes s as null (the merge keeps the field of an earlier row).</li>
 * </ul>
 * Rows are written in order i = 0, 1, ... (so Paimon's sequence numbers follow i); each commit is one
 * batch commit, written with the dynamic option {@code write-only = true} (unless {@code --write-only false})
 * so no compaction runs and every commit leaves (at least) one more sorted run in each bucket. The table's
 * stored options are only {@code bucket}, {@code merge-engine} (when not deduplicate) and the
 * {@code --option}s. With {@code --compact-first true} a full compaction of every bucket is committed after
 * commit 0, so each bucket holds one compacted run plus one level-0 run per later commit (the shape of a table
 * that was compacted once and then took updates).
 *
 * <p>The read round plans the latest snapshot ({@code ReadBuilder.newScan().plan()}), reads every split
 * with one {@code RecordReader} and folds each row into a count and a checksum:
 * {@code sum(mix64(k ^ mix64(v)) + utf8Length(s))} mod 2^64 (nulls count as 0 / length 0).
 */
public final class TableBench {

    static final String IMPL = "paimon-java-1.4.2";
    static final long SEED_KEY = 801;
    static final long SEED_KIND = 802;
    static final long SEED_TARGET = 803;
    static final long SEED_VALUE = 804;
    static final long SEED_NULL = 805;
    static final long PPM = 1_000_000;

    private TableBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: TableBench write|read --warehouse DIR --table db.name ...");
        }
        Map<String, String> flags = new LinkedHashMap<>();
        Map<String, String> tableOptions = new LinkedHashMap<>();
        for (int a = 1; a < args.length; a++) {
            String name = args[a];
            if (!name.startsWith("--") || a + 1 >= args.length) {
                throw new IllegalArgumentException("expected --flag value, got " + name);
            }
            String value = args[++a];
            if (name.equals("--option")) {
                int eq = value.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--option wants key=value, got " + value);
                }
                tableOptions.put(value.substring(0, eq), value.substring(eq + 1));
            } else {
                flags.put(name.substring(2), value);
            }
        }
        Catalog catalog = catalog(required(flags, "warehouse"));
        Identifier id = Identifier.fromString(required(flags, "table"));
        switch (args[0]) {
            case "write":
                write(catalog, id, flags, tableOptions);
                break;
            case "compact":
                compact(catalog, id);
                break;
            case "read":
                read(catalog, id, Integer.parseInt(flags.getOrDefault("warmup", "3")),
                        Integer.parseInt(flags.getOrDefault("rounds", "7")));
                break;
            default:
                throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    static String required(Map<String, String> flags, String name) {
        String v = flags.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }

    static Catalog catalog(String warehouse) {
        Options o = new Options();
        o.set("warehouse", warehouse);
        return CatalogFactory.createCatalog(CatalogContext.create(o));
    }

    static long start(long c, long rows, long commits) {
        return Math.floorDiv(c * rows, commits); // rows * commits stays far below 2^63
    }

    static void write(Catalog catalog, Identifier id, Map<String, String> flags, Map<String, String> tableOptions)
            throws Exception {
        long rows = Long.parseLong(required(flags, "rows"));
        int buckets = Integer.parseInt(required(flags, "buckets"));
        int commits = Integer.parseInt(required(flags, "commits"));
        long updatesPpm = Math.round(Double.parseDouble(flags.getOrDefault("updates", "0")) * PPM);
        long deletesPpm = Math.round(Double.parseDouble(flags.getOrDefault("deletes", "0")) * PPM);
        String engine = flags.getOrDefault("merge-engine", "deduplicate");
        boolean partial = engine.equals("partial-update");
        if (rows < 1 || (buckets < 1 && buckets != -1) || commits < 1 || commits > rows || updatesPpm < 0 || deletesPpm < 0
                || updatesPpm + deletesPpm > PPM) {
            throw new IllegalArgumentException("need rows >= commits >= 1, buckets >= 1, 0 <= updates + deletes <= 1");
        }
        int resumeAt = Integer.parseInt(flags.getOrDefault("resume-at", "0"));
        int stopAfter = Integer.parseInt(flags.getOrDefault("stop-after", String.valueOf(commits)));
        if (resumeAt == 0) {
            catalog.createDatabase(id.getDatabaseName(), true);
            catalog.dropTable(id, true);
        Schema.Builder schema = Schema.newBuilder()
                .column("k", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .primaryKey("k")
                .option("bucket", String.valueOf(buckets))
;
        if (!engine.equals("deduplicate")) { // the default: a table without the option, as most are
            schema.option("merge-engine", engine);
        }
        tableOptions.forEach(schema::option);
        catalog.createTable(id, schema.build(), false);
        }
        Map<String, String> dynamic = new HashMap<>();
        // write-only (the default): no compaction, each commit adds sorted runs; false: Paimon compacts as it
        // would (first-row tables need that: a batch read skips their level-0 files)
        dynamic.put("write-only", flags.getOrDefault("write-only", "true"));
        dynamic.put("write-buffer-size", flags.getOrDefault("write-buffer", "512 mb"));
        Table table = catalog.getTable(id).copy(dynamic);

        // spill / lookup files (a compacting first-row write looks keys up) go to a directory removed at the end
        File spill = Files.createTempDirectory("paimon-codec-bench-io-").toFile();
        long t0 = System.nanoTime();
        long[] kinds = new long[3];
        List<Object> commitMs = new java.util.ArrayList<>();
        for (int c = resumeAt; c < stopAfter; c++) {
            long tc = System.nanoTime();
            FileStoreTable fst = (FileStoreTable) table;
            HashBucketAssigner assigner = buckets != -1 ? null : new HashBucketAssigner(
                    fst.snapshotManager(), "paimon-codec-bench", fst.store().newIndexFileHandler(), 1, 1, 0,
                    fst.coreOptions().dynamicBucketTargetRowNum(), fst.coreOptions().dynamicBucketMaxBuckets());
            DynamicBucketRowKeyExtractor extractor = buckets != -1 ? null
                    : new DynamicBucketRowKeyExtractor(fst.schema());
            long from = start(c, rows, commits);
            long to = start(c + 1, rows, commits);
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (IOManager io = IOManager.create(spill.getAbsolutePath());
                    BatchTableWrite w = builder.newWrite().withIOManager(io);
                    BatchTableCommit commit = builder.newCommit()) {
                for (long i = from; i < to; i++) {
                    int kind = 0;
                    long target = i;
                    if (c > 0) {
                        long u = Rounds.below(SEED_KIND, i, PPM);
                        if (u < updatesPpm + deletesPpm) {
                            kind = u < updatesPpm ? 1 : 2;
                            target = Rounds.below(SEED_TARGET, i, from);
                        }
                    }
                    kinds[kind]++;
                    // partial-update: an update sets one field, the other is null (kept from earlier rows)
                    long nulled = kind == 1 && partial ? Rounds.below(SEED_NULL, i, 2) : -1;
                    GenericRow row = GenericRow.ofKind(kind == 2 ? RowKind.DELETE : RowKind.INSERT,
                            Rounds.gen(SEED_KEY, target), nulled == 0 ? null : (Object) Rounds.gen(SEED_VALUE, i),
                            nulled == 1 ? null : BinaryString.fromString("r" + i));
                    if (assigner == null) {
                        w.write(row);
                    } else {
                        extractor.setRecord(row);
                        w.write(row, assigner.assign(extractor.partition(), extractor.trimmedPrimaryKey().hashCode()));
                    }
                }
                commit.commit(w.prepareCommit());
            }
            commitMs.add(new Rounds.Raw(Rounds.fmt((System.nanoTime() - tc) / 1e6, 3)));
            if (c == 0 && Boolean.parseBoolean(flags.getOrDefault("compact-first", "false"))) {
                Map<String, String> compacting = new HashMap<>(dynamic);
                compacting.put("write-only", "false");
                BatchWriteBuilder cb = catalog.getTable(id).copy(compacting).newBatchWriteBuilder();
                try (IOManager io = IOManager.create(spill.getAbsolutePath());
                        BatchTableWrite w = cb.newWrite().withIOManager(io);
                        BatchTableCommit commit = cb.newCommit()) {
                    for (int b = 0; b < buckets; b++) {
                        w.compact(BinaryRow.EMPTY_ROW, b, true);
                    }
                    commit.commit(w.prepareCommit());
                }
            }
        }
        long ns = System.nanoTime() - t0;
        deleteRecursively(spill);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", "write");
        out.put("impl", IMPL);
        out.put("ms", new Rounds.Raw(Rounds.fmt(ns / 1e6, 3)));
        out.put("rows", rows);
        out.put("inserts", kinds[0]);
        out.put("updates", kinds[1]);
        out.put("deletes", kinds[2]);
        out.put("buckets", buckets);
        out.put("commits", commits);
        out.put("commit_ms", commitMs);
        out.put("merge_engine", engine);
        out.put("write_only", dynamic.get("write-only"));
        out.put("table", id.getFullName());
        Snapshot snap = catalog.getTable(id).latestSnapshot().orElseThrow(IllegalStateException::new);
        out.put("snapshot", snap.id());
        System.out.println(Rounds.json(out));
    }

    static void compact(Catalog catalog, Identifier id) throws Exception {
        Map<String, String> compacting = new HashMap<>();
        compacting.put("write-only", "false");
        Table table = catalog.getTable(id).copy(compacting);
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<Object[]> targets = new java.util.ArrayList<>();
        for (Split split : table.newReadBuilder().newScan().plan().splits()) {
            org.apache.paimon.table.source.DataSplit ds = (org.apache.paimon.table.source.DataSplit) split;
            if (seen.add(ds.partition().toString() + "/" + ds.bucket())) {
                targets.add(new Object[] {ds.partition(), ds.bucket()});
            }
        }
        File spill = Files.createTempDirectory("paimon-codec-bench-io-").toFile();
        long t0 = System.nanoTime();
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (IOManager io = IOManager.create(spill.getAbsolutePath());
                BatchTableWrite w = builder.newWrite().withIOManager(io);
                BatchTableCommit commit = builder.newCommit()) {
            for (Object[] t : targets) {
                w.compact((BinaryRow) t[0], (Integer) t[1], true);
            }
            commit.commit(w.prepareCommit());
        }
        long ns = System.nanoTime() - t0;
        deleteRecursively(spill);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", "compact");
        out.put("impl", IMPL);
        out.put("ms", new Rounds.Raw(Rounds.fmt(ns / 1e6, 3)));
        out.put("buckets", targets.size());
        out.put("table", id.getFullName());
        System.out.println(Rounds.json(out));
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

    /** The count and checksum of one full read (what a round leaves behind). */
    static final class Fold {
        long count;
        long checksum;
        int splits;
    }

    static Fold readOnce(Table table) throws Exception {
        Fold f = new Fold();
        ReadBuilder rb = table.newReadBuilder();
        List<Split> splits = rb.newScan().plan().splits();
        f.splits = splits.size();
        long count = 0;
        long sum = 0;
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(splits)) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    long k = row.isNullAt(0) ? 0 : row.getLong(0);
                    long v = row.isNullAt(1) ? 0 : row.getLong(1);
                    int len = row.isNullAt(2) ? 0 : row.getString(2).getSizeInBytes();
                    sum += Rounds.mix64(k ^ Rounds.mix64(v)) + len;
                    count++;
                }
                batch.releaseBatch();
            }
        }
        f.count = count;
        f.checksum = sum;
        return f;
    }

    static void read(Catalog catalog, Identifier id, int warmup, int rounds) throws Exception {
        Table table = catalog.getTable(id);
        Fold[] last = new Fold[1];
        long[] ns = Rounds.time(() -> last[0] = readOnce(table), warmup, rounds);
        Map<String, Object> extra = new LinkedHashMap<>();
        extra.put("rows", last[0].count);
        extra.put("checksum", String.format(Locale.ROOT, "%016x", last[0].checksum));
        extra.put("splits", last[0].splits);
        extra.put("table", id.getFullName());
        System.out.println(Rounds.resultLine("read", IMPL, ns, warmup, last[0].count, -1, extra,
                "plan the latest snapshot + read every split with one RecordReader (merge by key), count + checksum"));
    }

}
