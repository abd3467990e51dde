package dev.jetw.bench.real;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The attach transient's arithmetic on made-up ticks, where the lost work and the stretch below 0.5 x are known exactly. */
class ThroughputTimelineTest {

    /** 200 rounds/s for 10 s, then 1 s at 0, 1 s at 100/s (0.5 x, not below), 1 s at 80/s, then 200/s again; ticks every 250 ms. */
    private static ThroughputTimeline timeline() {
        ThroughputTimeline t = new ThroughputTimeline();
        long rounds = 0;
        for (long ms = 0; ms <= 20_000; ms += 250) {
            t.add(ms, rounds);
            long rate = ms < 10_000 ? 200 : ms < 11_000 ? 0 : ms < 12_000 ? 100 : ms < 13_000 ? 80 : 200;
            rounds += rate / 4;
        }
        return t;
    }

    @Test
    void lostWorkIsTheMissingRoundsInBaselineSeconds() {
        ThroughputTimeline.Transient tr = timeline().after(10_000, 5_000, 8_000);
        assertEquals(200.0, tr.baselinePerSecond, 1e-9);
        // 1 s at 0 (1.0 lost) + 1 s at 0.5 (0.5) + 1 s at 0.4 (0.6) = 2.1 baseline-seconds
        assertEquals(2.1, tr.lostBaselineSeconds, 1e-9);
        assertEquals(1_000, tr.longestBelowHalfMillis, "0.5 x is not below half; the 0.4 x second is its own stretch");
    }

    @Test
    void anEventInsideATickCountsFromTheEventOn() {
        // From 10.1 s (inside the tick of 10.0-10.25 s): 0.9 s at 0, then as above; the baseline's ticks are 5.25-10.0 s.
        ThroughputTimeline.Transient tr = timeline().after(10_100, 5_000, 8_000);
        assertEquals(200.0, tr.baselinePerSecond, 1e-9);
        assertEquals(0.9 + 0.5 + 0.6, tr.lostBaselineSeconds, 1e-9);
        assertEquals(1_000, tr.longestBelowHalfMillis);
    }

    @Test
    void twoTicksInOneMillisecondAreOne() {
        ThroughputTimeline t = new ThroughputTimeline();
        t.add(0, 0);
        t.add(1_000, 100);
        t.add(1_000, 101);
        t.add(2_000, 201);
        ThroughputTimeline.Transient tr = t.after(1_000, 1_000, 1_000);
        assertEquals(101.0, tr.baselinePerSecond, 1e-9);
        assertEquals(1 - 100 / 101.0, tr.lostBaselineSeconds, 1e-9, "no interval of length 0 (NaN)");
    }

    @Test
    void perSecondRatios() {
        ThroughputTimeline t = timeline();
        assertArrayEquals(new double[] {1.0, 0.0, 0.5, 0.4, 1.0}, t.perSecond(9_000, 5, 200.0), 1e-9);
    }
}
