package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A thread's scheduling state over one call, from the kernel's Thread/CSwitch and Thread/ReadyThread
 * events for that thread, as {@link CpuTimeline} reads them (its rule for switch-ins the trace does not
 * hold included). The changes arrive in any order and are sorted here; the state at the call's start is
 * what the last changes before it left (the latest {@link #KEPT_BEFORE} are kept); with none, the time up
 * to the first change is "unknown". The states' times add up to the call's wall time exactly. The waits
 * that a ReadyThread ended inside the call are kept with their waker ({@link #wakes()}).
 */
final class ThreadStates {

    static final String ON_CPU = CpuTimeline.ON_CPU;
    static final String READY = CpuTimeline.READY;
    static final String UNKNOWN = CpuTimeline.UNKNOWN;

    /** Changes before the call kept to find its state at the start (the last ones: a missing switch-in needs more than one). */
    static final int KEPT_BEFORE = 8;

    private static final int SWITCH_IN = 0;
    private static final int SWITCH_OUT = 1;
    private static final int READIED = 2;

    private static final class Change {
        final long time;
        final long order;
        final int kind;
        final int oldState;
        final int waitReason;
        final long waker;
        final int wakerPid;

        Change(long time, long order, int kind, int oldState, int waitReason, long waker, int wakerPid) {
            this.time = time;
            this.order = order;
            this.kind = kind;
            this.oldState = oldState;
            this.waitReason = waitReason;
            this.waker = waker;
            this.wakerPid = wakerPid;
        }
    }

    /** A wait inside the call that a ReadyThread ended: who readied the thread, when, and the wait's time inside the call. */
    static final class Wake {
        final long time;
        final long waker;
        final int wakerPid;
        final long waited;

        Wake(long time, long waker, int wakerPid, long waited) {
            this.time = time;
            this.waker = waker;
            this.wakerPid = wakerPid;
            this.waited = waited;
        }
    }

    private static final Comparator<Change> ORDER = Comparator.comparingLong((Change c) -> c.time).thenComparingLong(c -> c.order);

    private final long start;
    private final long end;
    private final TreeSet<Change> before = new TreeSet<>(ORDER);
    private final List<Change> inside = new ArrayList<>();
    private Map<String, Long> times;
    private List<Wake> wakes;
    private long missingSwitchIns;

    ThreadStates(long start, long end) {
        this.start = start;
        this.end = end;
    }

    void switchedIn(long time, long order) {
        add(new Change(time, order, SWITCH_IN, 0, 0, 0, 0));
    }

    void switchedOut(long time, long order, int state, int waitReason) {
        add(new Change(time, order, SWITCH_OUT, state, waitReason, 0, 0));
    }

    /** A ReadyThread of the thread, whose header names thread {@code waker} of process {@code wakerPid}. */
    void readied(long time, long order, long waker, int wakerPid) {
        add(new Change(time, order, READIED, 0, 0, waker, wakerPid));
    }

    private void add(Change c) {
        times = null;
        if (c.time <= start) {
            before.add(c);
            if (before.size() > KEPT_BEFORE) {
                before.pollFirst();
            }
        } else if (c.time < end) {
            inside.add(c);
        }
    }

    /** Time per state inside the call: on CPU, ready, each wait reason (longest first), unknown. */
    Map<String, Long> times() {
        if (times == null) {
            replay();
        }
        return times;
    }

    /** The waits a ReadyThread ended inside the call, in time order. */
    List<Wake> wakes() {
        if (times == null) {
            replay();
        }
        return wakes;
    }

    /** Switch-outs inside the call while the thread was not known to be running. */
    long missingSwitchIns() {
        if (times == null) {
            replay();
        }
        return missingSwitchIns;
    }

    private void replay() {
        inside.sort(ORDER);
        Map<String, Long> raw = new TreeMap<>();
        List<Wake> w = new ArrayList<>();
        long[] gaps = {0};
        CpuTimeline.Segments clip = (from, to, state, waker, wakerPid) -> {
            long a = Math.max(from, start);
            long b = Math.min(to, end);
            if (b > a) {
                raw.merge(state, b - a, Long::sum);
            }
            if (waker != CpuTimeline.NO_WAKER && to > start) {
                w.add(new Wake(to, waker, wakerPid, Math.max(0, b - a)));
            }
            if ((state.equals(CpuTimeline.ON_CPU_ESTIMATED) || state.equals(CpuTimeline.UNKNOWN_GAP)) && to > start) {
                gaps[0]++;
            }
        };
        CpuTimeline t = before.isEmpty() ? new CpuTimeline(clip, UNKNOWN, start) : new CpuTimeline(clip);
        for (Change c : before) {
            replay(t, c);
        }
        for (Change c : inside) {
            replay(t, c);
        }
        t.finish(end);
        Map<String, Long> out = new LinkedHashMap<>();
        take(raw, out, ON_CPU);
        take(raw, out, CpuTimeline.ON_CPU_ESTIMATED);
        take(raw, out, READY);
        List<Map.Entry<String, Long>> rest = new ArrayList<>(raw.entrySet());
        rest.removeIf(e -> e.getKey().equals(UNKNOWN) || e.getKey().equals(CpuTimeline.UNKNOWN_GAP));
        rest.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        for (Map.Entry<String, Long> e : rest) {
            out.put(e.getKey(), e.getValue());
        }
        take(raw, out, CpuTimeline.UNKNOWN_GAP);
        take(raw, out, UNKNOWN);
        out.values().removeIf(v -> v == 0);
        times = out;
        wakes = w;
        missingSwitchIns = gaps[0];
    }

    private static void replay(CpuTimeline t, Change c) {
        switch (c.kind) {
            case SWITCH_IN:
                t.switchedIn(c.time);
                break;
            case SWITCH_OUT:
                t.switchedOut(c.time, c.oldState, c.waitReason);
                break;
            default:
                t.readied(c.time, c.waker, c.wakerPid);
                break;
        }
    }

    private static void take(Map<String, Long> from, Map<String, Long> to, String key) {
        Long v = from.remove(key);
        if (v != null) {
            to.put(key, v);
        }
    }
}
