package dev.jetw.etw.portable;

/**
 * A buffer of {@link PortableSession#writeReserved}: allocated for the name records outside the
 * pool, so it is not one of the session's MinimumBuffers..MaximumBuffers and, once written, does
 * not join the pool's free list ({@link BufferPool#release} lets it go).
 */
final class ReservedBuffer extends TraceBuffer {

    ReservedBuffer(int bufferSize) {
        super(bufferSize);
    }
}
