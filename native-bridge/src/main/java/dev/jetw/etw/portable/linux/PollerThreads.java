package dev.jetw.etw.portable.linux;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The collector's poller threads (tracefs's {@link PagePoller}s, perf's {@link PerfSampler}): daemon threads
 * registered as jetw's ({@code JetwThreads}, so that jetw's runtime events leave them out), started and waited for
 * until they run, and their CPU time for the stop line.
 */
final class PollerThreads {

    /** A poller's body. */
    interface Loop {
        void run() throws Exception;
    }

    /** Where a poller's body's failure goes (kept for the problems at stop). */
    interface Failure {
        void failed(Throwable e);
    }

    private PollerThreads() {
    }

    /**
     * Starts daemon thread {@code name}, which runs {@code first} (on itself: e.g. to learn its OS thread id), then
     * {@code loop}; returns once {@code first} ran (at most 5 s).
     */
    static Thread start(String name, final Runnable first, final Loop loop, final Failure failure) {
        final CountDownLatch started = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            first.run();
            started.countDown();
            try {
                loop.run();
            } catch (Throwable e) {
                failure.failed(e);
            }
        }, name);
        dev.jetw.etw.JetwThreads.register(thread);
        thread.setDaemon(true);
        thread.start();
        try {
            started.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return thread;
    }

    /** Waits up to {@code millis} for {@code thread} (null: none) to end; true when it has. */
    static boolean join(Thread thread, long millis) {
        if (thread == null) {
            return true;
        }
        try {
            thread.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** CPU time {@code thread} used so far, ns; 0 for no thread, -1 when unknown (or once it ended). */
    static long cpuNanos(Thread thread) {
        if (thread == null) {
            return 0;
        }
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        try {
            return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(thread.getId()) : -1;
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    /** The calling thread's CPU time, ns; -1 when unknown (a poller reads its own at its end: a dead thread's is gone). */
    static long ownCpuNanos() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        try {
            return mx.isCurrentThreadCpuTimeSupported() ? mx.getCurrentThreadCpuTime() : -1;
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }
}
