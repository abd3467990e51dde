package dev.jetw.analysis.stats;

import java.util.HashMap;
import java.util.Map;

/**
 * When each method's tracing began, so that a method called rarely can be told from one traced only for the
 * last part of a trace (docs/attach-ramp.md: an attach instruments the loaded classes tier by tier, seconds
 * apart; a class loaded late is instrumented when it loads).
 *
 * <p>The evidence is the method's rundown: the agent writes a Method DC_START right after the method's class got
 * its advice, so its time is when the method's calls begin to be traced (within one retransformation). It is
 * evidence only when no call of the method comes before it in the trace: before a dump of a ring or a circular
 * file the agent writes every method's DC_START again, and the first ones may have been overwritten; a call
 * before the first DC_START in the file says tracing began earlier than the file can tell, so it is unknown.
 * Times are FILETIMEs; memory grows with the number of methods only.
 */
public final class TracingStarts {

    /** A method whose tracing began more than this after the trace's first event is said to start late (1 s). */
    public static final long LATE_MARGIN = 10_000_000L;

    /** The value of {@link #began} when the trace does not say when a method's tracing began. */
    public static final long UNKNOWN = Long.MIN_VALUE;

    private final long sessionStart;
    private final Map<Integer, Long> firstRundown = new HashMap<>();
    private final Map<Integer, Long> firstCall = new HashMap<>();
    private long firstEvent = Long.MAX_VALUE;

    /** @param sessionStart the session's start (the logfile header's StartTime), which times are shown from */
    public TracingStarts(long sessionStart) {
        this.sessionStart = sessionStart;
    }

    /** The session's start, which the times of a method's tracing start are shown from. */
    public long sessionStart() {
        return sessionStart;
    }

    /** A Method DC_START of {@code methodId} at {@code fileTime}. */
    public void rundown(int methodId, long fileTime) {
        firstRundown.merge(methodId, fileTime, Math::min);
        event(fileTime);
    }

    /** A call event (START, END) of {@code methodId} at {@code fileTime}. */
    public void call(int methodId, long fileTime) {
        firstCall.merge(methodId, fileTime, Math::min);
        event(fileTime);
    }

    /** Any other event of the agent's, for the time the trace's evidence begins. */
    public void event(long fileTime) {
        firstEvent = Math.min(firstEvent, fileTime);
    }

    /** When {@code methodId}'s tracing began, or {@link #UNKNOWN}: no DC_START, or a call of it before its first. */
    public long began(int methodId) {
        Long rundown = firstRundown.get(methodId);
        if (rundown == null) {
            return UNKNOWN;
        }
        Long call = firstCall.get(methodId);
        return call != null && call < rundown ? UNKNOWN : rundown;
    }

    /**
     * {@link #began} when it is more than {@link #LATE_MARGIN} after the latest of the session start, {@code from}
     * (the start of the window the calls are counted in; Long.MIN_VALUE for none) and the trace's first event of the
     * agent's (a ring keeps only its last part); else {@link #UNKNOWN}.
     */
    public long beganLate(int methodId, long from) {
        long began = began(methodId);
        long reference = Math.max(Math.max(sessionStart, from), firstEvent == Long.MAX_VALUE ? sessionStart : firstEvent);
        return began != UNKNOWN && began - reference > LATE_MARGIN ? began : UNKNOWN;
    }
}
