package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who held the CPUs while chosen calls' threads were ready, waiting for a CPU: given the ready stretches of
 * each call ({@link ThreadStates#readyStretches()}), it is fed every Thread/CSwitch of the trace with its CPU
 * (the record's buffer's processor: a CSwitch's payload has no CPU), each CPU's switches in time order (CPUs
 * may interleave in any way), and replays each CPU as a sequence of occupants: from a switch to the next one
 * on that CPU the thread switched in holds it. Thread 0 is the idle thread.
 *
 * <p>Each CPU's time is accounted for exactly once, from the start of time to its end: before its first
 * switch the occupant is unknown ({@link ReadyCpus#beforeFirstSwitch}); between two switches the thread the
 * first switched in, if the second switches that thread out, else unknown ({@link ReadyCpus#notRecorded}: the
 * switches between are not in the trace, as on Linux, where only switches to or from the traced JVM's threads
 * are recorded, or a switch-in missing as {@link CpuTimeline} says); after its last switch, the thread it
 * switched in. So, per call, the holders' time, idle and unknown add up to ready time × the CPUs seen.
 *
 * <p>Memory: the chosen calls' ready stretches and a slot per CPU; the switches are not kept.
 */
public final class CpuHolders {

    private static final long BEFORE_FIRST = -1;
    private static final long NOT_RECORDED = -2;

    /** The stretches of every call, sorted by start: [from[i], to[i]) of call owner[i]. */
    private final long[] from;
    private final long[] to;
    private final int[] owner;
    /** reach[i]: the latest end among stretches 0..i (a backwards scan stops when it is at or before a time). */
    private final long[] reach;
    private final long[] readyTimes;
    /** Per call: thread id (0 idle, or one of the unknowns) to time. */
    private final List<Map<Long, Long>> held = new ArrayList<>();
    /** Per CPU seen: {occupant thread id, since}. */
    private final Map<Integer, long[]> cpus = new TreeMap<>();
    private boolean finished;

    /** {@code stretches.get(i)}: call i's ready stretches, [from, to) pairs that do not overlap each other. */
    CpuHolders(List<List<long[]>> stretches) {
        List<long[]> all = new ArrayList<>();
        readyTimes = new long[stretches.size()];
        for (int call = 0; call < stretches.size(); call++) {
            held.add(new HashMap<>());
            for (long[] s : stretches.get(call)) {
                if (s[1] > s[0]) {
                    all.add(new long[] {s[0], s[1], call});
                    readyTimes[call] += s[1] - s[0];
                }
            }
        }
        all.sort(Comparator.comparingLong(s -> s[0]));
        int n = all.size();
        from = new long[n];
        to = new long[n];
        owner = new int[n];
        reach = new long[n];
        for (int i = 0; i < n; i++) {
            long[] s = all.get(i);
            from[i] = s[0];
            to[i] = s[1];
            owner[i] = (int) s[2];
            reach[i] = Math.max(s[1], i > 0 ? reach[i - 1] : Long.MIN_VALUE);
        }
    }

    /** Whether any call was ready at all (else no switch needs to be read). */
    public boolean anyReady() {
        return from.length > 0;
    }

    /**
     * A Thread/CSwitch on CPU {@code cpu} at {@code time}: {@code oldTid} switched out, {@code newTid} switched in
     * (kernel thread ids, 0 the idle thread).
     */
    public void contextSwitch(int cpu, long time, long newTid, long oldTid) {
        long[] c = cpus.get(cpu);
        if (c == null) {
            attribute(Long.MIN_VALUE, time, BEFORE_FIRST);
            cpus.put(cpu, new long[] {newTid, time});
            return;
        }
        long t = Math.max(time, c[1]); // a switch out of time order (beyond TimeOrderedRecords' window) takes no time
        attribute(c[1], t, c[0] == oldTid ? c[0] : NOT_RECORDED);
        c[0] = newTid;
        c[1] = t;
    }

    /** After the last switch: each CPU's last occupant holds it to the end. */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        for (long[] c : cpus.values()) {
            attribute(c[1], Long.MAX_VALUE, c[0]);
        }
    }

    /** The CPUs for call {@code call} (its index in the list given), or null when it was never ready. */
    ReadyCpus of(int call) {
        finish();
        if (readyTimes[call] == 0) {
            return null;
        }
        Map<Long, Long> h = new HashMap<>(held.get(call));
        long before = orZero(h.remove(BEFORE_FIRST));
        long gaps = orZero(h.remove(NOT_RECORDED));
        return new ReadyCpus(readyTimes[call], new ArrayList<>(cpus.keySet()), h, before, gaps);
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }

    /** Adds [a, b) held by {@code tid} (or an unknown) to every call whose stretches it overlaps. */
    private void attribute(long a, long b, long tid) {
        if (b <= a) {
            return;
        }
        int i = firstFromAtOrAfter(b) - 1; // stretches before it start before b
        for (; i >= 0 && reach[i] > a; i--) {
            long x = Math.max(a, from[i]);
            long y = Math.min(b, to[i]);
            if (y > x) {
                held.get(owner[i]).merge(tid, y - x, Long::sum);
            }
        }
    }

    private int firstFromAtOrAfter(long t) {
        int i = Arrays.binarySearch(from, t);
        if (i < 0) {
            return -i - 1;
        }
        while (i > 0 && from[i - 1] == t) {
            i--;
        }
        return i;
    }
}
