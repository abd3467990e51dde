package dev.jetw.analysis.manifest;

import dev.jetw.analysis.kernel.FieldValues;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A manifest provider's event seen by its manifest: provider and event names, the event's symbol, and the
 * template's fields in payload order by their manifest names (integers as {@link Long}, floating point
 * as {@link Double}, strings, GUIDs as text, arrays as {@link List}, structs as {@link Map}s).
 * {@link #note()} says what could not be decoded.
 */
public final class ManifestEvent {

    private final String provider;
    private final String name;
    private final String symbol;
    private final Map<String, Object> fields;
    private final java.util.Set<String> hex;
    private final String note;

    ManifestEvent(String provider, String name, String symbol, Map<String, Object> fields, java.util.Set<String> hex,
                  String note) {
        this.provider = provider;
        this.name = name;
        this.symbol = symbol;
        this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        this.hex = hex;
        this.note = note;
    }

    /** "Microsoft-Windows-DotNETRuntime". */
    public String provider() {
        return provider;
    }

    /** "GarbageCollection/Start": task and opcode, as the manifest names them. */
    public String name() {
        return name;
    }

    /** The event's symbol ("GCStart_V2"), or null. */
    public String symbol() {
        return symbol;
    }

    public Map<String, Object> fields() {
        return fields;
    }

    /** True for a field the manifest shows in hex (pointers, HexInt32/64). */
    public boolean isHex(String field) {
        return hex.contains(field);
    }

    /** Why some fields are not decoded, or null. */
    public String note() {
        return note;
    }

    /** A numeric field, or -1 when absent. */
    public long number(String field) {
        return FieldValues.number(fields, field);
    }

    /** A string field, or null. */
    public String text(String field) {
        return FieldValues.text(fields, field);
    }

    /** "Count=1 Depth=0 Reason=0 ..." as dump shows it. */
    public String fieldsText() {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, Object> e : fields.entrySet()) {
            s.append(s.length() == 0 ? "" : " ").append(e.getKey()).append('=');
            append(s, e.getValue(), hex.contains(e.getKey()));
        }
        return s.toString();
    }

    private static void append(StringBuilder s, Object v, boolean asHex) {
        if (v instanceof String) {
            s.append('"').append(v).append('"');
        } else if (v instanceof Long && asHex) {
            s.append("0x").append(Long.toHexString((Long) v));
        } else if (v instanceof List) {
            s.append('[');
            boolean first = true;
            for (Object o : (List<?>) v) {
                s.append(first ? "" : ",");
                append(s, o, asHex);
                first = false;
            }
            s.append(']');
        } else if (v instanceof Map) {
            s.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                s.append(first ? "" : " ").append(e.getKey()).append('=');
                append(s, e.getValue(), false);
                first = false;
            }
            s.append('}');
        } else {
            s.append(v);
        }
    }
}
