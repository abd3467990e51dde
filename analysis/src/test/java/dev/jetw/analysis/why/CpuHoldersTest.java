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
}
