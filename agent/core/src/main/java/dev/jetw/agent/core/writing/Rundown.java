package dev.jetw.agent.core.writing;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Method rundown: a Method DC_START (plain event, level 0 so any enabled session keeps it) for
 * each method once its class has been instrumented, and a DC_END for every method at detach or
 * stop. Names must reach the file whatever the load (a trace whose events reference an unnamed
 * method id is worth little), so every record goes through the provider's reserved path
 * ({@link ClassicProvider#writeReserved}), which may wait for a buffer: the DC_STARTs are therefore
 * written by the agent's own thread ("jetw-rundown"), never by the application thread that loaded
 * the class, and the DC_ENDs by the thread that stops the agent.
 */
public final class Rundown {

    /**
     * How long one drain (or the stop's rundown) may wait for free buffers in all (Windows: ETW has no
     * reserved space). Once it is spent, the remaining records are tried once each, so a session that
     * stays full cannot hold a stop for more than about this long.
     */
    static final long PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** How long a stop waits for the rundown thread to finish its record before writing the rest itself. */
    private static final long JOIN_MILLIS = 10_000;

    private final ClassicProvider provider;
    private final MethodRegistry registry;
    private final TraceWriter writer;
    private final ReentrantLock lock = new ReentrantLock();
    /** One permit when methods may be waiting for their DC_START. */
    private final Semaphore pending = new Semaphore(0);
    private volatile boolean closed;
    private Thread thread;

    public Rundown(ClassicProvider provider, MethodRegistry registry, TraceWriter writer) {
        this.provider = provider;
        this.registry = registry;
        this.writer = writer;
    }

    /**
     * Methods were registered: the rundown thread writes their DC_START. Never waits, so any thread
     * may call it, including an application thread inside class loading.
     */
    public void requestDrain() {
        if (closed) {
            return;
        }
        synchronized (this) {
            if (thread == null) {
                thread = dev.jetw.etw.JetwThreads.register(new Thread(this::run, "jetw-rundown"));
                thread.setDaemon(true);
                thread.start();
            }
        }
        if (pending.availablePermits() == 0) {
            pending.release();
        }
    }

    private void run() {
        while (!closed) {
            try {
                pending.acquire();
            } catch (InterruptedException e) {
                return;
            }
            pending.drainPermits();
            if (!closed) {
                drainStarts();
            }
        }
    }

    /** Writes DC_START for every method registered since the last call. */
    private void drainStarts() {
        lock.lock();
        try {
            ThreadContext c = writer.acquire();
            if (c == null) {
                return; // cannot happen on the agent's threads; the stop's drain picks the methods up
            }
            try {
                long deadline = System.nanoTime() + PATIENCE_NANOS;
                MethodRegistry.Entry e;
                while ((e = registry.pollPendingRundown()) != null) {
                    writeMethod(c, e, EventType.DC_START, deadline);
                    writer.writeKnownDecision(c, e.id);
                }
            } finally {
                writer.release(c);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * DC_START again for every registered method and live named thread: before a dump of a ring (or a
     * circular file) whose first DC_STARTs may have been overwritten, so the dump names its methods.
     */
    public void writeStartsAgain() {
        drainStarts();
        writeAll(EventType.DC_START);
    }

    /**
     * Ends the rundown thread, writes the DC_STARTs still pending, then a DC_END for every
     * registered method and every thread that wrote an event. Written last, they are the newest
     * records of the session: in a circular file or a ring they are what is overwritten last.
     */
    public void writeEnds() {
        close();
        drainStarts();
        writeAll(EventType.DC_END);
    }

    private void writeAll(int type) {
        lock.lock();
        try {
            ThreadContext c = writer.acquire();
            if (c == null) {
                return;
            }
            try {
                long deadline = System.nanoTime() + PATIENCE_NANOS;
                int n = registry.idCount();
                for (int id = 1; id <= n; id++) {
                    writeMethod(c, registry.entry(id), type, deadline);
                }
                writer.threadRundown(c, type, deadline);
            } finally {
                writer.release(c);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops the rundown thread (at stop, or when the agent fails to start). */
    public void close() {
        closed = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            pending.release();
            try {
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What is left of a deadline's patience, 0 once it has passed. */
    static long patienceUntil(long deadline) {
        return Math.max(0L, deadline - System.nanoTime());
    }

    private void writeMethod(ThreadContext c, MethodRegistry.Entry e, int type, long deadline) {
        ByteBuffer p = c.scratch.payload(4 + Payloads.utf16zBytes(e.className) + Payloads.utf16zBytes(e.methodName)
                + Payloads.utf16zBytes(e.descriptor));
        p.putInt(e.id);
        Payloads.putUtf16z(p, e.className);
        Payloads.putUtf16z(p, e.methodName);
        Payloads.putUtf16z(p, e.descriptor);
        provider.writeReserved(c.scratch, type, 0, JetwSchema.METHOD_INDEX, 0, -1, 0, patienceUntil(deadline));
    }
}
