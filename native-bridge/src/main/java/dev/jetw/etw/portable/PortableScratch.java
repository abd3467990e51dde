package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.EventScratch;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A writing thread's scratch: its payload buffer and, like ETW's per-CPU buffer, the session
 * buffer it currently fills.
 *
 * <p>That buffer has two users: the owning thread, on every event, and the flusher (flush timer,
 * FlushTrace, stop, a writer short of buffers), which takes partly filled buffers from idle
 * threads. They exclude each other with {@link #owner}: one CAS to take it and a release store to
 * give it back. That is cheaper than a monitor on JDKs without biased locking, and writers of
 * different threads still share nothing.
 */
final class PortableScratch extends EventScratch {

    private static final int FREE = 0;
    private static final int WRITER = 1;
    private static final int FLUSHER = 2;
    private static final AtomicIntegerFieldUpdater<PortableScratch> OWNER =
            AtomicIntegerFieldUpdater.newUpdater(PortableScratch.class, "owner");
    /** How many failed CAS before a waiting thread yields its time slice to the holder. */
    private static final int SPINS_BEFORE_YIELD = 100;

    private volatile int owner;

    /** The buffer this scratch fills, or null; guarded by {@link #owner}. */
    TraceBuffer buffer;
    /** The session {@link #buffer} belongs to. */
    PortableSession bufferSession;
    /** The session whose flusher knows this scratch (it holds a buffer of that session). */
    PortableSession registeredWith;

    // Instance ids are handed out in blocks, so the shared counter is touched once per block.
    PortableProvider idOwner;
    int nextId;
    int idLimit;

    PortableScratch() {
        // Payloads up to the largest record; ClassicProvider cuts them to maxPayloadBytes().
        super(ByteBuffer.allocate(EtlFormat.MAX_RECORD_SIZE));
    }

    /**
     * Takes the scratch for its writer. The only other holder can be the flusher, which keeps it
     * for a hand-off of a few hundred nanoseconds, so the writer waits for that (spinning, then
     * yielding). Returns false, without waiting, when the scratch is already held by a writer:
     * that is a re-entrant write from the same thread (or a scratch shared against the
     * one-thread-per-scratch rule), which must not spin forever.
     */
    boolean acquireForWriter() {
        for (int spins = 0; !OWNER.compareAndSet(this, FREE, WRITER); spins++) {
            if (owner == WRITER) {
                return false;
            }
            if (spins >= SPINS_BEFORE_YIELD) {
                Thread.yield();
            }
        }
        return true;
    }

    /** Takes the scratch for the flusher, waiting for a writer in the middle of an event. */
    void acquireForFlusher() {
        for (int spins = 0; !OWNER.compareAndSet(this, FREE, FLUSHER); spins++) {
            if (spins >= SPINS_BEFORE_YIELD) {
                Thread.yield();
            }
        }
    }

    /** Gives the scratch back; the release store publishes what the holder wrote. */
    void release() {
        OWNER.lazySet(this, FREE);
    }
}
