package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecordWriter;

import java.nio.ByteBuffer;

/**
 * One session buffer of BufferSize bytes, laid out as it will be on disk: records from 0x48 on.
 * The writer fills it as little-endian 64-bit words (see {@link EtlRecordWriter}); the logger
 * thread turns it into file bytes with {@link #copyRecordsTo}. Owned by one writer (a thread's
 * scratch) while it fills, then by the logger thread.
 */
class TraceBuffer {

    final long[] words;
    /** Next free byte offset (end of the last record, 8-aligned). */
    int used = EtlFormat.BUFFER_HEADER_SIZE;
    int events;
    long lastTimeStamp;
    /** Session notices among {@link #events}: the session's own records, counted as nobody's events. */
    int notices;
    /** Holds kernel records (KernelBuffers): their events are counted apart from the provider's. */
    boolean kernel;
    /** The CPU whose stream this buffer is (its ProcessorIndex in the file); 0 for the writers' buffers. */
    int processor;

    TraceBuffer(int bufferSize) {
        this.words = new long[bufferSize >>> 3];
    }

    int remaining() {
        return (words.length << 3) - used;
    }

    boolean isEmpty() {
        return events == 0;
    }

    /** Copies the records (0x48 to {@link #used}) into {@code out}, a buffer of BufferSize bytes, at the same offsets. */
    ByteBuffer copyRecordsTo(ByteBuffer out) {
        EtlRecordWriter.copyWords(words, EtlFormat.BUFFER_HEADER_SIZE, used, out);
        return out;
    }

    void reset() {
        used = EtlFormat.BUFFER_HEADER_SIZE;
        events = 0;
        lastTimeStamp = 0;
        kernel = false;
        processor = 0;
        notices = 0;
    }
}
