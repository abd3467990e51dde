package dev.jetw.analysis.why;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which traced call a waking thread was in when it readied another: for each asked (thread, time), the
 * innermost call of that thread (latest start) whose [START, END] holds the time; a call still running at
 * the end of the file (START without END) holds every later time. Fed jetw's MethodCall START and END in
 * any order (paired by process and instance id); memory: the asked times, and the calls of the asked
 * threads open at once in the file.
 */
public final class WakerCalls {

    private static final long NONE = Long.MIN_VALUE;

    private static final class Asked {
        final long time;
        ExplainedCall call;

        Asked(long time) {
            this.time = time;
        }
    }

    private static final class Half {
        int threadId;
        int parentInstanceId;
        int methodId;
        long start = NONE;
        long end = NONE;
    }

    private final Map<Long, List<Asked>> asked = new HashMap<>();
    private final Map<Long, Half> open = new HashMap<>();

    void ask(long tracedThread, long time) {
        List<Asked> l = asked.computeIfAbsent(tracedThread, k -> new ArrayList<>());
        for (Asked a : l) {
            if (a.time == time) {
                return;
            }
        }
        l.add(new Asked(time));
    }

    /** True when no waker is a thread with traced calls: nothing to look for. */
    public boolean isEmpty() {
        return asked.isEmpty();
    }

    public void start(int pid, int tid, int instance, int parent, int methodId, long time) {
        Half h = half(pid, tid, instance);
        if (h != null) {
            h.parentInstanceId = parent;
            h.methodId = methodId;
            h.start = time;
            complete(pid, instance, h);
        }
    }

    public void end(int pid, int tid, int instance, int parent, int methodId, long time) {
        Half h = half(pid, tid, instance);
        if (h != null) {
            h.parentInstanceId = parent;
            h.methodId = methodId;
            h.end = time;
            complete(pid, instance, h);
        }
    }

    private Half half(int pid, int tid, int instance) {
        if (!asked.containsKey(TracedThreads.key(pid, tid))) {
            return null;
        }
        Half h = open.computeIfAbsent(instanceKey(pid, instance), k -> new Half());
        h.threadId = tid;
        return h;
    }

    private void complete(int pid, int instance, Half h) {
        if (h.start == NONE || h.end == NONE) {
            return;
        }
        open.remove(instanceKey(pid, instance));
        place(pid, instance, h);
    }

    private void place(int pid, int instance, Half h) {
        for (Asked a : asked.get(TracedThreads.key(pid, h.threadId))) {
            if (h.start <= a.time && a.time <= h.end && (a.call == null || h.start > a.call.start)) {
                a.call = new ExplainedCall(pid, h.threadId, instance, h.parentInstanceId, h.methodId, h.start, h.end);
            }
        }
    }

    /** Calls still open at the end of the file (START without END) hold every time after their START. */
    public void finish() {
        for (Map.Entry<Long, Half> e : open.entrySet()) {
            Half h = e.getValue();
            if (h.start != NONE) {
                h.end = Long.MAX_VALUE;
                place((int) (e.getKey() >>> 32), (int) (long) e.getKey(), h);
            }
        }
        open.clear();
    }

    ExplainedCall callAt(long tracedThread, long time) {
        List<Asked> l = asked.get(tracedThread);
        if (l != null) {
            for (Asked a : l) {
                if (a.time == time) {
                    return a.call;
                }
            }
        }
        return null;
    }

    private static long instanceKey(int pid, int instance) {
        return (long) pid << 32 | (instance & 0xFFFFFFFFL);
    }
}
