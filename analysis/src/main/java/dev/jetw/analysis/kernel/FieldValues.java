package dev.jetw.analysis.kernel;

import java.util.Map;

/** Typed reads of decoded fields (kernel and manifest events keep theirs by name, values as Long or String). */
public final class FieldValues {

    private FieldValues() {
    }

    /** A numeric field, or -1 when absent or not a number. */
    public static long number(Map<String, Object> fields, String field) {
        Object v = fields.get(field);
        return v instanceof Long ? (Long) v : -1;
    }

    /** A string field, or null when absent or not a string. */
    public static String text(Map<String, Object> fields, String field) {
        Object v = fields.get(field);
        return v instanceof String ? (String) v : null;
    }
}
