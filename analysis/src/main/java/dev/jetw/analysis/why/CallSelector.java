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

    private final int slowest;
    private final Integer instanceId;
    private final Integer threadId;
    private long windowFrom = Long.MIN_VALUE;
    private long windowTo = Long.MAX_VALUE;
    private final Map<Long, HalfCall> open = new HashMap<>();
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
        seen(pid, tid, instance, parent, methodId, time, true);
    }

    public void end(int pid, int tid, int instance, int parent, int methodId, long time) {
        seen(pid, tid, instance, parent, methodId, time, false);
    }

    private void seen(int pid, int tid, int instance, int parent, int methodId, long time, boolean isStart) {
        HalfCall h = open.computeIfAbsent(HalfCall.key(pid, instance), k -> new HalfCall());
        h.seen(tid, parent, methodId, time, isStart);
        if (!h.complete()) {
            return;
        }
        open.remove(HalfCall.key(pid, instance));
        if ((threadId != null && h.threadId != threadId) || h.start < windowFrom || h.start >= windowTo) {
            return;
        }
        ExplainedCall c = h.call(pid, instance);
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
