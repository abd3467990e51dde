package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etw.KernelFlag;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The perf sampler against the real kernel (perf tests: root, tracefs, Java 22+ and perf_event_open, else skipped
 * with the reason): CPU samples are on System.nanoTime()'s clock and one per ms on a CPU; when the poller cannot keep
 * up, every sample is either read or counted lost by the kernel's LOST records.
 */
class PerfSamplerTest {

    static final KernelFlagPlan PROFILE = KernelFlagPlan.of(EnumSet.of(KernelFlag.PROFILE), null);

    /** Spins the calling thread until {@code nanos} from now. */
    static long spin(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 1;
        while (System.nanoTime() < end) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    @Test
    void samplesOfASpinningThreadFallInsideItsNanoTimeBracketOnePerMillisecond() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.samplesOfASpinningThreadFallInsideItsNanoTimeBracketOnePerMillisecond");
        int tid = dev.jetw.etw.OsThreadId.current();
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        PerfSampler s = PerfSampler.start(PROFILE, ProcFs.selfPid(), CpuList.online(), sink);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long p0 = os.getProcessCpuTime(); // the events were enabled at the end of start
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        spin(300_000_000L);
        long t1 = System.nanoTime();
        long cpuMs = (mx.getCurrentThreadCpuTime() - c0) / 1_000_000;
        Thread.sleep(300);
        long t2 = System.nanoTime();
        long processMs = (os.getProcessCpuTime() - p0) / 1_000_000;
        List<String> problems = s.stop();
        assertTrue(problems.isEmpty(), problems.toString());
        long inSpin = 0;
        long inSleep = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (EvidenceTranslatorTest.Rec r : sink.records) {
            assertEquals(KernelPayloads.GROUP_PERF_INFO, r.group);
            assertEquals(ProcFs.selfPid(), r.pid, "only this process's samples are written");
            if (r.payload.getInt(8) != tid) {
                continue;
            }
            if (r.ns >= t0 && r.ns <= t1) {
                inSpin++;
                first = Math.min(first, r.ns - t0);
                last = Math.max(last, r.ns);
            } else if (r.ns > t1 && r.ns <= t2) {
                inSleep++;
            }
        }
        System.out.printf("PerfSamplerTest: %d samples in the 300 ms spin (%d ms on CPU by the thread's clock), the"
                + " first %.1f us after its start, the last %.1f us before its end; %d in the sleep after it%n", inSpin,
                cpuMs, first / 1e3, (t1 - last) / 1e3, inSleep);
        assertEquals(cpuMs, inSpin, 0.1 * cpuMs + 5, "one sample per ms on a CPU, on nanoTime's clock");
        assertTrue(inSleep <= 2, "a sleeping thread is not sampled: " + inSleep);
        assertEquals(0, sink.lost);
        assertEquals(0, s.kernelLost, "the kernel's own count (read(2), PERF_FORMAT_LOST): nothing dropped");
        // The records that reached the sink against the kernel's own CPU accounting of this process (CPUTIME of the
        // whole process, every thread: one sample per ms any of them was on a CPU). Not one per ms per CPU: on this VM
        // an idle vCPU's timer fires late and the periods it missed are not sampled.
        System.out.printf("PerfSamplerTest: %d records in the sink for %d ms of the process's CPU time%n",
                sink.records.size(), processMs);
        assertEquals(processMs, sink.records.size(), 0.1 * processMs + 10,
                "records in the sink = one per ms of the process's CPU time");
    }

    /** A sink whose first write stalls the poller until {@link #release} was called, and 200 ms more. */
    static final class StallingSink extends EvidenceTranslatorTest.Recording {
        private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        private boolean stalled;

        void release() {
            released.countDown();
        }

        @Override
        public void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId,
                          int processId, ByteBuffer payload, int length) {
            if (!stalled) {
                stalled = true;
                try {
                    released.await();
                    Thread.sleep(200); // past stop()'s IOC_DISABLE: no LOST record can follow the last loss
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            super.write(cpu, nanoTime, headerType, version, group, type, threadId, processId, payload, length);
        }
    }

    /** Runs a spinning thread per CPU for {@code nanos}. */
    static void spinEveryCpu(int cpus, long nanos) throws InterruptedException {
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < cpus; i++) {
            Thread t = new Thread(() -> spin(nanos));
            t.start();
            spinners.add(t);
        }
        for (Thread t : spinners) {
            t.join();
        }
    }

    /** What a run of {@link #stalledRun} gave. */
    static final class Run {
        long read;
        long lost;
        long kernelLost;
        long elapsedMillis;
        int cpus;

        /** read + lost against one sample per ms per CPU (every CPU spins: no vCPU idles through its timer). */
        void assertEverySampleReadOrLost() {
            long expected = elapsedMillis * cpus;
            assertEquals(expected, read + lost, 0.05 * expected, "read + lost = one per ms per CPU");
        }
    }

    /**
     * Every CPU spins for {@code spinNanos} under 1-page rings (128 samples) whose poller {@code sink} stalls in its
     * first write until released: {@code releaseAfterMillis} after start, or, when negative, once stop() is called.
     */
    static Run stalledRun(StallingSink sink, long spinNanos, long releaseAfterMillis) throws Exception {
        Run run = new Run();
        run.cpus = CpuList.online().cpus.size();
        long t0 = System.nanoTime();
        PerfSampler s = PerfSampler.start(PROFILE, ProcFs.selfPid(), CpuList.online(), sink, 1);
        if (releaseAfterMillis >= 0) {
            Thread releaser = new Thread(() -> {
                try {
                    Thread.sleep(releaseAfterMillis);
                } catch (InterruptedException e) {
                    return;
                }
                sink.release();
            });
            releaser.start();
        }
        spinEveryCpu(run.cpus, spinNanos);
        long t1 = System.nanoTime();
        sink.release();
        List<String> problems = s.stop();
        assertTrue(problems.isEmpty(), problems.toString());
        run.elapsedMillis = (t1 - t0) / 1_000_000;
        run.read = sink.records.size() + s.counters.otherProcesses;
        run.lost = sink.lost;
        run.kernelLost = s.kernelLost;
        System.out.printf("PerfSamplerTest: %d samples read (%d of this process), %d counted lost (the kernel's count"
                + " %d), over %d ms on %d CPUs; notes %s%n", run.read, sink.records.size(), run.lost, run.kernelLost,
                run.elapsedMillis, run.cpus, sink.notices);
        return run;
    }

    @Test
    void whenThePollerFallsBehindEverySampleIsReadOrCountedLost() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.whenThePollerFallsBehindEverySampleIsReadOrCountedLost");
        // The poller stalls 1.5 s in its first write: the rings fill, and its passes after the stall let the kernel
        // write LOST records.
        StallingSink sink = new StallingSink();
        Run run = stalledRun(sink, 2_000_000_000L, 1300);
        assertTrue(run.lost > 0, "the rings overflowed");
        assertEquals(run.kernelLost, run.lost, "the session's loss accounting has every loss the kernel counted");
        assertTrue(sink.notices.stream().anyMatch(n -> n.text().contains("the ring was full")),
                "a note where a gap ended: " + sink.notices);
        run.assertEverySampleReadOrLost();
    }

    @Test
    void whenThePollerIsStalledUpToStopTheLossesNoLostRecordReportedAreCounted() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.whenThePollerIsStalledUpToStopTheLossesNoLostRecordReportedAreCounted");
        // The poller stalls in its first write until stop() disabled the events: the rings stay full to the end, so
        // no LOST record is ever written; only the kernel's count has the loss.
        StallingSink sink = new StallingSink();
        Run run = stalledRun(sink, 1_500_000_000L, -1);
        run.assertEverySampleReadOrLost();
        assertTrue(sink.notices.stream().anyMatch(n -> n.text().contains("after their last LOST record")),
                "a note says how many were lost at stop: " + sink.notices);
    }

    @Test
    void aCpuThatRefusesIsSkippedWithOneNoticeAndTheOthersAreSampled() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.aCpuThatRefusesIsSkippedWithOneNoticeAndTheOthersAreSampled");
        // CPU 4095 is beyond this kernel's nr_cpu_ids (EINVAL), as a CPU taken offline since the list was read
        // answers ENODEV: one CPU's refusal must not turn the flag off on the others.
        List<Integer> cpus = new ArrayList<>(CpuList.online().cpus);
        cpus.add(4095);
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording();
        int tid = dev.jetw.etw.OsThreadId.current();
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        PerfSampler s = PerfSampler.start(PROFILE, ProcFs.selfPid(), new CpuList.Online(cpus, null), sink);
        long c0 = mx.getCurrentThreadCpuTime();
        spin(200_000_000L);
        long cpuMs = (mx.getCurrentThreadCpuTime() - c0) / 1_000_000;
        List<String> problems = s.stop();
        assertTrue(problems.isEmpty(), problems.toString());
        List<String> about4095 = new ArrayList<>();
        for (dev.jetw.etl.SessionNotice n : sink.notices) {
            if (n.text().contains("CPU 4095")) {
                about4095.add(n.text());
            }
        }
        assertEquals(1, about4095.size(), sink.notices.toString());
        assertTrue(about4095.get(0).contains("errno 22"), about4095.get(0));
        long mine = sink.records.stream().filter(r -> r.payload.getInt(8) == tid).count();
        assertEquals(cpuMs, mine, 0.1 * cpuMs + 5, "the spinning thread was sampled on the other CPUs, one per ms of its"
                + " CPU clock");
    }

    @Test
    void atEmfileTheCpusNotYetOpenAreLeftOutAndTheOpenOnesAreSampled() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.atEmfileTheCpusNotYetOpenAreLeftOutAndTheOpenOnesAreSampled");
        List<Integer> cpus = CpuList.online().cpus;
        dev.jetw.etl.GatedTests.require("kernel-tests.log", "jetw kernel test",
                "PerfSamplerTest.atEmfileTheCpusNotYetOpenAreLeftOutAndTheOpenOnesAreSampled",
                cpus.size() < 2 ? "needs 2 online CPUs, this machine has " + cpus : null);
        // A child under ulimit -n 256 keeps 3 descriptors: CPU 0's two events open, CPU 1's second gets EMFILE.
        String cp = location(PerfDescriptorsChild.class) + java.io.File.pathSeparator + location(PerfSampler.class)
                + java.io.File.pathSeparator + location(dev.jetw.etl.SessionNotice.class);
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder("sh", "-c", "ulimit -n 256 && exec \"$0\" --enable-native-access=ALL-UNNAMED"
                + " -cp \"$1\" " + PerfDescriptorsChild.class.getName() + " 3", javaBin, cp).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
        System.out.println("PerfSamplerTest: the child at EMFILE:\n" + out);
        assertEquals(0, child.exitValue(), out);
        assertTrue(out.contains("\nok"), out);
        assertTrue(out.contains("errno 24 (EMFILE") && out.contains("at CPU " + cpus.get(1) + ": CPUs "
                + cpus.subList(1, cpus.size()) + " are not sampled (2 events stay open)"), out);
        assertTrue(out.contains("events opened on CPUs [" + cpus.get(0) + "] at start"), out);
        assertTrue(out.contains("problems: []"), out);
    }

    private static String location(Class<?> c) throws Exception {
        return java.nio.file.Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
