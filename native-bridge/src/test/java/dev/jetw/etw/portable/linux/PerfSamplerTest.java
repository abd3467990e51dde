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
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        long c0 = mx.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        spin(300_000_000L);
        long t1 = System.nanoTime();
        long cpuMs = (mx.getCurrentThreadCpuTime() - c0) / 1_000_000;
        Thread.sleep(300);
        long t2 = System.nanoTime();
        List<String> problems = s.stop();
        assertTrue(problems.isEmpty(), problems.toString());
        long inSpin = 0;
        long inSleep = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (EvidenceTranslatorTest.Rec r : sink.records) {
            assertEquals(KernelPayloads.GROUP_PERF_INFO, r.group);
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
        assertEquals(sink.records.size(), s.counters.written);
    }

    @Test
    void whenThePollerFallsBehindEverySampleIsReadOrCountedLost() throws Exception {
        KernelTests.requirePerf("PerfSamplerTest.whenThePollerFallsBehindEverySampleIsReadOrCountedLost");
        // The poller stalls 1.5 s in its first write: with one 4 KiB data page per CPU (128 samples) the rings fill.
        EvidenceTranslatorTest.Recording sink = new EvidenceTranslatorTest.Recording() {
            boolean stalled;

            @Override
            public void write(int cpu, long nanoTime, int headerType, int version, int group, int type, int threadId,
                              int processId, ByteBuffer payload, int length) {
                if (!stalled) {
                    stalled = true;
                    try {
                        Thread.sleep(1500);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.write(cpu, nanoTime, headerType, version, group, type, threadId, processId, payload, length);
            }
        };
        List<Integer> cpus = CpuList.online();
        long t0 = System.nanoTime();
        PerfSampler s = PerfSampler.start(PROFILE, ProcFs.selfPid(), cpus, sink, 1);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < cpus.size(); i++) {
            Thread t = new Thread(() -> spin(2_000_000_000L));
            t.start();
            spinners.add(t);
        }
        for (Thread t : spinners) {
            t.join();
        }
        List<String> problems = s.stop();
        long seconds = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(problems.isEmpty(), problems.toString());
        long all = s.counters.written + s.counters.otherProcesses;
        System.out.printf("PerfSamplerTest: %d samples read (%d of this process), %d counted lost in %d LOST notes, over"
                + " %d ms on %d CPUs%n", all, s.counters.written, s.counters.lost, sink.notices.size(), seconds, cpus.size());
        assertTrue(s.counters.lost > 0, "the rings overflowed");
        assertEquals(s.counters.lost, sink.lost, "every LOST count reached the session's loss accounting");
        assertTrue(!sink.notices.isEmpty(), "a note where a gap ended");
        // cpu-clock fires every ms on every CPU (idle included, as pid 0): read + lost is all of them, give or take
        // the samples of the moments around enabling and disabling.
        long expected = seconds * cpus.size();
        assertEquals(expected, all + s.counters.lost, 0.05 * expected, "read + lost = one per ms per CPU");
    }
}
