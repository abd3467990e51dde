package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The logfile-header event a writer puts first in every .etl file (docs/etl-format.md §4, §10):
 * SYSTEM_TRACE_HEADER (SYSTEM64, group 0, type 0) + TRACE_LOGFILE_HEADER64 + LoggerName + LogFileName,
 * in buffer 0 (BufferType 4, BufferFlag 0x21). Mutable value object; {@link #encodeHeaderBuffer} renders it.
 */
public final class EtlLogfileHeader {

    // File offsets of the fields a writer refreshes after every buffer (crash safety, §10 item 6).
    public static final int FILE_OFF_END_TIME = 0x78;
    public static final int FILE_OFF_BUFFERS_WRITTEN = 0x8C;
    public static final int FILE_OFF_EVENTS_LOST = 0x98;
    public static final int FILE_OFF_BUFFERS_LOST = 0x17C;

    /** Offset of TRACE_LOGFILE_HEADER64 in the file (buffer header + SYSTEM_TRACE_HEADER). */
    public static final int LOGFILE_HEADER_OFFSET = EtlFormat.BUFFER_HEADER_SIZE + EtlFormat.SYSTEM_HEADER_SIZE;

    public int bufferSize;
    public int osMajor = 10;
    public int osMinor = 0;
    /** File-layout version 1.5: the Windows 7+ layout; >= 1.1 means instance events use the GUID header. */
    public int layoutMajor = 1;
    public int layoutMinor = 5;
    public int providerVersion = 19041;
    public int numberOfProcessors = 1;
    public long endTime;
    public int timerResolution = 156250;
    public int maximumFileSizeMb;
    public int logFileMode;
    public int buffersWritten = 1;
    public int eventsLost;
    public int cpuSpeedMhz;
    public int timeZoneBias;
    public String standardName = "";
    public int standardBias;
    public String daylightName = "";
    public int daylightBias;
    public long bootTime;
    public long perfFreq = 10_000_000L;
    public long startTime;
    public int clockType = 1;
    public int buffersLost;
    public String loggerName = "";
    public String logFileName = "";
    /**
     * What wrote the file and on which host, or null: written as a {@link SessionNotice} of kind WRITER right
     * after the header record, in buffer 0. Buffer 0 is never overwritten (circular files keep it at slot 0,
     * every new file and dump gets its own), so every file of a session carries it, without a buffer of its
     * own; Windows writers also put records after the header record there. The header's version fields keep
     * declaring the Windows layout the file follows (docs/portable-backend.md, "Which OS wrote it"). Left
     * out when the buffer has no room for it (a long log-file path in a small buffer): readers then show no
     * writer, nothing else changes.
     */
    public String writer;
    /**
     * For a buffering ring's file or dump, what the ring does (a {@link SessionNotice} of kind RING after the
     * WRITER notice in buffer 0), else null: the header's LogFileMode has EVENT_TRACE_BUFFERING_MODE cleared, as
     * ETW writes it, so without this a reader could not tell the ENDs of calls begun in overwritten buffers from a
     * lost START. Costs no buffer; left out, like the writer, when buffer 0 has no room for it.
     */
    public String ring;
    /** SYSTEM_TRACE_HEADER fields of the header record. */
    public int threadId;
    public int processId;
    /** Raw clock at {@link #startTime}: the anchor of the time-stamp conversion (§8). */
    public long systemTime;
    public int loggerId = 1;

    /** Size of the header record (its Packet.Size). */
    public int recordSize() {
        return EtlFormat.SYSTEM_HEADER_SIZE + EtlFormat.LOGFILE_HEADER64_SIZE
                + 2 * (loggerName.length() + 1) + 2 * (logFileName.length() + 1);
    }

    /** Renders buffer 0 of the file: header record, 0xFF tail, sealed as the HEADER buffer. */
    public ByteBuffer encodeHeaderBuffer() {
        int size = recordSize();
        int used = EtlFormat.align8(EtlFormat.BUFFER_HEADER_SIZE + size);
        if (used > bufferSize) {
            throw new IllegalArgumentException("logfile header record (" + size + " bytes: session name and log file path)"
                    + " does not fit a " + bufferSize + "-byte buffer; use a shorter path or a larger bufferSize");
        }
        ByteBuffer buf = ByteBuffer.allocate(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
        int r = EtlFormat.BUFFER_HEADER_SIZE;
        buf.putShort(r, (short) EtlFormat.SYSTEM_TRACE_VERSION);
        buf.put(r + 2, (byte) EtlFormat.HT_SYSTEM64);
        buf.put(r + 3, (byte) EtlFormat.MARKER_FLAGS);
        buf.putShort(r + 4, (short) size);
        buf.put(r + 6, (byte) 0); // Packet.Type: EVENT_TRACE_TYPE_INFO
        buf.put(r + 7, (byte) 0); // Packet.Group: EVENT_TRACE_GROUP_HEADER => WMI_LOG_TYPE_HEADER
        buf.putInt(r + 8, threadId);
        buf.putInt(r + 0x0C, processId);
        buf.putLong(r + 0x10, systemTime);
        int h = LOGFILE_HEADER_OFFSET;
        buf.putInt(h, bufferSize);
        buf.put(h + 4, (byte) osMajor);
        buf.put(h + 5, (byte) osMinor);
        buf.put(h + 6, (byte) layoutMajor);
        buf.put(h + 7, (byte) layoutMinor);
        buf.putInt(h + 0x08, providerVersion);
        buf.putInt(h + 0x0C, numberOfProcessors);
        buf.putLong(h + 0x10, endTime);
        buf.putInt(h + 0x18, timerResolution);
        buf.putInt(h + 0x1C, maximumFileSizeMb);
        buf.putInt(h + 0x20, logFileMode);
        buf.putInt(h + 0x24, buffersWritten);
        buf.putInt(h + 0x28, 1); // StartBuffers
        buf.putInt(h + 0x2C, 8); // PointerSize
        buf.putInt(h + 0x30, eventsLost);
        buf.putInt(h + 0x34, cpuSpeedMhz);
        // 0x38, 0x40: LoggerName/LogFileName pointer slots, written 0.
        int tz = h + 0x48;
        buf.putInt(tz, timeZoneBias);
        putFixedWchar(buf, tz + 0x04, standardName);
        buf.putInt(tz + 0x54, standardBias);
        putFixedWchar(buf, tz + 0x58, daylightName);
        buf.putInt(tz + 0xA8, daylightBias);
        buf.putLong(h + 0xF8, bootTime);
        buf.putLong(h + 0x100, perfFreq);
        buf.putLong(h + 0x108, startTime);
        buf.putInt(h + 0x110, clockType);
        buf.putInt(h + 0x114, buffersLost);
        int s = putWcharz(buf, h + EtlFormat.LOGFILE_HEADER64_SIZE, loggerName);
        int end = putWcharz(buf, s, logFileName);
        for (int i = end; i < used; i++) {
            buf.put(i, (byte) 0);
        }
        used = appendNotice(buf, used, SessionNotice.WRITER, writer);
        used = appendNotice(buf, used, SessionNotice.RING, ring);
        EtlBufferWriter.seal(buf, used, 0L, 0L, loggerId, EtlFormat.BUFFER_TYPE_HEADER,
                EtlFormat.BUFFER_FLAG_PROC_INDEX | EtlFormat.BUFFER_FLAG_FLUSH_MARKER);
        return buf;
    }

    /** A notice at {@code used} when there is one ({@code text} not null) and it fits; returns the buffer's new used length. */
    private int appendNotice(ByteBuffer buf, int used, int kind, String text) {
        if (text == null) {
            return used;
        }
        byte[] payload = SessionNotice.encode(kind, text);
        int space = EtlRecordWriter.fullRecordSpace(payload.length);
        if (used + space > bufferSize) {
            return used;
        }
        long[] words = new long[space >>> 3];
        int at = EtlRecordWriter.putFullHeader(words, 0, EventType.INFO, TraceLevel.INFORMATION, SessionNotice.VERSION,
                0, processId, systemTime, NOTICE_CLASS, payload.length);
        EtlRecordWriter.putPayload(words, at, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN), payload.length);
        ByteBuffer record = ByteBuffer.allocate(space).order(ByteOrder.LITTLE_ENDIAN);
        EtlRecordWriter.copyWords(words, 0, space, record);
        buf.position(used);
        buf.put(record);
        buf.clear();
        return used + space;
    }

    private static final EncodedGuid NOTICE_CLASS = EncodedGuid.of(SessionNotice.CLASS);

    /** WCHAR[32], NUL-terminated, cut to 31 characters. */
    private static void putFixedWchar(ByteBuffer buf, int at, String s) {
        int n = Math.min(31, s.length());
        for (int i = 0; i < n; i++) {
            buf.putChar(at + 2 * i, s.charAt(i));
        }
    }

    private static int putWcharz(ByteBuffer buf, int at, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
        for (int i = 0; i < b.length; i++) {
            buf.put(at + i, b[i]);
        }
        buf.putShort(at + b.length, (short) 0);
        return at + b.length + 2;
    }
}
