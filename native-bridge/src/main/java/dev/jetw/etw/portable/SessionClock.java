package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.ClockType;

/**
 * The session's raw event clock (WNODE_HEADER.ClientContext): QPC-like ticks of 100 ns from
 * System.nanoTime (PerfFreq 10^7, monotonic), or system time as FILETIME (100 ns since 1601).
 * System time is the FILETIME at session start advanced by the monotonic clock, so it has 100 ns
 * resolution and never steps backwards; it does not follow wall-clock adjustments made later.
 * CYCLE has no portable source: it is treated as QPC (ReservedFlags 1), and the session says so.
 */
final class SessionClock {

    static final long TICKS_PER_SECOND = 10_000_000L;

    private final boolean system;
    private final long startNanos;
    /** FILETIME at session start. */
    final long startFiletime;
    /** Raw clock value at {@link #startFiletime}: the header's SystemTime anchor. */
    final long startRaw;

    SessionClock(ClockType type) {
        this.system = type == ClockType.SYSTEM;
        long nanos = System.nanoTime();
        this.startFiletime = System.currentTimeMillis() * 10_000L + EtlFormat.FILETIME_UNIX_EPOCH;
        this.startNanos = nanos;
        this.startRaw = system ? startFiletime : nanos / 100;
    }

    /** ReservedFlags / ClientContext value written to the header: 1 QPC, 2 system time. */
    int reservedFlags() {
        return system ? 2 : 1;
    }

    /** The raw time stamp of an event. Allocation-free. */
    long now() {
        return at(System.nanoTime());
    }

    /**
     * The raw time stamp of {@code nanoTime}, a {@code System.nanoTime()} reading taken at any
     * moment: the value {@link #now()} returned or would have returned then. Allocation-free.
     */
    long at(long nanoTime) {
        return system ? startFiletime + (nanoTime - startNanos) / 100 : nanoTime / 100;
    }

    /** FILETIME of now, consistent with {@link #now()} (used for EndTime). */
    long nowFiletime() {
        return startFiletime + (System.nanoTime() - startNanos) / 100;
    }
}
