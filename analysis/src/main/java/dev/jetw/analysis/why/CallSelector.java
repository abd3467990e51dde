package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Chooses, in one pass over jetw's MethodCall START/END events, the calls a "why" is asked for:
 * the N longest finished top-level calls (ParentInstanceId 0: no traced caller on the thread; these
 * are the "requests"), or every finished call with a given instance id, optionally on one thread.
 * START and END are paired by (process id, instance id) in either order (file order is not time
 * order). Memory: the calls open at once plus the N chosen.
 */
public final class CallSelector {

    private static final long NONE = Long.MIN_VALUE;

    private static final class Half {
        int threadId;
        int parentInstanceId;
        int methodId;
        long start = NONE;
        long end = NONE;
    }

    private final int slowest;
    private final Integer instanceId;
    private final Integer threadId;
    private long windowFrom = Long.MIN_VALUE;
    private long windowTo = Long.MAX_VALUE;
    private final Map<Long, Half> open = new HashMap<>();
    private final PriorityQueue<ExplainedCall> chosen =
            new PriorityQueue<>(Comparator.comparingLong(ExplainedCall::duration).thenComparingLong(c -> -c.start));

    /** {@code slowest} longest top-level calls, or (when {@code instanceId} is not null) the calls with that id. */
    public CallSelector(int slowest, Integer instanceId, Integer threadId) {
        this.slowest = slowest;
        this.instanceId = instanceId;
        this.threadId = threadId;
    }

    /** Only calls whose START lies in [from, to) (FILETIMEs) are chosen. */
    public void startingBetween(long from, long to) {
        windowFrom = from;
        windowTo = to;
    }

    public void start(int pid, int tid, int instance, int parent, int methodId, long time) {
        Half h = half(pid, instance);
        h.threadId = tid;
        h.parentInstanceId = parent;
        h.methodId = methodId;
        h.start = time;
        complete(pid, instance, h);
    }

    public void end(int pid, int tid, int instance, int parent, int methodId, long time) {
        Half h = half(pid, instance);
        if (h.start == NONE) {
            h.threadId = tid;
            h.parentInstanceId = parent;
            h.methodId = methodId;
        }
        h.end = time;
        complete(pid, instance, h);
    }

    private Half half(int pid, int instance) {
        return open.computeIfAbsent(key(pid, instance), k -> new Half());
    }

    private void complete(int pid, int instance, Half h) {
        if (h.start == NONE || h.end == NONE) {
            return;
        }
        open.remove(key(pid, instance));
        if ((threadId != null && h.threadId != threadId) || h.start < windowFrom || h.start >= windowTo) {
            return;
        }
        ExplainedCall c = new ExplainedCall(pid, h.threadId, instance, h.parentInstanceId, h.methodId, h.start, h.end);
        if (instanceId != null) {
            if (instance == instanceId) {
                chosen.add(c);
            }
        } else if (h.parentInstanceId == 0) {
            chosen.add(c);
            if (chosen.size() > slowest) {
                chosen.poll();
            }
        }
    }

    private static long key(int pid, int instance) {
        return (long) pid << 32 | (instance & 0xFFFFFFFFL);
    }

    /** The chosen calls, longest first. */
    public List<ExplainedCall> chosen() {
        List<ExplainedCall> out = new ArrayList<>(chosen);
        out.sort(Comparator.comparingLong(ExplainedCall::duration).reversed().thenComparingLong(c -> c.start));
        return out;
    }

    /** Calls seen by only one of their events (running at stop, or an event lost): never chosen. */
    public int halfSeen() {
        return open.size();
    }
}
