package dev.jetw.analysis.cli;

import dev.jetw.analysis.kernel.KernelClass;
import dev.jetw.analysis.kernel.KernelDecoder;
import dev.jetw.analysis.kernel.KernelEvent;
import dev.jetw.analysis.why.CpuTimeline;
import dev.jetw.analysis.why.TracedThreads;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.TimeOrderedRecords;

import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The kernel's evidence per thread as tracks for the viewers (perfetto, chrome-trace), from kernel events
 * fed in time order:
 * <ul>
 *   <li>{@value #CPU_STATE}: slices from {@link CpuTimeline} (Thread/CSwitch and Thread/ReadyThread):
 *       "Running", "Ready" (preempted, or from a ReadyThread to the switch-in), "Waiting (REASON)" with
 *       the KWAIT_REASON's name and, for a wait a ReadyThread ended, who woke the thread; a switch-out while
 *       not known to be running gives "Running (estimated: switch-in not recorded)" since the last
 *       ReadyThread, else "Unknown (switch-in not recorded)";</li>
 *   <li>{@value #CPU_SAMPLES}: an instant per PerfInfo/SampledProfile;</li>
 *   <li>{@value #DISK}: a slice per DiskIo Read, Write and FlushBuffers with an issuing thread (version 3),
 *       [completion − HighResResponseTime, completion]; a thread's I/Os overlap, so they go on lanes
 *       ({@link Lanes}: "Disk I/O 2", ...).</li>
 * </ul>
 * Which threads: a thread with jetw calls (its kernel id resolved by {@link TracedThreads}: Java ids in
 * portable files), then, in a jetw trace, the other threads of its processes (by the kernel's Thread
 * records: GC, JIT, native threads, named by {@link ThreadLabels}); in a file without jetw calls, every
 * thread. An event of a thread earlier than that thread's last one (records later in the file than the
 * reorder window placed) is skipped and counted.
 */
final class KernelTracks {

    static final String CPU_STATE = "CPU state";
    static final String CPU_SAMPLES = "CPU samples";
    static final String DISK = "Disk I/O";

    /** Where the tracks go: a slice or instant on the track named {@code track} of thread {@code tid} of {@code pid}. */
    interface Sink {
        void slice(int pid, int tid, String track, long from, long to, String name, Map<String, Object> args)
                throws IOException;

        void instant(int pid, int tid, String track, long at, String name, Map<String, Object> args) throws IOException;
    }

    private final TraceContext context;
    private final CommandOptions o;
    private final TimeWindow window;
    private final long perfFreq;
    private final Sink sink;
    private final java.util.Set<Integer> callProcesses;
    private final Map<Long, CpuTimeline> timelines = new HashMap<>();
    /** Per kernel thread: the time of its last scheduling event; and of its last CPU sample. */
    private final Map<Long, Long> lastState = new HashMap<>();
    private final Map<Long, Long> lastSample = new HashMap<>();
    private final Lanes diskLanes = new Lanes();
    private IOException failed;
    long cpuSlices;
    long samples;
    long diskIos;
    long outOfOrder;

    /** @param perfFreq the file's QPC frequency: DiskIo's HighResResponseTime is in those ticks */
    KernelTracks(TraceContext context, CommandOptions o, TimeWindow window, long perfFreq, Sink sink) {
        this.context = context;
        this.o = o;
        this.window = window;
        this.perfFreq = perfFreq;
        this.sink = sink;
        this.callProcesses = context.callProcesses();
    }

    /**
     * The thread whose tracks the events of kernel thread {@code kernelTid} go under, as
     * {@link TracedThreads#key}, or -1 when they are not exported.
     */
    private long owner(long kernelTid) {
        if (kernelTid <= 0) {
            return -1;
        }
        long traced = context.traced.ofKernelThread(kernelTid);
        if (traced >= 0) {
            return o.threadMatches(TracedThreads.headerOf(traced)) ? traced : -1;
        }
        int pid = context.kernelNames.processId(kernelTid);
        if (!callProcesses.isEmpty() && !callProcesses.contains(pid)) {
            return -1; // a jetw trace: its own processes' threads only
        }
        return o.threadMatches((int) kernelTid) ? TracedThreads.key(Math.max(pid, 0), (int) kernelTid) : -1;
    }

    /** Throws what a callback could not (a write that failed inside the call tree builder's callback). */
    interface Check {
        void check() throws IOException;
    }

    /**
     * The second pass of perfetto and chrome-trace: the file's records in time order (per-processor buffers
     * and writers interleave in the file; the CPU state machines and per-track order need time order),
     * jetw's events of the threads kept into {@code builder}, kernel events into these tracks,
     * {@code check} after each record. Returns how many records came later than the reorder window could place.
     */
    long readInTimeOrder(EtlReader reader, Progress progress, CallTreeBuilder builder, Check check) throws IOException {
        TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
        for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
            progress.record(reader, 2, 2);
            JetwEvent e = JetwEvent.decode(r);
            if (e != null) {
                if (o.threadMatches(r.threadId())) {
                    builder.accept(r, e);
                }
            } else {
                KernelEvent k = KernelDecoder.decode(r);
                if (k != null) {
                    accept(k);
                }
            }
            check.check();
        }
        return ordered.late();
    }

    void accept(KernelEvent k) throws IOException {
        if (k.kernelClass() == KernelClass.THREAD && k.type() == 36) {
            long t = k.fileTime();
            long out = k.oldThreadId() & 0xFFFFFFFFL;
            if (inOrder(lastState, out, t)) {
                timeline(out).switchedOut(t, k.oldThreadState(), k.oldThreadWaitReason());
            }
            long in = k.newThreadId() & 0xFFFFFFFFL;
            if (inOrder(lastState, in, t)) {
                timeline(in).switchedIn(t);
            }
        } else if (k.kernelClass() == KernelClass.THREAD && k.type() == 50) {
            long t = k.fileTime();
            long readied = k.threadId() & 0xFFFFFFFFL;
            int header = k.record().threadId();
            if (inOrder(lastState, readied, t)) {
                timeline(readied).readied(t, header == -1 ? -1 : header & 0xFFFFFFFFL, k.record().processId());
            }
        } else if (k.kernelClass() == KernelClass.PERF_INFO && k.type() == 46) {
            sample(k);
        } else if (k.kernelClass() == KernelClass.DISK_IO && (k.type() == 10 || k.type() == 11 || k.type() == 14)
                && k.fields().containsKey("issuingThreadId")) {
            disk(k);
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** True when {@code t} is not before thread {@code tid}'s last event in {@code last} (and makes it the last). */
    private boolean inOrder(Map<Long, Long> last, long tid, long t) {
        if (tid == 0 || owner(tid) < 0) {
            return false;
        }
        Long l = last.get(tid);
        if (l != null && t < l) {
            outOfOrder++;
            return false;
        }
        last.put(tid, t);
        return true;
    }

    private CpuTimeline timeline(long kernelTid) {
        return timelines.computeIfAbsent(kernelTid, tid -> new CpuTimeline((from, to, state, waker, wakerPid) -> {
            if (failed != null || !window.overlaps(from, to)) {
                return;
            }
            Map<String, Object> args = new LinkedHashMap<>();
            if (waker != CpuTimeline.NO_WAKER) {
                args.put("wokenBy", context.labels.waker(waker, wakerPid));
                args.put("wakerTid", waker);
            }
            long owner = owner(tid);
            try {
                sink.slice(TracedThreads.processOf(owner), TracedThreads.headerOf(owner), CPU_STATE, from, to,
                        CpuTimeline.trackName(state), args);
                cpuSlices++;
            } catch (IOException e) {
                failed = e;
            }
        }));
    }

    private void sample(KernelEvent k) throws IOException {
        long t = k.fileTime();
        long tid = k.threadId() & 0xFFFFFFFFL;
        if (!window.contains(t) || !inOrder(lastSample, tid, t)) {
            return;
        }
        long owner = owner(tid);
        sink.instant(TracedThreads.processOf(owner), TracedThreads.headerOf(owner), CPU_SAMPLES, t, "CPU sample",
                new LinkedHashMap<>());
        samples++;
    }

    private void disk(KernelEvent k) throws IOException {
        long t = k.fileTime();
        long ticks = k.elapsedTicks();
        long from = perfFreq > 0 && ticks > 0 ? t - ticks * 10_000_000L / perfFreq : t;
        long owner = owner(k.threadId() & 0xFFFFFFFFL);
        if (owner < 0 || !window.overlaps(from, t)) {
            return;
        }
        Map<String, Object> args = new LinkedHashMap<>();
        if (k.size() >= 0) {
            args.put("bytes", k.size());
        }
        if (k.byteOffset() >= 0) {
            args.put("byteOffset", k.byteOffset());
        }
        args.put("durationUs", (t - from) / 10);
        int lane = diskLanes.place(Long.toString(owner), from, t);
        sink.slice(TracedThreads.processOf(owner), TracedThreads.headerOf(owner), Lanes.name(DISK, lane), from, t,
                k.fullName(), args);
        diskIos++;
    }

    /** Switch-outs of threads that were not known to be running (their switch-in is not in the trace). */
    long missingSwitchIns() {
        long n = 0;
        for (CpuTimeline t : timelines.values()) {
            n += t.missingSwitchIns();
        }
        return n;
    }
}
