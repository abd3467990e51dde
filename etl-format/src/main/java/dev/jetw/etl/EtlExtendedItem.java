package dev.jetw.etl;

import java.nio.charset.StandardCharsets;

/** One extended-data item of an EVENT_HEADER record (EVENT_HEADER_EXTENDED_DATA_ITEM as stored in the file). */
public final class EtlExtendedItem {

    public static final int RELATED_ACTIVITYID = 0x1;
    public static final int SID = 0x2;
    public static final int TS_ID = 0x3;
    public static final int INSTANCE_INFO = 0x4;
    public static final int STACK_TRACE32 = 0x5;
    public static final int STACK_TRACE64 = 0x6;
    public static final int EVENT_SCHEMA_TL = 0xB;
    public static final int PROV_TRAITS = 0xC;

    private final int extType;
    private final byte[] data;

    public EtlExtendedItem(int extType, byte[] data) {
        this.extType = extType;
        this.data = data;
    }

    /** EVENT_HEADER_EXT_TYPE_*. */
    public int extType() {
        return extType;
    }

    public byte[] data() {
        return data.clone();
    }

    public int dataSize() {
        return data.length;
    }

    /** PROV_TRAITS: u16 total size, then the provider name as NUL-terminated UTF-8; null for other items. */
    public String providerName() {
        if (extType != PROV_TRAITS || data.length < 3) {
            return null;
        }
        return utf8z(data, 2);
    }

    /**
     * EVENT_SCHEMA_TL: u16 size, tag bytes (each with continuation bit 0x80 while more follow), then the
     * NUL-terminated UTF-8 event name; null for other items.
     */
    public String traceLoggingEventName() {
        if (extType != EVENT_SCHEMA_TL || data.length < 3) {
            return null;
        }
        int p = 2;
        while (p < data.length && (data[p] & 0x80) != 0) {
            p++;
        }
        p++; // the last tag byte
        return p < data.length ? utf8z(data, p) : null;
    }

    private static String utf8z(byte[] b, int from) {
        int end = from;
        while (end < b.length && b[end] != 0) {
            end++;
        }
        return new String(b, from, end - from, StandardCharsets.UTF_8);
    }
}
