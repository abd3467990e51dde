package dev.jetw.bootstrap;

/**
 * What the agent core plugs into {@link Handoff} when cross-thread links are on ({@code propagate=true}).
 * Same rules as {@link CallHandler}: no blocking, nothing thrown on purpose (Handoff catches and counts).
 */
public interface HandoffHandler {

    /**
     * The calling thread's innermost open traced call (or running linked task) as a link:
     * {@code classIndex << 32 | instanceId}; 0 when the thread is in no traced call (the task is not linked).
     */
    long link();

    /**
     * A linked task begins on the calling thread: writes its DEQUEUE (parent = {@code link}, wait =
     * now - {@code dueNanos}) and makes it the parent of the task's traced calls.
     *
     * @return a token for {@link #taskEnded}; 0 when nothing was written
     */
    long taskStarting(long link, long dueNanos, int kind);

    /** The task begun with {@code token} returned (normally or not). */
    void taskEnded(long token);
}
