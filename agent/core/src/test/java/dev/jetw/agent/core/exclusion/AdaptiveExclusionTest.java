package dev.jetw.agent.core.exclusion;

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

    /** Observes MAX_WINDOWS windows of not-short calls arriving slowly (interpreted, warm-up): kept, no threshold. */
    private void makeKeptWhileSlow() {
        long now = 0;
        for (int w = 0; w < AdaptiveExclusion.MAX_WINDOWS; w++) {
            for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
                now += 10_000_000L; // a call every 10 ms: 100 a second, not hot
                assertEquals(AdaptiveExclusion.UNDECIDED, x.observe(METHOD, NOT_SHORT, now));
            }
        }
        assertEquals(AdaptiveExclusion.KEPT, x.states[METHOD]);
        assertEquals(-1L, thresholds[METHOD], "not hot when it was observed");
    }

    @Test
    void aKeptMethodThatBecomesHotLaterGetsTheHotThreshold() {
        makeKeptWhileSlow();
        long t = 5_000_000_000L;
        assertEquals(AdaptiveExclusion.UNDECIDED, x.checkRate(METHOD, t), "the first check only starts the clock");
        long rateSpan = AdaptiveExclusion.RATE_CALLS * 1_000_000L;
        assertEquals(AdaptiveExclusion.UNDECIDED, x.checkRate(METHOD, t + rateSpan), "RATE_CALLS calls in RATE_CALLS ms: 1,000 a second is not more");
        assertEquals(-1L, thresholds[METHOD]);
        assertEquals(AdaptiveExclusion.DECIDED_THRESHOLD, x.checkRate(METHOD, t + 2 * rateSpan - 1), "faster than 1,000 a second");
        assertEquals(AdaptiveExclusion.HOT_THRESHOLD_NANOS, thresholds[METHOD]);
        assertEquals(1, x.thresholdedCount());
        // From now on it is timed like any hot-thresholded method and may prove itself fast.
        for (int i = 1; i < AdaptiveExclusion.PROVE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.timedKeptCall(METHOD, false));
        }
        assertEquals(AdaptiveExclusion.DECIDED_FAST, x.timedKeptCall(METHOD, false));
    }

    @Test
    void keptCallsReadTheClockOnlyEveryRateCallsAndNeverWithAdaptiveOff() {
        makeKeptWhileSlow();
        for (int i = 1; i < AdaptiveExclusion.RATE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, x.keptCall(METHOD));
        }
        long[] off = new long[4];
        Arrays.fill(off, -1L);
        AdaptiveExclusion disabled = new AdaptiveExclusion(off, false);
        for (int i = 0; i < 4 * AdaptiveExclusion.RATE_CALLS; i++) {
            assertEquals(AdaptiveExclusion.UNDECIDED, disabled.keptCall(METHOD), "adaptive=false: every call stays written");
        }
        assertEquals(-1L, off[METHOD]);
    }

    @Test
    void aKeptMethodWithAThresholdOfItsOwnIsLeftAlone() {
        makeKeptWhileSlow();
        thresholds[METHOD] = 0L; // a rule's @0: every call written, whatever else
        long rateSpan = AdaptiveExclusion.RATE_CALLS * 1_000_000L;
        x.checkRate(METHOD, rateSpan);
        assertEquals(AdaptiveExclusion.UNDECIDED, x.checkRate(METHOD, rateSpan + 1), "hot, but @0 is a promise");
        assertEquals(0L, thresholds[METHOD]);
    }
}
