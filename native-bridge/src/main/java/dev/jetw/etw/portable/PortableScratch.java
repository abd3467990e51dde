package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.EventScratch;

import java.nio.ByteBuffer;

/**
 * A writing thread's scratch: its payload buffer and, like ETW's per-CPU buffer, the session
 * buffer it currently fills. The scratch's monitor guards that buffer; only the flusher (flush
 * timer, FlushTrace, stop) ever contends for it, so writers of different threads share no lock.
 */
final class PortableScratch extends EventScratch {

    /** The buffer this scratch fills, or null; guarded by {@code this}. */
    TraceBuffer buffer;
    /** The session {@link #buffer} belongs to. */
    PortableSession bufferSession;
    /** The session whose flusher knows this scratch (it holds a buffer of that session). */
    PortableSession registeredWith;

    // Instance ids are handed out in blocks, so the shared counter is touched once per block.
    PortableProvider idOwner;
    int nextId;
    int idLimit;

    PortableScratch() {
        // Payloads up to the largest record; ClassicProvider cuts them to maxPayloadBytes().
        super(ByteBuffer.allocate(EtlFormat.MAX_RECORD_SIZE));
    }
}
