package dev.jetw.etw.portable;

import java.io.IOException;

/**
 * EVENT_TRACE_FILE_MODE_SEQUENTIAL (and NONE): buffers in arrival order. With a MaximumFileSize,
 * logging stops at the limit: later buffers are not written, counted in LogBuffersLost, their
 * events in EventsLost, and writes fail with ERROR_LOG_FILE_FULL from then on.
 */
final class SequentialSink implements LogSink {

    private final PortableSession session;
    private final EtlOutputFile file;
    private final long maxBytes;
    private int buffersInFile = 1;

    SequentialSink(PortableSession session, EtlOutputFile file, long maxBytes) {
        this.session = session;
        this.file = file;
        this.maxBytes = maxBytes;
    }

    @Override
    public void accept(TraceBuffer b) throws IOException {
        try {
            if (maxBytes > 0 && (long) (buffersInFile + 1) * session.bufferSize > maxBytes) {
                session.logFull = true;
                session.loseBuffer(b);
                file.updateHeader(buffersInFile);
                return;
            }
            file.write(b, buffersInFile, buffersInFile, buffersInFile + 1);
            session.reached(b);
            buffersInFile++;
        } finally {
            session.pool.release(b);
        }
    }

    @Override
    public void flush() {
        // Every buffer is written as it arrives.
    }

    @Override
    public void close() throws IOException {
        file.updateHeader(buffersInFile);
        file.close();
    }

    @Override
    public SessionDump snapshot() throws IOException {
        return file.dump(buffersInFile, buffersInFile);
    }

    @Override
    public String logFileName() {
        return file.name();
    }
}
