package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The logfile-header record (SYSTEM_TRACE_HEADER + TRACE_LOGFILE_HEADER32/64 + LoggerName + LogFileName,
 * etl-format.md §4), the first record of every .etl file.
 */
public final class EtlLogfileInfo {

    private final boolean is64;
    private final int recordSize;
    private final int headerThreadId;
    private final int headerProcessId;
    private final long anchorTimestamp;
    private final int bufferSize;
    private final int majorVersion;
    private final int minorVersion;
    private final int subVersion;
    private final int subMinorVersion;
    private final int providerVersion;
    private final int numberOfProcessors;
    private final long endTime;
    private final int timerResolution;
    private final int maximumFileSize;
    private final int logFileMode;
    private final int buffersWritten;
    private final int startBuffers;
    private final int pointerSize;
    private final int eventsLost;
    private final int cpuSpeedInMHz;
    private final int timeZoneBias;
    private final long bootTime;
    private final long perfFreq;
    private final long startTime;
    private final int clockType;
    private final int buffersLost;
    private final String loggerName;
    private final String logFileName;

    /**
     * Parses the record at {@code pos} of {@code buf} (little-endian), whose SYSTEM header was already
     * checked. {@code end} is the end of the record.
     */
    EtlLogfileInfo(ByteBuffer buf, int pos, int end, boolean is64) {
        this.is64 = is64;
        this.recordSize = end - pos;
        this.headerThreadId = buf.getInt(pos + 0x08);
        this.headerProcessId = buf.getInt(pos + 0x0C);
        this.anchorTimestamp = buf.getLong(pos + 0x10);
        int h = pos + EtlFormat.SYSTEM_HEADER_SIZE;
        bufferSize = buf.getInt(h);
        majorVersion = buf.get(h + 0x04) & 0xFF;
        minorVersion = buf.get(h + 0x05) & 0xFF;
        subVersion = buf.get(h + 0x06) & 0xFF;
        subMinorVersion = buf.get(h + 0x07) & 0xFF;
        providerVersion = buf.getInt(h + 0x08);
        numberOfProcessors = buf.getInt(h + 0x0C);
        endTime = buf.getLong(h + 0x10);
        timerResolution = buf.getInt(h + 0x18);
        maximumFileSize = buf.getInt(h + 0x1C);
        logFileMode = buf.getInt(h + 0x20);
        buffersWritten = buf.getInt(h + 0x24);
        startBuffers = buf.getInt(h + 0x28);
        pointerSize = buf.getInt(h + 0x2C);
        eventsLost = buf.getInt(h + 0x30);
        cpuSpeedInMHz = buf.getInt(h + 0x34);
        // Two pointer-sized slots (LoggerName, LogFileName) shift the rest by 8 in the 64-bit layout.
        int t = h + (is64 ? 0x48 : 0x40);
        timeZoneBias = buf.getInt(t);
        // TIME_ZONE_INFORMATION is 0xAC bytes; BootTime (LARGE_INTEGER) is 8-aligned: 4 pad bytes.
        int after = t + 0xAC + 4;
        bootTime = buf.getLong(after);
        perfFreq = buf.getLong(after + 0x08);
        startTime = buf.getLong(after + 0x10);
        clockType = buf.getInt(after + 0x18);
        buffersLost = buf.getInt(after + 0x1C);
        int strings = h + (is64 ? EtlFormat.LOGFILE_HEADER64_SIZE : EtlFormat.LOGFILE_HEADER32_SIZE);
        int[] next = new int[1];
        loggerName = utf16z(buf, strings, end, next);
        logFileName = utf16z(buf, next[0], end, next);
    }

    /** Reads a NUL-terminated UTF-16LE string in [from, end); next[0] is set past its NUL. */
    static String utf16z(ByteBuffer buf, int from, int end, int[] next) {
        int p = from;
        while (p + 1 < end && buf.getShort(p) != 0) {
            p += 2;
        }
        byte[] b = new byte[Math.max(0, p - from)];
        for (int i = 0; i < b.length; i++) {
            b[i] = buf.get(from + i);
        }
        next[0] = Math.min(end, p + 2);
        return new String(b, StandardCharsets.UTF_16LE);
    }

    /** True for SYSTEM64 + TRACE_LOGFILE_HEADER64 (a 64-bit file), false for the 32-bit layout. */
    public boolean is64Bit() {
        return is64;
    }

    /** Size of the header record (Packet.Size). */
    public int recordSize() {
        return recordSize;
    }

    public int headerThreadId() {
        return headerThreadId;
    }

    public int headerProcessId() {
        return headerProcessId;
    }

    /** SYSTEM_TRACE_HEADER.SystemTime of the header record: the raw clock value at StartTime. */
    public long anchorTimestamp() {
        return anchorTimestamp;
    }

    /** Buffer size in bytes. */
    public int bufferSize() {
        return bufferSize;
    }

    public int majorVersion() {
        return majorVersion;
    }

    public int minorVersion() {
        return minorVersion;
    }

    /** File-layout major version (1 for Windows 7+ files). */
    public int subVersion() {
        return subVersion;
    }

    /** File-layout minor version (5 for Windows 7+ files). */
    public int subMinorVersion() {
        return subMinorVersion;
    }

    /** OS build number. */
    public int providerVersion() {
        return providerVersion;
    }

    public int numberOfProcessors() {
        return numberOfProcessors;
    }

    /** FILETIME at stop; 0 if the session was not stopped cleanly. */
    public long endTime() {
        return endTime;
    }

    public int timerResolution() {
        return timerResolution;
    }

    public int maximumFileSize() {
        return maximumFileSize;
    }

    public int logFileMode() {
        return logFileMode;
    }

    /**
     * Whether each buffer holds the records of one CPU (LogFileMode without
     * EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING): then a record's {@link EtlRecord#processor()} is the CPU it was
     * logged on.
     */
    public boolean buffersPerProcessor() {
        return (logFileMode & EtlFormat.NO_PER_PROCESSOR_BUFFERING) == 0;
    }

    public int buffersWritten() {
        return buffersWritten;
    }

    public int startBuffers() {
        return startBuffers;
    }

    public int pointerSize() {
        return pointerSize;
    }

    public int eventsLost() {
        return eventsLost;
    }

    public int cpuSpeedInMHz() {
        return cpuSpeedInMHz;
    }

    /** TIME_ZONE_INFORMATION.Bias in minutes (UTC = local + bias). */
    public int timeZoneBias() {
        return timeZoneBias;
    }

    public long bootTime() {
        return bootTime;
    }

    public long perfFreq() {
        return perfFreq;
    }

    /** FILETIME at session start. */
    public long startTime() {
        return startTime;
    }

    /** ReservedFlags: 1 QPC, 2 system time, 3 CPU cycles. */
    public int clockType() {
        return clockType;
    }

    public int buffersLost() {
        return buffersLost;
    }

    /** The session name. */
    public String loggerName() {
        return loggerName;
    }

    public String logFileName() {
        return logFileName;
    }
}
