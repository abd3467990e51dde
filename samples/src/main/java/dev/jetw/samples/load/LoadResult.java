package dev.jetw.samples.load;

/** What the load generator's clients saw: replies by kind, transport errors, and the run's duration. */
public final class LoadResult {
    private final long ok;
    private final long rejected;
    private final long failed;
    private final long errors;
    private final long elapsedNanos;
    private final String firstError;

    LoadResult(long ok, long rejected, long failed, long errors, long elapsedNanos, String firstError) {
        this.ok = ok;
        this.rejected = rejected;
        this.failed = failed;
        this.errors = errors;
        this.elapsedNanos = elapsedNanos;
        this.firstError = firstError;
    }

    public long ok() {
        return ok;
    }

    public long rejected() {
        return rejected;
    }

    public long failed() {
        return failed;
    }

    /** Requests without a proper answer: ERROR replies, broken or timed-out connections. */
    public long errors() {
        return errors;
    }

    public long answered() {
        return ok + rejected + failed;
    }

    public long elapsedNanos() {
        return elapsedNanos;
    }

    /** The first error seen, or null. */
    public String firstError() {
        return firstError;
    }

    public double ordersPerSecond() {
        return elapsedNanos <= 0 ? 0 : answered() * 1e9 / elapsedNanos;
    }
}
