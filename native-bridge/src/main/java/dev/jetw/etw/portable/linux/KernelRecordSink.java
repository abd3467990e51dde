package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;

/**
 * Where the collector's Windows kernel records go: the portable session's kernel buffers, one stream per
 * CPU (in an ETW file a CSwitch's processor is its buffer's ProcessorIndex). Called only from the
 * collector's own threads, never from the application's.
 */
public interface KernelRecordSink {

    /**
     * One kernel record: a {@code headerType} header (EtlFormat's HT_SYSTEM64, HT_COMPACT64 or HT_PERFINFO64, which
     * has no thread and process) with HookId {@code group << 8 | type}, MOF class {@code version}, at the
     * {@code System.nanoTime()} reading
     * {@code nanoTime}, logged on {@code cpu}; the payload is bytes 0 to {@code length} of {@code payload}
     * (little-endian), copied before the call returns. A record the sink cannot take is counted lost by it.
     */
    void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId, int processId,
               ByteBuffer payload, int length);

    /**
     * The raw time stamp a record written at {@code nanoTime} gets in the file (its clock's conversion), for
     * payload fields that hold one (HardFault's InitialTime).
     */
    long timeStamp(long nanoTime);

    /** {@code count} kernel events were lost before they reached {@link #write} (ring-buffer overruns). */
    void lost(long count);

    /**
     * A fact the trace must carry ({@code dev.jetw.etl.SessionNotice}: PROBLEM or NOTE), e.g. an event this
     * kernel does not offer, stamped {@code nanoTime} ({@link #NOW}: when it is written). A problem is also
     * printed, once.
     */
    void notice(int kind, String text, long nanoTime);

    /** The time argument of {@link #notice} for "now". */
    long NOW = Long.MIN_VALUE;
}
