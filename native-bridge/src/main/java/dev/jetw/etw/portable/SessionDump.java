package dev.jetw.etw.portable;

import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A dump of a running session (jcmd JFR.dump's counterpart): a copy of a file session's log, or a
 * new .etl of a buffering session's ring. Runs on the session's logger thread, so the log it copies
 * is between two buffer writes and its header counts what it holds.
 */
final class SessionDump {

    private SessionDump() {
    }

    /** Copies the log file {@code source} to the new file {@code target}. */
    static void copy(Path source, Path target, TraceFiles rules) throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = rules.createNew(target)) {
            long size = in.size();
            long done = 0;
            while (done < size) {
                done += in.transferTo(done, size - done, out);
            }
        }
    }

    /**
     * Writes a header buffer and {@code images} (sealed copies of the ring's buffers, oldest first) to
     * the new file {@code target}, with SequenceNumbers 1..n.
     */
    static void writeRing(PortableSession session, List<RingImage> images, Path target) throws IOException {
        LogFileLock lock;
        try {
            lock = LogFileLock.open(target, "ControlTraceW(DUMP)", session.files);
        } catch (dev.jetw.etw.EtwException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            EtlOutputFile file = new EtlOutputFile(session, lock);
            int slot = 1;
            for (RingImage image : images) {
                file.writeCopy(image.bytes, image.used, image.lastTimeStamp, slot, slot, slot + 1);
                slot++;
            }
            file.updateHeader(slot);
        } finally {
            lock.close();
        }
    }

    /** One ring buffer's records, copied while the buffer was in the ring. */
    static final class RingImage {
        final ByteBuffer bytes;
        final int used;
        final long lastTimeStamp;

        RingImage(ByteBuffer bytes, int used, long lastTimeStamp) {
            this.bytes = bytes;
            this.used = used;
            this.lastTimeStamp = lastTimeStamp;
        }
    }
}
