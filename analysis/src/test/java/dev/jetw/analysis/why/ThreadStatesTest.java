package dev.jetw.analysis.why;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Thread states over a call from CSwitch and ReadyThread, including switches in the kernel did not record. */
class ThreadStatesTest {

    private static final int READY = 1;
    private static final int WAITING = 5;
    private static final int USER_REQUEST = 6;
    private static final int WR_PREEMPTED = 32;

    /** A call from 100 to 200 whose thread, on a CPU since 90, goes to sleep at 110. */
    private static ThreadStates sleepingFrom110() {
        ThreadStates s = new ThreadStates(100, 200);
        s.switchedIn(90, 0);
        s.switchedOut(110, 1, WAITING, USER_REQUEST);
        return s;
    }

    @Test
    void waitReadyRun() {
        ThreadStates s = sleepingFrom110();
        s.readied(160, 2, 7, 1);
        s.switchedIn(170, 3);
        s.switchedOut(180, 4, READY, WR_PREEMPTED);
        s.switchedIn(190, 5);
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put(ThreadStates.ON_CPU, 30L);
        expected.put(ThreadStates.READY, 20L);
        expected.put(CpuTimeline.WAITING + WaitReasons.name(USER_REQUEST), 50L);
        assertEquals(expected, s.times());
    }

    /** Readied, then switched out with no switch in between: it ran since it was readied (the switch in was dropped). */
    @Test
    void aSwitchOutWhileOnlyReadyMeansItRan() {
        ThreadStates s = sleepingFrom110();
        s.readied(150, 2, 7, 1);
        s.switchedOut(170, 3, WAITING, USER_REQUEST); // no switch in recorded since the wake-up
        s.readied(180, 4, 7, 1);
        Map<String, Long> t = s.times();
        assertEquals(10L, t.get(ThreadStates.ON_CPU), "110-100 before the sleep");
        assertEquals(20L, t.get(CpuTimeline.ON_CPU_ESTIMATED), "150-170: woken, then switched out again, so it ran");
        assertEquals(40L + 10L, t.get(CpuTimeline.WAITING + WaitReasons.name(USER_REQUEST)));
        assertEquals(20L, t.get(ThreadStates.READY), "the last wake-up, not followed by a switch: still ready");
    }

    /**
     * Preempted before the call, switched out again inside it without a recorded switch in: it ran at some
     * moment in between, but when is not known, so no time is invented (CpuTimeline's rule).
     */
    @Test
    void preemptedThenSwitchedOutAgain() {
        ThreadStates s = new ThreadStates(100, 200);
        s.switchedOut(95, 0, READY, WR_PREEMPTED);
        s.switchedOut(150, 1, WAITING, USER_REQUEST);
        s.switchedIn(160, 2);
        Map<String, Long> t = s.times();
        assertEquals(50L, t.get(CpuTimeline.UNKNOWN_GAP));
        assertEquals(40L, t.get(ThreadStates.ON_CPU));
        assertEquals(10L, t.get(CpuTimeline.WAITING + WaitReasons.name(USER_REQUEST)));
        assertEquals(null, t.get(ThreadStates.READY));
        assertEquals(1L, s.missingSwitchIns());
    }
}
