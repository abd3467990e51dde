package dev.jetw.etw.portable.linux;

import dev.jetw.etl.SessionNotice;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Linux equivalent of a system logger's kernel providers for one portable session: collects, through
 * tracefs, the scheduler, thread, process and block-I/O evidence about this JVM's threads that its
 * {@link KernelFlagPlan} asks for, and hands it on as Windows kernel records to a {@link KernelRecordSink}
 * (docs/linux-kernel-events.md). tracefs is files; CPU samples and hard faults (perf_event_open) go through the
 * JDK's own native linker on Java 22+ ({@link PerfSampler}); no native file of jetw's, never JNA.
 *
 * <p>{@link #start} either returns a running collector or throws {@link Unavailable} with one line naming
 * what is missing and how to grant it; it never leaves anything behind in tracefs. {@link #stop} (also run
 * by a shutdown hook, idempotent) drains what the kernel still holds, accounts for every event lost, and
 * removes its tracefs instances. After a SIGKILL the kernel frees their buffers itself and the next start
 * removes the empty instances.
 */
public final class LinuxKernelCollector {

    /** Kernel events cannot be collected here: the one line says what is missing and how to grant it. */
    public static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    private final KernelRecordSink sink;
    private final EvidenceTranslator translator;
    private final FileIoTracker files;
    private final TracefsSession tracefs;
    /** CPU samples and hard faults (perf events), null when not asked for or not available. */
    private final PerfSampler perf;
    private final long startedNanos = System.nanoTime();
    private final Thread hook;
    private String stopped;

    private LinuxKernelCollector(KernelRecordSink sink, EvidenceTranslator translator, FileIoTracker files,
                                 TracefsSession tracefs, PerfSampler perf) {
        this.sink = sink;
        this.translator = translator;
        this.files = files;
        this.tracefs = tracefs;
        this.perf = perf;
        this.hook = dev.jetw.etw.JetwThreads.register(new Thread(this::stop, "jetw-kernel-cleanup"));
    }

    /** True on Linux, the only host with tracefs. */
    public static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /** The NumberOfProcessors a file with kernel records needs: every CPU a record may come from. */
    public static int processors() {
        return CpuList.possible();
    }

    /**
     * Starts collecting for this JVM. Records reach {@code sink} from the collector's pollers as soon as this
     * returns (the sink must be ready); the notes a kernel gives (an event it lacks, the disk numbering) go to
     * {@code sink.notice}.
     */
    public static LinuxKernelCollector start(KernelFlagPlan plan, KernelRecordSink sink) throws Unavailable {
        if (!isLinux()) {
            throw new Unavailable("kernel events need Linux's tracefs; this is " + System.getProperty("os.name"));
        }
        int pid;
        int uid;
        try {
            pid = ProcFs.selfPid();
            uid = ProcFs.uid();
        } catch (IOException | RuntimeException e) {
            throw new Unavailable("/proc is not readable (" + e.getMessage() + "): kernel events need procfs and tracefs");
        }
        TracefsLocator.Found found;
        try {
            found = TracefsLocator.findOrMount(uid == 0);
        } catch (IOException e) {
            throw new Unavailable("tracefs is not mounted and mounting it failed (" + e.getMessage() + "): as root, run"
                    + " mount -t tracefs nodev " + TracefsLocator.CANONICAL);
        }
        if (found == null) {
            throw new Unavailable(missingTracefs(uid));
        }
        File root = found.root;
        DiskNumbers disks = new DiskNumbers(new File("/sys/block"));
        EvidenceTranslator translator = new EvidenceTranslator(plan, pid, sink, disks, !TracefsSession.hasIoStart(root));
        FileIoTracker files = new FileIoTracker(plan, new FileRecordQueue(sink), new ProcDescriptors(pid),
                new ProcessThreads(pid, translator::followedInProcess), System::nanoTime);
        TracefsSession tracefs = new TracefsSession(root, plan, pid, translator, files);
        try {
            tracefs.start();
        } catch (IOException e) {
            throw new Unavailable("tracefs at " + root + " refused: " + e.getMessage() + (uid == 0
                    ? " (root without CAP_SYS_ADMIN, as in a container? grant it: docker run --cap-add SYS_ADMIN)" : ""));
        } catch (Throwable e) { // it removed what it made
            throw new Unavailable("the collector failed to start: " + e);
        }
        PerfSampler perf = null;
        try {
            if (plan.needsPerf()) {
                perf = startPerf(plan, pid, sink);
            }
            return started(plan, sink, translator, files, tracefs, perf, found, disks);
        } catch (Throwable e) { // an Error too (no native thread left, ...): nothing may keep running without a stop
            if (perf != null) {
                perf.stop();
            }
            translator.discard();
            files.discard();
            tracefs.stop();
            throw new Unavailable("the collector failed to start: " + e);
        }
    }

    /** The perf sampler, or null with one problem saying why there are no CPU samples or hard faults. */
    private static PerfSampler startPerf(KernelFlagPlan plan, int pid, KernelRecordSink sink) {
        try {
            return PerfSampler.start(plan, pid, CpuList.online(), sink);
        } catch (Throwable e) { // PerfSampler.start closed what it opened; the rest of kernel= goes on
            sink.notice(SessionNotice.PROBLEM, perfFlags(plan) + ": no " + (plan.profile ? "CPU samples" : "")
                    + (plan.profile && plan.hardFaults ? " and no " : "") + (plan.hardFaults ? "hard faults" : "")
                    + ": " + (e instanceof IOException ? e.getMessage() : e.toString()), KernelRecordSink.NOW);
            return null;
        }
    }

    private static LinuxKernelCollector started(KernelFlagPlan plan, KernelRecordSink sink, EvidenceTranslator translator,
                                                FileIoTracker files, TracefsSession tracefs, PerfSampler perf,
                                                TracefsLocator.Found found, DiskNumbers disks) {
        LinuxKernelCollector c = new LinuxKernelCollector(sink, translator, files, tracefs, perf);
        File root = found.root;
        if (found.mountedByUs) {
            sink.notice(SessionNotice.NOTE, "tracefs was not mounted: mounted it at " + root + " (left mounted)",
                    KernelRecordSink.NOW);
        }
        for (SessionNotice n : tracefs.notes) {
            sink.notice(n.kind(), n.text(), KernelRecordSink.NOW);
        }
        if (plan.needsBlock()) {
            sink.notice(SessionNotice.NOTE, "DiskIo DiskNumber: " + (disks.describe().isEmpty() ? "no disk in /sys/block"
                    : disks.describe()) + "; requests of other processes are not recorded", KernelRecordSink.NOW);
        }
        if (plan.needsFile() && tracefs.recordsFiles()) { // else the problem above says no file I/O is recorded
            sink.notice(SessionNotice.NOTE, "FileIo: the traced process's regular files only (sockets, pipes, devices,"
                    + " /proc and /sys left out; so are jetw's logger and JFR consumer); FileObject, FileKey and IrpPtr are"
                    + " numbered by the collector; paths are read from /proc/PID/fd when the"
                    + " collector decodes an open (up to " + TracefsSession.POLL_MILLIS + " ms later), so a file"
                    + " opened and closed within that time is not recorded", KernelRecordSink.NOW);
        }
        if (!tracefs.swept.isEmpty()) {
            System.err.println("jetw portable: removed " + tracefs.swept.size() + " tracefs instances of JVMs that died"
                    + " tracing: " + tracefs.swept);
        }
        try {
            Runtime.getRuntime().addShutdownHook(c.hook);
        } catch (IllegalStateException e) {
            // the JVM is already exiting: the session's own stop follows
        }
        return c;
    }

    /**
     * The held FileIo records and the FileRundown go out, unless the file poller is still running: the tracker is
     * its alone (plain maps), so then nothing is touched and a note says what is missing.
     */
    static void stopFiles(FileIoTracker files, boolean pollerEnded, KernelRecordSink sink) {
        if (pollerEnded) {
            files.stop(System.nanoTime());
        } else {
            sink.notice(SessionNotice.NOTE, "file I/O: the file poller did not end, so the FileIo records it still"
                    + " held and the FileRundown of files still open are not written", KernelRecordSink.NOW);
        }
    }

    private static String perfFlags(KernelFlagPlan plan) {
        return "kernel=" + (plan.profile ? "profile" : "") + (plan.profile && plan.hardFaults ? "," : "")
                + (plan.hardFaults ? "memory_hard_faults" : "");
    }

    /** Why tracefs cannot be used, and how to grant it. */
    private static String missingTracefs(int uid) {
        String forced = System.getProperty(TracefsLocator.PROPERTY);
        if (forced != null) {
            return TracefsLocator.PROPERTY + "=" + forced + " is not a tracefs root (no trace_clock and instances/ there)";
        }
        if (uid != 0) {
            return "tracefs is root-only (mode 700) and this JVM runs as uid " + uid + ": run it as root (sudo), see"
                    + " docs/linux-kernel-events.md, Permissions";
        }
        return "no tracefs: not at " + TracefsLocator.CANONICAL + " nor in /proc/mounts, and it could not be mounted"
                + " there (the kernel needs CONFIG_TRACING): as root, run mount -t tracefs nodev " + TracefsLocator.CANONICAL;
    }

    /** "1,234 kernel records, 0 lost" so far. */
    public String status() {
        return records() + " kernel records so far, " + (translator.lostInBand.get() + (perf == null ? 0 : perf.counters.lost))
                + " lost in the ring";
    }

    /** Kernel records written so far. */
    public long records() {
        return translator.records.get() + files.records() + (perf == null ? 0 : perf.counters.written);
    }

    /**
     * Stops: tracing off, the pollers' last pass, block requests still held paired, every loss counted
     * ({@link KernelRecordSink#lost}), the quality notes written, the instances removed. Returns one line for
     * the stop message. Idempotent.
     */
    public synchronized String stop() {
        if (stopped != null) {
            return stopped;
        }
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook may run this again, which returns at once
            }
        }
        List<String> perfProblems = perf == null ? new ArrayList<String>() : perf.stop();
        long perfLost = perf == null ? 0 : perf.counters.lost; // counted by the sink as each LOST record came
        TracefsSession.Loss loss = tracefs.stop();
        translator.flushBlocks();
        stopFiles(files, loss.filePollerEnded, sink);
        // With overwrite on, the pages count every overwritten event in-band; the stats files count them too, and
        // also what no page reported (a gap at the very end, events left unread): the difference is lost as well.
        long extra = Math.max(0, loss.ring - translator.lostInBand.get()) + loss.unread;
        if (extra > 0) {
            sink.lost(extra);
        }
        long lost = translator.lostInBand.get() + extra + perfLost;
        loss.problems.addAll(perfProblems);
        if (perf != null && perf.counters.throttled > 0) {
            sink.notice(SessionNotice.NOTE, "perf: the kernel throttled the sampling " + perf.counters.throttled
                    + " times (kernel.perf_event_max_sample_rate): samples it did not take are not counted as lost",
                    KernelRecordSink.NOW);
        }
        for (String p : loss.problems) {
            sink.notice(SessionNotice.PROBLEM, "kernel collector: " + p, KernelRecordSink.NOW);
        }
        if (translator.switchedOutNotRunning > 0) {
            sink.notice(SessionNotice.NOTE, translator.switchedOutNotRunning + " of " + translator.switchesOfFollowed
                    + " context switches out of the traced threads came without a recorded switch in before them (the"
                    + " kernel did not record it); readers should take such a thread as on a CPU since it was readied",
                    KernelRecordSink.NOW);
        }
        if (files.unnamedDescriptors() > 0 || files.droppedRecords() > 0) {
            sink.notice(SessionNotice.NOTE, "file I/O left out: " + files.unnamedDescriptors() + " descriptors closed"
                    + " before the collector could read their path from /proc (their operations are not recorded), "
                    + files.droppedRecords() + " FileIo records of descriptors closed before their path was read (it"
                    + " may have named a later open)", KernelRecordSink.NOW);
        }
        if (lost > 0) {
            sink.notice(SessionNotice.PROBLEM, lost + " kernel events were lost: overwritten in tracefs's ring buffers"
                    + " before the collector read them" + (perfLost > 0 ? " (" + perfLost + " of them CPU samples or hard"
                    + " faults, of every process, dropped by full perf rings)" : "")
                    + "; thread states near the gaps are uncertain", KernelRecordSink.NOW);
        }
        long records = records();
        double seconds = (System.nanoTime() - startedNanos) / 1e9;
        stopped = records + " kernel records, " + lost + " kernel events lost" + cpuFigures(tracefs.pollerCpuNanos(),
                perf == null ? 0 : perf.cpuNanos(), perf != null, perf == null ? 0 : perf.counters.written, seconds);
        return stopped;
    }

    /**
     * The stop line's CPU part: the pollers' CPU time over the session's {@code seconds}, what is known of it (a
     * poller's that cannot be read, -1, is said to be left out rather than hiding the others'); "" when none is known.
     */
    static String cpuFigures(long tracefsCpu, long perfCpu, boolean perf, long perfWritten, double seconds) {
        boolean perfKnown = !perf || perfCpu >= 0;
        if (tracefsCpu < 0 && !(perf && perfKnown)) {
            return "";
        }
        long cpu = Math.max(0, tracefsCpu) + (perf && perfKnown ? perfCpu : 0);
        String unknown = tracefsCpu < 0 ? " without the tracefs pollers', unknown" : !perfKnown
                ? " without the perf poller's, unknown" : "";
        return String.format(Locale.ROOT, ", collector CPU %.0f ms (%.1f%% of a core over %.1f s)%s", cpu / 1e6,
                seconds > 0 ? 100.0 * cpu / 1e9 / seconds : 0.0, seconds, unknown)
                + (perf && perfKnown ? String.format(Locale.ROOT, "; perf poller %.0f ms, %d samples and faults written",
                perfCpu / 1e6, perfWritten) : "");
    }

    /** Page and decoder counters, for diagnostics and tests. */
    String decoderCounters() {
        return tracefs.decoderCounters();
    }
}
