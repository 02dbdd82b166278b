package paimoncodec.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The harness pieces every workload shares: the splitmix64 generator of the anchor's workloads.md §1,
 * the round protocol of §0 (warm-up rounds, then timed rounds, {@code System.gc()} before each, median /
 * min / max in ms) and the one-JSON-object-per-line output of §3.
 */
public final class Rounds {

    public static final long GAMMA = 0x9E3779B97F4A7C15L;

    private Rounds() {}

    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The i-th output (i = 0, 1, ...) of splitmix64 started with state = seed. */
    public static long gen(long seed, long i) {
        return mix64(seed + (i + 1) * GAMMA);
    }

    /** gen(seed, i) read as unsigned, modulo n. */
    public static long below(long seed, long i, long n) {
        return Long.remainderUnsigned(gen(seed, i), n);
    }

    /** A timed region; it returns nothing, the workload keeps what it needs to check. */
    @FunctionalInterface
    public interface Region {
        void run() throws Exception;
    }

    /** Runs {@code warmup} + {@code rounds} rounds of {@code region}; the timed rounds' nanoseconds. */
    public static long[] time(Region region, int warmup, int rounds) throws Exception {
        long[] ns = new long[rounds];
        for (int r = 0; r < warmup + rounds; r++) {
            System.gc();
            long t0 = System.nanoTime();
            region.run();
            long t1 = System.nanoTime();
            if (r >= warmup) {
                ns[r - warmup] = t1 - t0;
            }
        }
        return ns;
    }

    public static double median(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }

    public static String fmt(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** A JSON result line in the anchor's shape (workloads.md §3); {@code extra} is appended in order. */
    public static String resultLine(String workload, String impl, long[] ns, int warmup, long ops, long bytes,
                                    Map<String, Object> extra, String what) {
        long[] s = ns.clone();
        Arrays.sort(s);
        double med = median(ns);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", workload);
        out.put("impl", impl);
        out.put("median_ms", new Raw(fmt(med / 1e6, 3)));
        out.put("min_ms", new Raw(fmt(s[0] / 1e6, 3)));
        out.put("max_ms", new Raw(fmt(s[s.length - 1] / 1e6, 3)));
        out.put("bytes", bytes);
        out.put("ops", ops);
        if (ops > 1) {
            out.put("median_us_per_op", new Raw(fmt(med / 1e3 / ops, 4)));
        }
        out.putAll(extra);
        out.put("warmup", warmup);
        out.put("rounds", ns.length);
        List<Object> ms = new ArrayList<>();
        for (long v : ns) {
            ms.add(new Raw(fmt(v / 1e6, 3)));
        }
        out.put("rounds_ms", ms);
        out.put("what", what);
        return json(out);
    }

    /** A number already formatted for JSON. */
    public static final class Raw {
        final String text;

        public Raw(String text) {
            this.text = text;
        }
    }

    public static String json(Object o) {
        StringBuilder sb = new StringBuilder();
        write(sb, o);
        return sb.toString();
    }

    private static void write(StringBuilder sb, Object o) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof Raw) {
            sb.append(((Raw) o).text);
        } else if (o instanceof Number || o instanceof Boolean) {
            sb.append(o);
        } else if (o instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                write(sb, String.valueOf(e.getKey()));
                sb.append(':');
                write(sb, e.getValue());
            }
            sb.append('}');
        } else if (o instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object v : (List<?>) o) {
                sb.append(first ? "" : ",");
                first = false;
                write(sb, v);
            }
            sb.append(']');
        } else {
            String s = o.toString();
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20) {
                    sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            sb.append('"');
        }
    }
}
