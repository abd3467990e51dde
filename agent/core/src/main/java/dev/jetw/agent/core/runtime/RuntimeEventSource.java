package dev.jetw.agent.core.runtime;

/**
 * A source of JVM runtime events feeding a {@link RuntimeEventWriter} from its own thread: JFR
 * streaming (the optional agent/jfr part, Java 17+) or the GC MXBean notifications (any Java).
 * Implementations are loaded by {@link RuntimeEvents}; a public constructor
 * {@code (RuntimeEventWriter, long thresholdNanos)} is what the reflective loader calls.
 */
public interface RuntimeEventSource {

    /** Starts delivering; throws when the source is not available in this JVM. */
    void start() throws Exception;

    /** The families this source delivers among the selected ones, e.g. "gc" (for the start line). */
    String families();

    /** Bytes the source's own thread has allocated so far (the cost the application does not pay), or -1 if unknown. */
    default long allocatedBytes() {
        return -1;
    }

    /** Delivers what the JVM has recorded so far, then stops; returns within a few seconds. Never throws. */
    void stop();

    /**
     * {@link #stop} at JVM exit, where the JVM's own shutdown may end the source at the same time. Returns what
     * the stop waited for (and what it gave up, if anything), or null when there is nothing to say. Never throws.
     */
    default ExitStopReport stopAtExit() {
        stop();
        return null;
    }
}
