package dev.jetw.bootstrap;

/**
 * What the agent core plugs into {@link Dispatcher}. Implementations must not allocate per call,
 * must not block and should not throw (the dispatcher catches and counts it if they do).
 */
public interface CallHandler {

    /**
     * A traced method was entered.
     *
     * @return a token handed back to {@link #exit}; 0 when nothing was written (filtered, busy)
     */
    long enter(int methodId);

    /** The method entered with {@code token} returned, normally ({@code thrown == null}) or by exception. */
    void exit(int methodId, long token, Throwable thrown);

    /** {@code Jetw.checkpoint(label, level)} was called. */
    void checkpoint(String label, int level);
}
