package dev.jetw.etw.portable.linux;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Pairs each block request's start with its completion and names the thread that caused it, giving what
 * Windows logs as DiskIo Read/Write/FlushBuffers (version 3: with IssuingThreadId).
 *
 * <p>Start: block_io_start (6.5+; logged when a bio becomes a request, in the submitting task's context, so
 * common_pid is the thread that did the read/write/fsync); before 6.5, block_bio_queue plays that part.
 * Completion: block_rq_complete, logged in interrupt context on any CPU (common_pid is whoever was
 * interrupted), hence collected by an unfiltered instance. They are paired by (dev, sector) first-in first-out,
 * after re-ordering by time: events are held for a window (1 s by default; {@link #flush} at stop), because
 * pairing in arrival order went wrong when a journal block's successive writes were logged on different CPUs.
 *
 * <p>Measured on 6.18 / virtio-blk / ext4, a write+fsync gives: WS data request and WSM metadata requests
 * started and issued by the writing thread; then a preflush "FWS 0+0" request started by the writing thread,
 * for which blk-flush issues an internal "FF" request from a kworker that completes with sector = -1, after
 * which the "FWS" request completes as "WS 0+0". So: a request of 0 sectors whose rwbs starts with 'F' is a
 * flush (FlushBuffers), keyed by dev alone; "FF" records (the internal flush request: no io_start, complete
 * sector -1) match nothing and are ignored.
 */
final class BlockIoMatcher {

    /** One finished request. Times in trace-clock ns. */
    public static final class DiskIo {
        public final int dev;
        public final long sector;
        public final int bytes;
        public final String rwbs;
        public final int issuingTid;
        public final long startTs;
        public final long completeTs;
        public final int completeCpu;
        public final int error;
        public final long id;

        DiskIo(int dev, long sector, int bytes, String rwbs, int issuingTid, long startTs, long completeTs,
               int completeCpu, int error, long id) {
            this.dev = dev;
            this.sector = sector;
            this.bytes = bytes;
            this.rwbs = rwbs;
            this.issuingTid = issuingTid;
            this.startTs = startTs;
            this.completeTs = completeTs;
            this.completeCpu = completeCpu;
            this.error = error;
            this.id = id;
        }

        /**
         * DiskIo event type: 10 Read, 11 Write, 14 FlushBuffers; -1 for a discard or secure erase (rwbs D/E: no
         * data moves, DiskIo has no type for it; ext4 mounted with "discard" issues them when a file is deleted).
         */
        public int etwType() {
            if (isFlush(rwbs, bytes / 512)) {
                return 14;
            }
            String op = rwbs.startsWith("F") && rwbs.length() > 1 ? rwbs.substring(1) : rwbs;
            if (op.startsWith("D") || op.startsWith("E")) {
                return -1;
            }
            return op.startsWith("R") ? 10 : 11;
        }

        public long responseNanos() {
            return completeTs - startTs;
        }

        public int major() {
            return dev >>> 20;
        }

        public int minor() {
            return dev & 0xFFFFF;
        }

        @Override
        public String toString() {
            return String.format("%s %d,%d %s sector %d %d bytes by tid %d, %.3f ms%s",
                    etwType() == 10 ? "Read" : etwType() == 11 ? "Write" : etwType() == 14 ? "FlushBuffers" : "Discard", major(), minor(), rwbs,
                    sector, bytes, issuingTid, responseNanos() / 1e6, error != 0 ? " error " + error : "");
        }
    }

    interface DiskIoSink {
        /** A request began (its start event, in time order): {@code id} is the number its completion will carry. */
        void started(int cpu, long ts, int issuingTid, String rwbs, boolean flush, long id);

        /** A request completed, paired with its start. */
        void diskIo(DiskIo io);
    }

    /** A block event held until every CPU has surely been read past it; a start then waits for its completion. */
    private static final class Held {
        final int cpu;
        final long ts;
        final TracepointSink.BlockPhase phase;
        final int tid;
        final int dev;
        final long sector;
        final int nrSector;
        final String rwbs;
        final int error;
        /** A start's request number, once processed. */
        long id;

        Held(int cpu, long ts, TracepointSink.BlockPhase phase, int tid, int dev, long sector, int nrSector, String rwbs,
             int error) {
            this.cpu = cpu;
            this.ts = ts;
            this.phase = phase;
            this.tid = tid;
            this.dev = dev;
            this.sector = sector;
            this.nrSector = nrSector;
            this.rwbs = rwbs;
            this.error = error;
        }
    }

    private final Map<Long, ArrayDeque<Held>> pending = new HashMap<Long, ArrayDeque<Held>>();
    /**
     * Events wait here, in time order, until they are {@code windowNanos} older than the newest event seen: the
     * CPUs' buffers are read one after the other, so a start logged on one CPU can be decoded after the
     * completion logged on another, and a sector (a journal block) is written again and again. Processed in time
     * order, a plain FIFO per (dev, sector) pairs them right.
     */
    private final java.util.PriorityQueue<Held> held = new java.util.PriorityQueue<Held>(64,
            new java.util.Comparator<Held>() {
                @Override
                public int compare(Held a, Held b) {
                    return a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0;
                }
            });
    private final long windowNanos;
    /** Starts older than this (behind the newest event) whose completion never came are dropped: lost, or begun before a gap. */
    private static final long EXPIRE_NANOS = 30_000_000_000L;
    private long newest = Long.MIN_VALUE;
    private long nextExpiry = Long.MIN_VALUE;
    private final DiskIoSink sink;
    private final boolean useBioQueue;
    private long nextId = 1;
    /** Completions whose start was not seen (begun before the session, or a merged bio with block_bio_queue). */
    long unmatchedCompletions;
    /** Starts dropped after {@link #EXPIRE_NANOS} without a completion. */
    long expiredStarts;
    long started;

    /**
     * @param useBioQueue start requests at block_bio_queue (kernels without block_io_start)
     * @param windowNanos how long events are held for re-ordering (well above the readers' poll interval)
     */
    BlockIoMatcher(DiskIoSink sink, boolean useBioQueue, long windowNanos) {
        this.sink = sink;
        this.useBioQueue = useBioQueue;
        this.windowNanos = windowNanos;
    }

    /** With a 1 s re-ordering window: ten times the pollers' interval. */
    BlockIoMatcher(DiskIoSink sink, boolean useBioQueue) {
        this(sink, useBioQueue, 1000000000L);
    }

    static boolean isFlush(String rwbs, int nrSector) {
        return nrSector == 0 && rwbs.startsWith("F");
    }

    private static long key(int dev, long sector, boolean flush) {
        return flush ? ((long) dev << 32) ^ 0x7FFFFFFFL : (sector * 31) ^ ((long) dev << 40);
    }

    /** Feed every block event of the unfiltered instance (any order across CPUs). */
    synchronized void event(int cpu, long ts, TracepointSink.BlockPhase phase, int currentTid, int dev, long sector,
                      int nrSector, int bytes, String rwbs, int error) {
        boolean start = useBioQueue ? phase == TracepointSink.BlockPhase.BIO_QUEUE
                : phase == TracepointSink.BlockPhase.IO_START;
        if (!start && phase != TracepointSink.BlockPhase.RQ_COMPLETE) {
            return;
        }
        held.add(new Held(cpu, ts, phase, currentTid, dev, sector, nrSector, rwbs, error));
        newest = Math.max(newest, ts);
        while (!held.isEmpty() && held.peek().ts < newest - windowNanos) {
            process(held.poll());
        }
        if (newest > nextExpiry) {
            expire(newest - EXPIRE_NANOS);
            nextExpiry = newest + windowNanos;
        }
    }

    /** Processes every held event (at stop, after the last read). */
    synchronized void flush() {
        while (!held.isEmpty()) {
            process(held.poll());
        }
    }

    private void process(Held h) {
        if (h.phase != TracepointSink.BlockPhase.RQ_COMPLETE) {
            if (h.rwbs.startsWith("FF") || h.rwbs.startsWith("N")) {
                return; // blk-flush's own request / passthrough
            }
            long k = key(h.dev, h.sector, isFlush(h.rwbs, h.nrSector));
            ArrayDeque<Held> q = pending.get(k);
            if (q == null) {
                q = new ArrayDeque<Held>(2);
                pending.put(k, q);
            }
            h.id = nextId++;
            q.add(h);
            started++;
            sink.started(h.cpu, h.ts, h.tid, h.rwbs, isFlush(h.rwbs, h.nrSector), h.id);
            return;
        }
        if (h.rwbs.startsWith("FF") || h.sector == -1L) {
            return;
        }
        long k = key(h.dev, h.sector, h.nrSector == 0 && h.sector == 0);
        ArrayDeque<Held> q = pending.get(k);
        Held s = q == null ? null : q.poll();
        if (s == null) {
            unmatchedCompletions++; // started before the session (or, with block_bio_queue, a merged bio)
            return;
        }
        if (q.isEmpty()) {
            pending.remove(k);
        }
        // The completion's size is the request's final one: bios merged into it after io_start made it grow.
        int bytes = (h.nrSector > 0 ? h.nrSector : s.nrSector) * 512;
        sink.diskIo(new DiskIo(h.dev, h.sector, bytes, s.rwbs, s.tid, s.ts, h.ts, h.cpu, h.error, s.id));
    }

    /** Requests started and not completed (at stop: still in flight, or their completion was lost). */
    synchronized int inFlight() {
        int n = 0;
        for (ArrayDeque<Held> q : pending.values()) {
            n += q.size();
        }
        return n;
    }

    /** Drops the starts before {@code beforeTs} still waiting for a completion (lost, or in flight for ever). */
    private void expire(long beforeTs) {
        Iterator<ArrayDeque<Held>> it = pending.values().iterator();
        while (it.hasNext()) {
            ArrayDeque<Held> q = it.next();
            while (!q.isEmpty() && q.peek().ts < beforeTs) {
                q.poll();
                expiredStarts++;
            }
            if (q.isEmpty()) {
                it.remove();
            }
        }
    }
}
