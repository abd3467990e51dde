package dev.jetw.agent.core;

/**
 * Adaptive exclusion of hot, short methods: a method is observed (each call timed) in windows of
 * {@link #WINDOW} calls; if at most {@link #SLOW_ALLOWED} calls of a window lasted
 * {@link #SHORT_NANOS} or more, it is excluded (its calls stop emitting: the entry returns at the
 * state check); after {@link #MAX_WINDOWS} windows with more it is kept for good and no longer
 * timed unless it has a threshold. A method with a duration
 * threshold is kept as soon as one call reaches the threshold, so that exclusion never removes a
 * call the threshold would write from a method known to have such calls. The numbers and how they
 * were chosen: docs/agent-options.md ("Adaptive exclusion").
 *
 * <p>The per-method counters are plain int arrays updated without synchronisation by every thread:
 * a lost increment only delays the decision by a call. The decision itself is taken once per
 * method under this object's monitor (a few times per method at most, never per call).
 */
final class AdaptiveExclusion {

    /** Calls observed before deciding. */
    static final int WINDOW = 1_000;
    /**
     * A call at least this long is "not short": a written START+END costs 130-330 ns
     * (BENCHMARKS.md, instrumented call), more than 6-16 % of a call shorter than this.
     */
    static final long SHORT_NANOS = 2_000L;
    /**
     * Calls of the window allowed to be long for the method to count as short: 1 %, for the first,
     * interpreted calls and for a thread descheduled or paused by GC in the middle of a getter.
     */
    static final int SLOW_ALLOWED = WINDOW / 100;
    /**
     * Windows observed before a method is kept for good: a method whose callees are traced looks long
     * at first (their tracing counts in its duration) and may turn out short once they are excluded.
     */
    static final int MAX_WINDOWS = 4;

    static final byte OBSERVING = 0;
    static final byte KEPT = 1;
    static final byte EXCLUDED = 2;

    /** Index = method id. Read on every call; written once per method at the decision. */
    final byte[] states;
    private final int[] calls;
    private final int[] slowCalls;
    private final byte[] windows;
    private int excludedCount;

    /** {@code enabled=false}: every method starts kept, nothing is timed for this. */
    AdaptiveExclusion(int maxMethods, boolean enabled) {
        this.states = new byte[maxMethods + 1];
        if (!enabled) {
            java.util.Arrays.fill(states, KEPT);
        }
        this.calls = new int[maxMethods + 1];
        this.slowCalls = new int[maxMethods + 1];
        this.windows = new byte[maxMethods + 1];
    }

    /**
     * Counts one observed call of {@code methodId} lasting {@code nanos}; true when this call
     * decided to exclude the method (the caller then writes the exclusion event, once).
     */
    boolean observe(int methodId, long nanos) {
        if (nanos >= SHORT_NANOS) {
            slowCalls[methodId]++;
        }
        if (++calls[methodId] < WINDOW) {
            return false;
        }
        return decide(methodId);
    }

    private synchronized boolean decide(int methodId) {
        if (states[methodId] != OBSERVING) {
            return false;
        }
        if (slowCalls[methodId] <= SLOW_ALLOWED) {
            states[methodId] = EXCLUDED;
            excludedCount++;
            return true;
        }
        if (++windows[methodId] < MAX_WINDOWS) {
            calls[methodId] = 0; // observe another window
            slowCalls[methodId] = 0;
        } else {
            states[methodId] = KEPT;
        }
        return false;
    }

    /** Keeps {@code methodId} for good (a call reached its duration threshold: such calls must all be written). */
    synchronized void keep(int methodId) {
        if (states[methodId] == OBSERVING) {
            states[methodId] = KEPT;
        }
    }

    /** Calls observed in the current (for an excluded method: the deciding) window. */
    int callsObserved(int methodId) {
        return calls[methodId];
    }

    int slowCalls(int methodId) {
        return slowCalls[methodId];
    }

    synchronized int excludedCount() {
        return excludedCount;
    }
}
