package dev.jetw.etw.portable;

import dev.jetw.etl.EtlBufferWriter;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * EVENT_TRACE_BUFFERING_MODE: an in-memory ring of MinimumBuffers full buffers; when a new one
 * arrives on a full ring, the oldest is overwritten (returned to the pool). A writer that finds
 * the pool exhausted also takes the oldest ring buffer, as ETW reuses it. Nothing reaches the disk
 * until FlushTrace or stop: then the ring (oldest first) is appended to the log file, which is
 * created at that first flush. The flush timer does not apply.
 */
final class BufferingSink implements LogSink {

    private final PortableSession session;
    private final LogFileLock reservation;
    private final int capacity;
    private final ArrayDeque<TraceBuffer> ring = new ArrayDeque<>();
    /** Reserved buffers (name records): kept whole, written after the ring at each flush; guarded by {@link #ring}. */
    private final ArrayDeque<TraceBuffer> afterRing = new ArrayDeque<>();
    private EtlOutputFile file;
    private int buffersInFile;

    /** @param reservation the log file, reserved but not yet created; null for no file */
    BufferingSink(PortableSession session, LogFileLock reservation, int capacity) {
        this.session = session;
        this.reservation = reservation;
        this.capacity = Math.max(1, capacity);
    }

    @Override
    public void accept(TraceBuffer b) {
        session.reached(b); // written = reached the ring; the ring overwrites its oldest by design
        TraceBuffer overwritten = null;
        synchronized (ring) {
            if (ring.size() >= capacity) {
                overwritten = ring.pollFirst();
            }
            ring.addLast(b);
        }
        if (overwritten != null) {
            session.pool.release(overwritten);
        }
    }

    /**
     * A reserved buffer (see {@link PortableSession#writeReserved}): never overwritten nor stolen,
     * appended to the file after the ring, so the names of the methods and threads that the ring's
     * surviving events reference are in the file whatever the ring kept.
     */
    void acceptAfterRing(TraceBuffer b) {
        session.reached(b); // in the ring's keeping now, never overwritten: written, as the ring's own events
        synchronized (ring) {
            afterRing.addLast(b);
        }
    }

    /** The oldest buffer of the ring, emptied, for a writer that found no free buffer; or null. */
    TraceBuffer stealOldest() {
        TraceBuffer b;
        synchronized (ring) {
            b = ring.pollFirst();
        }
        if (b != null) {
            b.reset();
        }
        return b;
    }

    @Override
    public void flush() throws IOException {
        if (reservation == null) {
            return;
        }
        if (file == null) {
            reservation.openChannel();
            file = new EtlOutputFile(session, reservation);
            buffersInFile = 1;
        }
        for (;;) {
            TraceBuffer b;
            synchronized (ring) {
                b = ring.isEmpty() ? afterRing.pollFirst() : ring.pollFirst();
            }
            if (b == null) {
                break;
            }
            try {
                file.write(b, buffersInFile, buffersInFile, buffersInFile + 1);
                buffersInFile++;
            } finally {
                session.pool.release(b);
            }
        }
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
            if (file != null) {
                file.updateHeader(buffersInFile);
            }
        } finally {
            if (reservation != null && file == null) {
                reservation.discard(); // created at a flush whose header never reached the disk: no 0-byte file left
            } else if (reservation != null) {
                reservation.close();
            }
        }
    }

    /**
     * A dump: the ring's buffers, oldest first, then the reserved name buffers kept after it (as the
     * file at stop has them), copied one at a time under the ring's lock (a writer short of buffers
     * waits at most one copy); the thread that asked writes them.
     */
    @Override
    public SessionDump snapshot() {
        java.util.List<TraceBuffer> snapshot = new java.util.ArrayList<>();
        synchronized (ring) {
            snapshot.addAll(ring);
            snapshot.addAll(afterRing);
        }
        java.util.List<java.nio.ByteBuffer> sealed = new java.util.ArrayList<>();
        for (TraceBuffer b : snapshot) {
            synchronized (ring) {
                if (!ring.contains(b) && !afterRing.contains(b)) {
                    continue; // stolen by a writer since the snapshot: its events are gone from the ring
                }
                java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(session.bufferSize).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                b.copyRecordsTo(bytes);
                // The dump's SequenceNumbers are 1..n in this order: sealed now, written as they are.
                EtlBufferWriter.sealData(bytes, b.used, b.lastTimeStamp, sealed.size() + 1, session.loggerId, b.processor);
                sealed.add(bytes);
            }
        }
        return new RingDump(session, sealed);
    }

    @Override
    public boolean flushTimerApplies() {
        return false;
    }

    @Override
    public String logFileName() {
        return reservation == null ? null : reservation.path().toString();
    }
}
