package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

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
 * <p>A trace whose switches cover some threads only (the portable backend on Linux records only switches to or
 * from the traced processes' threads: {@code recordedInFull} says whose) hides whatever ran between two recorded
 * switches that meet at a thread it does not cover (T to idle, idle to X and X to idle unrecorded, idle to U): such a
 * thread's time, and idle, is an upper bound there ({@link ReadyCpus.Holder#atMost}, {@link ReadyCpus#idleAtMost}),
 * and after a CPU's last switch in the trace anything may have run, unless it switched in a covered thread (whose
 * switch out would be in the trace): that time is not recorded.
 *
 * <p>Memory: the chosen calls' ready stretches and a slot per CPU; the switches are not kept. Work: a stretch
 * never overlaps another of its call, yet one call's long stretch (a thread starved for seconds) may span
 * thousands of other stretches; each stretch between two switches is found in a tree of the stretches' ends
 * ({@link #work()}: about log(stretches) + the stretches it overlaps per switch, however long any stretch is).
 */
public final class CpuHolders {

    private static final long BEFORE_FIRST = -1;
    private static final long NOT_RECORDED = -2;

    /** The stretches of every call, sorted by start: [from[i], to[i]) of call owner[i]. */
    private final long[] from;
    private final long[] to;
    private final int[] owner;
    /**
     * A max tree over {@link #to} in start order: node 1 the root, node k's children 2k and 2k + 1, the leaves from
     * {@link #leaves} (stretch i at leaves + i, Long.MIN_VALUE past the last): the latest end under each node, so
     * that the stretches that started before a time and end after it are found without looking at the others.
     */
    private final long[] latestEnd;
    private final int leaves;
    /** reach[i]: the latest end among stretches 0..i (when it is at or before a time, no stretch before contains it). */
    private final long[] reach;
    /** Stretches and tree nodes looked at so far (what a switch costs: a test counts it). */
    private long work;
    private final long[] readyTimes;
    /** Per call: thread id (0 idle, or one of the unknowns) to time. */
    private final List<Map<Long, Long>> held = new ArrayList<>();
    /** Per CPU seen: {occupant thread id, since}. */
    private final Map<Integer, long[]> cpus = new TreeMap<>();
    /** The threads every switch of which is in the trace, or null: every thread's (a Windows kernel trace). */
    private final LongPredicate recordedInFull;
    private boolean finished;

    /** {@code stretches.get(i)}: call i's ready stretches, [from, to) pairs that do not overlap each other. */
    CpuHolders(List<List<long[]>> stretches) {
        this(stretches, null);
    }

    /**
     * As {@link #CpuHolders(List)}, for a trace whose switches are those of the threads {@code recordedInFull}
     * accepts (kernel thread ids) only, or of every thread (null).
     */
    CpuHolders(List<List<long[]>> stretches, LongPredicate recordedInFull) {
        this.recordedInFull = recordedInFull;
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
        int l = 1;
        while (l < n) {
            l *= 2;
        }
        leaves = l;
        latestEnd = new long[2 * l];
        reach = new long[n];
        Arrays.fill(latestEnd, Long.MIN_VALUE);
        for (int i = 0; i < n; i++) {
            long[] s = all.get(i);
            from[i] = s[0];
            to[i] = s[1];
            owner[i] = (int) s[2];
            latestEnd[l + i] = s[1];
            reach[i] = Math.max(s[1], i > 0 ? reach[i - 1] : Long.MIN_VALUE);
        }
        for (int k = l - 1; k >= 1; k--) {
            latestEnd[k] = Math.max(latestEnd[2 * k], latestEnd[2 * k + 1]);
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

    /**
     * After the last switch: each CPU's last occupant holds it to the end; in a trace of some threads' switches only,
     * a thread whose switches are not all recorded (or idle) is not known to, and that time is not recorded.
     */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        for (long[] c : cpus.values()) {
            boolean known = recordedInFull == null || (c[0] != 0 && recordedInFull.test(c[0]));
            attribute(c[1], Long.MAX_VALUE, known ? c[0] : NOT_RECORDED);
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
        return new ReadyCpus(readyTimes[call], new ArrayList<>(cpus.keySet()), h, before, gaps, recordedInFull);
    }

    private static long orZero(Long v) {
        return v == null ? 0 : v;
    }

    /**
     * Adds [a, b) held by {@code tid} (or an unknown) to every call whose stretches it overlaps: the stretches that
     * contain a (started at or before it, end after it: at most one per call, found in the tree) and the ones that
     * start inside (a, b) (consecutive in start order).
     */
    private void attribute(long a, long b, long tid) {
        if (b <= a) {
            return;
        }
        int k = firstFromAfter(a);
        if (k > 0 && reach[k - 1] > a) {
            containing(1, 0, leaves, k, a, b, tid);
        }
        for (int i = k; i < from.length && from[i] < b; i++) {
            work++;
            add(i, a, b, tid);
        }
    }

    /** The stretches of indices [lo, hi) (node {@code node}) below {@code k} that end after {@code a}. */
    private void containing(int node, int lo, int hi, int k, long a, long b, long tid) {
        work++;
        if (latestEnd[node] <= a || lo >= k) {
            return;
        }
        if (hi - lo == 1) {
            add(lo, a, b, tid);
            return;
        }
        int mid = (lo + hi) >>> 1;
        containing(2 * node, lo, mid, k, a, b, tid);
        containing(2 * node + 1, mid, hi, k, a, b, tid);
    }

    private void add(int i, long a, long b, long tid) {
        long x = Math.max(a, from[i]);
        long y = Math.min(b, to[i]);
        if (y > x) {
            held.get(owner[i]).merge(tid, y - x, Long::sum);
        }
    }

    /** The first stretch (in start order) that starts after {@code t}. */
    private int firstFromAfter(long t) {
        int lo = 0;
        int hi = from.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (from[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Stretches and tree nodes looked at so far, over every switch fed. */
    long work() {
        return work;
    }
}
