package dev.jetw.analysis.stats;

import java.util.Arrays;

/**
 * Counts of non-negative durations in logarithmic buckets, each {@link #GROWTH} times as wide as the
 * one before: any quantile is answered within 1 % of a recorded value (the bucket's midpoint on the
 * log scale), in memory that grows with the range of the durations, not their number: about 1,900
 * ints cover 1 (100 ns) to 10^15 (3 years). Values 0 and 1 share bucket 0. Not thread-safe.
 */
public final class LogHistogram {

    /** Relative width of a bucket: quantiles are within half of that (1 %) of a true value. */
    static final double GROWTH = 1.02;
    private static final double LOG_GROWTH = Math.log(GROWTH);

    private int[] counts = new int[16];
    private long total;

    /** Records one value (negative values are counted as 0). */
    public void add(long value) {
        int i = bucket(value);
        if (i >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(i + 1, counts.length * 2));
        }
        counts[i]++;
        total++;
    }

    public long count() {
        return total;
    }

    /** The value at quantile {@code q} (0..1), within 1 %; 0 when empty. */
    public long quantile(double q) {
        if (total == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * total));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return representative(i);
            }
        }
        return representative(counts.length - 1);
    }

    static int bucket(long value) {
        return value <= 1 ? 0 : 1 + (int) (Math.log(value) / LOG_GROWTH);
    }

    /** The geometric middle of bucket {@code i}: within {@code sqrt(GROWTH)} of every value in it. */
    static long representative(int i) {
        return i == 0 ? 1 : Math.round(Math.pow(GROWTH, i - 0.5));
    }
}
