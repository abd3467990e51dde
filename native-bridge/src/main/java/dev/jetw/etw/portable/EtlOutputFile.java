package dev.jetw.etw.portable;

import dev.jetw.etl.EtlBufferWriter;
import dev.jetw.etl.EtlFileWriter;
import dev.jetw.etl.EtlLogfileHeader;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One open .etl file of a session: header buffer at slot 0, data buffers in their slots, and the
 * header's counters rewritten after every buffer so a killed process leaves a readable file.
 */
final class EtlOutputFile {

    private final PortableSession session;
    private final LogFileLock lock;
    private final EtlFileWriter writer;

    EtlOutputFile(PortableSession session, LogFileLock lock) throws IOException {
        this.session = session;
        this.lock = lock;
        this.writer = new EtlFileWriter(lock.channel(), session.bufferSize);
        EtlLogfileHeader h = session.newLogfileHeader(lock.path().toString());
        h.buffersWritten = 1;
        writer.writeHeaderBuffer(h);
    }

    /** Seals {@code b} with {@code sequence}, writes it at {@code slot}; the header then says {@code buffersInFile}. */
    void write(TraceBuffer b, long sequence, long slot, int buffersInFile) throws IOException {
        writeCopy(session.fileImage(b), b.used, b.lastTimeStamp, b.processor, sequence, slot, buffersInFile);
        session.buffersWritten++;
    }

    /** As {@link #write}, from a copy of a buffer's file bytes; not counted in the session's BuffersWritten (a dump). */
    void writeCopy(ByteBuffer bytes, int used, long lastTimeStamp, int processor, long sequence, long slot,
                   int buffersInFile) throws IOException {
        EtlBufferWriter.sealData(bytes, used, lastTimeStamp, sequence, session.loggerId, processor);
        writer.writeBuffer(bytes, slot);
        updateHeader(buffersInFile);
    }

    void updateHeader(int buffersInFile) throws IOException {
        writer.updateHeader(buffersInFile, session.clock.nowFiletime(), session.eventsLost(), session.logBuffersLost);
    }

    String name() {
        return lock.path().toString();
    }

    void close() {
        lock.close();
    }
}
