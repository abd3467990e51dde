package dev.jetw.etl;

/**
 * The .etl file format's constants (see docs/etl-format.md of the shared fact sheets):
 * buffer header, record header types and the logfile-header record. Shared by the writer and the reader.
 */
public final class EtlFormat {

    // WMI_BUFFER_HEADER (0x48 on x86 and x64).
    public static final int BUFFER_HEADER_SIZE = 0x48;
    /** LogFileMode EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: one set of buffers for every CPU (evntrace.h). */
    public static final int NO_PER_PROCESSOR_BUFFERING = 0x10000000;

    public static final int BH_BUFFER_SIZE = 0x00;
    public static final int BH_SAVED_OFFSET = 0x04;
    public static final int BH_CURRENT_OFFSET = 0x08;
    public static final int BH_REFERENCE_COUNT = 0x0C;
    public static final int BH_TIMESTAMP = 0x10;
    public static final int BH_SEQUENCE_NUMBER = 0x18;
    public static final int BH_CLOCK_OR_NEXT = 0x20;
    public static final int BH_PROCESSOR_INDEX = 0x28;
    public static final int BH_LOGGER_ID = 0x2A;
    public static final int BH_STATE = 0x2C;
    public static final int BH_OFFSET = 0x30;
    public static final int BH_BUFFER_FLAG = 0x34;
    public static final int BH_BUFFER_TYPE = 0x36;

    public static final int BUFFER_FLAG_FLUSH_MARKER = 0x0001;
    public static final int BUFFER_FLAG_EVENTS_LOST = 0x0002;
    public static final int BUFFER_FLAG_BUFFER_LOST = 0x0004;
    public static final int BUFFER_FLAG_PROC_INDEX = 0x0020;
    public static final int BUFFER_FLAG_COMPRESSED = 0x0040;
    public static final int BUFFER_TYPE_GENERIC = 0;
    public static final int BUFFER_TYPE_HEADER = 4;
    public static final int BUFFER_STATE_FLUSH = 3;

    // Record header types (byte 2 of the marker); byte 3 is 0xC0 for all of them.
    public static final int MARKER_FLAGS = 0xC0;
    public static final int HT_SYSTEM32 = 0x01;
    public static final int HT_SYSTEM64 = 0x02;
    public static final int HT_COMPACT32 = 0x03;
    public static final int HT_COMPACT64 = 0x04;
    public static final int HT_FULL_HEADER32 = 0x0A;
    public static final int HT_INSTANCE32 = 0x0B;
    public static final int HT_FULL_HEADER64 = 0x14;
    public static final int HT_INSTANCE64 = 0x15;
    public static final int HT_PERFINFO32 = 0x10;
    public static final int HT_PERFINFO64 = 0x11;
    public static final int HT_EVENT_HEADER32 = 0x12;
    public static final int HT_EVENT_HEADER64 = 0x13;

    public static final int SYSTEM_HEADER_SIZE = 0x20;
    public static final int COMPACT_HEADER_SIZE = 0x18;
    public static final int PERFINFO_HEADER_SIZE = 0x10;
    public static final int FULL_HEADER_SIZE = 0x30;
    public static final int INSTANCE_HEADER_SIZE = 0x48;
    public static final int EVENT_HEADER_SIZE = 0x50;
    public static final int SYSTEM_TRACE_VERSION = 2;

    /** TRACE_LOGFILE_HEADER64 (0x118) and TRACE_LOGFILE_HEADER32 (0x110). */
    public static final int LOGFILE_HEADER64_SIZE = 0x118;
    public static final int LOGFILE_HEADER32_SIZE = 0x110;

    /** Largest record: Size is a USHORT. */
    public static final int MAX_RECORD_SIZE = 0xFFFF;

    /** EventTraceGuid {68fdd900-4a3e-11d1-84f4-0000f80464e3}: the logfile header's class. */
    public static final java.util.UUID EVENT_TRACE_GUID = java.util.UUID.fromString("68fdd900-4a3e-11d1-84f4-0000f80464e3");

    /** FILETIME of 1970-01-01T00:00:00Z. */
    public static final long FILETIME_UNIX_EPOCH = 116444736000000000L;

    private EtlFormat() {
    }

    public static int align8(int n) {
        return (n + 7) & ~7;
    }

    /** Largest payload of one record with a {@code headerSize} header in a buffer of {@code bufferSize} bytes. */
    public static int maxPayload(int bufferSize, int headerSize) {
        return Math.min(MAX_RECORD_SIZE, bufferSize - BUFFER_HEADER_SIZE) - headerSize;
    }
}
