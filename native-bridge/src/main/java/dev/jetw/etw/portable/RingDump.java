package dev.jetw.etw.portable;

import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/** A dump of a buffering session: copies of the ring's buffers (oldest first) taken under the ring's lock. */
final class RingDump implements SessionDump {

    private final PortableSession session;
    private final List<RingImage> images;

    RingDump(PortableSession session, List<RingImage> images) {
        this.session = session;
        this.images = images;
    }

    /** Writes a header buffer and the images to the new file {@code target}, with SequenceNumbers 1..n. */
    @Override
    public void writeTo(Path target, TraceFiles rules) throws IOException {
        LogFileLock lock = LogFileLock.create(target, rules);
        try {
            EtlOutputFile file = new EtlOutputFile(session, lock);
            int slot = 1;
            for (RingImage image : images) {
                file.writeCopy(image.bytes, image.used, image.lastTimeStamp, slot, slot, slot + 1);
                slot++;
            }
            file.updateHeader(slot);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw SessionDump.removePartial(target, e instanceof IOException ? (IOException) e : new IOException(e.toString(), e));
        }
        lock.close();
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
