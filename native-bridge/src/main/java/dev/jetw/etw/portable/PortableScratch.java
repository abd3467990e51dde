package dev.jetw.etw.portable;

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
    /** How long the flusher waits for a writer before giving the scratch up as stuck. */
    static final long FLUSHER_PATIENCE_NANOS = 1_000_000_000L;

    private volatile int owner;
    /**
     * The thread holding the flag as flusher, or null; written only by that thread while it holds
     * the flag, and compared only with the reader's own thread, for which its own writes are exact.
     */
    private Thread flusherThread;

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
        // Grows on demand (EventScratch.payload(int)); ClassicProvider cuts payloads to maxPayloadBytes().
        super(ByteBuffer.allocate(INITIAL_PAYLOAD));
    }

    /**
     * Takes the scratch for its writer. The only other holder can be the flusher, which keeps it
     * for a hand-off of a few hundred nanoseconds, so the writer waits for that (spinning, then
     * yielding). Returns false, without waiting, when the caller itself holds the scratch: a write
     * re-entering from code that runs inside its own thread's write, or inside a flush this same
     * thread is doing (code the agent traces can run there); waiting would be forever.
     */
    boolean acquireForWriter() {
        for (int spins = 0; !OWNER.compareAndSet(this, FREE, WRITER); spins++) {
            int o = owner;
            if (o == WRITER || (o == FLUSHER && flusherThread == Thread.currentThread())) {
                return false;
            }
            if (spins >= SPINS_BEFORE_YIELD) {
                Thread.yield();
            }
        }
        return true;
    }

    /**
     * Takes the scratch for the flusher, waiting for a writer in the middle of an event (a write
     * holds it for well under a microsecond). Returns false after {@link #FLUSHER_PATIENCE_NANOS}:
     * only a writer killed inside a write (a fatal error) leaves the flag taken, and a flush, a
     * stop or a pruning thread must not wait for it forever.
     */
    boolean acquireForFlusher() {
        long deadline = 0;
        for (int spins = 0; !OWNER.compareAndSet(this, FREE, FLUSHER); spins++) {
            if (spins >= SPINS_BEFORE_YIELD) {
                long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + FLUSHER_PATIENCE_NANOS;
                } else if (now - deadline > 0) {
                    return false;
                }
                Thread.yield();
            }
        }
        flusherThread = Thread.currentThread();
        return true;
    }

    /** The writer gives the scratch back; the release store publishes what it wrote. */
    void release() {
        OWNER.lazySet(this, FREE);
    }

    /** The flusher gives the scratch back. */
    void releaseFlusher() {
        flusherThread = null; // before the release store: no later holder sees a stale flusher
        OWNER.lazySet(this, FREE);
    }
}
