package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;

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

    /** A change of state: when, in what order it was read (ties), and what it does to the timeline. */
    private static final class Change {
        final long time;
        final long order;
        final Consumer<CpuTimeline> apply;

        Change(long time, long order, Consumer<CpuTimeline> apply) {
            this.time = time;
            this.order = order;
            this.apply = apply;
        }
    }

    /** One waker's wake-ups of the thread inside the call: how many, the waiting time they ended, when the longest ended. */
    static final class WakerSum {
        final long waker;
        final int processId;
        int wakeups;
        long waited;
        long longest = -1;
        long longestAt;

        WakerSum(long waker, int processId) {
            this.waker = waker;
            this.processId = processId;
        }

        void add(long at, long wait) {
            wakeups++;
            waited += wait;
            if (wait > longest) {
                longest = wait;
                longestAt = at;
            }
        }
    }

    private static final Comparator<Change> ORDER = Comparator.comparingLong((Change c) -> c.time).thenComparingLong(c -> c.order);

    private final long start;
    private final long end;
    private final TreeSet<Change> before = new TreeSet<>(ORDER);
    private final List<Change> inside = new ArrayList<>();
    private Map<String, Long> times;
    private List<WakerSum> wakers;
    private List<long[]> readyStretches;
    private long missingSwitchIns;

    ThreadStates(long start, long end) {
        this.start = start;
        this.end = end;
    }

    void switchedIn(long time, long order) {
        add(new Change(time, order, t -> t.switchedIn(time)));
    }

    void switchedOut(long time, long order, int state, int waitReason) {
        add(new Change(time, order, t -> t.switchedOut(time, state, waitReason)));
    }

    /** A ReadyThread of the thread, whose header names thread {@code waker} of process {@code wakerPid}. */
    void readied(long time, long order, long waker, int wakerPid) {
        add(new Change(time, order, t -> t.readied(time, waker, wakerPid)));
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

    /**
     * Per waker, the waits its ReadyThreads ended inside the call: the largest waiting time first (then
     * more wake-ups, then the lower thread id).
     */
    List<WakerSum> wakers() {
        if (times == null) {
            replay();
        }
        return wakers;
    }

    /**
     * The stretches inside the call the thread was {@link #READY}, [from, to) in time order: they add up to the
     * time {@link #times()} gives READY ({@link CpuHolders} finds who held the CPUs then).
     */
    List<long[]> readyStretches() {
        if (times == null) {
            replay();
        }
        return readyStretches;
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
        Map<Long, WakerSum> w = new HashMap<>();
        List<long[]> ready = new ArrayList<>();
        long[] gaps = {0};
        CpuTimeline.Segments clip = (from, to, state, waker, wakerPid) -> {
            long a = Math.max(from, start);
            long b = Math.min(to, end);
            if (b > a) {
                raw.merge(state, b - a, Long::sum);
                if (state.equals(READY)) {
                    ready.add(new long[] {a, b});
                }
            }
            if (waker != CpuTimeline.NO_WAKER && to > start) {
                w.computeIfAbsent(waker, k -> new WakerSum(waker, wakerPid)).add(to, Math.max(0, b - a));
            }
            if ((state.equals(CpuTimeline.ON_CPU_ESTIMATED) || state.equals(CpuTimeline.UNKNOWN_GAP)) && to > start) {
                gaps[0]++;
            }
        };
        CpuTimeline t = before.isEmpty() ? new CpuTimeline(clip, UNKNOWN, start) : new CpuTimeline(clip);
        for (Change c : before) {
            c.apply.accept(t);
        }
        for (Change c : inside) {
            c.apply.accept(t);
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
        wakers = new ArrayList<>(w.values());
        wakers.sort(Comparator.comparingLong((WakerSum x) -> -x.waited).thenComparingInt(x -> -x.wakeups)
                .thenComparingLong(x -> x.waker));
        missingSwitchIns = gaps[0];
        readyStretches = ready;
    }

    private static void take(Map<String, Long> from, Map<String, Long> to, String key) {
        Long v = from.remove(key);
        if (v != null) {
            to.put(key, v);
        }
    }
}
