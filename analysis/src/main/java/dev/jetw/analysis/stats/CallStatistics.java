package dev.jetw.analysis.stats;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-method statistics of jetw's MethodCall events, built in one pass over a trace with memory
 * bounded by the number of methods and of calls open at once, not by the number of events.
 *
 * <p>A call is paired by (process id, instance id) from its START and its END, in either order: a
 * file's buffers are not in time order (ETW's per-CPU buffers; jetw's START written at a
 * thresholded call's exit), so an END may come first and waits for its START. A method's self time
 * is its total time less the time of the calls whose ParentInstanceId names one of its calls; a
 * child's time is held for its parent until the parent's method is known, and the last
 * {@link #RECENT_CALLS} finished calls are remembered for children that come after their parent.
 */
public final class CallStatistics {

    /** Finished calls remembered for children read after them (about 40 bytes each). */
    static final int RECENT_CALLS = 1 << 18;

    /** Decides whether a call counts: thread and time window of its START. */
    public interface Filter {
        boolean accepts(int threadId, long startFileTime);
    }

    /** One call seen by one of its two events. */
    private static final class Call {
        int methodId;
        long start = Long.MIN_VALUE;
        long end = Long.MIN_VALUE;
        int parentInstanceId;
        boolean threw;
        boolean counted;
        long childTime;
    }

    /** A finished call, for children read after it. */
    private static final class Finished {
        final int methodId;
        final boolean counted;

        Finished(int methodId, boolean counted) {
            this.methodId = methodId;
            this.counted = counted;
        }
    }

    private final Filter filter;
    private final Map<Long, Call> halfSeen = new HashMap<>();
    private final Map<Long, Long> childTimeOfUnseen = new HashMap<>();
    private final Map<Long, Finished> recent = new LinkedHashMap<Long, Finished>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Finished> eldest) {
            return size() > RECENT_CALLS;
        }
    };
    private final Map<Integer, MethodStats> methods = new HashMap<>();
    private final Map<Integer, Long> childTimeByMethod = new HashMap<>();

    public CallStatistics(Filter filter) {
        this.filter = filter;
    }

    private static long key(int processId, int instanceId) {
        return (long) processId << 32 | (instanceId & 0xFFFFFFFFL);
    }

    private Call call(int processId, int instanceId) {
        return halfSeen.computeIfAbsent(key(processId, instanceId), k -> new Call());
    }

    public void start(int processId, int threadId, int instanceId, int parentInstanceId, int methodId, long fileTime) {
        Call c = call(processId, instanceId);
        c.methodId = methodId;
        c.start = fileTime;
        c.parentInstanceId = parentInstanceId;
        c.counted = filter.accepts(threadId, fileTime);
        finishIfComplete(processId, instanceId, c);
    }

    /** @param exception the exception class the call ended with, or "" / null for a normal return */
    public void end(int processId, int instanceId, int parentInstanceId, int methodId, long fileTime, String exception) {
        Call c = call(processId, instanceId);
        c.methodId = methodId;
        c.end = fileTime;
        c.parentInstanceId = parentInstanceId;
        c.threw = exception != null && !exception.isEmpty();
        finishIfComplete(processId, instanceId, c);
    }

    private void finishIfComplete(int processId, int instanceId, Call c) {
        if (c.start == Long.MIN_VALUE || c.end == Long.MIN_VALUE) {
            return;
        }
        long k = key(processId, instanceId);
        halfSeen.remove(k);
        Long early = childTimeOfUnseen.remove(k);
        long children = c.childTime + (early == null ? 0 : early);
        long duration = Math.max(0, c.end - c.start);
        if (c.counted) {
            methods.computeIfAbsent(c.methodId, MethodStats::new).add(duration, c.threw);
            childTimeByMethod.merge(c.methodId, children, Long::sum);
        }
        recent.put(k, new Finished(c.methodId, c.counted));
        if (c.parentInstanceId != 0) {
            giveToParent(key(processId, c.parentInstanceId), duration);
        }
    }

    private void giveToParent(long parent, long duration) {
        Call p = halfSeen.get(parent);
        if (p != null) {
            p.childTime += duration;
            return;
        }
        Finished f = recent.get(parent);
        if (f != null) {
            if (f.counted) {
                childTimeByMethod.merge(f.methodId, duration, Long::sum);
            }
            return;
        }
        childTimeOfUnseen.merge(parent, duration, Long::sum);
    }

    /** Per method, with self time settled: total less the time of its calls' children. */
    public Collection<MethodStats> methods() {
        for (MethodStats m : methods.values()) {
            m.self = Math.max(0, m.total - childTimeByMethod.getOrDefault(m.methodId, 0L));
        }
        return new ArrayList<>(methods.values());
    }

    /** Calls of which only the START (running at stop, or END lost) or only the END (START lost) is in the trace. */
    public long halfSeen() {
        return halfSeen.size();
    }

    /** Every counted finished call. */
    public long calls() {
        long n = 0;
        for (MethodStats m : methods.values()) {
            n += m.calls;
        }
        return n;
    }
}
