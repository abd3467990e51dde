package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A thread's scheduling state over one call, from the kernel's Thread/CSwitch and Thread/ReadyThread
 * events for that thread: switched in = on CPU; switched out in state Waiting = waiting for the
 * CSwitch's wait reason; switched out in state Ready, Standby or DeferredReady = preempted, ready;
 * readied (ReadyThread) = ready until switched in. The state at the call's start is the one the last
 * change before it left; with no change before it, the time up to the first change is "unknown".
 * The states' times add up to the call's wall time exactly.
 *
 * <p>A switch out of a thread not known to be on a CPU (ready since it was readied or preempted, with no
 * switch in recorded since) means the kernel did not record its switch in; some kernels drop switches in
 * from an idle CPU (docs/linux-kernel-events.md, "Switches in the kernel did not record"). The thread ran
 * then: the time since it was readied or preempted counts as on CPU, losing its (short: a CPU was idle)
 * ready time, rather than counting a run as "ready".
 */
final class ThreadStates {

    static final String ON_CPU = "on CPU";
    static final String READY = "ready, waiting for a CPU";
    static final String UNKNOWN = "unknown (no context switch before it)";
    static final String WAITING = "waiting: ";

    /** KTHREAD_STATE values of CSwitch's OldThreadState. */
    private static final int STATE_READY = 1;
    private static final int STATE_STANDBY = 3;
    private static final int STATE_TERMINATED = 4;
    private static final int STATE_WAITING = 5;
    private static final int STATE_TRANSITION = 6;
    private static final int STATE_DEFERRED_READY = 7;

    /** A change of state; {@code after} is null for a ReadyThread (ready unless already running). */
    private static final class Change {
        final long time;
        final long order;
        final String after;

        Change(long time, long order, String after) {
            this.time = time;
            this.order = order;
            this.after = after;
        }
    }

    private final long start;
    private final long end;
    private Change before;
    private final List<Change> inside = new ArrayList<>();

    ThreadStates(long start, long end) {
        this.start = start;
        this.end = end;
    }

    void switchedIn(long time, long order) {
        add(new Change(time, order, ON_CPU));
    }

    void switchedOut(long time, long order, int state, int waitReason) {
        add(new Change(time, order, stateName(state, waitReason)));
    }

    void readied(long time, long order) {
        add(new Change(time, order, null));
    }

    private void add(Change c) {
        if (c.time <= start) {
            if (before == null || c.time > before.time || (c.time == before.time && c.order > before.order)) {
                before = c;
            }
        } else if (c.time < end) {
            inside.add(c);
        }
    }

    static String stateName(int state, int waitReason) {
        switch (state) {
            case STATE_WAITING:
                return WAITING + WaitReasons.name(waitReason);
            case STATE_READY:
            case STATE_STANDBY:
            case STATE_DEFERRED_READY:
                return READY;
            case STATE_TRANSITION:
                return WAITING + "Transition (kernel stack not resident)";
            case STATE_TERMINATED:
                return "terminated";
            default:
                return "off CPU, state " + state;
        }
    }

    /** Time per state inside the call: on CPU, ready, each wait reason (longest first), unknown. */
    Map<String, Long> times() {
        inside.sort(Comparator.comparingLong((Change c) -> c.time).thenComparingLong(c -> c.order));
        Map<String, Long> raw = new TreeMap<>();
        String state = before == null ? UNKNOWN : next(UNKNOWN, before);
        long at = start;
        for (Change c : inside) {
            // Switched out while only ready: the switch in was not recorded, it ran (see the class comment).
            raw.merge(state.equals(READY) && isSwitchOut(c) ? ON_CPU : state, c.time - at, Long::sum);
            at = c.time;
            state = next(state, c);
        }
        raw.merge(state, end - at, Long::sum);
        Map<String, Long> out = new LinkedHashMap<>();
        take(raw, out, ON_CPU);
        take(raw, out, READY);
        List<Map.Entry<String, Long>> rest = new ArrayList<>(raw.entrySet());
        rest.removeIf(e -> e.getKey().equals(UNKNOWN));
        rest.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        for (Map.Entry<String, Long> e : rest) {
            out.put(e.getKey(), e.getValue());
        }
        take(raw, out, UNKNOWN);
        out.values().removeIf(v -> v == 0);
        return out;
    }

    private static void take(Map<String, Long> from, Map<String, Long> to, String key) {
        Long v = from.remove(key);
        if (v != null) {
            to.put(key, v);
        }
    }

    private static boolean isSwitchOut(Change c) {
        return c.after != null && !c.after.equals(ON_CPU);
    }

    private static String next(String state, Change c) {
        if (c.after != null) {
            return c.after;
        }
        return state.equals(ON_CPU) ? ON_CPU : READY;
    }
}
