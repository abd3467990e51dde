package dev.jetw.etw.portable;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The session's logger thread ("jetw-logger-&lt;session&gt;"): takes full buffers from the writers,
 * hands them to the sink, runs the flush timer, and executes flush and stop requests in order
 * with the buffers queued before them. The only thread that does I/O for the session.
 */
final class SessionLogger implements Runnable {

    /** A request queued behind the buffers: flush (and stop). */
    static final class Request extends TraceBuffer {
        final boolean stop;
        final boolean drainOnly;
        /** A dump request: the logger answers with {@link #snapshot}. */
        boolean dump;
        volatile SessionDump snapshot;
        final CountDownLatch done = new CountDownLatch(1);
        volatile IOException error;

        Request(boolean stop, boolean drainOnly) {
            super(0);
            this.stop = stop;
            this.drainOnly = drainOnly;
        }
    }

    /** Queued by a writer that found no free buffer: take back the buffers idle threads still hold. */
    private static final TraceBuffer COLLECT = new TraceBuffer(0);

    private final PortableSession session;
    private final LinkedBlockingQueue<TraceBuffer> queue = new LinkedBlockingQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean collectRequested = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile CountDownLatch pauseGate;
    volatile IOException lastError;

    SessionLogger(PortableSession session) {
        this.session = session;
    }

    /** Hands a buffer (or a request) to the logger. Never blocks: the queue is unbounded, the pool is not. */
    void submit(TraceBuffer b) {
        queue.offer(b);
    }

    /**
     * Called by a writer that found the pool empty. Buffers are per thread, not per CPU, so idle
     * threads may hold partly filled buffers; the logger takes them back at once instead of at the
     * next flush-timer tick (or never, with FlushTimer 0). At most one request is queued at a time.
     */
    void requestCollect() {
        if (collectRequested.compareAndSet(false, true)) {
            queue.offer(COLLECT);
        }
    }

    @Override
    public void run() {
        dev.jetw.etw.JetwThreads.registerCurrentOsThread(); // its writes of the trace file are jetw's, not the application's
        try {
            log();
        } finally {
            dev.jetw.etw.JetwThreads.unregisterCurrentOsThread(); // the kernel may give its id to an application thread
        }
    }

    /** Writes buffers, flushes on the timer and serves requests until a stop request. */
    private void log() {
        int timer = session.flushTimerSeconds;
        long nextFlush = nextFlushDeadline(System.nanoTime());
        for (;;) {
            if (timer != session.flushTimerSeconds) { // changed by UPDATE: restart the period
                timer = session.flushTimerSeconds;
                nextFlush = nextFlushDeadline(System.nanoTime());
            }
            // The timer is checked on every turn, so a steady stream of full buffers cannot starve it.
            if (System.nanoTime() - nextFlush >= 0) {
                if (session.sink.flushTimerApplies()) {
                    session.collectPartialBuffers();
                }
                nextFlush = nextFlushDeadline(System.nanoTime());
            }
            TraceBuffer b;
            try {
                long wait = nextFlush - System.nanoTime();
                b = wait > 0 ? queue.poll(wait, TimeUnit.NANOSECONDS) : queue.poll();
                awaitGate();
            } catch (InterruptedException e) {
                // Only stop ends the logger; an interrupt is not a request.
                continue;
            }
            if (b == null) {
                continue;
            }
            if (b == COLLECT) {
                collectRequested.set(false);
                session.collectPartialBuffers();
                continue;
            }
            if (b instanceof Request) {
                Request r = (Request) b;
                try {
                    if (r.dump) {
                        r.snapshot = session.sink.snapshot();
                    } else if (r.drainOnly) {
                        ((RealTimeSink) session.sink).drainBacklog();
                    } else if (r.stop) {
                        session.sink.close();
                    } else {
                        session.sink.flush();
                    }
                } catch (IOException | RuntimeException e) {
                    r.error = e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
                    if (!r.dump) { // a failed dump is the dump's failure, not the log's
                        lastError = r.error;
                        session.reportWriteError(r.error);
                    }
                } finally {
                    r.done.countDown();
                }
                if (r.stop) {
                    return;
                }
                continue;
            }
            int events = b.events - b.notices; // the sink returns b to the pool even when it fails
            boolean kernel = b.kernel;
            try {
                session.sink.accept(b);
            } catch (IOException | RuntimeException e) {
                // The buffer did not reach the file (disk full, file gone): ETW counts it lost.
                lastError = e instanceof IOException ? (IOException) e : new IOException(e.toString(), e);
                session.writeFailed(events, kernel, lastError);
            }
        }
    }

    private long nextFlushDeadline(long now) {
        int seconds = session.flushTimerSeconds;
        return seconds > 0 ? now + TimeUnit.SECONDS.toNanos(seconds) : now + TimeUnit.DAYS.toNanos(1);
    }

    private void awaitGate() throws InterruptedException {
        CountDownLatch g = pauseGate;
        if (g != null) {
            g.await();
        }
    }

    /** Test hook: the logger stops taking buffers until {@link #resume()}, like a stalled disk. */
    void pause() {
        pauseGate = new CountDownLatch(1);
    }

    void resume() {
        CountDownLatch g = pauseGate;
        pauseGate = null;
        if (g != null) {
            g.countDown();
        }
    }
}
