package dev.jetw.etw.portable;

import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A dump of a file session: its log file as it was at the request, copied by the thread that asked while
 * the logger goes on writing. The logger takes the snapshot (the header buffer and the number of buffers
 * in the file); a circular file's logger later overwrites slots, so before it overwrites one the copy has
 * not reached yet it saves the slot's old bytes here ({@link #beforeOverwrite}). The copy reads the file
 * through the session's own channel: closing another channel of the file would release the session's
 * lock on it (POSIX locks belong to the process, and any close drops them). What is saved is bounded by
 * the file: only slots the copy has not reached, and only when the logger laps the copy.
 */
final class FileDump implements SessionDump {

    private final EtlOutputFile file;
    private final int bufferSize;
    private final ByteBuffer header;
    /** Buffers in the file at the snapshot, the header buffer included. */
    private final int buffers;
    /** The slot copied first: the one the logger overwrites next, so the copy runs ahead of it. */
    private final long firstSlot;
    /** Guarded by this: old bytes of slots the logger overwrote before the copy reached them. */
    private final Map<Long, ByteBuffer> saved = new HashMap<>();
    /** Guarded by this: how many data slots the copy has taken, in its order from {@link #firstSlot}. */
    private int copied;
    private boolean closed;
    /** Guarded by this: the logger could not save a slot for this dump. */
    private IOException failure;

    /** Logger thread: the snapshot of {@code file} holding {@code buffers} buffers; {@code nextSlot} is the slot written next. */
    FileDump(EtlOutputFile file, int bufferSize, int buffers, long nextSlot) throws IOException {
        this.file = file;
        this.bufferSize = bufferSize;
        this.buffers = buffers;
        this.firstSlot = nextSlot >= 1 && nextSlot < buffers ? nextSlot : 1;
        this.header = readSlot(0, ByteBuffer.allocate(bufferSize));
    }

    /**
     * Logger thread, before it writes {@code slot}: keeps the old bytes if this dump still needs them. A
     * failed read fails the dump, never the log: the logger's buffer is written all the same.
     */
    synchronized void beforeOverwrite(long slot) {
        if (!closed && failure == null && slot >= 1 && slot < buffers && order(slot) >= copied && !saved.containsKey(slot)) {
            try {
                saved.put(slot, readSlot(slot, ByteBuffer.allocate(bufferSize)));
            } catch (IOException e) {
                failure = e;
            }
        }
    }

    private int order(long slot) {
        return (int) ((slot - firstSlot + buffers - 1) % (buffers - 1));
    }

    @Override
    public void writeTo(Path target, TraceFiles rules) throws IOException {
        ByteBuffer read = ByteBuffer.allocate(bufferSize);
        try (FileChannel out = rules.createNew(target)) {
            try {
                for (int k = 0; k < buffers - 1; k++) {
                    long slot = 1 + (firstSlot - 1 + k) % (buffers - 1);
                    ByteBuffer bytes;
                    synchronized (this) { // the logger waits for at most this one read
                        if (failure != null) {
                            throw failure;
                        }
                        bytes = saved.remove(slot);
                        if (bytes == null) {
                            bytes = readSlot(slot, read);
                        }
                        copied = k + 1;
                    }
                    writeFully(out, bytes, slot * bufferSize);
                }
                writeFully(out, header.duplicate(), 0);
            } catch (IOException | RuntimeException e) {
                out.close();
                throw SessionDump.removePartial(target, e instanceof IOException ? (IOException) e : new IOException(e.toString(), e));
            }
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            saved.clear();
        }
        file.dumpDone(this);
    }

    private ByteBuffer readSlot(long slot, ByteBuffer b) throws IOException {
        b.clear();
        FileChannel in = file.channel();
        long at = slot * bufferSize;
        while (b.hasRemaining()) {
            int n = in.read(b, at + b.position());
            if (n < 0) {
                throw new IOException("the log file ends inside buffer " + slot);
            }
        }
        b.flip();
        return b;
    }

    private static void writeFully(FileChannel out, ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += out.write(b, p);
        }
    }
}
