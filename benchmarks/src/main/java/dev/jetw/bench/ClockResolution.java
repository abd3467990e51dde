package dev.jetw.bench;

import java.util.Locale;

/**
 * The precision each {@link ClockSources} source gives in practice: reads it back to back and
 * reports the smallest and the median step between two different values (nanoseconds). A read
 * that costs more than the clock's resolution shows its own cost as the step (nanoTime); a coarse
 * clock shows its tick. Run: {@code java -cp benchmarks/target/benchmarks.jar dev.jetw.bench.ClockResolution}
 * (on Java 22+ it includes the FFM-called clock_gettime sources).
 */
public final class ClockResolution {

    interface Source {
        long read() throws Throwable;
    }

    private ClockResolution() {
    }

    public static void main(String[] args) throws Throwable {
        report("System.nanoTime()", System::nanoTime);
        report("System.currentTimeMillis()", ClockSources::currentTimeMillisAsNanos);
        report("Clock.systemUTC().millis()", ClockSources::clockMillisAsNanos);
        report("Instant.now()", ClockSources::instantNanos);
        for (long periodMicros : new long[] {1_000, 100, 10}) {
            try (ClockSources.Ticker ticker = new ClockSources.Ticker(periodMicros * 1_000)) {
                report("ticker thread, parkNanos(" + periodMicros + " us), volatile read", ticker::now);
            }
        }
        if (ClockSources.FFM_PROBLEM != null) {
            System.out.println("FFM sources skipped: " + ClockSources.FFM_PROBLEM);
            return;
        }
        report("FFM clock_gettime(CLOCK_MONOTONIC)", () -> ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC, false));
        report("FFM clock_gettime(CLOCK_MONOTONIC_COARSE)",
                () -> ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC_COARSE, false));
        report("FFM critical clock_gettime(CLOCK_MONOTONIC_COARSE)",
                () -> ClockSources.clockGettime(ClockSources.CLOCK_MONOTONIC_COARSE, true));
    }

    /** Reads until 2,000 changes were seen (or 2 s passed), after a warm-up of the same. */
    private static void report(String name, Source source) throws Throwable {
        steps(source, 200);
        long[] steps = steps(source, 2_000);
        java.util.Arrays.sort(steps);
        int n = steps.length;
        System.out.println(String.format(Locale.ROOT, "%-55s changes %5d  min step %,12d ns  median step %,12d ns",
                name, n, n == 0 ? 0 : steps[0], n == 0 ? 0 : steps[n / 2]));
    }

    private static long[] steps(Source source, int wanted) throws Throwable {
        long[] steps = new long[wanted];
        int n = 0;
        long deadline = System.nanoTime() + 2_000_000_000L;
        long previous = source.read();
        long reads = 0;
        // The deadline is checked every 4,096 reads only, so that its own nanoTime adds nothing to the steps.
        while (n < wanted && ((++reads & 4095) != 0 || System.nanoTime() < deadline)) {
            long v = source.read();
            if (v != previous) {
                steps[n++] = v - previous;
                previous = v;
            }
        }
        return java.util.Arrays.copyOf(steps, n);
    }
}
