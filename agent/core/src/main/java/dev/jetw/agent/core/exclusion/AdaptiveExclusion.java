package dev.jetw.agent.core.exclusion;

import dev.jetw.agent.core.options.HotMethods;
import dev.jetw.etl.JetwSchema;

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
 * <p><b>Hot methods get a threshold.</b> A method without a threshold of its own (neither
 * {@code threshold=} nor its rule's {@code @DURATION} set one) whose window of calls, not short,
 * came in faster than {@link #HOT_WINDOW_NANOS} (at least ~1,000 calls a second) is given
 * {@link #HOT_THRESHOLD_NANOS} as its threshold: writing each of its calls would cost more than
 * tracing a library is worth (BENCHMARKS.md §7), its calls of at least that long are still written.
 * The trace says so like an exclusion ({@link dev.jetw.etl.JetwSchema#EXCLUSION_HOT_THRESHOLD}).
 *
 * <p><b>Hot methods that are never slow are excluded.</b> Timing each call of such a method still costs
 * two clock reads and a context push (≈ 50 ns): on H2 under {@code include=org.h2.**} 90 M of 574 M
 * instrumented calls went that way and they were most of the agent's cost (BENCHMARKS.md §7). Once a
 * method given the hot threshold has made {@link #PROVE_CALLS} calls in a row under the threshold, it is
 * excluded like a short one ({@link dev.jetw.etl.JetwSchema#EXCLUSION_HOT_FAST}); a call at the threshold
 * (written, as any) starts the count again, so a method that is slow now and then stays timed, while one
 * whose only slow calls came at warm-up (interpreted, JIT, class initialisation) does not. Only thresholds
 * the agent gave: a threshold the user
 * set ({@code threshold=}, {@code @DURATION}) is a promise that every call above it is written.
 *
 * <p>The per-method counters are plain int arrays updated without synchronisation by every thread:
 * a lost increment only delays the decision by a call. The decision itself is taken once per
 * window per method under this object's monitor (a few times per method at most, never per call).
 */
public final class AdaptiveExclusion {

    /**
     * Calls observed before deciding: few, because every observed call pays two clock reads and a
     * thread lookup (tens of ns) and a library has thousands of hot methods (BENCHMARKS.md §7).
     */
    static final int WINDOW = 256;
    /**
     * A call at least this long is "not short": a written START+END costs 130-330 ns
     * (BENCHMARKS.md, instrumented call), more than 6-16 % of a call shorter than this.
     */
    public static final long SHORT_NANOS = 2_000L;
    /**
     * Calls of the window allowed to be long for the method to count as short: about 1 %, for the first,
     * interpreted calls and for a thread descheduled or paused by GC in the middle of a getter.
     */
    static final int SLOW_ALLOWED = 3;
    /**
     * Windows observed before a method is kept for good: a method whose callees are traced looks long
     * at first (their tracing counts in its duration) and may turn out short once they are excluded.
     */
    static final int MAX_WINDOWS = 4;
    /**
     * A window of {@link #WINDOW} calls within this time makes a method hot (1,000 calls a second or more):
     * writing every call of a thousand such methods costs 15-30 % of a CPU. Counted from the window's first
     * call, so it holds at start-up, when the code runs interpreted and slower.
     */
    static final long HOT_WINDOW_NANOS = WINDOW * 1_000_000L;
    /** The threshold a hot method without one of its own is given. */
    public static final long HOT_THRESHOLD_NANOS = 1_000_000L;
    /**
     * Calls in a row of a hot-thresholded method under the threshold after which it is excluded: at
     * 1,000+ calls a second, a minute or less of a method that did not once take a millisecond.
     */
    static final int PROVE_CALLS = 65_536;
    /**
     * A kept method without a threshold (every call written) has its rate checked every this many calls:
     * this many within {@code RATE_CALLS} ms (1,000 calls a second or more) makes it hot now, as a window does.
     */
    static final int RATE_CALLS = 1024;

    public static final byte OBSERVING = 0;
    static final byte KEPT = 1;
    public static final byte EXCLUDED = 2;

    /** What a decision did to a method, for the caller's MethodExclusion event. */
    public static final int UNDECIDED = 0;
    public static final int DECIDED_EXCLUDED = 1;
    public static final int DECIDED_THRESHOLD = 2;
    public static final int DECIDED_FAST = 3;

    /** Index = method id. Read on every call; written once per method at the decision. */
    public final byte[] states;
    /** The registry's thresholds (index = method id; negative: none of its own), where a hot method's is set. */
    private final long[] thresholds;
    private final int[] calls;
    private final int[] slowCalls;
    private final byte[] windows;
    /** Index = method id: System.nanoTime() at the end of the window's first call. */
    private final long[] windowStarts;
    /** Index = method id: the calls and long calls of the window of the last decision, for its event. */
    private final int[] decidedCalls;
    private final int[] decidedSlowCalls;
    /** Index = method id: calls in a row under the hot threshold the agent gave it; -1: not counted (no such threshold). */
    private final int[] underThreshold;
    /** Index = method id: written calls of a kept method without a threshold, for its rate. */
    private final int[] keptCalls;
    /** Index = method id: System.nanoTime() at its last rate check (0: none yet). */
    private final long[] rateChecks;
    /** Index = method id: the decision an earlier trace made for it (option hotMethods=), applied at its registration; null: none. */
    private final String[] knownReasons;
    private final boolean enabled;
    private int excludedCount;
    private int thresholdedCount;
    private int knownExcludedCount;
    private int attachExcludedCount;
    private int knownThresholdedCount;

    /** {@code enabled=false}: every method starts kept, nothing is timed for this. */
    public AdaptiveExclusion(long[] thresholds, boolean enabled) {
        int n = thresholds.length;
        this.thresholds = thresholds;
        this.enabled = enabled;
        this.states = new byte[n];
        if (!enabled) {
            java.util.Arrays.fill(states, KEPT);
        }
        this.calls = new int[n];
        this.slowCalls = new int[n];
        this.windows = new byte[n];
        this.windowStarts = new long[n];
        this.decidedCalls = new int[n];
        this.decidedSlowCalls = new int[n];
        this.underThreshold = new int[n];
        java.util.Arrays.fill(underThreshold, -1);
        this.keptCalls = new int[n];
        this.rateChecks = new long[n];
        this.knownReasons = new String[n];
    }

    /**
     * Starts {@code methodId} where an earlier trace left it (option hotMethods=), once, before its first call:
     * excluded (it then gets no advice: returns true) or given {@code decision}'s threshold. Not over a threshold
     * the user set: such a method is never given one, and never excluded as {@code hot-fast} (its calls above
     * the user's threshold must all be written).
     */
    public synchronized boolean startKnown(int methodId, HotMethods.Decision decision) {
        if (knownReasons[methodId] != null) {
            return states[methodId] == EXCLUDED; // registered again (a retransformation): decided already
        }
        boolean userThreshold = thresholds[methodId] >= 0;
        if (!enabled || states[methodId] != OBSERVING
                || userThreshold && !decision.reason.equals(JetwSchema.EXCLUSION_HOT_SHORT)) {
            return false;
        }
        knownReasons[methodId] = decision.reason;
        if (decision.excludes()) {
            states[methodId] = EXCLUDED;
            excludedCount++;
            if (!decision.reason.equals(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH)) {
                knownExcludedCount++; // status counts the attach ramp's decisions apart (AttachRamp)
            } else {
                attachExcludedCount++;
            }
            return true;
        }
        giveHotThreshold(methodId);
        thresholds[methodId] = decision.thresholdNanos;
        knownThresholdedCount++;
        return false;
    }

    /** The earlier trace's reason {@link #startKnown} applied to {@code methodId}, or null. */
    public synchronized String knownReason(int methodId) {
        return knownReasons[methodId];
    }

    /** Methods {@link #startKnown} excluded, and gave a threshold (status). */
    public synchronized int knownExcludedCount() {
        return knownExcludedCount;
    }

    public synchronized int knownThresholdedCount() {
        return knownThresholdedCount;
    }

    /**
     * Counts one observed call of {@code methodId} lasting {@code nanos}, ending at {@code now}
     * ({@link System#nanoTime}); {@link #DECIDED_EXCLUDED} or {@link #DECIDED_THRESHOLD} when this
     * call decided so (the caller then writes the MethodExclusion event, once), else {@link #UNDECIDED}.
     */
    public int observe(int methodId, long nanos, long now) {
        if (nanos >= SHORT_NANOS) {
            slowCalls[methodId]++;
        }
        int n = ++calls[methodId];
        if (n == 1) {
            windowStarts[methodId] = now;
        }
        if (n < WINDOW) {
            return UNDECIDED;
        }
        return decide(methodId, now);
    }

    private synchronized int decide(int methodId, long now) {
        if (states[methodId] != OBSERVING || calls[methodId] < WINDOW) {
            return UNDECIDED;
        }
        decidedCalls[methodId] = calls[methodId];
        decidedSlowCalls[methodId] = slowCalls[methodId];
        if (slowCalls[methodId] <= SLOW_ALLOWED) {
            states[methodId] = EXCLUDED;
            excludedCount++;
            return DECIDED_EXCLUDED;
        }
        int decided = UNDECIDED;
        if (thresholds[methodId] < 0 && now - windowStarts[methodId] < HOT_WINDOW_NANOS) {
            decided = giveHotThreshold(methodId);
        }
        if (++windows[methodId] < MAX_WINDOWS) {
            calls[methodId] = 0; // observe another window
            slowCalls[methodId] = 0;
        } else {
            states[methodId] = KEPT;
        }
        return decided;
    }

    /** Keeps {@code methodId} for good (a call reached its duration threshold: such calls must all be written). */
    public synchronized void keep(int methodId) {
        if (states[methodId] == OBSERVING) {
            states[methodId] = KEPT;
        }
        if (underThreshold[methodId] > 0) {
            underThreshold[methodId] = 0; // a hot-thresholded method: its run of calls under the threshold starts again
        }
    }

    /**
     * A timed call of a kept method that the hot threshold was given to: {@link #DECIDED_FAST} when this
     * call makes {@link #PROVE_CALLS} in a row under the threshold (the method is then excluded; the
     * caller writes the MethodExclusion event, once), else {@link #UNDECIDED}. Unsynchronised counting, as above.
     */
    public int timedKeptCall(int methodId, boolean reachedThreshold) {
        int n = underThreshold[methodId];
        if (n < 0) {
            return UNDECIDED;
        }
        if (reachedThreshold) {
            underThreshold[methodId] = 0; // written; the run of calls under the threshold starts again
            return UNDECIDED;
        }
        underThreshold[methodId] = n + 1;
        return n + 1 < PROVE_CALLS ? UNDECIDED : decideFast(methodId);
    }

    private synchronized int decideFast(int methodId) {
        if (states[methodId] != KEPT || underThreshold[methodId] < PROVE_CALLS) {
            return UNDECIDED;
        }
        decidedCalls[methodId] = underThreshold[methodId];
        decidedSlowCalls[methodId] = 0;
        underThreshold[methodId] = -1;
        states[methodId] = EXCLUDED;
        excludedCount++;
        return DECIDED_FAST;
    }

    /**
     * A written call of a kept method without a threshold of its own, at its exit: every {@link #RATE_CALLS}
     * calls its rate is checked, and a method that became hot after it was kept (its windows came at
     * warm-up, slower, or its callees' tracing made it look long) is given {@link #HOT_THRESHOLD_NANOS}
     * like one found hot in a window: {@link #DECIDED_THRESHOLD} then (the caller writes the event), else
     * {@link #UNDECIDED}. Costs an array increment; the clock is read once per {@link #RATE_CALLS} calls.
     */
    public int keptCall(int methodId) {
        if (!enabled || (++keptCalls[methodId] & (RATE_CALLS - 1)) != 0) {
            return UNDECIDED;
        }
        return checkRate(methodId, System.nanoTime());
    }

    /** The rate check of {@link #keptCall} at {@code now}: hot if the last {@link #RATE_CALLS} calls came within as many ms. */
    synchronized int checkRate(int methodId, long now) {
        long last = rateChecks[methodId];
        rateChecks[methodId] = now;
        if (last == 0 || now - last >= RATE_CALLS * 1_000_000L || states[methodId] != KEPT || thresholds[methodId] >= 0) {
            return UNDECIDED;
        }
        return giveHotThreshold(methodId);
    }

    /** Gives a hot method without a threshold of its own {@link #HOT_THRESHOLD_NANOS}; its run of calls under it starts. */
    private int giveHotThreshold(int methodId) {
        thresholds[methodId] = HOT_THRESHOLD_NANOS;
        underThreshold[methodId] = 0;
        thresholdedCount++;
        return DECIDED_THRESHOLD;
    }

    /** Calls observed in the window of the method's last decision. */
    public synchronized int callsObserved(int methodId) {
        return decidedCalls[methodId];
    }

    /** Calls of {@link #SHORT_NANOS} or more in the window of the method's last decision. */
    public synchronized int slowCalls(int methodId) {
        return decidedSlowCalls[methodId];
    }

    public synchronized int excludedCount() {
        return excludedCount;
    }

    /** Of {@link #excludedCount()}, the methods the attach ramp found running hot (never traced in this session). */
    public synchronized int attachExcludedCount() {
        return attachExcludedCount;
    }

    /** Hot methods given {@link #HOT_THRESHOLD_NANOS}. */
    public synchronized int thresholdedCount() {
        return thresholdedCount;
    }
}
