package dev.jetw.etw.portable.linux;

import dev.jetw.etl.SessionNotice;

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The tracefs side of one collection, from start to stop: its instances, their settings and pollers, the pid
 * filter, and what was lost. The order of {@link #start} matters:
 * <ol>
 * <li>stale jetw instances of dead JVMs are removed ({@link StaleInstances});</li>
 * <li>instance "sched" (trace_clock mono, its own buffers, overwrite on, event-fork on, the scheduler and task
 * events) and, for disk I/O, instance "blk" (unfiltered: completions run in interrupt context, on whatever task
 * was interrupted) with block_io_start (or block_bio_queue before 6.5) and block_rq_complete;</li>
 * <li>for file I/O, instance "fio" with the file system calls' tracepoints, under the same pid filter;</li>
 * <li>the pollers start before the pid list is written, so that their own threads are not in it (event-fork
 * only follows tasks created by listed tasks);</li>
 * <li>the list, tracing on, then the process's threads listed again until no new one appears (a thread
 * started between the first listing and the write, by a thread not yet listed, is added then).</li>
 * </ol>
 * Stop: tracing off, each poller's final pass, the loss counters, the held-open {@code free_buffer} files
 * closed, the instances removed. Settings, and why, are in docs/linux-kernel-events.md ("Mechanism").
 */
final class TracefsSession {

    static final String CLOCK = "mono";
    static final long POLL_MILLIS = 100;
    /** Sub-buffer (page) size when the kernel lets it be set (6.8+): ~10x fewer read(2) calls, half the poller's CPU. */
    static final int SUBBUF_KB = 64;
    /**
     * Ring memory for the scheduler events, shared by the CPUs, within [512 KiB, 4 MiB] per CPU: 4 MiB holds
     * 170-250 ms of the worst case measured (a park/unpark ping-pong, ~600 k events/s), over two poll intervals.
     */
    static final int SCHED_BUDGET_KB = 64 * 1024;
    static final int SCHED_MAX_KB_PER_CPU = 4 * 1024;
    static final int BLOCK_BUDGET_KB = 8 * 1024;
    /** Ring memory for the file system calls, shared by the CPUs, within [512 KiB, 2 MiB] per CPU. */
    static final int FILE_BUDGET_KB = 8 * 1024;

    /** What was lost and left, read at stop. */
    static final class Loss {
        /** Overwritten, commit overruns and dropped events, by the stats files of every CPU of both instances. */
        long ring;
        /** Events still unread when the instances went (a poller that died or did not finish in time). */
        long unread;
        final List<String> problems = new ArrayList<String>();
        /**
         * The file poller ended (or there was none): only then may the stopping thread touch the file tracker, which
         * is the poller's alone (its maps are not shared).
         */
        boolean filePollerEnded = true;
    }

    private final File root;
    private final KernelFlagPlan plan;
    private final int pid;
    private final EvidenceTranslator translator;
    private final FileIoTracker files;
    private TraceInstance sched;
    private TraceInstance blk;
    private TraceInstance fio;
    private PagePoller schedPoller;
    private PagePoller blkPoller;
    private PagePoller filePoller;
    private final Set<Integer> pollerTids = new HashSet<Integer>();
    private final List<FileOutputStream> freeBuffers = new ArrayList<FileOutputStream>();
    private TracepointDecoder schedDecoder;
    private PageDecoder schedPages;
    private PageDecoder blkPages;
    private PageDecoder filePages;
    private FileSyscallDecoder fileDecoder;
    /** For the trace: an event this kernel lacks (a problem), a fallback taken (a note). */
    final List<SessionNotice> notes = new ArrayList<SessionNotice>();
    final List<String> swept = new ArrayList<String>();
    private long pollerCpuNanos = -1;
    /** Test seam: runs once everything is made and tracing is on (a test throws from it to fail a start there). */
    static volatile Runnable afterTracingOn;
    /** Test seam: the pollers' interval and the scheduler ring per CPU (KiB) instead of the defaults, when positive. */
    static volatile long testPollMillis;
    static volatile int testSchedKb;

    TracefsSession(File root, KernelFlagPlan plan, int pid, EvidenceTranslator translator, FileIoTracker files) {
        this.root = root;
        this.plan = plan;
        this.pid = pid;
        this.translator = translator;
        this.files = files;
    }

    /** True when the kernel offers block_io_start (6.5+); otherwise requests start at block_bio_queue. */
    static boolean hasIoStart(File root) {
        return new File(root, "events/block/block_io_start/format").isFile();
    }

    /** Creates, configures and starts everything; on failure removes what it made and throws. */
    void start() throws IOException {
        try {
            begin();
        } catch (Throwable e) { // an Error too (no native thread left for a poller, ...): nothing may stay behind
            translator.discard(); // a failed start records nothing: the pollers' last pass must not write
            files.discard();
            abandon();
            throw e;
        }
    }

    private void begin() throws IOException {
        swept.addAll(StaleInstances.sweep(root));
        int session = InstanceName.nextSession();
        long startTime = ProcFs.startTime(pid);
        int cpus = CpuList.possible();
        if (plan.needsSched()) {
            sched = TraceInstance.create(root, new InstanceName(pid, startTime, session, "sched").toString());
            int schedKb = testSchedKb > 0 ? testSchedKb : perCpuKb(SCHED_BUDGET_KB, cpus, 512, SCHED_MAX_KB_PER_CPU);
            configure(sched, schedKb);
            sched.setOption("event-fork", true);
            List<String[]> events = new ArrayList<String[]>();
            for (String[] e : TracepointDecoder.SCHED_EVENTS) {
                if (!wanted(e[1])) {
                    continue;
                }
                if (sched.hasEvent(e[0], e[1])) {
                    events.add(e);
                } else if (e[1].equals("sched_waking") && sched.hasEvent("sched", "sched_wakeup")) {
                    // Kernels before 4.3: sched_wakeup, which may be logged on the wakee's CPU (header thread less exact).
                    events.add(new String[] {"sched", "sched_wakeup"});
                    translator.acceptWakeup();
                    notes.add(new SessionNotice(SessionNotice.NOTE, "this kernel has no sched_waking: ReadyThread comes"
                            + " from sched_wakeup, whose thread may be the woken CPU's rather than the waker"));
                } else {
                    notes.add(new SessionNotice(SessionNotice.PROBLEM, "this kernel offers no " + e[0] + "/" + e[1]
                            + " event: " + consequence(e[1])));
                }
            }
            for (String[] e : events) {
                sched.enableEvent(e[0], e[1], true);
            }
            HeaderPage hp = HeaderPage.read(sched.dir());
            schedPages = new PageDecoder(hp);
            schedDecoder = new TracepointDecoder(translator);
            schedDecoder.learn(sched.dir(), events.toArray(new String[0][]));
            translator.prevState(schedDecoder.prevState());
            schedPoller = new PagePoller(sched, hp.pageSize(), new TimeOrderedPages(hp.pageSize(), schedPages,
                    schedDecoder, translator::applyHandedOver), pollMillis(), ringBytes(schedKb), "jetw-kernel-sched");
        }
        if (plan.needsBlock()) {
            boolean ioStart = hasIoStart(root);
            String[][] events = {{"block", ioStart ? "block_io_start" : "block_bio_queue"}, {"block", "block_rq_complete"}};
            boolean offered = true;
            for (String[] e : events) {
                if (!new File(root, "events/" + e[0] + "/" + e[1] + "/format").isFile()) {
                    notes.add(new SessionNotice(SessionNotice.PROBLEM, "kernel=disk_io: this kernel offers no " + e[0]
                            + "/" + e[1] + " event: no disk I/O is recorded"));
                    offered = false;
                }
            }
            if (offered) {
                blk = TraceInstance.create(root, new InstanceName(pid, startTime, session, "blk").toString());
                final int blkKb = perCpuKb(BLOCK_BUDGET_KB, cpus, 256, 512);
                configure(blk, blkKb);
                for (String[] e : events) {
                    blk.enableEvent(e[0], e[1], true);
                }
                HeaderPage hp = HeaderPage.read(blk.dir());
                blkPages = new PageDecoder(hp);
                final TracepointDecoder decoder = new TracepointDecoder(translator);
                decoder.learn(blk.dir(), events);
                final PageDecoder pages = blkPages;
                blkPoller = new PagePoller(blk, hp.pageSize(), new PagePoller.PageSink() {
                    @Override
                    public void page(int cpu, ByteBuffer page) {
                        pages.decode(cpu, page, decoder);
                    }

                    @Override
                    public void passDone(long watermark) {
                        // The block matcher orders its events itself (it holds them for a second).
                    }
                }, pollMillis(), ringBytes(blkKb), "jetw-kernel-blk");
            }
        }
        if (plan.needsFile()) {
            beginFiles(startTime, session, cpus);
        }
        // The pollers first: their threads must not be in the pid list.
        for (PagePoller p : new PagePoller[] {schedPoller, blkPoller, filePoller}) {
            if (p != null) {
                pollerTids.add(p.start());
            }
        }
        Set<Integer> listed = new HashSet<Integer>(threadsOfTarget());
        if (sched != null) {
            sched.setPids(listed);
        }
        if (fio != null) {
            fio.setPids(listed);
        }
        long startedAt = System.nanoTime();
        for (TraceInstance t : new TraceInstance[] {sched, blk, fio}) {
            if (t != null) {
                t.tracingOn(true);
            }
        }
        Runnable hook = afterTracingOn;
        if (hook != null) {
            hook.run();
        }
        translator.rundown(new ArrayList<Integer>(listed), startedAt, ProcFs.parentPid(pid), imageName(),
                ProcFs.commandLine(pid));
        if (fio != null) {
            files.rundown(startedAt);
        }
        for (int round = 0; round < 10; round++) {
            List<Integer> now = threadsOfTarget();
            now.removeAll(listed);
            if (now.isEmpty()) {
                break;
            }
            if (sched != null) {
                sched.addPids(now);
            }
            if (fio != null) {
                fio.addPids(now);
            }
            listed.addAll(now);
            translator.alsoFollow(now);
        }
    }

    /**
     * Instance "fio": the file system calls of {@link FileSyscall} that this kernel offers (entry and exit both), under
     * the same pid filter as the scheduler's (event-fork on), read in time order across CPUs (a call's entry and
     * exit may be logged on two CPUs; one thread's open must come before another's read of the descriptor).
     */
    private void beginFiles(long startTime, int session, int cpus) throws IOException {
        List<FileSyscall> calls = new ArrayList<FileSyscall>();
        List<String> missing = new ArrayList<String>();
        for (FileSyscall c : FileSyscall.values()) {
            if (new File(root, "events/syscalls/sys_enter_" + c.name + "/format").isFile()
                    && new File(root, "events/syscalls/sys_exit_" + c.name + "/format").isFile()) {
                calls.add(c);
            } else {
                missing.add(c.name);
            }
        }
        String flags = "kernel=" + (plan.fileIo ? "file_io" : "") + (plan.fileIo && plan.fileIoInit ? "," : "")
                + (plan.fileIoInit ? "file_io_init" : "");
        if (calls.isEmpty()) {
            notes.add(new SessionNotice(SessionNotice.PROBLEM, flags + ": this kernel offers no syscalls/sys_enter_*"
                    + " events (it needs CONFIG_FTRACE_SYSCALLS): no file I/O is recorded"));
            return;
        }
        if (!missing.isEmpty()) {
            notes.add(new SessionNotice(SessionNotice.NOTE, flags + ": this kernel offers no tracepoints for " + missing
                    + ": file operations through them are not recorded"));
        }
        fio = TraceInstance.create(root, new InstanceName(pid, startTime, session, "fio").toString());
        int kb = perCpuKb(FILE_BUDGET_KB, cpus, 512, 2048);
        configure(fio, kb);
        fio.setOption("event-fork", true);
        for (FileSyscall c : calls) {
            fio.enableEvent("syscalls", "sys_enter_" + c.name, true);
            fio.enableEvent("syscalls", "sys_exit_" + c.name, true);
        }
        HeaderPage hp = HeaderPage.read(fio.dir());
        filePages = new PageDecoder(hp);
        fileDecoder = new FileSyscallDecoder(files, translator);
        for (FileSyscall c : calls) {
            fileDecoder.learn(fio.dir(), c);
        }
        filePoller = new PagePoller(fio, hp.pageSize(), new TimeOrderedPages(hp.pageSize(), filePages, fileDecoder,
                files::applyHandedOver, files::decodedUntil), pollMillis(), ringBytes(kb), "jetw-kernel-file");
    }

    private static long pollMillis() {
        return testPollMillis > 0 ? testPollMillis : POLL_MILLIS;
    }

    /**
     * A ring's size as its poller weighs how full a pass found it (PagePoller's busy passes); a test's slow poller
     * never hurries, so that its rings overrun however the first pass and the test's events interleave.
     */
    private static long ringBytes(int kb) {
        return testPollMillis > 0 ? Long.MAX_VALUE : kb * 1024L;
    }

    private boolean wanted(String event) {
        if (event.equals("sched_switch")) {
            return plan.cswitch;
        }
        if (event.equals("sched_waking") || event.equals("sched_wakeup_new")) {
            return plan.readyThread;
        }
        return true; // task events: the list of followed threads (disk I/O attribution, Thread and Process records)
    }

    private static String consequence(String event) {
        if (event.equals("sched_switch")) {
            return "no context switches (CSwitch) are recorded";
        }
        if (event.equals("sched_wakeup_new")) {
            return "a new thread's first wake-up is not recorded (ReadyThread)";
        }
        if (event.equals("task_newtask")) {
            return "threads started during the session are not followed (Thread/Start, their disk I/O)";
        }
        return "its Windows counterpart is not recorded";
    }

    /** The traced process's name for Process/DCStart: its command (comm). */
    private String imageName() {
        String comm = ProcFs.readSmall("/proc/" + pid + "/comm");
        return comm == null ? "java" : comm.trim();
    }

    private List<Integer> threadsOfTarget() {
        List<Integer> t = ProcFs.threads(pid);
        t.removeAll(pollerTids);
        return t;
    }

    private static int perCpuKb(int budgetKb, int cpus, int minKb, int maxKb) {
        return Math.max(minKb, Math.min(maxKb, budgetKb / cpus));
    }

    private void configure(TraceInstance t, int kb) throws IOException {
        t.tracingOn(false);
        t.setClock(CLOCK);
        if (t.file("buffer_subbuf_size_kb").isFile()) {
            t.write("buffer_subbuf_size_kb", Integer.toString(SUBBUF_KB));
        }
        t.setBufferSizeKb(kb);
        // Overwrite the oldest when full: a loss is then flagged in the next page with its exact count, where it happened.
        t.setOption("overwrite", true);
        // If this JVM dies without cleaning up (SIGKILL, crash), the kernel closes free_buffer, shrinks the buffers to
        // their minimum and stops the instance's tracing; the empty directory waits for the next start's sweep.
        if (t.file("free_buffer").exists() && t.file("options/disable_on_free").exists()) {
            t.setOption("disable_on_free", true);
            freeBuffers.add(new FileOutputStream(t.file("free_buffer")));
        }
    }

    /** The pollers' CPU time so far (decoding and writing included), ns; -1 when unknown. Read before {@link #stop}. */
    long pollerCpuNanos() {
        if (pollerCpuNanos >= 0) {
            return pollerCpuNanos;
        }
        long n = 0;
        for (PagePoller p : new PagePoller[] {schedPoller, blkPoller, filePoller}) {
            if (p != null) {
                long c = p.cpuNanos();
                if (c < 0) {
                    return -1;
                }
                n += c;
            }
        }
        return n;
    }

    /** Whether file system calls are recorded: the "fio" instance exists (not when the kernel has no syscall events). */
    boolean recordsFiles() {
        return fio != null;
    }

    /** The pollers' threads (never in the pid list). */
    Set<Integer> pollerTids() {
        return pollerTids;
    }

    /** Stops recording, reads what is left, reads the loss counters and removes the instances. Call once. */
    Loss stop() {
        Loss loss = new Loss();
        pollerCpuNanos = pollerCpuNanos();
        for (TraceInstance t : new TraceInstance[] {sched, blk, fio}) {
            if (t != null) {
                try {
                    t.tracingOn(false);
                } catch (IOException e) {
                    loss.problems.add("could not turn tracing off in " + t.name() + ": " + e.getMessage());
                }
            }
        }
        stopPoller(schedPoller, "scheduler", loss);
        stopPoller(blkPoller, "block", loss);
        loss.filePollerEnded = stopPoller(filePoller, "file", loss);
        for (TraceInstance t : new TraceInstance[] {sched, blk, fio}) {
            if (t == null) {
                continue;
            }
            for (int cpu : t.cpus()) {
                try {
                    CpuStats s = CpuStats.read(t, cpu);
                    loss.ring += s.lost();
                    loss.unread += s.entries;
                } catch (IOException e) {
                    loss.problems.add("could not read " + t.name() + "/per_cpu/cpu" + cpu + "/stats: " + e.getMessage());
                }
            }
        }
        if (!abandon()) {
            loss.problems.add("a tracefs instance could not be removed (still busy): the next session's sweep removes it");
        }
        return loss;
    }

    /** Stops {@code p}; false when its thread is still running (it did not finish within 5 s). */
    private static boolean stopPoller(PagePoller p, String name, Loss loss) {
        if (p == null) {
            return true;
        }
        boolean ended = p.stop(5000);
        if (!ended) {
            loss.problems.add("the " + name + " poller did not finish its last pass within 5 s");
        }
        if (p.failure != null) {
            loss.problems.add("the " + name + " poller failed: " + p.failure);
        }
        if (p.sinkFailures.get() > 0) {
            loss.problems.add("the " + name + " poller lost " + p.sinkFailures.get() + " pages to errors, the first: "
                    + p.firstSinkFailure);
        }
        return ended;
    }

    /** Closes the free_buffer files (rmdir answers EBUSY while one is open) and removes the instances. */
    private boolean abandon() {
        for (PagePoller p : new PagePoller[] {schedPoller, blkPoller, filePoller}) {
            if (p != null) {
                p.stop(1000); // a second stop only closes files that are already closed
            }
        }
        for (FileOutputStream f : freeBuffers) {
            try {
                f.close();
            } catch (IOException e) {
                // closing
            }
        }
        freeBuffers.clear();
        boolean ok = true;
        if (sched != null) {
            ok &= sched.remove(2000);
        }
        if (blk != null) {
            ok &= blk.remove(2000);
        }
        if (fio != null) {
            ok &= fio.remove(2000);
        }
        return ok;
    }

    /** Pages decoded, time extends, discarded and loss-flagged pages: to check the format on a new kernel. */
    String decoderCounters() {
        StringBuilder b = new StringBuilder();
        if (schedPages != null) {
            b.append("scheduler: ").append(schedPages.counters()).append(", ").append(schedDecoder.handlers.decoded)
                    .append(" decoded, ").append(schedDecoder.handlers.unknown).append(" of other events");
        }
        if (blkPages != null) {
            b.append(b.length() == 0 ? "" : "; ").append("block: ").append(blkPages.counters());
        }
        if (filePages != null) {
            b.append(b.length() == 0 ? "" : "; ").append("file: ").append(filePages.counters()).append(", ")
                    .append(fileDecoder.handlers.decoded).append(" decoded");
        }
        return b.toString();
    }
}
