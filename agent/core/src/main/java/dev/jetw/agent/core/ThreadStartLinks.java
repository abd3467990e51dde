package dev.jetw.agent.core;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Threads started from a traced call, until their first traced call takes the link (or a linked task
 * running on them discards it: a pool's worker is not the task). Weak keys: a thread that never traces
 * leaves with its Thread object. The empty check is one volatile read, so threads started outside
 * traced calls, and top-level calls when nothing is pending, pay no lock.
 */
final class ThreadStartLinks {

    private final Map<Thread, long[]> pending = new WeakHashMap<>();
    private volatile int size;

    synchronized void put(Thread thread, long link, long startNanos) {
        pending.put(thread, new long[] {link, startNanos});
        size = pending.size();
    }

    /** {link, start time} of {@code thread}, removed; null when none is pending. */
    long[] take(Thread thread) {
        if (size == 0) {
            return null;
        }
        synchronized (this) {
            long[] link = pending.remove(thread);
            size = pending.size();
            return link;
        }
    }
}
