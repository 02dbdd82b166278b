package paimoncodec.crosscheck;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStream;
import io.kaitai.struct.KaitaiStruct;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Parses files with the generated Java parsers (package {@code paimoncodec.formats}) and prints each one's
 * field tree as one line of JSON, for the cross-check in tests/test_other_languages.py.
 *
 * <p>Input (stdin), one job a line, tab-separated: {@code ClassName<TAB>path[<TAB>param...]} (the root
 * type's parameters: a string, e.g. a bitmap index's key kind, or {@code i:<integer>}, e.g. a row's arity).
 * Output (stdout), one line a job:
 * {@code {"ok": tree}} or {@code {"error": "..."}}.
 *
 * <p>Tree: a parsed object is {@code {"_type": SimpleClassName, field: value, ...}} with every public
 * accessor (sequence fields and instances, by their lowerCamel names); byte arrays are
 * {@code {"_bytes": hex}}; enums their id; NaN / infinities {@code {"_float": "nan" | "inf" | "-inf"}}.
 * An instance that throws becomes {@code {"_error": message}} (a field the Python side reads then differs).
 */
public final class DumpTree {
    private static final String PACKAGE = "paimoncodec.formats.";

    private DumpTree() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) {
                continue;
            }
            String[] job = line.split("\t", -1);
            StringBuilder sb = new StringBuilder();
            try {
                Object root = parse(job[0], Files.readAllBytes(Paths.get(job[1])),
                        Arrays.copyOfRange(job, 2, job.length));
                sb.append("{\"ok\":");
                write(sb, root);
                sb.append('}');
            } catch (Throwable e) {  // one job's failure is that job's answer, not the batch's end
                sb.setLength(0);
                sb.append("{\"error\":");
                string(sb, describe(e));
                sb.append('}');
            }
            out.println(sb);
            out.flush();
        }
    }

    static Object parse(String className, byte[] data, String[] params) throws Exception {
        Class<?> cls = Class.forName(PACKAGE + className);
        KaitaiStream io = new ByteBufferKaitaiStream(data);
        for (Constructor<?> c : cls.getConstructors()) {
            Class<?>[] types = c.getParameterTypes();
            if (types.length == 1 + params.length && types[0] == KaitaiStream.class) {
                Object[] values = new Object[types.length];
                values[0] = io;
                for (int i = 0; i < params.length; i++) {
                    values[i + 1] = param(params[i], types[i + 1]);
                }
                try {
                    return c.newInstance(values);
                } catch (InvocationTargetException e) {
                    throw (Exception) e.getCause();
                }
            }
        }
        throw new IllegalArgumentException(className + " has no constructor (KaitaiStream, " + params.length
                + " parameters)");
    }

    static Object param(String text, Class<?> type) {
        if (!text.startsWith("i:")) {
            return text;
        }
        long n = Long.parseLong(text.substring(2));
        if (type == int.class || type == Integer.class) {
            return Math.toIntExact(n);
        }
        return n;
    }

    static String describe(Throwable e) {
        Throwable t = e instanceof InvocationTargetException && e.getCause() != null ? e.getCause() : e;
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    static void write(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof KaitaiStruct) {
            struct(sb, (KaitaiStruct) v);
        } else if (v instanceof byte[]) {
            sb.append("{\"_bytes\":\"");
            for (byte b : (byte[]) v) {
                sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
            }
            sb.append("\"}");
        } else if (v instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object e : (List<?>) v) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                write(sb, e);
            }
            sb.append(']');
        } else if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                sb.append("{\"_float\":\"nan\"}");
            } else if (Double.isInfinite(d)) {
                sb.append(d > 0 ? "{\"_float\":\"inf\"}" : "{\"_float\":\"-inf\"}");
            } else {
                sb.append(d);
            }
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof String) {
            string(sb, (String) v);
        } else if (v instanceof Enum) {
            try {
                sb.append(v.getClass().getMethod("id").invoke(v));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("enum without id(): " + v.getClass(), e);
            }
        } else {
            throw new IllegalStateException("cannot dump a " + v.getClass().getName());
        }
    }

    static void struct(StringBuilder sb, KaitaiStruct obj) {
        sb.append("{\"_type\":");
        string(sb, obj.getClass().getSimpleName());
        Method[] methods = obj.getClass().getDeclaredMethods();
        Arrays.sort(methods, Comparator.comparing(Method::getName));
        for (Method m : methods) {
            int mod = m.getModifiers();
            if (!Modifier.isPublic(mod) || Modifier.isStatic(mod) || m.getParameterCount() != 0
                    || m.getName().startsWith("_") || m.getReturnType() == void.class) {
                continue;
            }
            sb.append(',');
            string(sb, m.getName());
            sb.append(':');
            Object value;
            try {
                value = m.invoke(obj);
            } catch (ReflectiveOperationException | RuntimeException e) {
                sb.append("{\"_error\":");
                string(sb, describe(e));
                sb.append('}');
                continue;
            }
            write(sb, value);
        }
        sb.append('}');
    }

    static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }
}
