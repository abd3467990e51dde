package dev.jetw.bench.real;

import java.util.ArrayList;
import java.util.List;

/**
 * A run's throughput as ticks (uptime ms, rounds completed), and what an event at one instant cost it:
 * the baseline is the rate over the {@code baselineMillis} before the event; lost work is
 * the integral of (1 - rate / baseline) over the window after it, in baseline-seconds (the seconds the
 * application would have needed at its baseline pace for the rounds it did not do); the longest stretch
 * below a fraction of the baseline is measured over whole ticks. Ticks straddling the event count from
 * the event on, pro rata.
 */
final class ThroughputTimeline {

    private final List<long[]> ticks = new ArrayList<>();

    void add(long uptimeMillis, long rounds) {
        long[] last = ticks.isEmpty() ? null : ticks.get(ticks.size() - 1);
        if (last != null && last[0] >= uptimeMillis) {
            last[1] = rounds; // a late ticker's second tick in the same millisecond: one tick, no interval of length 0
            return;
        }
        ticks.add(new long[] {uptimeMillis, rounds});
    }

    int size() {
        return ticks.size();
    }

    /** Rounds per second between {@code fromMillis} and {@code toMillis}, from the ticks inside them. */
    double rate(long fromMillis, long toMillis) {
        long[] first = null;
        long[] last = null;
        for (long[] t : ticks) {
            if (t[0] >= fromMillis && t[0] <= toMillis) {
                if (first == null) {
                    first = t;
                }
                last = t;
            }
        }
        if (first == null || last == first) {
            throw new IllegalStateException("fewer than two ticks between " + fromMillis + " and " + toMillis + " ms");
        }
        return (last[1] - first[1]) * 1000.0 / (last[0] - first[0]);
    }

    /** What the window of {@code windowMillis} after {@code eventMillis} lost against the rate before it. */
    Transient after(long eventMillis, long baselineMillis, long windowMillis) {
        double base = rate(eventMillis - baselineMillis, eventMillis);
        long end = eventMillis + windowMillis;
        double lost = 0;
        long longestBelowHalf = 0;
        long belowHalf = 0;
        for (int i = 1; i < ticks.size(); i++) {
            long t0 = ticks.get(i - 1)[0];
            long t1 = ticks.get(i)[0];
            if (t1 <= eventMillis || t0 >= end) {
                continue;
            }
            double ratio = (ticks.get(i)[1] - ticks.get(i - 1)[1]) * 1000.0 / (t1 - t0) / base;
            long from = Math.max(t0, eventMillis);
            long to = Math.min(t1, end);
            lost += (1 - ratio) * (to - from) / 1000.0;
            if (ratio < 0.5) {
                belowHalf += to - from;
                longestBelowHalf = Math.max(longestBelowHalf, belowHalf);
            } else {
                belowHalf = 0;
            }
        }
        return new Transient(base, lost, longestBelowHalf);
    }

    /** Throughput as a fraction of {@code base} per whole second from {@code fromMillis}, {@code seconds} of them. */
    double[] perSecond(long fromMillis, int seconds, double base) {
        double[] r = new double[seconds];
        for (int s = 0; s < seconds; s++) {
            r[s] = rate(fromMillis + s * 1000L, fromMillis + (s + 1) * 1000L) / base;
        }
        return r;
    }

    /** The figures of one window after an event. */
    static final class Transient {
        final double baselinePerSecond;
        final double lostBaselineSeconds;
        final long longestBelowHalfMillis;

        Transient(double baselinePerSecond, double lostBaselineSeconds, long longestBelowHalfMillis) {
            this.baselinePerSecond = baselinePerSecond;
            this.lostBaselineSeconds = lostBaselineSeconds;
            this.longestBelowHalfMillis = longestBelowHalfMillis;
        }
    }
}
