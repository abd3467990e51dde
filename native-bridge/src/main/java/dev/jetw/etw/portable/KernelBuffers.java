package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecordWriter;
import dev.jetw.etw.portable.linux.KernelRecordSink;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The session's kernel stream: one current buffer per CPU, as ETW keeps per-processor buffers, so that a
 * kernel record's CPU is its buffer's ProcessorIndex in the file (a CSwitch means "on this CPU"). Buffers come
 * from the session's pool and go to its logger like the writers' buffers; they hold kernel records only, so
 * that the kernel's events are counted apart from the provider's (emitted = written + dropped + lost stays
 * exact for jetw's own events).
 *
 * <p>Written only by the collector's pollers, never by the application's threads: a plain lock, taken once
 * per record by them and once per flush by the flusher, is enough.
 */
final class KernelBuffers implements KernelRecordSink {

    private final PortableSession session;
    private final TraceBuffer[] current;
    /** Records that found no buffer (pool exhausted, session stopping, log full): lost. */
    final AtomicLong refused = new AtomicLong();
    /** Events lost before they reached the session: overwritten in tracefs's ring buffers. */
    final AtomicLong lostInRing = new AtomicLong();

    KernelBuffers(PortableSession session, int processors) {
        this.session = session;
        this.current = new TraceBuffer[processors];
    }

    @Override
    public void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId,
                      int processId, ByteBuffer payload, int length) {
        int space = EtlRecordWriter.kernelRecordSpace(length, headerType);
        if (cpu < 0 || cpu >= current.length || space > session.bufferSize - EtlFormat.BUFFER_HEADER_SIZE) {
            refused.incrementAndGet(); // a CPU beyond the header's NumberOfProcessors would make the file unreadable
            return;
        }
        synchronized (this) {
            TraceBuffer b = current[cpu];
            if (b == null || b.remaining() < space) {
                if (b != null) {
                    session.handOff(b);
                    current[cpu] = null;
                }
                b = session.closed || session.logFull ? null : session.acquire();
                if (b == null) {
                    session.logger.requestCollect();
                    refused.incrementAndGet();
                    return;
                }
                b.kernel = true;
                b.processor = cpu;
                current[cpu] = b;
            }
            long ts = session.clock.at(nanoTime);
            int at = EtlRecordWriter.putSystemHeader(b.words, b.used, headerType,
                    version, group, type, threadId, processId, ts, length);
            b.used = EtlRecordWriter.putPayload(b.words, at, payload, length);
            b.events++;
            if (ts > b.lastTimeStamp) {
                b.lastTimeStamp = ts;
            }
        }
    }

    @Override
    public long timeStamp(long nanoTime) {
        return session.clock.at(nanoTime);
    }

    @Override
    public void lost(long count) {
        lostInRing.addAndGet(count);
    }

    @Override
    public void notice(int kind, String text, long nanoTime) {
        session.notice(kind, text, nanoTime == NOW ? PortableSession.TIME_OF_CALL : nanoTime);
    }

    /** Hands every partly filled kernel buffer on (flush timer, flush, stop). */
    synchronized void collect() {
        for (int cpu = 0; cpu < current.length; cpu++) {
            TraceBuffer b = current[cpu];
            current[cpu] = null;
            if (b != null) {
                if (b.isEmpty()) {
                    session.pool.release(b);
                } else {
                    session.handOff(b);
                }
            }
        }
    }

    /** Kernel events that are not in the trace, however they were lost before reaching a buffer. */
    long lostBeforeBuffers() {
        return refused.get() + lostInRing.get();
    }
}
