package dev.jetw.agent.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The decisions of adaptive exclusion, driven call by call with chosen durations (no clock, no agent). */
class AdaptiveExclusionTest {

    private static final int METHOD = 1;
    private static final long NOT_SHORT = 20_000L; // 20 us: above SHORT_NANOS, far below the hot threshold

    private final long[] thresholds = new long[4];
    private final AdaptiveExclusion x;

    AdaptiveExclusionTest() {
        Arrays.fill(thresholds, -1L);
        x = new AdaptiveExclusion(thresholds, true);
    }

    /** Observes MAX_WINDOWS windows of fast-arriving, not-short calls: the method is given the hot threshold and kept. */
    private void makeHotAndKept() {
        long now = 0;
        int decisions = 0;
        for (int w = 0; w < AdaptiveExclusion.MAX_WINDOWS; w++) {
            for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
                now += NOT_SHORT;
                if (x.observe(METHOD, NOT_SHORT, now) == AdaptiveExclusion.DECIDED_THRESHOLD) {
                    decisions++;
                }
            }
        }
        assertEquals(1, decisions, "the hot threshold is given once");
        assertEquals(AdaptiveExclusion.HOT_THRESHOLD_NANOS, thresholds[METHOD]);
        assertEquals(AdaptiveExclusion.KEPT, x.states[METHOD]);
    }

    @Test
    void aHotMethodWhoseCallsNeverReachItsThresholdIsExcludedAfterProveCalls() {
        makeHotAndKept();
        for (int i = 1; i < AdaptiveExclusion.PROVE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false), "call " + i);
        }
        assertEquals(AdaptiveExclusion.DECIDED_FAST, x.timedKeptCall(METHOD, false));
        assertEquals(AdaptiveExclusion.EXCLUDED, x.states[METHOD]);
        assertEquals(AdaptiveExclusion.PROVE_CALLS, x.callsObserved(METHOD), "for the MethodExclusion event");
        assertEquals(0, x.slowCalls(METHOD));
        assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false), "decided once");
        assertEquals(1, x.excludedCount());
    }

    @Test
    void aCallAtTheThresholdStartsTheRunAgain() {
        makeHotAndKept();
        for (int i = 1; i < AdaptiveExclusion.PROVE_CALLS; i++) {
            x.timedKeptCall(METHOD, false);
        }
        assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, true), "one short of the run: a slow call");
        for (int i = 1; i < AdaptiveExclusion.PROVE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false), "call " + i + " of the new run");
        }
        assertEquals(AdaptiveExclusion.KEPT, x.states[METHOD]);
        assertEquals(AdaptiveExclusion.DECIDED_FAST, x.timedKeptCall(METHOD, false), "a full run under the threshold");
    }

    @Test
    void aSlowCallWhileObservedStartsTheRunAgainToo() {
        makeHotAndKept();
        for (int i = 0; i < 1000; i++) {
            x.timedKeptCall(METHOD, false);
        }
        x.keep(METHOD); // what TraceWriter does for an observed call at the threshold
        for (int i = 1; i < AdaptiveExclusion.PROVE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false));
        }
        assertEquals(AdaptiveExclusion.DECIDED_FAST, x.timedKeptCall(METHOD, false));
    }

    @Test
    void aThresholdTheUserSetIsNeverTradedForExclusion() {
        thresholds[METHOD] = 1_000_000L; // threshold=1ms or a rule's @1ms: every call above it is promised
        long now = 0;
        for (int w = 0; w < AdaptiveExclusion.MAX_WINDOWS; w++) {
            for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
                now += NOT_SHORT;
                x.observe(METHOD, NOT_SHORT, now);
            }
        }
        assertEquals(AdaptiveExclusion.KEPT, x.states[METHOD]);
        for (int i = 0; i < 2 * AdaptiveExclusion.PROVE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false));
        }
        assertEquals(AdaptiveExclusion.KEPT, x.states[METHOD]);
    }
}
