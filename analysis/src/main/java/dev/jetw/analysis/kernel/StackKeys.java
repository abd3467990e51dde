package dev.jetw.analysis.kernel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins stacks compressed by key (Windows 8+) to their frames. An event's stack is logged as one or two
 * references (StackWalk/StackKeyKernel and StackKeyUser: the event's time stamp, its thread and a key)
 * while the frames of a key are logged once, later: when the kernel drops the key from its cache
 * (KeyDelete) or at the end of the session (KeyRundown). A key is reused after its delete, so a
 * reference resolves to the first definition of its key at or after the reference's own time.
 *
 * <p>A first pass {@link #accept}s every record's kernel view (only the definitions are kept: memory
 * grows with the distinct stacks, not with the events); {@link #resolve} then answers for each
 * reference and counts what it could and could not resolve, so a command can say how many stacks stay
 * unresolved (a key whose definition was lost or lies beyond the end of the file).
 */
public final class StackKeys {

    static final int KEY_DELETE = 35;
    static final int KEY_RUNDOWN = 36;
    static final int KEY_KERNEL = 37;
    static final int KEY_USER = 38;

    /** Definitions of one key in time order (the reader's order is per buffer, so they are sorted once). */
    private final Map<Long, List<long[]>> definitions = new HashMap<>();
    private final Map<Long, List<Long>> definitionTimes = new HashMap<>();
    private boolean sorted = true;
    private long resolved;
    private long unresolved;

    /** Keeps the frames of a KeyDelete or KeyRundown; ignores every other event (null included). */
    public void accept(KernelEvent e) {
        if (e == null || e.kernelClass() != KernelClass.STACK_WALK || (e.type() != KEY_DELETE && e.type() != KEY_RUNDOWN)) {
            return;
        }
        long[] frames = e.stack();
        if (!e.fields().containsKey("stackKey") || frames == null) {
            return; // a definition cut before its key or frames: nothing to join
        }
        long key = e.number("stackKey");
        List<Long> times = definitionTimes.computeIfAbsent(key, k -> new ArrayList<>());
        if (!times.isEmpty() && times.get(times.size() - 1) > e.rawTimestamp()) {
            sorted = false;
        }
        times.add(e.rawTimestamp());
        definitions.computeIfAbsent(key, k -> new ArrayList<>()).add(frames);
    }

    /** True for StackKeyKernel and StackKeyUser: events whose stack is a key. */
    public static boolean isReference(KernelEvent e) {
        return e != null && e.kernelClass() == KernelClass.STACK_WALK && (e.type() == KEY_KERNEL || e.type() == KEY_USER)
                && e.fields().containsKey("stackKey");
    }

    /** The number of definitions kept. */
    public int definitionCount() {
        int n = 0;
        for (List<long[]> d : definitions.values()) {
            n += d.size();
        }
        return n;
    }

    /**
     * The frames (innermost first) a StackKeyKernel/StackKeyUser event refers to, or null when no
     * definition of its key follows it in the file; counted in {@link #resolved()} or {@link #unresolved()}.
     * Null (and not counted) for any other event.
     */
    public long[] resolve(KernelEvent reference) {
        if (!isReference(reference)) {
            return null;
        }
        long[] frames = frames(reference.number("stackKey"), reference.rawTimestamp());
        if (frames == null) {
            unresolved++;
            return null;
        }
        resolved++;
        return frames.clone();
    }

    /**
     * Counts, without keeping frames, whether a reference to {@code key} logged at {@code rawTimestamp}
     * resolves: for a command that saw the reference before the definitions (one pass) and asks at the end.
     */
    public void count(long key, long rawTimestamp) {
        if (frames(key, rawTimestamp) == null) {
            unresolved++;
        } else {
            resolved++;
        }
    }

    private long[] frames(long key, long rawTimestamp) {
        sortOnce();
        List<Long> times = definitionTimes.get(key);
        if (times == null) {
            return null;
        }
        int i = firstAtOrAfter(times, rawTimestamp);
        return i < times.size() ? definitions.get(key).get(i) : null;
    }

    /** References resolved so far. */
    public long resolved() {
        return resolved;
    }

    /** References whose key had no definition at or after them. */
    public long unresolved() {
        return unresolved;
    }

    private static int firstAtOrAfter(List<Long> times, long t) {
        int lo = 0;
        int hi = times.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times.get(mid) < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private void sortOnce() {
        if (sorted) {
            return;
        }
        for (Map.Entry<Long, List<Long>> e : definitionTimes.entrySet()) {
            List<Long> times = e.getValue();
            List<long[]> frames = definitions.get(e.getKey());
            Integer[] order = new Integer[times.size()];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (a, b) -> Long.compare(times.get(a), times.get(b)));
            List<Long> t2 = new ArrayList<>(order.length);
            List<long[]> f2 = new ArrayList<>(order.length);
            for (Integer i : order) {
                t2.add(times.get(i));
                f2.add(frames.get(i));
            }
            e.setValue(t2);
            definitions.put(e.getKey(), f2);
        }
        sorted = true;
    }
}
