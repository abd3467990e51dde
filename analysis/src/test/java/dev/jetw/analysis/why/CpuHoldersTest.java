package dev.jetw.analysis.why;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@link CpuHolders} alone: CPUs replayed from their switches against the ready stretches of several calls. */
class CpuHoldersTest {

    private static Map<Long, Long> threads(ReadyCpus r) {
        Map<Long, Long> m = new TreeMap<>();
        for (ReadyCpus.Holder h : r.threads) {
            m.put(h.threadId, h.time);
        }
        return m;
    }

    private static void addsUp(ReadyCpus r) {
        long sum = r.idle + r.unknown();
        for (ReadyCpus.Holder h : r.threads) {
            sum += h.time;
        }
        assertEquals(r.cpuTime(), sum);
    }

    /**
     * Call 0 ready [100, 200) and [300, 400); call 1 (another thread) ready [150, 350), overlapping both. CPU 0:
     * 11 from 50, 12 from 180, idle from 320. CPU 2 (no CPU 1): 21 from 0, then a switch at 250 out of 29
     * (not 21: not recorded between), 22 in; a late switch at 240 (before 250, CPU 2's order broken) takes no time.
     */
    @Test
    void overlappingStretchesOfTwoCallsAreEachAccountedExactly() {
        CpuHolders h = new CpuHolders(List.of(List.of(new long[] {100, 200}, new long[] {300, 400}),
                List.of(new long[] {150, 350})));
        assertTrue(h.anyReady());
        h.contextSwitch(2, 0, 21, 0);
        h.contextSwitch(0, 50, 11, 0);
        h.contextSwitch(0, 180, 12, 11);
        h.contextSwitch(2, 250, 22, 29);
        h.contextSwitch(2, 240, 23, 22);
        h.contextSwitch(0, 320, 0, 12);
        h.finish();

        ReadyCpus a = h.of(0);
        assertEquals(200, a.ready);
        assertEquals(List.of(0, 2), a.cpus);
        addsUp(a);
        // CPU 0: 11 100..180, 12 180..200 and 300..320, idle 320..400. CPU 2: unknown 0..250 (the switch at 250
        // does not meet 21), so 100..200; the late switch puts 23 in at 250 (not 240), so 23 300..400.
        assertEquals(100, a.notRecorded, "CPU 2 from 0 to 250: the switch at 250 takes out 29, not 21");
        assertEquals(Map.of(11L, 80L, 12L, 40L, 23L, 100L), threads(a));
        assertEquals(80, a.idle);
        assertEquals(0, a.beforeFirstSwitch);

        ReadyCpus b = h.of(1);
        assertEquals(200, b.ready);
        addsUp(b);
        // CPU 0: 11 150..180, 12 180..320, idle 320..350; CPU 2: unknown 150..250, 22 250..250 (0), 23 250..350.
        assertEquals(Map.of(11L, 30L, 12L, 140L, 23L, 100L), threads(b));
        assertEquals(30, b.idle);
        assertEquals(100, b.notRecorded);
    }

    @Test
    void aCallNeverReadyGetsNothingAndNoSwitchIsNeeded() {
        CpuHolders h = new CpuHolders(List.of(List.of()));
        assertFalse(h.anyReady());
        h.contextSwitch(0, 10, 5, 0);
        assertNull(h.of(0));
    }

    @Test
    void processesSumTheirThreadsMostTimeFirst() {
        CpuHolders h = new CpuHolders(List.of(List.of(new long[] {0, 100})));
        h.contextSwitch(0, -10, 7, 0);
        h.contextSwitch(1, -10, 8, 0);
        h.contextSwitch(2, -10, 9, 0);
        h.contextSwitch(2, 60, 0, 9);
        ReadyCpus r = h.of(0);
        addsUp(r);
        List<ReadyCpus.ProcessHolder> p = r.byProcess(tid -> tid == 9 ? 90 : 70);
        assertEquals(2, p.size());
        assertEquals(70, p.get(0).processId);
        assertEquals(200, p.get(0).time);
        assertEquals(2, p.get(0).threads);
        assertEquals(90, p.get(1).processId);
        assertEquals(60, p.get(1).time);
        assertEquals(40, r.idle);
    }

    /**
     * Random stretches (some calls with one long stretch over most of the time, as a thread starved for seconds) and
     * random switches on 3 CPUs, out of order now and then: every call's result is the one of a reference that tries
     * every stretch of every call for every stretch of CPU time.
     */
    @Test
    void theSameAsTryingEveryStretchForEveryGap() {
        java.util.Random r = new java.util.Random(11);
        for (int round = 0; round < 40; round++) {
            int calls = 1 + r.nextInt(12);
            List<List<long[]>> stretches = new java.util.ArrayList<>();
            for (int c = 0; c < calls; c++) {
                List<long[]> s = new java.util.ArrayList<>();
                if (r.nextInt(3) == 0) {
                    long a = r.nextInt(200);
                    s.add(new long[] {a, a + 5_000 + r.nextInt(5_000)});
                } else {
                    long t = r.nextInt(100);
                    for (int i = r.nextInt(30); i > 0; i--) {
                        long a = t + r.nextInt(400);
                        long b = a + r.nextInt(300);
                        s.add(new long[] {a, b});
                        t = b + r.nextInt(2);
                    }
                }
                stretches.add(s);
            }
            CpuHolders h = new CpuHolders(stretches);
            Reference ref = new Reference(stretches);
            long[] clock = new long[3];
            long[] last = new long[3];
            for (int i = 0; i < 300; i++) {
                int cpu = r.nextInt(3);
                clock[cpu] += r.nextInt(120) - 10; // now and then back in time
                long newTid = r.nextInt(6);
                long oldTid = r.nextInt(4) == 0 ? 99 : last[cpu];
                h.contextSwitch(cpu, clock[cpu], newTid, oldTid);
                ref.contextSwitch(cpu, clock[cpu], newTid, oldTid);
                last[cpu] = newTid;
            }
            h.finish();
            ref.finish();
            for (int c = 0; c < calls; c++) {
                ReadyCpus got = h.of(c);
                if (ref.ready[c] == 0) {
                    assertNull(got);
                    continue;
                }
                addsUp(got);
                Map<Long, Long> want = new TreeMap<>(ref.held.get(c));
                assertEquals(orZero(want.remove(-1L)), got.beforeFirstSwitch, "round " + round + " call " + c);
                assertEquals(orZero(want.remove(-2L)), got.notRecorded, "round " + round + " call " + c);
                assertEquals(orZero(want.remove(0L)), got.idle, "round " + round + " call " + c);
                want.values().removeIf(v -> v == 0);
                assertEquals(want, threads(got), "round " + round + " call " + c);
            }
        }
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }

    /** The replay of {@link CpuHolders}, every stretch of every call tried for every piece of CPU time. */
    private static final class Reference {
        final List<List<long[]>> stretches;
        final long[] ready;
        final List<Map<Long, Long>> held = new java.util.ArrayList<>();
        final Map<Integer, long[]> cpus = new TreeMap<>();

        Reference(List<List<long[]>> stretches) {
            this.stretches = stretches;
            ready = new long[stretches.size()];
            for (int c = 0; c < stretches.size(); c++) {
                held.add(new TreeMap<>());
                for (long[] s : stretches.get(c)) {
                    ready[c] += Math.max(0, s[1] - s[0]);
                }
            }
        }

        void contextSwitch(int cpu, long time, long newTid, long oldTid) {
            long[] c = cpus.get(cpu);
            if (c == null) {
                attribute(Long.MIN_VALUE, time, -1);
                cpus.put(cpu, new long[] {newTid, time});
                return;
            }
            long t = Math.max(time, c[1]);
            attribute(c[1], t, c[0] == oldTid ? c[0] : -2);
            c[0] = newTid;
            c[1] = t;
        }

        void finish() {
            for (long[] c : cpus.values()) {
                attribute(c[1], Long.MAX_VALUE, c[0]);
            }
        }

        void attribute(long a, long b, long tid) {
            for (int c = 0; c < stretches.size(); c++) {
                for (long[] s : stretches.get(c)) {
                    long x = Math.max(a, s[0]);
                    long y = Math.min(b, s[1]);
                    if (y > x) {
                        held.get(c).merge(tid, y - x, Long::sum);
                    }
                }
            }
        }
    }

    /**
     * 100 calls with 200 short stretches each over 20 s, 200,000 switches on 4 CPUs, with and without one more call
     * ready the whole time (one long stretch under every switch). The work per switch (stretches and tree nodes looked
     * at) is about log(stretches) + the stretches the switch overlaps with or without the long one; a backwards scan
     * from each switch to the long stretch's start would look at about half of the 20,000 stretches per switch.
     */
    @Test
    void oneLongStretchDoesNotMakeEverySwitchLookAtEveryStretch() {
        long[] work = new long[2];
        int switches = 200_000;
        int stretchCount = 0;
        for (int longOne = 0; longOne < 2; longOne++) {
            List<List<long[]>> calls = new java.util.ArrayList<>();
            for (int c = 0; c < 100; c++) {
                List<long[]> s = new java.util.ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    long at = i * 1_000_000L + c * 7919L;
                    s.add(new long[] {at, at + 1000});
                }
                calls.add(s);
            }
            if (longOne == 1) {
                calls.add(List.of(new long[] {0, 200_000_000L}));
            }
            stretchCount = 100 * 200 + longOne;
            CpuHolders h = new CpuHolders(calls);
            for (int i = 0; i < switches; i++) {
                h.contextSwitch(i % 4, i * 1_000L, 1000 + i % 50, 1000 + (i + 46) % 50);
            }
            h.finish();
            work[longOne] = h.work();
            if (longOne == 1) {
                assertEquals(200_000_000L, h.of(100).ready);
                addsUp(h.of(100));
            }
        }
        int log = 32 - Integer.numberOfLeadingZeros(stretchCount);
        // A descent that finds nothing visits at most 2 nodes per level; each stretch found, one more path.
        long perSwitch = 4L * (log + 2);
        assertTrue(work[0] <= switches * perSwitch, "without the long stretch: " + work[0]);
        assertTrue(work[1] - work[0] <= switches * perSwitch,
                "the long stretch adds about one tree descent per switch: " + work[1] + " vs " + work[0]
                        + " (a scan back to it: about " + (long) switches * stretchCount / 2 + ")");
    }
}
