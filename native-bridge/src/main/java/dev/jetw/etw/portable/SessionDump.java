package dev.jetw.etw.portable;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * A dump of a buffering session's ring to a new .etl (jcmd JFR.dump's counterpart; a file session's
 * dump is a copy of its log, TraceFiles.copyNew). Runs on the session's logger thread.
 */
final class SessionDump {

    private SessionDump() {
    }

    /**
     * Writes a header buffer and {@code images} (sealed copies of the ring's buffers, oldest first) to
     * the new file {@code target}, with SequenceNumbers 1..n.
     */
    static void writeRing(PortableSession session, List<RingImage> images, Path target) throws IOException {
        LogFileLock lock;
        try {
            lock = LogFileLock.open(target, "ControlTraceW(DUMP)", session.dumpFiles);
        } catch (dev.jetw.etw.EtwException e) {
            throw new IOException(e.getMessage(), e);
        }
        try {
            EtlOutputFile file = new EtlOutputFile(session, lock);
            int slot = 1;
            for (RingImage image : images) {
                file.writeCopy(image.bytes, image.used, image.lastTimeStamp, image.processor, slot, slot, slot + 1);
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
        final int processor;

        RingImage(ByteBuffer bytes, int used, long lastTimeStamp, int processor) {
            this.bytes = bytes;
            this.used = used;
            this.lastTimeStamp = lastTimeStamp;
            this.processor = processor;
        }
    }
}
