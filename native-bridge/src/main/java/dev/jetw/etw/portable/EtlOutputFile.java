package dev.jetw.etw.portable;

import dev.jetw.etl.EtlBufferWriter;
import dev.jetw.etl.EtlFileWriter;
import dev.jetw.etl.EtlLogfileHeader;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One open .etl file of a session: header buffer at slot 0, data buffers in their slots, and the
 * header's counters rewritten after every buffer so a killed process leaves a readable file.
 */
final class EtlOutputFile {

    private final PortableSession session;
    private final LogFileLock lock;
    private final EtlFileWriter writer;
    /** Dumps still copying this file (see {@link FileDump}); the file stays open until the last one is done. */
    private final List<FileDump> dumps = new CopyOnWriteArrayList<>();
    private boolean closeWhenDumped;

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
        ByteBuffer bytes = session.fileImage(b);
        EtlBufferWriter.sealData(bytes, b.used, b.lastTimeStamp, sequence, session.loggerId, b.processor);
        writeSealed(bytes, slot, buffersInFile);
        session.buffersWritten++;
    }

    /** Writes a sealed buffer at {@code slot}; the header then says {@code buffersInFile}. Not counted in BuffersWritten (a dump's). */
    void writeSealed(ByteBuffer bytes, long slot, int buffersInFile) throws IOException {
        for (FileDump d : dumps) {
            d.beforeOverwrite(slot);
        }
        writer.writeBuffer(bytes, slot);
        updateHeader(buffersInFile);
    }

    void updateHeader(int buffersInFile) throws IOException {
        writer.updateHeader(buffersInFile, session.clock.nowFiletime(), session.eventsLost(), session.logBuffersLost);
    }

    /** Logger thread: a dump of this file as it is now, {@code buffersInFile} buffers, {@code nextSlot} written next. */
    FileDump dump(int buffersInFile, long nextSlot) throws IOException {
        FileDump d = new FileDump(this, session.bufferSize, buffersInFile, nextSlot);
        dumps.add(d);
        return d;
    }

    synchronized void dumpDone(FileDump d) {
        dumps.remove(d);
        if (closeWhenDumped && dumps.isEmpty()) {
            lock.close();
        }
    }

    FileChannel channel() {
        return lock.channel();
    }

    String name() {
        return lock.path().toString();
    }

    /** Releases the file, or lets the last dump still copying it release it. */
    synchronized void close() {
        if (dumps.isEmpty()) {
            lock.close();
        } else {
            closeWhenDumped = true;
        }
    }
}
