package dev.jetw.api;

/**
 * Application-facing jetw API. Without the agent every method is a no-op; the agent instruments
 * this class so that the calls reach the trace.
 */
public final class Jetw {

    /** Levels, as in ETW's TRACE_LEVEL_*. */
    public static final int CRITICAL = 1;
    public static final int ERROR = 2;
    public static final int WARNING = 3;
    public static final int INFORMATION = 4;
    public static final int VERBOSE = 5;

    private Jetw() {
    }

    /** Writes a CHECKPOINT event at level INFORMATION inside the current traced call. */
    public static void checkpoint(String label) {
        // No-op without the agent; the agent's advice replaces the behaviour.
    }

    /** Writes a CHECKPOINT event at {@code level} (1 critical .. 5 verbose) inside the current traced call. */
    public static void checkpoint(String label, int level) {
        // No-op without the agent.
    }

    /** True when the jetw agent is active in this JVM. */
    public static boolean isActive() {
        return false;
    }
}
