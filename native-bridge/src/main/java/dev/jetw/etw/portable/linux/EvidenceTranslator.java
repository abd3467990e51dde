package dev.jetw.etw.portable.linux;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.SessionNotice;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns the tracepoint evidence about the traced process into the Windows kernel records of its plan
 * (docs/linux-kernel-events.md, "Event by event"), written to a {@link KernelRecordSink}:
 * <ul>
 * <li>sched_switch: Thread/CSwitch v2 (COMPACT header, thread = the new thread), prev_state mapped by
 * {@link ThreadStateMapping};</li>
 * <li>sched_waking, sched_wakeup_new: Thread/ReadyThread v2 (header thread = the waker, the task that was
 * interrupted for wakeups from interrupts);</li>
 * <li>the /proc rundown at start, task_newtask, sched_process_exit: Process and Thread DCStart/Start/End;</li>
 * <li>block starts and completions, paired by {@link BlockIoMatcher}: DiskIo Read/Write/FlushBuffers v3 (and
 * the Init types), kept when the issuing thread is one of the traced process's.</li>
 * </ul>
 * The scheduler callbacks run on the scheduler poller's thread, the block callbacks on the block poller's;
 * each side has its own payload scratch. Tasks are followed from the rundown and task_newtask: a task
 * created by a followed task is followed (threads, and child processes: the kernel's pid filter follows
 * them too, with event-fork).
 */
final class EvidenceTranslator implements TracepointSink, BlockIoMatcher.DiskIoSink {

    /** Header process id of a record whose task is not followed (another process's thread). */
    static final int UNKNOWN_PROCESS = -1;
    static final long CLONE_THREAD = 0x10000L;
    /**
     * Threads of other processes named at most (their first switch with a traced thread), to bound memory and /proc
     * reads. Only names written count: the traced process's own threads never do.
     */
    static final int MAX_NAMED_OTHERS = 10_000;
    /**
     * Exited followed threads remembered at most until their final switch out (which drops them): past this many,
     * the oldest is forgotten (its final switch out was not recorded, or came first from another CPU's buffer).
     */
    static final int MAX_EXITED_PENDING = 1024;
    /** At most this many notices of lost kernel events (one per gap) per session; the rest are counted. */
    static final int MAX_GAP_NOTICES = 20;

    private final KernelFlagPlan plan;
    private final int pid;
    private final KernelRecordSink out;
    private final DiskNumbers disks;
    private volatile ThreadStateMapping mapping = new ThreadStateMapping(PrevState.linux418To618());
    private final BlockIoMatcher matcher;

    // Scheduler poller's side.
    private final TaskTable tasks = new TaskTable();
    private final ByteBuffer schedScratch = ByteBuffer.allocate(KernelPayloads.MAX_FIXED).order(ByteOrder.LITTLE_ENDIAN);
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<Runnable>();
    /** Switches out of a followed thread that was not known to be on a CPU (the kernel did not record its switch in). */
    long switchedOutNotRunning;
    long switchesOfFollowed;
    /** Threads of other processes already named (Thread/SetName), and the other processes named (Process/DCStart). */
    private final IntSet namedOthers = new IntSet();
    private final IntSet namedOtherProcesses = new IntSet();
    /**
     * Followed threads that exited and whose final switch out (it comes after sched_process_exit) was not seen yet:
     * no longer in {@link #tasks}, yet not another process's thread to name. Bounded by {@link #exitedOrder}, a ring
     * of the last {@link #MAX_EXITED_PENDING} exits, so that a churning thread pool costs nothing that grows.
     */
    private final IntSet exited = new IntSet();
    private final int[] exitedOrder = new int[MAX_EXITED_PENDING];
    private int exitedNext;
    /** The process of another process's thread, -1 when gone (ProcFs; a test replaying another machine's capture replaces it). */
    java.util.function.IntUnaryOperator threadGroupOf = ProcFs::threadGroup;
    /** A thread of the traced process's name (comm), or null (ProcFs; replaced in tests replaying a capture). */
    java.util.function.IntFunction<String> ownThreadName;

    // Block poller's side.
    private final ByteBuffer diskScratch = ByteBuffer.allocate(KernelPayloads.MAX_FIXED).order(ByteOrder.LITTLE_ENDIAN);
    /** The followed tasks for the block side: tid -> {process id, exit time or Long.MAX_VALUE}. */
    private final ConcurrentHashMap<Integer, long[]> diskTasks = new ConcurrentHashMap<Integer, long[]>();
    long discards;
    long otherProcessesIo;
    private volatile boolean discarded;
    /** sched_wakeup stands in for sched_waking (kernels before 4.3). */
    private volatile boolean acceptWakeup;

    final AtomicLong records = new AtomicLong();
    /** Lost events the pages counted (with overwrite on, each page after a gap carries the exact count). */
    final AtomicLong lostInBand = new AtomicLong();
    private final AtomicLong gaps = new AtomicLong();

    EvidenceTranslator(KernelFlagPlan plan, int pid, KernelRecordSink out, DiskNumbers disks, boolean bioQueueStarts) {
        this.plan = plan;
        this.pid = pid;
        this.out = out;
        this.disks = disks;
        this.matcher = new BlockIoMatcher(this, bioQueueStarts);
        this.ownThreadName = tid -> ProcFs.threadName(pid, tid);
    }

    /** Takes sched_wakeup as the ReadyThread source: the kernel has no sched_waking. */
    void acceptWakeup() {
        acceptWakeup = true;
    }

    /** The prev_state encoding of this kernel, once learnt from sched_switch's format. */
    void prevState(PrevState codec) {
        if (codec != null) {
            mapping = new ThreadStateMapping(codec);
        }
    }

    /**
     * The threads of the traced process alive when tracing began: followed from now on, with Process/DCStart
     * and Thread/DCStart at {@code nanoTime}. Applied on the scheduler poller's thread before its next records.
     */
    void rundown(List<Integer> tids, long nanoTime, int parentPid, String image, String commandLine) {
        pending.add(() -> {
            if (plan.process) {
                byte[] p = KernelPayloads.process(pid, parentPid, 0, image, commandLine);
                write(0, nanoTime, false, KernelPayloads.PROCESS_VERSION, KernelPayloads.GROUP_PROCESS,
                        KernelPayloads.DC_START, 0, pid, ByteBuffer.wrap(p), p.length);
            }
            for (int tid : tids) {
                follow(tid, pid, false);
                if (plan.thread) {
                    threadRecord(KernelPayloads.DC_START, 0, nanoTime, tid, pid, tid);
                }
                // The JVM's own threads by name (GC, JIT: jetw's rundown names only Java threads), for why's CPU holders.
                String name = plan.cswitch ? ownThreadName.apply(tid) : null;
                if (name != null) {
                    byte[] n = KernelPayloads.setName(pid, tid, name);
                    write(0, nanoTime, false, KernelPayloads.CSWITCH_VERSION, KernelPayloads.GROUP_THREAD,
                            KernelPayloads.SET_NAME, tid, pid, ByteBuffer.wrap(n), n.length);
                }
            }
        });
    }

    /** More threads found after tracing began (the start-up race): followed, without a record of their own. */
    void alsoFollow(List<Integer> tids) {
        pending.add(() -> {
            for (int tid : tids) {
                follow(tid, pid, false);
            }
        });
    }

    /** Called on the scheduler poller before each batch of records: applies what the starting thread handed over. */
    void applyHandedOver() {
        for (Runnable r = pending.poll(); r != null; r = pending.poll()) {
            r.run();
        }
    }

    /** {@code isNew}: created during the collection (not on a CPU until its first switch in). */
    private void follow(int tid, int process, boolean isNew) {
        tasks.add(tid, process, isNew);
        diskTasks.put(tid, new long[] {process, Long.MAX_VALUE});
    }

    private int processOf(int tid) {
        int p = tasks.processOf(tid);
        return p == -1 ? UNKNOWN_PROCESS : p;
    }

    /** From now on nothing is written: the collection failed to start. */
    void discard() {
        discarded = true;
    }

    private void write(int cpu, long ts, boolean compact, int version, int group, int type, int tid, int process,
                       ByteBuffer payload, int length) {
        if (discarded) {
            return;
        }
        out.write(cpu, ts, compact ? EtlFormat.HT_COMPACT64 : EtlFormat.HT_SYSTEM64, version, group, type, tid, process,
                payload, length);
        records.incrementAndGet();
    }

    private void threadRecord(int type, int cpu, long ts, int headerTid, int process, int tid) {
        int n = KernelPayloads.thread(schedScratch, process, tid, 8);
        write(cpu, ts, false, KernelPayloads.THREAD_VERSION, KernelPayloads.GROUP_THREAD, type, headerTid, process,
                schedScratch, n);
    }

    @Override
    public void contextSwitch(int cpu, long ts, int prevTid, int prevPrio, long prevState, int nextTid, int nextPrio) {
        if (tasks.contains(prevTid)) {
            switchesOfFollowed++;
            if (!tasks.running(prevTid, false)) {
                switchedOutNotRunning++;
            }
        }
        tasks.running(nextTid, true);
        ThreadStateMapping m = mapping;
        if (exited.size() > 0 && m.oldThreadState(prevState) == ThreadStateMapping.STATE_TERMINATED) {
            exited.remove(prevTid); // its final switch out (the decoder asked for names before this call)
        }
        if (!plan.cswitch) {
            return;
        }
        int n = KernelPayloads.cswitch(schedScratch, nextTid, prevTid, ThreadStateMapping.windowsPriority(nextPrio),
                ThreadStateMapping.windowsPriority(prevPrio), m.waitReason(prevState), m.waitMode(prevState),
                m.oldThreadState(prevState), cpu);
        write(cpu, ts, true, KernelPayloads.CSWITCH_VERSION, KernelPayloads.GROUP_THREAD, KernelPayloads.CSWITCH,
                nextTid, processOf(nextTid), schedScratch, n);
    }

    /**
     * A thread of another process, met in a switch with a traced thread (the pid filter records no other): named
     * once, so that {@code why} can say who held the CPUs ("sh", not "tid 4711"). Only with cswitch; at most
     * {@link #MAX_NAMED_OTHERS} threads; not the idle task (0), nor a followed thread that exited and has not been
     * switched out for the last time. Allocates nothing.
     */
    @Override
    public boolean wantsName(int tid) {
        return plan.cswitch && tid > 0 && tasks.processOf(tid) == -1 && !namedOthers.contains(tid)
                && !exited.contains(tid) && namedOthers.size() < MAX_NAMED_OTHERS;
    }

    /** Exited followed threads still waiting for their final switch out (bounded by {@link #MAX_EXITED_PENDING}). */
    int exitedPending() {
        return exited.size();
    }

    /** Threads of other processes named so far. */
    int namedOthers() {
        return namedOthers.size();
    }

    /**
     * Thread/SetName for {@code tid} (its process from /proc, -1 when it is gone) and, with {@code process}, a
     * Process/DCStart for its process the first time (named by the thread's comm when it is the process's first
     * thread, else by /proc), as a Windows kernel rundown lists every process.
     */
    @Override
    public void switchedThreadName(int cpu, long ts, int tid, String comm) {
        namedOthers.add(tid);
        int process = threadGroupOf.applyAsInt(tid);
        byte[] p = KernelPayloads.setName(process, tid, comm);
        write(cpu, ts, false, KernelPayloads.CSWITCH_VERSION, KernelPayloads.GROUP_THREAD, KernelPayloads.SET_NAME,
                tid, process, ByteBuffer.wrap(p), p.length);
        if (plan.process && process > 0 && namedOtherProcesses.add(process)) {
            String name = process == tid ? comm : ProcFs.threadName(process, process);
            if (name != null) {
                byte[] q = KernelPayloads.process(process, 0, 0, name.trim(), "");
                write(cpu, ts, false, KernelPayloads.PROCESS_VERSION, KernelPayloads.GROUP_PROCESS, KernelPayloads.DC_START,
                        0, process, ByteBuffer.wrap(q), q.length);
            }
        }
    }

    @Override
    public void wakeup(int cpu, long ts, WakeKind kind, int currentTid, int wakeeTid, int prio, int targetCpu,
                       int commonFlags) {
        if (!plan.readyThread || (kind == WakeKind.WAKEUP && !acceptWakeup)) {
            return;
        }
        int n = KernelPayloads.readyThread(schedScratch, wakeeTid, ThreadStateMapping.readyFlag(commonFlags));
        write(cpu, ts, false, KernelPayloads.CSWITCH_VERSION, KernelPayloads.GROUP_THREAD, KernelPayloads.READY_THREAD,
                currentTid, processOf(currentTid), schedScratch, n);
    }

    @Override
    public void taskNew(int cpu, long ts, int parentTid, int tid, String comm, long cloneFlags) {
        int parentProcess = tasks.processOf(parentTid);
        if (parentProcess == -1) {
            return; // created by a task we do not follow: not ours
        }
        boolean thread = (cloneFlags & CLONE_THREAD) != 0;
        int process = thread ? parentProcess : tid;
        follow(tid, process, true);
        if (!thread && plan.process) {
            byte[] p = KernelPayloads.process(tid, parentProcess, 0, comm, "");
            write(cpu, ts, false, KernelPayloads.PROCESS_VERSION, KernelPayloads.GROUP_PROCESS, KernelPayloads.START,
                    parentTid, parentProcess, ByteBuffer.wrap(p), p.length);
        }
        if (plan.thread) {
            threadRecord(KernelPayloads.START, cpu, ts, parentTid, process, tid);
        }
    }

    @Override
    public void taskExit(int cpu, long ts, int tid, String comm, boolean groupDead) {
        int process = tasks.processOf(tid);
        if (process == -1) {
            return;
        }
        rememberExited(tid); // its last switch out comes after: a followed thread, not another process's to name
        if (plan.thread) {
            threadRecord(KernelPayloads.END, cpu, ts, tid, process, tid);
        }
        if (groupDead && plan.process) {
            byte[] p = KernelPayloads.process(process, 0, 0, comm, "");
            write(cpu, ts, false, KernelPayloads.PROCESS_VERSION, KernelPayloads.GROUP_PROCESS, KernelPayloads.END,
                    tid, process, ByteBuffer.wrap(p), p.length);
        }
        tasks.remove(tid);
        long[] d = diskTasks.get(tid);
        if (d != null) {
            d[1] = ts; // its I/O may still complete (the matcher holds events); a later user of the tid is not it
        }
    }

    private void rememberExited(int tid) {
        if (exited.add(tid)) {
            int oldest = exitedOrder[exitedNext];
            if (oldest != 0) {
                exited.remove(oldest); // long gone (or already dropped at its final switch out: then a no-op)
            }
            exitedOrder[exitedNext] = tid;
            exitedNext = (exitedNext + 1) % MAX_EXITED_PENDING;
        }
    }

    @Override
    public void taskRename(int cpu, long ts, int tid, String oldComm, String newComm) {
        // Not written: the rundown's Thread/SetName names the JVM's threads as they were at start, jetw's own Thread
        // rundown names the Java threads; a later rename is not followed.
    }

    @Override
    public void block(int cpu, long ts, BlockPhase phase, int currentTid, int dev, long sector, int nrSector, int bytes,
                      String rwbs, int error) {
        matcher.event(cpu, ts, phase, currentTid, dev, sector, nrSector, bytes, rwbs, error);
    }

    /** The block side's end: every held event processed (after the block poller's last pass). */
    void flushBlocks() {
        matcher.flush();
    }

    /** True when {@code tid} was followed as a thread of the traced process (it may have exited since). */
    boolean followedInProcess(int tid) {
        long[] d = diskTasks.get(tid);
        return d != null && d[0] == pid;
    }

    /** The followed process of a block request's issuer at {@code ts}, or -1 (another process's I/O: not written). */
    private int diskProcess(int tid, long ts) {
        long[] d = diskTasks.get(tid);
        return d == null || ts > d[1] ? -1 : (int) d[0];
    }

    @Override
    public void started(int cpu, long ts, int issuingTid, String rwbs, boolean flush, long id) {
        if (!plan.diskIoInit || diskProcess(issuingTid, ts) == -1) {
            return;
        }
        String op = rwbs.startsWith("F") && rwbs.length() > 1 ? rwbs.substring(1) : rwbs;
        int type = flush ? KernelPayloads.DISK_FLUSH_INIT : op.startsWith("R") ? KernelPayloads.DISK_READ_INIT
                : op.startsWith("W") ? KernelPayloads.DISK_WRITE_INIT : -1;
        if (type < 0) {
            return; // discard, secure erase: no DiskIo type
        }
        int n = KernelPayloads.diskInit(diskScratch, id, issuingTid);
        write(cpu, ts, false, KernelPayloads.DISK_IO_VERSION, KernelPayloads.GROUP_DISK_IO, type, issuingTid,
                diskProcess(issuingTid, ts), diskScratch, n);
    }

    @Override
    public void diskIo(BlockIoMatcher.DiskIo io) {
        int process = diskProcess(io.issuingTid, io.startTs);
        if (process == -1) {
            otherProcessesIo++;
            return;
        }
        int type = io.etwType();
        if (type < 0) {
            discards++;
            return;
        }
        if (!plan.diskIo) {
            return;
        }
        long ticks = io.responseNanos() / 100; // the file's QPC ticks: 100 ns (PerfFreq 10^7)
        int flags = KernelPayloads.irpFlags(io.rwbs);
        int disk = disks.of(io.dev);
        int n = type == KernelPayloads.DISK_FLUSH
                ? KernelPayloads.diskFlush(diskScratch, disk, flags, ticks, io.id, io.issuingTid)
                : KernelPayloads.diskReadWrite(diskScratch, disk, flags, io.bytes, io.sector * 512, io.id, ticks,
                io.issuingTid);
        write(io.completeCpu, io.completeTs, false, KernelPayloads.DISK_IO_VERSION, KernelPayloads.GROUP_DISK_IO, type,
                io.issuingTid, process, diskScratch, n);
    }

    @Override
    public void lost(int cpu, long ts, long count) {
        if (count > 0) {
            lostInBand.addAndGet(count);
            out.lost(count);
        }
        if (gaps.incrementAndGet() <= MAX_GAP_NOTICES) {
            // Stamped with the first time after the gap, so that it sits on the timeline where the gap ends.
            out.notice(SessionNotice.NOTE, "kernel events lost on CPU " + cpu + " just before this notice: "
                    + (count >= 0 ? Long.toString(count) : "an unknown number") + " overwritten in the ring buffer before"
                    + " they were read (the collector fell behind); thread states around here are uncertain", ts);
        }
    }

    /** Gaps (pages flagged with losses) seen so far. */
    long gaps() {
        return gaps.get();
    }

    BlockIoMatcher matcher() {
        return matcher;
    }
}
