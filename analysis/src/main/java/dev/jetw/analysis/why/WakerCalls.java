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

    private static final class Asked {
        final long time;
        ExplainedCall call;

        Asked(long time) {
            this.time = time;
        }
    }

    private final Map<Long, List<Asked>> asked = new HashMap<>();
    private final Map<Long, HalfCall> open = new HashMap<>();

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
        seen(pid, tid, instance, parent, methodId, time, true);
    }

    public void end(int pid, int tid, int instance, int parent, int methodId, long time) {
        seen(pid, tid, instance, parent, methodId, time, false);
    }

    private void seen(int pid, int tid, int instance, int parent, int methodId, long time, boolean isStart) {
        if (!asked.containsKey(TracedThreads.key(pid, tid))) {
            return;
        }
        HalfCall h = open.computeIfAbsent(HalfCall.key(pid, instance), k -> new HalfCall());
        h.seen(tid, parent, methodId, time, isStart);
        if (h.complete()) {
            open.remove(HalfCall.key(pid, instance));
            place(pid, instance, h);
        }
    }

    private void place(int pid, int instance, HalfCall h) {
        for (Asked a : asked.get(TracedThreads.key(pid, h.threadId))) {
            if (h.start <= a.time && a.time <= h.end && (a.call == null || h.start > a.call.start)) {
                a.call = h.call(pid, instance);
            }
        }
    }

    /** Calls still open at the end of the file (START without END) hold every time after their START. */
    public void finish() {
        for (Map.Entry<Long, HalfCall> e : open.entrySet()) {
            HalfCall h = e.getValue();
            if (h.start != HalfCall.NONE) {
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
}
