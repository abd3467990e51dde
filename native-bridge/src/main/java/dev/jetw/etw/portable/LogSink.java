package dev.jetw.etw.portable;

import java.io.IOException;

/**
 * Where a session's full buffers go: one implementation per log-file mode. Called only on the
 * session's logger thread, so implementations need no locking (except where a writer may steal
 * from them, see {@link BufferingSink}). A sink returns each buffer to the pool once done with it.
 */
interface LogSink {

    /** Takes a full or flushed buffer that holds at least one event. */
    void accept(TraceBuffer buffer) throws IOException;

    /** An explicit flush (FlushTrace): after the queued buffers, make everything durable/visible. */
    void flush() throws IOException;

    /** The session stops: write what is pending, finalize headers, release files. */
    void close() throws IOException;

    /** Whether the flush timer applies (not for the in-memory buffering ring). */
    default boolean flushTimerApplies() {
        return true;
    }

    /** The log file shown in statistics, or null. */
    String logFileName();

    /**
     * What the session holds now, for a dump (logger thread, after the buffers queued before the
     * request); the thread that asked writes it, so the logger goes on taking the writers' buffers.
     */
    default SessionDump snapshot() throws IOException {
        throw new IOException("the session has no log file and no ring to dump");
    }
}
