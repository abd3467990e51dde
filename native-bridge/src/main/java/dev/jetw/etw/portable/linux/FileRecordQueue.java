package dev.jetw.etw.portable.linux;

import dev.jetw.etl.EtlFormat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Holds the FileIo records of {@link FileIoTracker} until the path of their file is known to be right, then writes
 * them in the order they came (time order: so each CPU's buffer stays in time order). A path is read from
 * /proc/PID/fd/N when the collector decodes the open, at a moment R after it happened; it is right unless the
 * descriptor was closed before R (the number may then name a later open, or nothing). Every event up to R has been
 * decoded once an event stamped after R arrives (the decoder's input is in time order), or once the poller's
 * watermark passed R (FileIoTracker.decodedUntil, after each pass: an idle process sends no next event): the file
 * is then confirmed, and its records go out, or, if a close before R was seen, are dropped and counted. Records without a
 * file (none today) and of confirmed files go out at once when nothing is held before them.
 */
final class FileRecordQueue {

    /** A regular file's open description, as the records name it. */
    static final class OpenFile {
        final long fileObject;
        final long fileKey;
        final String path;
        /** When its path was read (System.nanoTime). */
        final long resolvedAt;
        /** A Create or a FileIo/Name with this file object was queued. */
        boolean named;
        /** Every event up to {@link #resolvedAt} was seen. */
        boolean confirmed;
        /** Its descriptor was closed before its path was read: the path may be another file's. */
        boolean doubtful;

        OpenFile(long fileObject, long fileKey, String path, long resolvedAt) {
            this.fileObject = fileObject;
            this.fileKey = fileKey;
            this.path = path;
            this.resolvedAt = resolvedAt;
        }
    }

    /** One record to write: the fields of whichever FileIo layout its type has. */
    private static final class Held {
        int cpu;
        long ts;
        int type;
        OpenFile file;
        long irp;
        int tid;
        long offsetOrExtra;
        long sizeOrFlags;
        int status;
    }

    private final KernelRecordSink out;
    private final ArrayDeque<Held> held = new ArrayDeque<Held>();
    private final ByteBuffer scratch = ByteBuffer.allocate(FileIoPayloads.READ_WRITE_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    private volatile boolean discarded;
    final AtomicLong records = new AtomicLong();
    /** Records dropped because their file's path could not be trusted. */
    long dropped;

    FileRecordQueue(KernelRecordSink out) {
        this.out = out;
    }

    void discard() {
        discarded = true;
    }

    /** FileIo/Name (0) or FileRundown (36) of {@code f}. */
    void name(int cpu, long ts, int type, OpenFile f) {
        add(cpu, ts, type, f, 0, 0, 0, 0, 0);
    }

    /** FileIo/Create of {@code f} by {@code tid}, opened with {@code openFlags}. */
    void create(int cpu, long ts, OpenFile f, long irp, int tid, long openFlags) {
        add(cpu, ts, FileIoPayloads.CREATE, f, irp, tid, 0, openFlags, 0);
    }

    /** FileIo/Read or Write. */
    void readWrite(int cpu, long ts, int type, OpenFile f, long irp, int tid, long offset, long size) {
        add(cpu, ts, type, f, irp, tid, offset, size, 0);
    }

    /** FileIo/Flush, Cleanup or Close. */
    void simpleOp(int cpu, long ts, int type, OpenFile f, long irp, int tid) {
        add(cpu, ts, type, f, irp, tid, 0, 0, 0);
    }

    /** FileIo/OpEnd of an operation on {@code f}. */
    void opEnd(int cpu, long ts, OpenFile f, long irp, long extraInfo, int status) {
        add(cpu, ts, FileIoPayloads.OP_END, f, irp, 0, extraInfo, 0, status);
    }

    private void add(int cpu, long ts, int type, OpenFile f, long irp, int tid, long offsetOrExtra, long sizeOrFlags,
                     int status) {
        Held h = new Held();
        h.cpu = cpu;
        h.ts = ts;
        h.type = type;
        h.file = f;
        h.irp = irp;
        h.tid = tid;
        h.offsetOrExtra = offsetOrExtra;
        h.sizeOrFlags = sizeOrFlags;
        h.status = status;
        held.addLast(h);
        release(ts);
    }

    /** An event stamped {@code ts} was decoded: every file read before it is confirmed; what may go, goes. */
    void release(long ts) {
        while (!held.isEmpty()) {
            Held h = held.peekFirst();
            OpenFile f = h.file;
            if (f != null && !f.confirmed) {
                if (ts <= f.resolvedAt) {
                    return;
                }
                f.confirmed = true;
            }
            held.removeFirst();
            if (f != null && f.doubtful) {
                dropped++;
            } else {
                write(h);
            }
        }
    }

    /** At stop, after the last event: everything was seen, so every held file is confirmed. */
    void flush() {
        release(Long.MAX_VALUE);
    }

    /** Records held now (for tests). */
    int holding() {
        return held.size();
    }

    private void write(Held h) {
        if (discarded) {
            return;
        }
        OpenFile f = h.file;
        ByteBuffer payload = scratch;
        int n;
        switch (h.type) {
            case FileIoPayloads.NAME:
            case FileIoPayloads.FILE_RUNDOWN:
                payload = ByteBuffer.wrap(FileIoPayloads.name(f.fileKey, f.path));
                n = payload.capacity();
                break;
            case FileIoPayloads.CREATE:
                payload = ByteBuffer.wrap(FileIoPayloads.create(h.irp, h.tid, f.fileObject,
                        FileIoPayloads.createOptions(h.sizeOrFlags), 0, FileIoPayloads.SHARE_ALL, f.path));
                n = payload.capacity();
                break;
            case FileIoPayloads.READ:
            case FileIoPayloads.WRITE:
                n = FileIoPayloads.readWrite(scratch, h.offsetOrExtra, h.irp, h.tid, f.fileObject, f.fileKey,
                        (int) Math.min(h.sizeOrFlags, 0xFFFFFFFFL), 0);
                break;
            case FileIoPayloads.OP_END:
                n = FileIoPayloads.opEnd(scratch, h.irp, h.offsetOrExtra, h.status);
                break;
            default: // Flush, Cleanup, Close
                n = FileIoPayloads.simpleOp(scratch, h.irp, h.tid, f.fileObject, f.fileKey);
                break;
        }
        // PERFINFO64, as Windows writes FileIo: no thread or process in the header (TTID is in the payload).
        out.write(h.cpu, h.ts, EtlFormat.HT_PERFINFO64, FileIoPayloads.VERSION, FileIoPayloads.GROUP_FILE_IO, h.type, 0, 0,
                payload, n);
        records.incrementAndGet();
    }
}
