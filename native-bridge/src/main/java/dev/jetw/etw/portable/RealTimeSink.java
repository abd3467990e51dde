package dev.jetw.etw.portable;

import dev.jetw.etl.EtlBufferWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * EVENT_TRACE_REAL_TIME_MODE: sealed buffers go to in-process consumers (the counterpart of
 * OpenTrace/ProcessTrace on a real-time session), on the logger thread, as read-only views that are
 * valid only during the call. Without a consumer the buffers are kept (a backlog drawn from the
 * pool, up to MaximumBuffers); once the pool is exhausted, writes fail with ERROR_LOG_FILE_FULL and
 * are counted as lost, as ETW does. A consumer that attaches later receives the backlog first.
 * With a log file as well, every buffer is also written to that file (by {@code fileSink}).
 */
final class RealTimeSink implements LogSink {

    private final PortableSession session;
    private final LogSink fileSink;
    private final List<Consumer<ByteBuffer>> consumers = new CopyOnWriteArrayList<>();
    private final ArrayDeque<TraceBuffer> backlog = new ArrayDeque<>();
    private long sequence;

    RealTimeSink(PortableSession session, LogSink fileSink) {
        this.session = session;
        this.fileSink = fileSink;
    }

    boolean hasConsumer() {
        return !consumers.isEmpty();
    }

    void addConsumer(Consumer<ByteBuffer> c) {
        consumers.add(c);
    }

    void removeConsumer(Consumer<ByteBuffer> c) {
        consumers.remove(c);
    }

    @Override
    public void accept(TraceBuffer b) throws IOException {
        if (fileSink != null) {
            // The file has its own sequence; deliver a copy of what the file got.
            deliverThenWrite(b);
            return;
        }
        if (consumers.isEmpty()) {
            backlog.addLast(b);
            return;
        }
        drainBacklog();
        deliver(b);
        session.pool.release(b);
    }

    private void deliverThenWrite(TraceBuffer b) throws IOException {
        // A file session keeps logging without a consumer; real time just has no one to deliver to.
        if (!consumers.isEmpty()) {
            deliver(b);
        }
        fileSink.accept(b);
    }

    /** Delivers waiting buffers to a consumer that has just attached (logger thread). */
    void drainBacklog() {
        if (consumers.isEmpty()) {
            return;
        }
        TraceBuffer b;
        while ((b = backlog.pollFirst()) != null) {
            deliver(b);
            session.pool.release(b);
        }
    }

    private void deliver(TraceBuffer b) {
        sequence++;
        if (fileSink == null) {
            session.reached(b); // with a file, the file sink counts it
        }
        ByteBuffer bytes = session.fileImage(b);
        EtlBufferWriter.sealData(bytes, b.used, b.lastTimeStamp, sequence, session.loggerId, b.processor);
        session.buffersWritten += fileSink == null ? 1 : 0;
        for (Consumer<ByteBuffer> c : consumers) {
            ByteBuffer view = bytes.asReadOnlyBuffer().order(bytes.order());
            view.clear();
            try {
                c.accept(view);
            } catch (RuntimeException e) {
                session.realTimeBuffersLost++;
            }
        }
    }

    @Override
    public void flush() throws IOException {
        drainBacklog();
        if (fileSink != null) {
            fileSink.flush();
        }
    }

    @Override
    public void close() throws IOException {
        drainBacklog();
        // Buffers no consumer ever took are lost to real time, their events with them.
        TraceBuffer b;
        while ((b = backlog.pollFirst()) != null) {
            session.realTimeBuffersLost++;
            session.lostBuffer(b);
            session.pool.release(b);
        }
        if (fileSink != null) {
            fileSink.close();
        }
    }

    @Override
    public SessionDump snapshot() throws IOException {
        return fileSink == null ? LogSink.super.snapshot() : fileSink.snapshot();
    }

    @Override
    public String logFileName() {
        return fileSink == null ? null : fileSink.logFileName();
    }
}
