package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code struct perf_event_attr} (linux/perf_event.h) for the two software events the collector samples, as a
 * direct buffer in native order to pass to perf_event_open(2). Size {@link #SIZE} (PERF_ATTR_SIZE_VER5: every
 * field used here is in it; a newer kernel takes the shorter struct as it is, an older one a longer struct only
 * if the bytes it does not know are 0).
 */
final class PerfEventAttr {

    static final int SIZE = 112;
    static final int TYPE_SOFTWARE = 1;
    /** PERF_COUNT_SW_CPU_CLOCK: a per-CPU hrtimer; its sample_period is in nanoseconds. */
    static final int CPU_CLOCK = 0;
    /** PERF_COUNT_SW_PAGE_FAULTS_MAJ: counted where the fault handler accounts a major fault, after it returned. */
    static final int PAGE_FAULTS_MAJ = 6;

    static final long SAMPLE_IP = 1L;
    static final long SAMPLE_TID = 1L << 1;
    static final long SAMPLE_TIME = 1L << 2;
    static final long SAMPLE_ADDR = 1L << 3;

    /**
     * read_format PERF_FORMAT_LOST (Linux 6.0+): read(2) then gives the samples the event could not write into its
     * ring, also those no PERF_RECORD_LOST reported yet (that record is only written inside the next successful
     * write, so the losses after the last one would be thrown away with the descriptor). Older kernels answer EINVAL.
     */
    static final long FORMAT_LOST = 1L << 4;

    static final long FLAG_DISABLED = 1L;
    static final long FLAG_SAMPLE_ID_ALL = 1L << 18;
    static final long FLAG_USE_CLOCKID = 1L << 25;
    /** CLOCK_MONOTONIC: System.nanoTime()'s clock on Linux, and the tracefs instances' (trace_clock=mono). */
    static final int CLOCK_MONOTONIC = 1;

    private PerfEventAttr() {
    }

    /**
     * A sampling software event: {@code config} every {@code period} (ns for the CPU clock, events for faults),
     * samples carrying {@code sampleType}, created disabled (enabled together once every CPU's ring is mapped),
     * stamped on CLOCK_MONOTONIC, its LOST records carrying the same TID and TIME (sample_id_all), read(2) giving
     * what {@code readFormat} asks ({@link #FORMAT_LOST} or 0).
     */
    static ByteBuffer sampling(int config, long period, long sampleType, long readFormat) {
        ByteBuffer b = ByteBuffer.allocateDirect(SIZE).order(ByteOrder.nativeOrder());
        b.putInt(0, TYPE_SOFTWARE);
        b.putInt(4, SIZE);
        b.putLong(8, config);
        b.putLong(16, period); // sample_period (freq is 0: a fixed period, not a frequency)
        b.putLong(24, sampleType);
        b.putLong(32, readFormat);
        b.putLong(40, FLAG_DISABLED | FLAG_SAMPLE_ID_ALL | FLAG_USE_CLOCKID);
        b.putInt(48, 0); // wakeup_events: nobody poll(2)s the descriptor, the poller looks at data_head
        b.putInt(92, CLOCK_MONOTONIC); // clockid
        return b;
    }
}
