// Newest Paimon Java side of benchmarks/merge_read.py (compiled and run by that script).
//
//   write <warehouse> <rows> <buckets> <updateCommits> <updateRows> <seed>
//       a primary-key table db.t (id BIGINT, a BIGINT, b DOUBLE, s STRING), deduplicate engine:
//       <rows> inserts, full compaction, then <updateCommits> commits of <updateRows> upserts/deletes
//       of random keys left in level 0 (write-only), so every bucket holds several sorted runs.
//   read <warehouse> <warmup> <rounds>
//       Paimon's own batch read of the table, timed in the JVM: one JSON line with the rows and the
//       milliseconds of every timed round.
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.RecordReaderIterator;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class MergeReadBench {
    public static void main(String[] args) throws Exception {
        Options options = new Options();
        options.set("warehouse", args[1]);
        Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
        Identifier id = Identifier.create("db", "t");
        if (args[0].equals("write")) {
            write(catalog, id, Long.parseLong(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Long.parseLong(args[5]), Long.parseLong(args[6]));
        } else {
            read(catalog.getTable(id), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
    }

    static GenericRow row(RowKind kind, long key, Random rnd) {
        GenericRow r = GenericRow.ofKind(kind, key, rnd.nextLong() % 1000000L, rnd.nextDouble() * 1000.0,
                BinaryString.fromString("s" + (rnd.nextInt(100000))));
        return r;
    }

    static void commit(BatchWriteBuilder builder, BatchTableWrite write) throws Exception {
        try (BatchTableCommit commit = builder.newCommit()) {
            commit.commit(write.prepareCommit());
        }
        write.close();
    }

    static void write(Catalog catalog, Identifier id, long rows, int buckets, int updateCommits, long updateRows,
                      long seed) throws Exception {
        catalog.createDatabase("db", true);
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.BIGINT().notNull()).column("a", DataTypes.BIGINT())
                .column("b", DataTypes.DOUBLE()).column("s", DataTypes.STRING())
                .primaryKey("id").option("bucket", String.valueOf(buckets))
                .option("write-only", "true").build();
        catalog.createTable(id, schema, false);
        Table table = catalog.getTable(id);
        Random rnd = new Random(seed);
        String tmp = Files.createTempDirectory("merge-bench-io").toString();
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        BatchTableWrite write = builder.newWrite();
        write.withIOManager(IOManager.create(tmp));
        for (long k = 0; k < rows; k++) {
            write.write(row(RowKind.INSERT, k, rnd));
        }
        commit(builder, write);
        BatchWriteBuilder compactBuilder =
                table.copy(java.util.Collections.singletonMap("write-only", "false")).newBatchWriteBuilder();
        write = compactBuilder.newWrite();
        write.withIOManager(IOManager.create(tmp));
        for (int b = 0; b < buckets; b++) {
            write.compact(BinaryRow.EMPTY_ROW, b, true);
        }
        commit(compactBuilder, write);
        for (int c = 0; c < updateCommits; c++) {
            write = builder.newWrite();
            write.withIOManager(IOManager.create(tmp));
            for (long i = 0; i < updateRows; i++) {
                long key = Math.floorMod(rnd.nextLong(), rows + rows / 10);  // some new keys too
                write.write(row(rnd.nextInt(10) == 0 ? RowKind.DELETE : RowKind.UPDATE_AFTER, key, rnd));
            }
            commit(builder, write);
        }
    }

    static long readOnce(Table table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        long count = 0;
        double check = 0;
        try (RecordReader<InternalRow> reader = rb.newRead().createReader(rb.newScan().plan().splits());
             RecordReaderIterator<InternalRow> it = new RecordReaderIterator<>(reader)) {
            while (it.hasNext()) {
                InternalRow r = it.next();
                count++;
                if (!r.isNullAt(2)) {
                    check += r.getDouble(2);
                }
            }
        }
        if (Double.isNaN(check)) {
            System.err.println("unexpected NaN");
        }
        return count;
    }

    static void read(Table table, int warmup, int rounds) throws Exception {
        long count = 0;
        for (int i = 0; i < warmup; i++) {
            count = readOnce(table);
        }
        List<String> times = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            long t0 = System.nanoTime();
            count = readOnce(table);
            times.add(String.format("%.3f", (System.nanoTime() - t0) / 1e6));
        }
        System.out.println("{\"rows\": " + count + ", \"ms\": [" + String.join(", ", times) + "]}");
    }
}
