package dev.jetw.etw.portable;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * EVENT_TRACE_FILE_MODE_NEWFILE: the log-file name holds a {@code %d}; when the next buffer would
 * pass MaximumFileSize the session closes the file and continues in the next number (1, 2, ...).
 * Each file is a complete .etl with its own header buffer, BuffersWritten and SequenceNumbers 1..n.
 */
final class NewFileSink implements LogSink {

    private final PortableSession session;
    private final String pattern;
    private final long maxBytes;
    private int fileNumber;
    private EtlOutputFile file;
    private int buffersInFile;

    NewFileSink(PortableSession session, String pattern, long maxBytes) throws IOException {
        this.session = session;
        this.pattern = pattern;
        this.maxBytes = maxBytes;
        next();
    }

    static Path fileFor(String pattern, int number) {
        int at = pattern.indexOf("%d");
        return Paths.get(pattern.substring(0, at) + number + pattern.substring(at + 2));
    }

    private void next() throws IOException {
        fileNumber++;
        LogFileLock lock = LogFileLock.create(fileFor(pattern, fileNumber), session.files);
        try {
            file = new EtlOutputFile(session, lock);
        } catch (IOException | RuntimeException e) {
            lock.discard(); // no 0-byte file left, nor the file's reservation
            throw e;
        }
        buffersInFile = 1;
    }

    @Override
    public void accept(TraceBuffer b) throws IOException {
        try {
            if ((long) (buffersInFile + 1) * session.bufferSize > maxBytes) {
                file.updateHeader(buffersInFile);
                file.close();
                next();
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
    }

    @Override
    public void close() throws IOException {
        file.updateHeader(buffersInFile);
        file.close();
    }

    @Override
    public SessionDump snapshot() throws IOException {
        return file.dump(buffersInFile, buffersInFile); // the current file; the finished ones are on disk as they are
    }

    @Override
    public String logFileName() {
        return file.name();
    }
}
