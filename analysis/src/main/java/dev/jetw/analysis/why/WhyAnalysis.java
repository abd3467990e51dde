package dev.jetw.analysis.why;

import dev.jetw.etl.TimestampConverter;
import dev.jetw.analysis.kernel.KernelEvent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Breaks the wall time of chosen calls down (see {@link Breakdown}) in one streaming pass over a
 * trace, after a first pass gave the calls ({@link CallSelector}), the thread numbering
 * ({@link ThreadIds}) and what the trace holds ({@link TraceContents}). Feed it every record's
 * meaning in any order; memory grows with the chosen calls and the events inside them on their
 * threads (plus the children of the chosen calls open at once), not with the trace.
 *
 * <p>Matching: jetw's children by (process, ParentInstanceId = the chosen call's instance id);
 * kernel events by the kernel thread id of the call's thread ({@link ThreadIds#kernelThreadId}) and
 * time; JVM runtime events by subject ({@link ThreadIds#isSubject}) and time, JVM-wide classes (GC
 * pauses, safepoints) for every call of their process.
 */
public final class WhyAnalysis {

    private static final long NONE = Long.MIN_VALUE;

    private final List<CallEvidence> calls = new ArrayList<>();
    private final Map<Long, List<CallEvidence>> byInstance = new HashMap<>();
    private final Map<Long, List<CallEvidence>> byKernelThread = new HashMap<>();
    private final Map<Long, long[]> openChildren = new HashMap<>();
    private final ThreadIds ids;
    private final TracedThreads traced;
    private final TraceContents contents;
    private final long perfFreq;
    private final TimestampConverter clock;
    private long order;
    /** Who held the CPUs while the calls were ready ({@link #cpuHolders}), once asked for. */
    private CpuHolders holders;
    /** Why {@link #holders} cannot tell, or null. */
    private String holdersUnknown;
    /** The logfile header's NumberOfProcessors, for the note on CPUs without context switches. */
    private int headerCpus;
    /** FileIo operations of the chosen calls' threads waiting for their OpEnd, by IrpPtr (fed in time order). */
    private final Map<Long, PendingFileOp> pendingFileOps = new HashMap<>();
    /** FileKey to name (Name, FileCreate, FileRundown: their pointer is the file's key), the last given. */
    private final Map<Long, String> namesByFileKey = new HashMap<>();
    /** FileObject to name (Create's OpenPath: Create carries no FileKey), the last given. */
    private final Map<Long, String> namesByFileObject = new HashMap<>();

    /** A FileIo Read, Write or Flush of a thread with chosen calls, before its OpEnd. */
    private static final class PendingFileOp {
        final List<CallEvidence> calls;
        final int type;
        final long fileKey;
        final long fileObject;
        final long start;
        final long asked;

        PendingFileOp(List<CallEvidence> calls, int type, long fileKey, long fileObject, long start, long asked) {
            this.calls = calls;
            this.type = type;
            this.fileKey = fileKey;
            this.fileObject = fileObject;
            this.start = start;
            this.asked = asked;
        }
    }

    /**
     * @param traced   the threads with jetw calls, resolved to kernel ids: a waker that is one of them is placed in its calls
     * @param perfFreq the QPC frequency of the file (logfile header): DiskIo's HighResResponseTime is in those ticks
     * @param clock    the file's time stamp conversion: HardFault's InitialTime is a raw time stamp
     */
    public WhyAnalysis(List<ExplainedCall> chosen, ThreadIds ids, TracedThreads traced, TraceContents contents,
                       long perfFreq, TimestampConverter clock) {
        this.ids = ids;
        this.traced = traced;
        this.contents = contents;
        this.perfFreq = perfFreq;
        this.clock = clock;
        for (ExplainedCall c : chosen) {
            CallEvidence e = new CallEvidence(c, ids.kernelThreadId(c.processId, c.threadId));
            calls.add(e);
            byInstance.computeIfAbsent(key(c.processId, c.instanceId), k -> new ArrayList<>()).add(e);
            if (e.kernelThreadId > 0) {
                byKernelThread.computeIfAbsent(e.kernelThreadId, k -> new ArrayList<>()).add(e);
            }
        }
    }

    /** A jetw MethodCall START. */
    public void callStart(int pid, int instance, int parent, long time) {
        child(pid, instance, parent, time, true);
    }

    /** A jetw MethodCall END. */
    public void callEnd(int pid, int instance, int parent, long time) {
        child(pid, instance, parent, time, false);
    }

    private void child(int pid, int instance, int parent, long time, boolean start) {
        List<CallEvidence> parents = byInstance.get(key(pid, parent));
        if (parent == 0 || parents == null) {
            return;
        }
        long k = key(pid, instance);
        long[] c = openChildren.computeIfAbsent(k, x -> new long[] {NONE, NONE});
        c[start ? 0 : 1] = time;
        if (c[0] == NONE || c[1] == NONE) {
            return;
        }
        openChildren.remove(k);
        for (CallEvidence p : parents) {
            if (c[0] >= p.call.start && c[0] <= p.call.end) { // the parent's instance id may be used again later
                p.children.add(c[0], c[1]);
            }
        }
    }

    /** Any kernel event (those a breakdown does not use are ignored). */
    public void kernel(KernelEvent k) {
        TraceContents.Kernel kind = TraceContents.kindOf(k);
        if (kind == null) {
            return;
        }
        long t = k.fileTime();
        long seq = order++;
        switch (kind) {
            case CSWITCH:
                for (CallEvidence c : on(k.newThreadId())) {
                    c.states.switchedIn(t, seq);
                }
                for (CallEvidence c : on(k.oldThreadId())) {
                    c.states.switchedOut(t, seq, k.oldThreadState(), k.oldThreadWaitReason());
                }
                break;
            case READY_THREAD:
                // The header thread readied it (the waker; 0: an interrupt or the idle CPU; -1: a PERFINFO header names none).
                int header = k.record().threadId();
                long waker = header == -1 ? -1 : header & 0xFFFFFFFFL;
                for (CallEvidence c : on(k.threadId())) {
                    c.states.readied(t, seq, waker, k.record().processId());
                }
                break;
            case SAMPLED_PROFILE:
                for (CallEvidence c : on(k.threadId())) {
                    if (t >= c.call.start && t <= c.call.end) {
                        c.samples++;
                    }
                }
                break;
            case DISK_IO:
                long ticks = k.elapsedTicks();
                long from = perfFreq > 0 && ticks > 0 ? t - ticks * 10_000_000L / perfFreq : t;
                for (CallEvidence c : on(k.threadId())) {
                    if (c.overlaps(from, t)) {
                        c.disk.add(from, t);
                        c.diskBytes += Math.max(0, k.size());
                    }
                }
                break;
            case FILE_IO:
                // A new operation with an IrpPtr still pending means the old one's OpEnd was lost (IRPs are reused):
                // drop it whichever thread starts the new one, or it would be closed by the new one's OpEnd.
                pendingFileOps.remove(k.number("irpPtr"));
                List<CallEvidence> on = on(k.threadId());
                if (!on.isEmpty()) {
                    PendingFileOp op = new PendingFileOp(on, k.type(), k.number("fileKey"), k.number("fileObject"), t,
                            k.size());
                    if (contents.count(TraceContents.Kernel.FILE_IO_END) == 0) {
                        fileOp(op, t, op.asked); // no completions in this trace: an instant, with the size asked
                    } else {
                        pendingFileOps.put(k.number("irpPtr"), op);
                    }
                }
                break;
            case FILE_IO_END:
                PendingFileOp done = pendingFileOps.remove(k.number("irpPtr"));
                if (done != null) {
                    fileOp(done, t, k.number("extraInfo"));
                }
                break;
            case FILE_NAME:
                String name = k.fileName();
                if (name != null && !name.isEmpty()) {
                    if (k.type() == 64) {
                        namesByFileObject.put(k.number("fileObject"), name);
                    } else {
                        namesByFileKey.put(k.number("fileKey"), name);
                    }
                }
                break;
            case HARD_FAULT:
                long initial = k.number("initialTime");
                long began = initial > 0 && initial <= k.rawTimestamp() ? clock.toFileTime(initial) : t;
                for (CallEvidence c : on(k.threadId())) {
                    if (c.overlaps(began, t)) {
                        c.faults.add(began, t);
                        c.faultBytes += Math.max(0, k.number("byteCount"));
                    }
                }
                break;
            default:
                break;
        }
    }

    private static void fileOp(PendingFileOp op, long end, long bytes) {
        for (CallEvidence c : op.calls) {
            if (c.overlaps(op.start, end)) {
                c.fileIo.add(op.type, op.fileKey, op.fileObject, op.start, end, bytes);
            }
        }
    }

    private List<CallEvidence> on(long kernelTid) {
        List<CallEvidence> l = kernelTid > 0 ? byKernelThread.get(kernelTid) : null;
        return l != null ? l : Collections.<CallEvidence>emptyList();
    }

    /**
     * A JVM runtime event as a span (an instant has start == end) of class {@code className}, whose
     * subject is ({@code osId}, {@code javaId}); {@code jvmWide} classes stop every thread of the process.
     */
    public void runtime(int pid, String className, boolean jvmWide, long osId, long javaId, long start, long end) {
        for (CallEvidence c : calls) {
            if (c.call.processId == pid && c.overlaps(start, end)
                    && (jvmWide || ids.isSubject(pid, c.call.threadId, osId, javaId))) {
                c.jvm.computeIfAbsent(className, x -> new Intervals()).add(start, end);
                c.jvmWide.put(className, jvmWide);
            }
        }
    }

    /**
     * After the pass: the wake-ups to place in the waker's traced calls (the one that ended each waker's
     * longest wait, for wakers that are threads with jetw calls), for one more pass over jetw's calls.
     */
    public WakerCalls wakerCalls() {
        WakerCalls w = new WakerCalls();
        if (!wakersKnown()) {
            return w;
        }
        for (CallEvidence c : calls) {
            for (ThreadStates.WakerSum s : c.states.wakers()) {
                long t = traced.ofKernelThread(s.waker);
                if (s.waker > 0 && t >= 0) {
                    w.ask(t, s.longestAt);
                }
            }
        }
        return w;
    }

    /**
     * After the pass: who held the CPUs while the chosen calls' threads were ready, to be fed every Thread/CSwitch
     * of the trace with its CPU ({@link CpuHolders#contextSwitch}) in one more pass when {@link CpuHolders#anyReady()},
     * then {@link CpuHolders#finish()}; the breakdowns then carry it ({@link Breakdown#readyCpus}). Not asked for,
     * they carry none.
     *
     * @param cpus                the logfile header's NumberOfProcessors
     * @param buffersPerProcessor whether a record's buffer names the CPU it was logged on (else nothing is told)
     */
    public CpuHolders cpuHolders(int cpus, boolean buffersPerProcessor) {
        return cpuHolders(cpus, buffersPerProcessor, null);
    }

    /**
     * As {@link #cpuHolders(int, boolean)}, for a trace whose context switches are those of the threads
     * {@code recordedInFull} accepts (kernel thread ids) only, or of every thread (null: a Windows kernel trace).
     */
    public CpuHolders cpuHolders(int cpus, boolean buffersPerProcessor, java.util.function.LongPredicate recordedInFull) {
        headerCpus = cpus;
        List<List<long[]>> stretches = new ArrayList<>();
        for (CallEvidence c : calls) {
            boolean told = buffersPerProcessor && contents.count(TraceContents.Kernel.CSWITCH) > 0 && c.kernelThreadId > 0;
            stretches.add(told ? c.states.readyStretches() : Collections.<long[]>emptyList());
        }
        holdersUnknown = buffersPerProcessor ? null : "this trace's buffers are not per CPU (LogFileMode"
                + " EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING): the CPU of each context switch is unknown, so who held the CPUs"
                + " while the thread was ready cannot be told";
        holders = new CpuHolders(stretches, recordedInFull);
        return holders;
    }

    private boolean wakersKnown() {
        return contents.count(TraceContents.Kernel.CSWITCH) > 0 && contents.count(TraceContents.Kernel.READY_THREAD) > 0;
    }

    /** The breakdowns, in the order the calls were given (wakers not placed in their calls). */
    public List<Breakdown> breakdowns() {
        return breakdowns(new WakerCalls());
    }

    /** The breakdowns, in the order the calls were given; {@code placed}: {@link #wakerCalls()} after its pass. */
    public List<Breakdown> breakdowns(WakerCalls placed) {
        List<Breakdown> out = new ArrayList<>();
        for (int i = 0; i < calls.size(); i++) {
            out.add(breakdown(calls.get(i), placed, holders != null ? holders.of(i) : null));
        }
        return out;
    }

    /** The notes on who held the CPUs while the thread was ready (r: null when nothing is told). */
    private void readyCpusNotes(CallEvidence c, ReadyCpus r, List<String> notes) {
        if (holders == null || c.states.readyStretches().isEmpty()) {
            return;
        }
        if (holdersUnknown != null) {
            notes.add(holdersUnknown);
            return;
        }
        if (r == null) {
            return;
        }
        if (r.cpus.size() < headerCpus) {
            notes.add("context switches on " + r.cpus.size() + " of the " + headerCpus + " CPUs of this trace (its"
                    + " NumberOfProcessors): the others are left out of who held the CPUs while ready (offline, or no"
                    + " switch recorded there: on Linux only switches to or from the traced JVM's threads are)");
        }
        if (r.idle > 0 && !r.idleAtMost) {
            notes.add("a CPU was idle for " + millis(r.idle) + " ms while the thread was ready: that wait was not for lack"
                    + " of CPUs (CPU affinity, or the scheduler's wake-up latency)");
        } else if (r.idle > 0) {
            notes.add("a CPU may have been idle for up to " + millis(r.idle) + " ms while the thread was ready: this trace"
                    + " records only switches to or from the traced processes' threads, so other processes' threads may"
                    + " have run in that time unrecorded; where the CPU was idle indeed, that wait was not for lack of CPUs"
                    + " (CPU affinity, or the scheduler's wake-up latency)");
        }
        if (r.beforeFirstSwitch > 0) {
            notes.add("who held the CPUs is unknown for " + millis(r.beforeFirstSwitch) + " ms of CPU time while the thread"
                    + " was ready: before a CPU's first context switch in the trace");
        }
        if (r.notRecorded > 0 && !r.someThreadsOnly) {
            notes.add(millis(r.notRecorded) + " ms of CPU time while the thread was ready lie between two switches of a CPU"
                    + " that do not meet (the thread switched out is not the one last switched in): the switches between"
                    + " are not in the trace. The portable backend on Linux records only switches to or from the traced"
                    + " JVM's threads, so there this is time of other processes' threads or idle, and the JVM's own"
                    + " threads' time is exact");
        } else if (r.notRecorded > 0) {
            notes.add(millis(r.notRecorded) + " ms of CPU time while the thread was ready lie between two switches of a CPU"
                    + " that do not meet (the thread switched out is not the one last switched in), or after a CPU's last"
                    + " switch in the trace when it switched in no thread of the traced processes: this trace records only"
                    + " switches to or from the traced processes' threads (the portable backend on Linux), so that is time"
                    + " of other processes' threads or idle; the traced processes' threads' time is exact, the others' and"
                    + " idle are upper bounds (\"at most\")");
        }
    }

    /** 100 ns ticks as milliseconds, 3 decimals (as the text output prints them). */
    private static String millis(long ticks) {
        return String.format(java.util.Locale.ROOT, "%.3f", ticks / 10_000.0);
    }

    private List<Waker> wakers(CallEvidence c, WakerCalls placed) {
        List<Waker> out = new ArrayList<>();
        for (ThreadStates.WakerSum s : c.states.wakers()) {
            long t = s.waker > 0 ? traced.ofKernelThread(s.waker) : -1;
            out.add(new Waker(s.waker, s.processId, t, s.wakeups, s.waited, s.longestAt,
                    t >= 0 ? placed.callAt(t, s.longestAt) : null));
        }
        return out;
    }

    private Breakdown breakdown(CallEvidence c, WakerCalls placed, ReadyCpus readyCpus) {
        List<String> notes = new ArrayList<>();
        boolean threadKnown = c.kernelThreadId > 0;
        if (!contents.hasKernelEvents()) {
            notes.add("no kernel events in this trace (context switches, CPU samples, disk I/O, file I/O, hard faults): on-CPU,"
                    + " waiting and I/O time cannot be told apart");
        } else if (!threadKnown && ids.hasNoOsThread(c.call.processId, c.call.threadId)) {
            notes.add("a virtual thread: it has no OS thread of its own, and its carriers' kernel states are not its"
                    + " own, so no kernel events are attributed to it");
        } else if (!threadKnown) {
            notes.add("the OS thread id of this thread is not in the trace (no JVM runtime event about it): kernel"
                    + " events cannot be matched to it");
        }
        Map<String, Long> states = null;
        List<Waker> wakers = null;
        if (contents.count(TraceContents.Kernel.CSWITCH) > 0 && threadKnown) {
            states = c.states.times();
            readyCpusNotes(c, readyCpus, notes);
            if (contents.count(TraceContents.Kernel.READY_THREAD) == 0) {
                notes.add("no ReadyThread events in this trace: the time from wake-up to getting a CPU counts in the wait,"
                        + " and what woke the thread is unknown");
            } else {
                wakers = wakers(c, placed);
            }
            if (contents.missingSwitchIns() > 0) {
                notes.add(contents.missingSwitchIns() + " switch-in" + (contents.missingSwitchIns() == 1 ? "" : "s")
                        + " missing in this trace (a thread switched out while not on a CPU); time around them is"
                        + " estimated: on CPU since the thread's last wake-up, else unknown");
            }
        } else if (contents.hasKernelEvents()) {
            notes.add("no context switches in this trace: on-CPU, ready and waiting time are unknown");
        }
        long samples = contents.count(TraceContents.Kernel.SAMPLED_PROFILE) > 0 && threadKnown ? c.samples : -1;
        Usage disk = contents.count(TraceContents.Kernel.DISK_IO) > 0 && threadKnown
                ? c.usage(c.disk, c.diskBytes, false) : null;
        long unattributed = contents.count(TraceContents.Kernel.DISK_IO_WITHOUT_THREAD);
        if (unattributed > 0) {
            notes.add(unattributed + " disk I/O events of this trace name no issuing thread (DiskIo before version 3)"
                    + " and are not attributed");
        }
        Usage faults = contents.count(TraceContents.Kernel.HARD_FAULT) > 0 && threadKnown
                ? c.usage(c.faults, c.faultBytes, false) : null;
        FileIoUsage fileIo = contents.count(TraceContents.Kernel.FILE_IO) > 0 && threadKnown
                ? c.fileIo.usage(c.call.start, c.call.end, namesByFileKey, namesByFileObject) : null;
        if (contents.count(TraceContents.Kernel.FILE_IO) > 0 && contents.count(TraceContents.Kernel.FILE_IO_END) == 0) {
            notes.add("no FileIo OpEnd in this trace (kernel=file_io): file operations are counted with the bytes asked,"
                    + " and the time they took is unknown");
        } else if (contents.count(TraceContents.Kernel.FILE_IO) == 0 && contents.count(TraceContents.Kernel.FILE_IO_END) > 0) {
            notes.add("FileIo OpEnd without the operations they end (kernel=file_io_init): file I/O cannot be attributed"
                    + " to threads");
        }
        Map<String, Usage> jvm = null;
        if (contents.hasRuntimeEvents()) {
            jvm = new LinkedHashMap<>();
            for (Map.Entry<String, Intervals> e : c.jvm.entrySet()) {
                jvm.put(e.getKey(), c.usage(e.getValue(), 0, c.jvmWide.get(e.getKey())));
            }
            List<String> missing = new ArrayList<>();
            for (String f : new String[] {"gc", "safepoint", "contention", "park", "io"}) {
                if (!contents.runtimeFamilies().contains(f)) {
                    missing.add(f);
                }
            }
            if (!missing.isEmpty()) {
                notes.add("no JVM runtime events of families " + String.join(", ", missing) + " in this trace (not enabled"
                        + " by jvm=, or none lasted jvmThreshold)");
            }
        } else {
            // The agent's default families are on unless jvm= said otherwise; a short run may have none over jvmThreshold.
            notes.add("no JVM runtime events in this trace (not enabled by jvm=, or none lasted jvmThreshold): GC pauses,"
                    + " safepoints, lock contention and parking cannot be told");
        }
        return new Breakdown(c.call, c.children.coveredWithin(c.call.start, c.call.end), c.children.size(),
                c.kernelThreadId, states, wakers, readyCpus, samples, disk, faults, fileIo, jvm, notes);
    }

    private static long key(int pid, int instance) {
        return (long) pid << 32 | (instance & 0xFFFFFFFFL);
    }
}
