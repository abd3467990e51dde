package dev.jetw.analysis.stats;

/** What is known of one method's finished calls: counts, total and self time, extremes, a quantile histogram. */
public final class MethodStats {

    final int methodId;
    long calls;
    long exceptions;
    /** Sums in 100 ns units (FILETIME ticks), as every duration of the tools. */
    long total;
    /** Total less the time of the calls' traced children; settled by {@link CallStatistics#methods()}. */
    long self;
    long max;
    final LogHistogram durations = new LogHistogram();

    MethodStats(int methodId) {
        this.methodId = methodId;
    }

    void add(long duration, boolean threw) {
        calls++;
        total += duration;
        max = Math.max(max, duration);
        durations.add(duration);
        if (threw) {
            exceptions++;
        }
    }

    public int methodId() { return methodId; }

    public long calls() { return calls; }

    public long exceptions() { return exceptions; }

    public long total() { return total; }

    public long self() { return self; }

    public long max() { return max; }

    public long mean() { return calls == 0 ? 0 : total / calls; }

    /** The duration at quantile {@code q} within 1 %, never above {@link #max()}. */
    public long quantile(double q) {
        return Math.min(max, durations.quantile(q));
    }
}
