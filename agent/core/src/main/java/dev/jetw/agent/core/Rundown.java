package dev.jetw.agent.core;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventType;

import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Method rundown: a Method DC_START (plain event, level 0 so any enabled session keeps it) for
 * each method when its class has been instrumented, and a DC_END for every method at detach or
 * stop. Runs on class-loading and attach threads, never on the hot path, so it may take a lock.
 */
final class Rundown {

    private final ClassicProvider provider;
    private final MethodRegistry registry;
    private final TraceWriter writer;
    private final ReentrantLock lock = new ReentrantLock();

    Rundown(ClassicProvider provider, MethodRegistry registry, TraceWriter writer) {
        this.provider = provider;
        this.registry = registry;
        this.writer = writer;
    }

    /** Writes DC_START for every method registered since the last call. */
    void drainStarts() {
        // A class loaded while this thread already writes rundown is drained by the outer loop.
        if (lock.isHeldByCurrentThread()) {
            return;
        }
        lock.lock();
        try {
            ThreadContext c = writer.acquire();
            if (c == null) {
                return; // inside an event on this thread: the next drain picks the methods up
            }
            try {
                MethodRegistry.Entry e;
                while ((e = registry.pollPendingRundown()) != null) {
                    writeMethod(c, e, EventType.DC_START);
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
    void writeStartsAgain() {
        drainStarts();
        writeAll(EventType.DC_START);
    }

    /** DC_END for every registered method and every named thread. */
    void writeEnds() {
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
                int n = registry.count();
                for (int id = 1; id <= n; id++) {
                    writeMethod(c, registry.entry(id), type);
                }
                writer.threadRundown(c, type);
            } finally {
                writer.release(c);
            }
        } finally {
            lock.unlock();
        }
    }

    private void writeMethod(ThreadContext c, MethodRegistry.Entry e, int type) {
        ByteBuffer p = c.scratch.payload(4 + Payloads.utf16zBytes(e.className) + Payloads.utf16zBytes(e.methodName)
                + Payloads.utf16zBytes(e.descriptor));
        p.putInt(e.id);
        Payloads.putUtf16z(p, e.className);
        Payloads.putUtf16z(p, e.methodName);
        Payloads.putUtf16z(p, e.descriptor);
        provider.write(c.scratch, type, 0, JetwSchema.METHOD_INDEX, 0, -1, 0);
    }
}
