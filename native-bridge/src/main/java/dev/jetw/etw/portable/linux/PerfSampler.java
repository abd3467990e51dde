package dev.jetw.etw.portable.linux;

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
 * next comes after {@link PagePoller#BUSY_INTERVAL_MILLIS}); stop disables the events, makes a last pass, unmaps and
 * closes.
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
        final long address;
        final long length;
        final PerfRing reader;
        final PerfRecordTranslator translator;

        Ring(int fd, long address, long length, PerfRing reader, PerfRecordTranslator translator) {
            this.fd = fd;
            this.address = address;
            this.length = length;
            this.reader = reader;
            this.translator = translator;
        }
    }

    private final PerfCalls calls;
    private final int dataPages;
    private final List<Ring> rings = new ArrayList<Ring>();
    final PerfRecordTranslator.Counters counters = new PerfRecordTranslator.Counters();
    private final Object wake = new Object();
    private volatile boolean stopping;
    private Thread thread;
    volatile Throwable failure;
    private volatile long cpuNanos = -1;

    private PerfSampler(PerfCalls calls, int dataPages) {
        this.calls = calls;
        this.dataPages = dataPages;
    }

    /**
     * Opens, maps and enables the events {@code plan} asks for on every CPU in {@code cpus}, and starts the poller.
     * Throws with one line saying what is missing; leaves nothing open then.
     */
    static PerfSampler start(KernelFlagPlan plan, int pid, List<Integer> cpus, KernelRecordSink sink)
            throws IOException {
        return start(plan, pid, cpus, sink, DATA_PAGES);
    }

    /** As above with rings of {@code dataPages} data pages (a power of two; tests force losses with 1). */
    static PerfSampler start(KernelFlagPlan plan, int pid, List<Integer> cpus, KernelRecordSink sink, int dataPages)
            throws IOException {
        PerfSampler s = new PerfSampler(PerfCalls.open(), dataPages);
        try {
            for (int cpu : cpus) {
                if (plan.profile) {
                    s.open(PerfRecordTranslator.Kind.CPU_SAMPLES, PerfEventAttr.sampling(PerfEventAttr.CPU_CLOCK,
                            SAMPLE_PERIOD_NANOS, PerfEventAttr.SAMPLE_IP | PerfEventAttr.SAMPLE_TID
                                    | PerfEventAttr.SAMPLE_TIME), cpu, pid, sink);
                }
                if (plan.hardFaults) {
                    s.open(PerfRecordTranslator.Kind.HARD_FAULTS, PerfEventAttr.sampling(PerfEventAttr.PAGE_FAULTS_MAJ,
                            1, PerfEventAttr.SAMPLE_IP | PerfEventAttr.SAMPLE_TID | PerfEventAttr.SAMPLE_TIME
                                    | PerfEventAttr.SAMPLE_ADDR), cpu, pid, sink);
                }
            }
            s.startPoller();
            for (Ring r : s.rings) {
                s.calls.ioctl(r.fd, PerfCalls.IOC_ENABLE);
            }
        } catch (IOException | RuntimeException e) {
            s.stop();
            throw e;
        }
        return s;
    }

    private void open(PerfRecordTranslator.Kind kind, ByteBuffer attr, int cpu, int pid, KernelRecordSink sink)
            throws IOException {
        int fd = calls.perfEventOpen(attr, -1, cpu);
        long length = (long) calls.pageSize * (1 + dataPages);
        long address;
        try {
            address = calls.map(fd, length);
        } catch (IOException e) {
            calls.close(fd);
            throw e;
        }
        PerfRing reader = new PerfRing(calls.memory(address, length), calls.pageSize, new PerfRing.Fences() {
            @Override
            public void acquire() {
                calls.acquireFence();
            }

            @Override
            public void full() {
                calls.fullFence();
            }
        });
        rings.add(new Ring(fd, address, length, reader,
                new PerfRecordTranslator(kind, cpu, pid, calls.pageSize, sink, counters)));
    }

    private void startPoller() {
        thread = PollerThreads.start("jetw-kernel-perf", () -> { }, this::loop, e -> failure = e);
    }

    private void loop() throws InterruptedException {
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
                cpuNanos = PollerThreads.ownCpuNanos(); // a dead thread's CPU time is no longer readable
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
     * Disables the events, lets the poller make its last pass, then unmaps and closes. Returns the problems met
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
        boolean ended = true;
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended = !thread.isAlive();
        }
        if (!ended) {
            // Its buffers are still read by it: unmapping them under it would crash the JVM. They stay mapped.
            problems.add("the perf poller did not finish its last pass within 5 s; its rings stay mapped");
        } else {
            for (Ring r : rings) {
                calls.unmap(r.address, r.length);
                calls.close(r.fd);
            }
            rings.clear();
        }
        if (failure != null) {
            problems.add("the perf poller failed: " + failure);
        }
        return problems;
    }
}
