package dev.jetw.etl;

import java.io.IOException;
import java.util.PriorityQueue;

/**
 * The records of a reader in time order, in bounded memory. A file gives records in buffer order: each
 * buffer is in time order, but buffers of different processors (ETW), of different writers (the
 * portable backend) and of the kernel collector, which writes what it read a moment later, interleave
 * in the file by when they were flushed, not by when their events happened.
 *
 * <p>A record is held until the newest time stamp read is more than {@code horizon} past it (so every
 * record written up to {@code horizon} late still goes out in place), or until more than
 * {@code maxHeld} records are held (then the oldest goes out: memory stays bounded on any file). Nothing
 * is dropped: a record that arrives after a later one already went out is delivered at once and
 * counted in {@link #late()}, for the command to report.
 */
public final class TimeOrderedRecords {

    /** Default horizon: twice the default flush timer of a session (1 s) and the kernel collector's lag. */
    public static final long DEFAULT_HORIZON_100NS = 30_000_000L;
    /** Default bound on held records: about 60 MB of typical records, under the tools' 256 MB heap. */
    public static final int DEFAULT_MAX_HELD = 300_000;

    private static final class Held implements Comparable<Held> {
        final EtlRecord record;
        final long time;
        final long arrival;

        Held(EtlRecord record, long arrival) {
            this.record = record;
            this.time = record.fileTime();
            this.arrival = arrival;
        }

        @Override
        public int compareTo(Held o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(arrival, o.arrival);
        }
    }

    private final EtlReader reader;
    private final long horizon;
    private final int maxHeld;
    private final PriorityQueue<Held> held = new PriorityQueue<>();
    private long arrivals;
    private long newest = Long.MIN_VALUE;
    private long lastOut = Long.MIN_VALUE;
    private long late;
    private boolean exhausted;

    public TimeOrderedRecords(EtlReader reader) {
        this(reader, DEFAULT_HORIZON_100NS, DEFAULT_MAX_HELD);
    }

    /** @param horizon how far behind the newest record a record may arrive and still be placed, in 100 ns */
    public TimeOrderedRecords(EtlReader reader, long horizon, int maxHeld) {
        if (horizon < 0 || maxHeld < 1) {
            throw new IllegalArgumentException("horizon " + horizon + ", maxHeld " + maxHeld);
        }
        this.reader = reader;
        this.horizon = horizon;
        this.maxHeld = maxHeld;
    }

    /** The next record in time order (the logfile header first, as it is the first read), or null at the end. */
    public EtlRecord next() throws IOException {
        while (!exhausted) {
            Held first = held.peek();
            if (first != null && (held.size() > maxHeld || newest - first.time > horizon)) {
                break;
            }
            EtlRecord r = reader.next();
            if (r == null) {
                exhausted = true;
                break;
            }
            Held h = new Held(r, arrivals++);
            if (h.time < lastOut) {
                late++;
                return r; // it cannot be placed any more: out at once, counted
            }
            held.add(h);
            newest = Math.max(newest, h.time);
        }
        Held out = held.poll();
        if (out == null) {
            return null;
        }
        lastOut = Math.max(lastOut, out.time);
        return out.record;
    }

    /** Records delivered out of time order: they arrived after a later record had gone out. */
    public long late() {
        return late;
    }

    /** The reader underneath (header, problems, progress). */
    public EtlReader reader() {
        return reader;
    }
}
