package dev.jetw.etw.portable;

import java.io.IOException;

/**
 * EVENT_TRACE_FILE_MODE_CIRCULAR: the file holds MaximumFileSize / BufferSize slots; slot 0 keeps
 * the header buffer and data buffers wrap over slots 1..n-1, newest overwriting oldest. Sequence
 * numbers keep counting, so a reader restores the order by SequenceNumber, as for ETW's files.
 */
final class CircularSink implements LogSink {

    private final PortableSession session;
    private final EtlOutputFile file;
    private final int slots;
    private long sequence;

    CircularSink(PortableSession session, EtlOutputFile file, long maxBytes) {
        this.session = session;
        this.file = file;
        this.slots = (int) Math.min(Integer.MAX_VALUE, maxBytes / session.bufferSize);
    }

    @Override
    public void accept(TraceBuffer b) throws IOException {
        try {
            sequence++;
            long slot = 1 + (sequence - 1) % (slots - 1);
            file.write(b, sequence, slot, (int) Math.min(slots, sequence + 1));
            session.reached(b);
        } finally {
            session.pool.release(b);
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() throws IOException {
        file.updateHeader((int) Math.min(slots, sequence + 1));
        file.close();
    }

    @Override
    public SessionDump snapshot() throws IOException {
        return file.dump((int) Math.min(slots, sequence + 1), 1 + sequence % (slots - 1));
    }

    @Override
    public String logFileName() {
        return file.name();
    }
}
