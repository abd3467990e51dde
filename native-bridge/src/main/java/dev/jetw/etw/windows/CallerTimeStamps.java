package dev.jetw.etw.windows;

import dev.jetw.etw.ClockType;

/**
 * Converts {@code System.nanoTime()} readings into the raw TimeStamp of the session's clock, for
 * events written with a caller-set time (WNODE_FLAG_USE_TIMESTAMP): the clock the session was
 * started with (WNODE_HEADER.ClientContext) decides what ETW expects in EVENT_TRACE_HEADER.TimeStamp.
 *
 * <ul>
 *   <li>QPC (1): the QueryPerformanceCounter value. Anchored by one QPC reading and one nanoTime
 *       reading taken together when the provider is enabled, then advanced at the QPC frequency.
 *       (HotSpot's nanoTime on Windows is itself QPC scaled to nanoseconds, so the two do not drift.)</li>
 *   <li>System time (2): FILETIME, anchored by one precise system-time reading
 *       (GetSystemTimePreciseAsFileTime) taken next to a nanoTime reading when enabled, and advanced
 *       by nanoTime.</li>
 *   <li>CPU cycle counter (3): no relation to nanoTime is known; {@link #canConvert()} is false and
 *       such events keep the time of the call (documented in docs/windows-backend.md).</li>
 * </ul>
 * Immutable; the per-event conversion is one subtraction and one multiplication.
 */
final class CallerTimeStamps {

    /** For sessions whose clock cannot be derived from nanoTime. */
    static final CallerTimeStamps NONE = new CallerTimeStamps(false, 0, 0, 0);

    private final boolean convertible;
    private final long nanoAnchor;
    private final long rawAnchor;
    private final double ticksPerNano;

    private CallerTimeStamps(boolean convertible, long nanoAnchor, long rawAnchor, double ticksPerNano) {
        this.convertible = convertible;
        this.nanoAnchor = nanoAnchor;
        this.rawAnchor = rawAnchor;
        this.ticksPerNano = ticksPerNano;
    }

    /**
     * For a session of {@code clock}; {@code qpcNow}/{@code qpcFrequency} are a QueryPerformanceCounter
     * reading and the counter's frequency taken next to {@code nanoNow}, {@code fileTimeNow} the system
     * time then as a FILETIME (each ignored for the other clocks).
     */
    static CallerTimeStamps of(ClockType clock, long nanoNow, long qpcNow, long qpcFrequency, long fileTimeNow) {
        switch (clock) {
            case QPC:
                return qpcFrequency <= 0 ? NONE
                        : new CallerTimeStamps(true, nanoNow, qpcNow, qpcFrequency / 1e9);
            case SYSTEM:
                return new CallerTimeStamps(true, nanoNow, fileTimeNow, 0.01);
            default:
                return NONE;
        }
    }

    boolean canConvert() {
        return convertible;
    }

    /** The session-clock TimeStamp of the moment {@code nanoTime} was read. */
    long toRaw(long nanoTime) {
        return rawAnchor + (long) ((nanoTime - nanoAnchor) * ticksPerNano);
    }
}
