package dev.jetw.etw.portable;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A session's buffers: MinimumBuffers allocated at start, grown on demand up to MaximumBuffers
 * (EVENT_TRACE_PROPERTIES semantics). Lock-free; touched once per buffer, never per event.
 */
final class BufferPool {

    private final int bufferSize;
    private final ConcurrentLinkedQueue<TraceBuffer> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger freeCount = new AtomicInteger();
    private final AtomicInteger allocated = new AtomicInteger();
    private volatile int maximum;

    BufferPool(int bufferSize, int minimum, int maximum) {
        this.bufferSize = bufferSize;
        this.maximum = Math.max(minimum, maximum);
        for (int i = 0; i < minimum; i++) {
            allocated.incrementAndGet();
            release(new TraceBuffer(bufferSize));
        }
    }

    /** A free buffer, a new one while under the maximum, or null when the pool is exhausted. */
    TraceBuffer acquire() {
        TraceBuffer b = free.poll();
        if (b != null) {
            freeCount.decrementAndGet();
            return b;
        }
        for (;;) {
            int n = allocated.get();
            if (n >= maximum) {
                return null;
            }
            if (allocated.compareAndSet(n, n + 1)) {
                return new TraceBuffer(bufferSize);
            }
        }
    }

    void release(TraceBuffer b) {
        if (b instanceof ReservedBuffer) {
            return; // not one of the pool's: garbage once written
        }
        b.reset();
        freeCount.incrementAndGet();
        free.offer(b);
    }

    /** ETW lets UPDATE raise MaximumBuffers; lowering it only stops further growth. */
    void setMaximum(int max) {
        maximum = max;
    }

    int maximum() {
        return maximum;
    }

    int numberOfBuffers() {
        return allocated.get();
    }

    int freeBuffers() {
        return freeCount.get();
    }

    int bufferSize() {
        return bufferSize;
    }
}
