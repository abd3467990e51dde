package dev.jetw.analysis.cli;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * A minimal streaming JSON writer (RFC 8259): objects, arrays, strings, numbers, booleans, null.
 * Commas and escaping are handled here; the caller only says what comes next.
 */
final class JsonWriter {

    private final StringBuilder out = new StringBuilder();
    /** One entry per open container: true until its first element is written. */
    private final Deque<Boolean> first = new ArrayDeque<>();
    private boolean afterName;

    JsonWriter beginObject() {
        element();
        out.append('{');
        first.push(Boolean.TRUE);
        return this;
    }

    JsonWriter endObject() {
        first.pop();
        out.append('}');
        return this;
    }

    JsonWriter beginArray() {
        element();
        out.append('[');
        first.push(Boolean.TRUE);
        return this;
    }

    JsonWriter endArray() {
        first.pop();
        out.append(']');
        return this;
    }

    JsonWriter name(String name) {
        element();
        string(name);
        out.append(':');
        afterName = true;
        return this;
    }

    JsonWriter value(String s) {
        element();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return this;
    }

    JsonWriter value(long n) {
        element();
        out.append(n);
        return this;
    }

    JsonWriter value(boolean b) {
        element();
        out.append(b);
        return this;
    }

    /** A number with at most {@code decimals} digits after the point (JSON has no NaN/Infinity: those become null). */
    JsonWriter value(double d, int decimals) {
        element();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else {
            out.append(String.format(Locale.ROOT, "%." + decimals + "f", d));
        }
        return this;
    }

    /** An object of the entries of {@code m}: numbers as integers, booleans, anything else as its string. */
    JsonWriter object(java.util.Map<String, ?> m) {
        beginObject();
        for (java.util.Map.Entry<String, ?> e : m.entrySet()) {
            Object v = e.getValue();
            name(e.getKey());
            if (v instanceof Number) {
                value(((Number) v).longValue());
            } else if (v instanceof Boolean) {
                value((Boolean) v);
            } else {
                value(String.valueOf(v));
            }
        }
        return endObject();
    }

    JsonWriter field(String name, String value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, long value) {
        return name(name).value(value);
    }

    JsonWriter field(String name, boolean value) {
        return name(name).value(value);
    }

    private void element() {
        if (afterName) {
            afterName = false;
            return;
        }
        if (!first.isEmpty()) {
            if (first.peek()) {
                first.pop();
                first.push(Boolean.FALSE);
            } else {
                out.append(',');
            }
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    // Controls (C0, and DEL and C1: valid JSON raw, yet a terminal may act on them) and lone surrogates.
                    if (Text.control(c) || (c >= 0xD800 && c <= 0xDFFF && !validSurrogate(s, i))) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /** Lone surrogates (possible in UTF-16 payloads) are escaped so the output stays valid UTF-8. */
    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
