package dev.jetw.agent.jfr;

import java.time.Instant;

/**
 * Converts JFR's event times (wall-clock Instants, derived by JFR from its tick counter) into
 * {@code System.nanoTime()} readings, the clock the provider's caller-set time stamps take. The
 * offset between the two clocks is measured on the consumer thread from the closest of a few
 * back-to-back readings, and measured again at every flush so that a wall clock slewed by NTP moves
 * the offset with it. Error: the resolution of JFR's own tick-to-wall-clock conversion plus a few
 * microseconds.
 */
final class JfrClock {

    private long epochMinusNano;

    JfrClock() {
        calibrate();
    }

    /** Consumer thread only. */
    void calibrate() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long before = System.nanoTime();
            Instant now = Instant.now();
            long after = System.nanoTime();
            if (after - before < best) {
                best = after - before;
                offset = epochNanos(now) - (before + (after - before) / 2);
            }
        }
        epochMinusNano = offset;
    }

    /** The {@code System.nanoTime()} value of {@code t}. */
    long nanoTime(Instant t) {
        return epochNanos(t) - epochMinusNano;
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
