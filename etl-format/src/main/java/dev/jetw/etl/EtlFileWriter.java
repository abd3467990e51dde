package dev.jetw.etl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Writes sealed buffers into one .etl file at buffer-sized slots, and keeps the header current:
 * after every buffer it rewrites BuffersWritten, EndTime, EventsLost and BuffersLost in buffer 0,
 * so a process killed at any moment leaves a file whose header counts the buffers it holds.
 * Not thread-safe: one logger thread owns it. The caller opens (and locks) the channel.
 */
public final class EtlFileWriter {

    private final FileChannel channel;
    private final int bufferSize;
    private final ByteBuffer field = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    public EtlFileWriter(FileChannel channel, int bufferSize) {
        this.channel = channel;
        this.bufferSize = bufferSize;
    }

    public FileChannel channel() {
        return channel;
    }

    /** Writes buffer 0 from {@code header} (with its current counters). */
    public void writeHeaderBuffer(EtlLogfileHeader header) throws IOException {
        writeAt(header.encodeHeaderBuffer(), 0L);
    }

    /** Writes a sealed buffer at slot {@code slot} (slot 0 is the header buffer). */
    public void writeBuffer(ByteBuffer sealed, long slot) throws IOException {
        ByteBuffer b = sealed.duplicate();
        b.clear();
        writeAt(b, slot * bufferSize);
    }

    /** Rewrites the counters of the header; call after each buffer written. */
    public void updateHeader(int buffersWritten, long endTime, long eventsLost, long buffersLost) throws IOException {
        putInt(EtlLogfileHeader.FILE_OFF_BUFFERS_WRITTEN, buffersWritten);
        putInt(EtlLogfileHeader.FILE_OFF_EVENTS_LOST, (int) Math.min(Integer.MAX_VALUE, eventsLost));
        putInt(EtlLogfileHeader.FILE_OFF_BUFFERS_LOST, (int) Math.min(Integer.MAX_VALUE, buffersLost));
        field.clear();
        field.putLong(0, endTime);
        writeAt(field, EtlLogfileHeader.FILE_OFF_END_TIME);
    }

    private void putInt(long offset, int value) throws IOException {
        field.clear();
        field.putInt(0, value);
        field.limit(4);
        writeAt(field, offset);
    }

    private void writeAt(ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            p += channel.write(b, p);
        }
    }
}
