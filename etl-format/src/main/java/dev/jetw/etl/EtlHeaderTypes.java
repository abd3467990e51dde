package dev.jetw.etl;

/** Names of the record header types (marker byte 2), for output. */
public final class EtlHeaderTypes {

    private EtlHeaderTypes() {
    }

    public static String name(int headerType) {
        switch (headerType) {
            case EtlFormat.HT_SYSTEM32: return "SYSTEM32";
            case EtlFormat.HT_SYSTEM64: return "SYSTEM64";
            case EtlFormat.HT_COMPACT32: return "COMPACT32";
            case EtlFormat.HT_COMPACT64: return "COMPACT64";
            case EtlFormat.HT_FULL_HEADER32: return "FULL32";
            case EtlFormat.HT_FULL_HEADER64: return "FULL64";
            case EtlFormat.HT_INSTANCE32: return "INSTANCE32";
            case EtlFormat.HT_INSTANCE64: return "INSTANCE64";
            case EtlFormat.HT_PERFINFO32: return "PERFINFO32";
            case EtlFormat.HT_PERFINFO64: return "PERFINFO64";
            case EtlFormat.HT_EVENT_HEADER32: return "EVENT_HEADER32";
            case EtlFormat.HT_EVENT_HEADER64: return "EVENT_HEADER64";
            default: return "0x" + Integer.toHexString(headerType);
        }
    }
}
