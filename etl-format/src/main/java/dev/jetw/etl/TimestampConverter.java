package dev.jetw.etl;

import java.time.Instant;

/**
 * Turns raw event time stamps into absolute time, by the formula every public reader uses
 * (etl-format.md §8): FILETIME = StartTime + (ts − anchor) converted to 100 ns units, where the anchor
 * is the SystemTime of the logfile-header record (the raw clock at StartTime) and the unit depends on
 * the clock type in ReservedFlags: 1 QPC ticks at PerfFreq, 2 system time (already 100 ns),
 * 3 CPU cycles at CpuSpeedInMHz. Any other value: QPC if PerfFreq is non-zero, else system time
 * (as super-speedy-syslog-searcher does).
 */
public final class TimestampConverter {

    private static final long FILETIME_PER_SECOND = 10_000_000L;

    private final long startFileTime;
    private final long anchor;
    /** Raw ticks per second; 10^7 means the raw clock is already in 100 ns units. */
    private final long ticksPerSecond;

    public TimestampConverter(int clockType, long perfFreq, int cpuSpeedMHz, long startFileTime, long anchor) {
        this.startFileTime = startFileTime;
        this.anchor = anchor;
        this.ticksPerSecond = ticksPerSecond(clockType, perfFreq, cpuSpeedMHz);
    }

    static long ticksPerSecond(int clockType, long perfFreq, int cpuSpeedMHz) {
        switch (clockType) {
            case 1:
                return Math.max(1, perfFreq);
            case 2:
                return FILETIME_PER_SECOND;
            case 3:
                return Math.max(1, cpuSpeedMHz) * 1_000_000L;
            default:
                return perfFreq != 0 ? Math.max(1, perfFreq) : FILETIME_PER_SECOND;
        }
    }

    public static TimestampConverter of(EtlLogfileInfo h) {
        return new TimestampConverter(h.clockType(), h.perfFreq(), h.cpuSpeedInMHz(), h.startTime(), h.anchorTimestamp());
    }

    /** Raw ticks after the anchor, in 100 ns units (floor division, no overflow for any realistic span). */
    public long hundredNanosSinceStart(long raw) {
        long delta = raw - anchor;
        if (ticksPerSecond == FILETIME_PER_SECOND) {
            return delta;
        }
        long whole = Math.floorDiv(delta, ticksPerSecond);
        long rest = Math.floorMod(delta, ticksPerSecond);
        return whole * FILETIME_PER_SECOND + rest * FILETIME_PER_SECOND / ticksPerSecond;
    }

    /** Seconds from the anchor to {@code raw}, in floating point: no overflow for any raw value (damaged ones included). */
    public double secondsSinceStart(long raw) {
        return ((double) raw - (double) anchor) / ticksPerSecond;
    }

    /** Absolute FILETIME (100 ns since 1601-01-01 UTC) of raw time stamp {@code raw}. */
    public long toFileTime(long raw) {
        return startFileTime + hundredNanosSinceStart(raw);
    }

    public Instant toInstant(long raw) {
        return fileTimeToInstant(toFileTime(raw));
    }

    /** Milliseconds after the session's StartTime (100 ns resolution). */
    public double millisSinceStart(long raw) {
        return hundredNanosSinceStart(raw) / 10_000.0;
    }

    public static Instant fileTimeToInstant(long fileTime) {
        long unix100ns = fileTime - EtlFormat.FILETIME_UNIX_EPOCH;
        return Instant.ofEpochSecond(Math.floorDiv(unix100ns, FILETIME_PER_SECOND),
                Math.floorMod(unix100ns, FILETIME_PER_SECOND) * 100);
    }
}
