package dev.jetw.etw;

/**
 * What the backend that will run a session accepts beyond ETW's own rules, so that validation
 * refuses a setting once, with the true reason, instead of passing it to a backend that then fails
 * with another message (docs/configuration.md, "Backend limits"). {@link #ETW} adds nothing to ETW's
 * rules (Windows); {@link #portable} is the portable engine's: file layout 1.5 only (bufferSize at
 * most 1024 KB), no append, session names of at most 1023 characters, and buffers in the Java heap,
 * which must leave the application most of its heap.
 */
public final class BackendLimits {

    /** ETW's own rules only: the Windows backend. */
    public static final BackendLimits ETW = new BackendLimits(null, SessionConfigValidator.MAX_NAME_CHARS,
            SessionConfigValidator.MAX_BUFFER_SIZE_KB, true, 0);

    static final int PORTABLE_MAX_NAME_CHARS = 1023;
    static final int PORTABLE_MAX_BUFFER_SIZE_KB = 1024;

    /** Null for ETW itself; else how messages name the backend. */
    final String backendName;
    final int maxNameChars;
    final int maxBufferSizeKb;
    final boolean supportsAppend;
    /** The Java heap the session's buffers live in (0: not in the heap). */
    final long maxHeapBytes;

    private BackendLimits(String backendName, int maxNameChars, int maxBufferSizeKb, boolean supportsAppend, long maxHeapBytes) {
        this.backendName = backendName;
        this.maxNameChars = maxNameChars;
        this.maxBufferSizeKb = maxBufferSizeKb;
        this.supportsAppend = supportsAppend;
        this.maxHeapBytes = maxHeapBytes;
    }

    /** The portable backend in a JVM whose maximum heap is {@code maxHeapBytes} (Runtime.maxMemory()). */
    public static BackendLimits portable(long maxHeapBytes) {
        return new BackendLimits("the portable backend", PORTABLE_MAX_NAME_CHARS, PORTABLE_MAX_BUFFER_SIZE_KB, false, maxHeapBytes);
    }

    /** minBuffers (allocated at start) may take at most this share of the max heap: a quarter. */
    long maxStartBufferBytes() {
        return maxHeapBytes / 4;
    }

    /** maxBuffers (grown on demand) may take at most this share of the max heap: a half. */
    long maxGrownBufferBytes() {
        return maxHeapBytes / 2;
    }
}
