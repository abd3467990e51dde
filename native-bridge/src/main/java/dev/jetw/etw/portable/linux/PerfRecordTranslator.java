package dev.jetw.etw.portable.linux;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.SessionNotice;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Turns the records of one perf ring into Windows kernel records (docs/linux-kernel-events.md, "CPU samples and hard
 * faults"): a cpu-clock sample of one of this process's threads becomes PerfInfo/SampledProfile, a major page fault
 * PageFault/HardFault, both on the ring's CPU and at the sample's CLOCK_MONOTONIC time (System.nanoTime()'s clock).
 * Samples of other processes are skipped (the events are per CPU, system-wide). PERF_RECORD_LOST gives the exact
 * number the kernel dropped when the ring was full: counted lost, and a note marks where the gap ended. One instance
 * per ring; called on the perf poller only.
 *
 * <p>The sample layouts follow from the attributes ({@link PerfEventAttr}): {@code u64 ip; u32 pid, tid; u64 time}
 * and, for faults, {@code u64 addr}; a LOST record is {@code u64 id, lost} then the sample id ({@code u32 pid, tid;
 * u64 time}), a LOST_SAMPLES record {@code u64 lost} then the same sample id.
 */
final class PerfRecordTranslator implements PerfRing.Records {

    static final int RECORD_LOST = 2;
    static final int RECORD_THROTTLE = 5;
    static final int RECORD_SAMPLE = 9;
    static final int RECORD_LOST_SAMPLES = 13;
    /** At most this many gap notes per session, as for tracefs's gaps. */
    static final int MAX_GAP_NOTES = 20;

    /** What the ring samples. */
    enum Kind {
        /** cpu-clock: PerfInfo/SampledProfile. */
        CPU_SAMPLES("CPU samples"),
        /** major page faults: PageFault/HardFault. */
        HARD_FAULTS("hard faults");

        final String what;

        Kind(String what) {
            this.what = what;
        }
    }

    /** Counters shared by the translators of one session (one poller writes them; others read them). */
    static final class Counters {
        volatile long written;
        /** Samples of other processes, skipped (the events are per CPU): with {@link #written} and lost, all there were. */
        volatile long otherProcesses;
        volatile long lost;
        volatile long throttled;
        volatile long otherRecords;
        int gapNotes;
    }

    private final Kind kind;
    private final int cpu;
    private final int pid;
    private final int pageSize;
    private final KernelRecordSink sink;
    private final Counters counters;
    /** What this ring's LOST and LOST_SAMPLES records reported: the kernel's count at stop tells what they did not. */
    long reportedLost;
    private final ByteBuffer payload = ByteBuffer.allocate(KernelPayloads.MAX_FIXED).order(ByteOrder.LITTLE_ENDIAN);

    /**
     * @param pageSize ByteCount of a hard fault: the faulting page is what had to be read at least (perf does not say
     *                 how much the kernel read ahead)
     */
    PerfRecordTranslator(Kind kind, int cpu, int pid, int pageSize, KernelRecordSink sink, Counters counters) {
        this.kind = kind;
        this.cpu = cpu;
        this.pid = pid;
        this.pageSize = pageSize;
        this.sink = sink;
        this.counters = counters;
    }

    @Override
    public void record(int type, ByteBuffer b, int at, int size) {
        switch (type) {
            case RECORD_SAMPLE:
                sample(b, at);
                break;
            case RECORD_LOST:
                lost(b.getLong(at + 16), b.getLong(at + 32));
                break;
            case RECORD_LOST_SAMPLES:
                lost(b.getLong(at + 8), b.getLong(at + 24));
                break;
            case RECORD_THROTTLE:
                counters.throttled++; // the kernel lowered the rate: the samples it did not take are not counted by it
                break;
            default:
                counters.otherRecords++;
                break;
        }
    }

    private void sample(ByteBuffer b, int at) {
        long ip = b.getLong(at + 8);
        int recordPid = b.getInt(at + 16);
        int tid = b.getInt(at + 20);
        long time = b.getLong(at + 24);
        if (recordPid != pid) {
            counters.otherProcesses++; // another process's: the event is system-wide on this CPU
            return;
        }
        payload.clear();
        if (kind == Kind.CPU_SAMPLES) {
            int n = KernelPayloads.sampledProfile(payload, ip, tid);
            // PERFINFO64, as Windows writes SampledProfile: no thread in the header, the payload names it.
            sink.write(cpu, time, EtlFormat.HT_PERFINFO64, KernelPayloads.SAMPLED_PROFILE_VERSION,
                    KernelPayloads.GROUP_PERF_INFO, KernelPayloads.SAMPLED_PROFILE, tid, pid, payload, n);
        } else {
            long address = b.getLong(at + 32);
            // The kernel counts the fault once its handler returned; when it began is not given, so InitialTime is
            // the same moment (duration 0: the read it waited for is DiskIo's, issued by the same thread).
            int n = KernelPayloads.hardFault(payload, sink.timeStamp(time), 0L, address, 0L, tid, pageSize);
            sink.write(cpu, time, EtlFormat.HT_SYSTEM64, KernelPayloads.HARD_FAULT_VERSION,
                    KernelPayloads.GROUP_PAGE_FAULT, KernelPayloads.HARD_FAULT, tid, pid, payload, n);
        }
        counters.written++;
    }

    private void lost(long count, long endedAt) {
        if (count <= 0) {
            return;
        }
        counters.lost += count;
        reportedLost += count;
        sink.lost(count);
        if (counters.gapNotes < MAX_GAP_NOTES) {
            counters.gapNotes++;
            sink.notice(SessionNotice.NOTE, "perf ring of CPU " + cpu + ": " + count + " " + kind.what
                    + " (of every process) were dropped before this moment: the ring was full", endedAt);
        }
    }
}
