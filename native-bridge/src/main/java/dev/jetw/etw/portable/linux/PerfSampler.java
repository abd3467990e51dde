package dev.jetw.etw.portable.linux;

import dev.jetw.etl.SessionNotice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU samples ({@code kernel=profile}) and hard faults ({@code kernel=memory_hard_faults}) through perf software
 * events: per CPU, system-wide ({@code pid=-1, cpu=N}), each with its own mmap'd ring, read by one poller thread
 * ({@code jetw-kernel-perf}) that keeps this process's samples ({@link PerfRecordTranslator}). Why per CPU and not
 * per thread, and the figures: docs/linux-kernel-events.md ("Mechanism").
 *
 * <p>Like the tracefs pollers, the poller never blocks on the kernel and never runs on an application thread: every
 * {@link #POLL_MILLIS} it drains every ring whose data_head moved (after a pass that found a ring a quarter full, the
 * next comes after {@link PagePoller#BUSY_INTERVAL_MILLIS}); stop disables the events, makes a last pass, reads the
 * kernel's own count of lost samples, unmaps and closes.
 */
final class PerfSampler {

    /** cpu-clock's period: 1 ms, ETW's default profile interval (10,000 × 100 ns), i.e. 1 kHz per CPU. */
    static final long SAMPLE_PERIOD_NANOS = 1_000_000L;
    static final long POLL_MILLIS = TracefsSession.POLL_MILLIS;
    /**
     * Data pages per ring (a power of two, as perf requires): 32 × 4 KiB = 128 KiB holds 4,096 samples of 32 bytes,
     * 4 s of one CPU at 1 kHz, or 3,276 hard faults of 40 bytes.
     */
    static final int DATA_PAGES = 32;

    private static final class Ring {
        final int fd;
        final int cpu;
        final long address;
        final long length;
        final PerfRing reader;
        final PerfRecordTranslator translator;
        /** Opened with read_format {@link PerfEventAttr#FORMAT_LOST}: read(2) gives every sample it lost. */
        final boolean countsLost;

        Ring(int fd, int cpu, long address, long length, PerfRing reader, PerfRecordTranslator translator,
             boolean countsLost) {
            this.fd = fd;
            this.cpu = cpu;
            this.address = address;
            this.length = length;
            this.reader = reader;
            this.translator = translator;
            this.countsLost = countsLost;
        }
    }

    private final PerfCalls calls;
    private final int dataPages;
    private final KernelRecordSink sink;
    private final List<Ring> rings = new ArrayList<Ring>();
    final PerfRecordTranslator.Counters counters = new PerfRecordTranslator.Counters();
    private final Object wake = new Object();
    private volatile boolean stopping;
    private boolean enabled;
    /** read_format for the next open: {@link PerfEventAttr#FORMAT_LOST} until a kernel before 6.0 refuses it. */
    private long readFormat = PerfEventAttr.FORMAT_LOST;
    private Thread thread;
    volatile Throwable failure;
    private volatile long cpuNanos = -1;
    /**
     * What the kernel itself counted lost (read(2) at stop, summed over the rings), independent of the LOST records;
     * -1 before stop or when a ring could not tell.
     */
    volatile long kernelLost = -1;

    private PerfSampler(PerfCalls calls, int dataPages, KernelRecordSink sink) {
        this.calls = calls;
        this.dataPages = dataPages;
        this.sink = sink;
    }

    /**
     * Opens, maps and enables the events {@code plan} asks for on every CPU in {@code cpus}, and starts the poller.
     * A CPU that refuses (offline: ENODEV; or any refusal once another CPU accepted) is skipped with one notice naming
     * it and the errno; at EMFILE the CPUs not yet opened are left out with one notice. Throws with one line saying
     * what is missing when no CPU could be opened or anything else failed; leaves nothing open then.
     */
    static PerfSampler start(KernelFlagPlan plan, int pid, CpuList.Online cpus, KernelRecordSink sink)
            throws IOException {
        return start(plan, pid, cpus, sink, DATA_PAGES);
    }

    /** As above with rings of {@code dataPages} data pages (a power of two; tests force losses with 1). */
    static PerfSampler start(KernelFlagPlan plan, int pid, CpuList.Online cpus, KernelRecordSink sink, int dataPages)
            throws IOException {
        PerfSampler s = new PerfSampler(PerfCalls.open(), dataPages, sink);
        List<String> notes = new ArrayList<String>();
        try {
            s.openAll(plan, pid, cpus.cpus, notes);
            s.startPoller();
            for (Ring r : s.rings) {
                s.calls.ioctl(r.fd, PerfCalls.IOC_ENABLE);
            }
            s.enabled = true;
        } catch (Throwable e) { // an Error too (no native thread left, ...): nothing may stay open
            s.stop();
            throw e;
        }
        if (cpus.note != null) {
            notes.add(0, "perf: " + cpus.note);
        }
        notes.add("perf: events opened on CPUs " + s.cpus() + " at start: a CPU brought online later is not sampled");
        for (String n : notes) {
            sink.notice(SessionNotice.NOTE, n, KernelRecordSink.NOW);
        }
        return s;
    }

    private void openAll(KernelFlagPlan plan, int pid, List<Integer> cpus, List<String> notes) throws IOException {
        for (int i = 0; i < cpus.size(); i++) {
            int cpu = cpus.get(i);
            int before = rings.size();
            try {
                if (plan.profile) {
                    open(PerfRecordTranslator.Kind.CPU_SAMPLES, PerfEventAttr.CPU_CLOCK, SAMPLE_PERIOD_NANOS,
                            PerfEventAttr.SAMPLE_IP | PerfEventAttr.SAMPLE_TID | PerfEventAttr.SAMPLE_TIME, cpu, pid);
                }
                if (plan.hardFaults) {
                    open(PerfRecordTranslator.Kind.HARD_FAULTS, PerfEventAttr.PAGE_FAULTS_MAJ, 1,
                            PerfEventAttr.SAMPLE_IP | PerfEventAttr.SAMPLE_TID | PerfEventAttr.SAMPLE_TIME
                                    | PerfEventAttr.SAMPLE_ADDR, cpu, pid);
                }
            } catch (PerfCalls.Refused e) {
                // A CPU is sampled for every flag or not at all: the notes then say exactly which are not.
                closeFrom(before);
                if (e.errno == PerfCalls.EMFILE && !rings.isEmpty()) {
                    notes.add("perf: " + e.getMessage() + " at CPU " + cpu + ": CPUs " + cpus.subList(i, cpus.size())
                            + " are not sampled (" + rings.size() + " events stay open)");
                    return;
                }
                if (e.errno != PerfCalls.ENODEV && rings.isEmpty()) {
                    throw e; // a refusal every CPU would give (permissions, an old kernel): one problem says it
                }
                notes.add("perf: CPU " + cpu + " is not sampled: " + e.getMessage());
            }
        }
        if (rings.isEmpty()) {
            throw new IOException("no CPU of " + cpus + " accepted a perf event");
        }
    }

    /** Unmaps and closes the rings from index {@code from} on (no poller may read them any more). */
    private void closeFrom(int from) {
        while (rings.size() > from) {
            Ring r = rings.remove(rings.size() - 1);
            calls.unmap(r.address, r.length);
            calls.close(r.fd);
        }
    }

    private List<Integer> cpus() {
        List<Integer> cpus = new ArrayList<Integer>();
        for (Ring r : rings) {
            if (!cpus.contains(r.cpu)) {
                cpus.add(r.cpu);
            }
        }
        return cpus;
    }

    private void open(PerfRecordTranslator.Kind kind, int config, long period, long sampleType, int cpu, int pid)
            throws IOException {
        int fd;
        try {
            fd = calls.perfEventOpen(PerfEventAttr.sampling(config, period, sampleType, readFormat), -1, cpu);
        } catch (PerfCalls.Refused e) {
            if (e.errno != PerfCalls.EINVAL || readFormat == 0) {
                throw e;
            }
            // Before Linux 6.0 PERF_FORMAT_LOST is unknown: without it, the losses after a ring's last LOST record
            // cannot be counted (said at stop).
            fd = calls.perfEventOpen(PerfEventAttr.sampling(config, period, sampleType, 0L), -1, cpu);
            readFormat = 0;
        }
        long length = (long) calls.pageSize * (1 + dataPages);
        long address;
        try {
            address = calls.map(fd, length);
        } catch (Throwable e) {
            calls.close(fd);
            throw e;
        }
        PerfRing reader;
        try {
            reader = new PerfRing(calls.memory(address, length), new PerfRing.Fences() {
                @Override
                public void acquire() {
                    calls.acquireFence();
                }

                @Override
                public void full() {
                    calls.fullFence();
                }
            });
        } catch (Throwable e) { // not yet registered: stop() would neither unmap nor close it
            calls.unmap(address, length);
            calls.close(fd);
            throw e;
        }
        rings.add(new Ring(fd, cpu, address, length, reader,
                new PerfRecordTranslator(kind, cpu, pid, calls.pageSize, sink, counters), readFormat != 0));
    }

    private void startPoller() {
        thread = PollerThreads.start("jetw-kernel-perf", () -> { }, this::loop, e -> failure = e);
    }

    private void loop() throws InterruptedException {
        try {
            passes();
        } finally {
            cpuNanos = PollerThreads.ownCpuNanos(); // a dead thread's CPU time is no longer readable, failed or not
        }
    }

    private void passes() throws InterruptedException {
        while (true) {
            boolean last = stopping; // read before the pass: the pass after stop() drains what is left
            boolean busy = false;
            for (Ring r : rings) {
                busy |= r.reader.unread() >= r.reader.dataSize() / 4;
                if (r.reader.unread() > 0) {
                    r.reader.drain(r.translator);
                }
            }
            if (last) {
                return;
            }
            synchronized (wake) {
                if (!stopping) {
                    wake.wait(busy ? PagePoller.BUSY_INTERVAL_MILLIS : POLL_MILLIS);
                }
            }
        }
    }

    /** The poller's CPU time (translating and writing included), ns: so far, or all of it once it ended; -1 unknown. */
    long cpuNanos() {
        return thread != null && !thread.isAlive() ? cpuNanos : PollerThreads.cpuNanos(thread);
    }

    /**
     * After the last pass: the samples each ring's kernel count says were lost beyond what its LOST records reported
     * (those dropped after the last LOST record: that record is only written inside a later successful write, and
     * none comes once the events are disabled or the poller stopped draining) go to the loss totals, with a note.
     */
    private void countUnreportedLosses(List<String> problems) {
        long unreported = 0;
        long kernel = 0;
        boolean oldKernel = false;
        boolean uncounted = false;
        for (Ring r : rings) {
            if (!r.countsLost) {
                oldKernel = true;
                uncounted = true;
                continue;
            }
            try {
                long l = calls.lostSamples(r.fd);
                kernel += l;
                unreported += Math.max(0, l - r.translator.reportedLost);
            } catch (IOException e) {
                problems.add("perf: CPU " + r.cpu + "'s lost samples could not be read: " + e.getMessage());
                uncounted = true;
            }
        }
        kernelLost = uncounted ? -1 : kernel;
        if (unreported > 0) {
            counters.lost += unreported;
            sink.lost(unreported);
            sink.notice(SessionNotice.NOTE, "perf: " + unreported + " CPU samples or hard faults (of every process)"
                    + " were dropped by full rings after their last LOST record: counted at stop from the kernel's own"
                    + " count", KernelRecordSink.NOW);
        }
        if (oldKernel) {
            sink.notice(SessionNotice.NOTE, "perf: this kernel (before Linux 6.0: no PERF_FORMAT_LOST) does not say"
                    + " how many samples a ring dropped after its last LOST record: those cannot be counted lost",
                    KernelRecordSink.NOW);
        }
    }

    /**
     * Disables the events, lets the poller make its last pass, counts the losses no LOST record reported, then unmaps
     * and closes. Returns the problems met
     * (empty when none). Idempotent.
     */
    synchronized List<String> stop() {
        List<String> problems = new ArrayList<String>();
        for (Ring r : rings) {
            try {
                calls.ioctl(r.fd, PerfCalls.IOC_DISABLE);
            } catch (IOException e) {
                problems.add("perf: " + e.getMessage());
            }
        }
        synchronized (wake) {
            stopping = true;
            wake.notifyAll();
        }
        boolean ended = PollerThreads.join(thread, 5000);
        if (!ended) {
            // Its buffers are still read by it: unmapping them under it would crash the JVM. They stay mapped.
            problems.add("the perf poller did not finish its last pass within 5 s; its rings stay mapped");
        } else {
            if (enabled) {
                countUnreportedLosses(problems);
            }
            closeFrom(0);
        }
        if (failure != null) {
            problems.add("the perf poller failed: " + failure);
        }
        return problems;
    }
}
