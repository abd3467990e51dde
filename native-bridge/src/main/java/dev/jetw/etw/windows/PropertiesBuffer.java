package dev.jetw.etw.windows;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.jetw.etl.Guids;
import dev.jetw.etw.SessionStats;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * One EVENT_TRACE_PROPERTIES allocation with room for the two names behind it, as StartTrace,
 * ControlTrace and QueryAllTraces take it: 120 bytes of properties, 1,024 UTF-16 characters for
 * the session name at offset 120, 1,024 for the log-file name at 120 + 2,048, and 256 spare bytes
 * (PerfView's sizing). The allocation is zeroed; {@code Wnode.BufferSize} is the whole allocation.
 *
 * <p>Names are written as UTF-16LE by hand: JNA's wide strings are 4 bytes per character on Linux.
 */
final class PropertiesBuffer {

    static final int NAME_AREA_BYTES = EtwConstants.MAX_NAME_CHARS * 2;
    static final int SPARE_BYTES = 256;
    static final int LOGGER_NAME_OFFSET = EtwLayout.ETP_SIZE;
    static final int LOG_FILE_NAME_OFFSET = EtwLayout.ETP_SIZE + NAME_AREA_BYTES;
    static final int SIZE = EtwLayout.ETP_SIZE + 2 * NAME_AREA_BYTES + SPARE_BYTES;

    private final Pointer p;
    private final EtwLayout layout;

    /** A fresh zeroed buffer with BufferSize, Flags = WNODE_FLAG_TRACED_GUID and both offsets set. */
    PropertiesBuffer(EtwLayout layout) {
        this(new Memory(SIZE), layout);
    }

    /** A buffer at {@code p} (SIZE bytes, e.g. one element of QueryAllTraces' array); zeroed and initialised. */
    PropertiesBuffer(Pointer p, EtwLayout layout) {
        this.p = p;
        this.layout = layout;
        p.setMemory(0, SIZE, (byte) 0);
        p.setInt(EtwLayout.WNODE_BUFFER_SIZE, SIZE);
        // EVENT_TRACE_PROPERTIES' docs: Wnode.Flags must be specified (and ControlTrace UPDATE needs it).
        p.setInt(EtwLayout.WNODE_FLAGS, EtwConstants.WNODE_FLAG_TRACED_GUID);
        p.setInt(layout.etpLoggerNameOffset(), LOGGER_NAME_OFFSET);
        p.setInt(layout.etpLogFileNameOffset(), LOG_FILE_NAME_OFFSET);
    }

    Pointer pointer() {
        return p;
    }

    void setInt(int offset, int value) {
        p.setInt(offset, value);
    }

    int getInt(int offset) {
        return p.getInt(offset);
    }

    void setGuid(UUID guid) {
        p.write(EtwLayout.WNODE_GUID, Guids.toBytes(guid), 0, EtwLayout.GUID_SIZE);
    }

    void setSessionName(String name) {
        writeName(LOGGER_NAME_OFFSET, name, "session name");
    }

    /** Writes the log-file name, or sets LogFileNameOffset to 0 when there is none (a real-time-only session). */
    void setLogFileName(String file) {
        if (file == null) {
            p.setInt(layout.etpLogFileNameOffset(), 0);
            return;
        }
        p.setInt(layout.etpLogFileNameOffset(), LOG_FILE_NAME_OFFSET);
        writeName(LOG_FILE_NAME_OFFSET, file, "log file name");
    }

    /** Leaves the log file as it is (ControlTrace UPDATE switches files only when this offset is not 0). */
    void keepLogFile() {
        p.setInt(layout.etpLogFileNameOffset(), 0);
    }

    private void writeName(int offset, String name, String what) {
        byte[] bytes = utf16z(name);
        if (bytes.length > NAME_AREA_BYTES) {
            throw new IllegalArgumentException(what + " '" + name + "' has " + name.length()
                    + " characters; at most " + (EtwConstants.MAX_NAME_CHARS - 1) + " fit");
        }
        p.write(offset, bytes, 0, bytes.length);
    }

    /** UTF-16LE bytes with the terminating NUL character. */
    static byte[] utf16z(String s) {
        byte[] chars = s.getBytes(StandardCharsets.UTF_16LE);
        byte[] out = new byte[chars.length + 2];
        System.arraycopy(chars, 0, out, 0, chars.length);
        return out;
    }

    /** A native UTF-16LE NUL-terminated copy of {@code s}, for LPCWSTR arguments. */
    static Memory wideString(String s) {
        byte[] bytes = utf16z(s);
        Memory m = new Memory(bytes.length);
        m.write(0, bytes, 0, bytes.length);
        return m;
    }

    /** Wnode.HistoricalContext: the session id (CONTROLTRACE_ID) after a QUERY. */
    long historicalContext() {
        return p.getLong(EtwLayout.WNODE_HISTORICAL_CONTEXT);
    }

    long loggerThreadId() {
        return layout.pointerSize() == 8 ? p.getLong(EtwLayout.ETP_LOGGER_THREAD_ID)
                : p.getInt(EtwLayout.ETP_LOGGER_THREAD_ID) & 0xFFFFFFFFL;
    }

    /** The name ETW wrote at LoggerNameOffset, or {@code fallback} when the offset or name is empty. */
    String loggerName(String fallback) {
        String s = readName(p.getInt(layout.etpLoggerNameOffset()));
        return s == null || s.isEmpty() ? fallback : s;
    }

    /** The log file ETW wrote at LogFileNameOffset, or null. */
    String logFileName() {
        String s = readName(p.getInt(layout.etpLogFileNameOffset()));
        return s == null || s.isEmpty() ? null : s;
    }

    private String readName(int offset) {
        if (offset <= 0 || offset >= SIZE) {
            return null;
        }
        int end = offset;
        while (end + 1 < SIZE && (p.getByte(end) != 0 || p.getByte(end + 1) != 0)) {
            end += 2;
        }
        return new String(p.getByteArray(offset, end - offset), StandardCharsets.UTF_16LE);
    }

    SessionStats stats(String sessionName) {
        return new SessionStats(loggerName(sessionName), logFileName(),
                p.getInt(EtwLayout.ETP_NUMBER_OF_BUFFERS), p.getInt(EtwLayout.ETP_FREE_BUFFERS),
                u32(EtwLayout.ETP_EVENTS_LOST), u32(EtwLayout.ETP_BUFFERS_WRITTEN),
                u32(EtwLayout.ETP_LOG_BUFFERS_LOST), u32(EtwLayout.ETP_REAL_TIME_BUFFERS_LOST),
                loggerThreadId());
    }

    private long u32(int offset) {
        return p.getInt(offset) & 0xFFFFFFFFL;
    }
}
