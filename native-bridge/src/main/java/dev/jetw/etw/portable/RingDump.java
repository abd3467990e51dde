package dev.jetw.etw.portable;

import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/** A dump of a buffering session: sealed copies of the ring's buffers (oldest first, SequenceNumbers 1..n) taken under the ring's lock. */
final class RingDump implements SessionDump {

    private final PortableSession session;
    private final List<ByteBuffer> sealed;

    RingDump(PortableSession session, List<ByteBuffer> sealed) {
        this.session = session;
        this.sealed = sealed;
    }

    /** Writes a header buffer and the copies, in slots 1..n, to the new file {@code target}. */
    @Override
    public void writeTo(Path target, TraceFiles rules) throws IOException {
        LogFileLock lock = LogFileLock.create(target, rules);
        try {
            EtlOutputFile file = new EtlOutputFile(session, lock);
            int slot = 1;
            for (ByteBuffer bytes : sealed) {
                file.writeSealed(bytes, slot, slot + 1);
                slot++;
            }
            file.updateHeader(slot);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw SessionDump.removePartial(target, e instanceof IOException ? (IOException) e : new IOException(e.toString(), e));
        }
        lock.close();
    }
}
