package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One session buffer of BufferSize bytes, laid out as it will be on disk: records from 0x48 on.
 * Owned by one writer (a thread's scratch) while it fills, then by the logger thread.
 */
class TraceBuffer {

    final ByteBuffer bytes;
    /** Next free offset (end of the last record, 8-aligned). */
    int used = EtlFormat.BUFFER_HEADER_SIZE;
    int events;
    long lastTimeStamp;

    TraceBuffer(int bufferSize) {
        this.bytes = ByteBuffer.allocate(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
    }

    int remaining() {
        return bytes.capacity() - used;
    }

    boolean isEmpty() {
        return events == 0;
    }

    void reset() {
        used = EtlFormat.BUFFER_HEADER_SIZE;
        events = 0;
        lastTimeStamp = 0;
    }
}
