package dev.jetw.etl.tool;

import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds per-thread call trees from jetw's MethodCall events. The reader delivers records in buffer
 * order, so each thread's events are first sorted by time stamp (stable). Then, per thread:
 * START opens a call under the open call whose instance id is its ParentInstanceId (top level if
 * none is open); END closes the open call with its instance id; CHECKPOINT goes under the open call
 * with its instance id (jetw writes a checkpoint with the enclosing call's instance), else at top level
 * (a checkpoint outside any traced call gets a fresh instance id). Calls never closed stay unfinished (still running at stop).
 */
final class CallTreeBuilder {

    private static final class Event {
        final long raw;
        final long fileTime;
        final int type;
        final int instanceId;
        final int parentInstanceId;
        final JetwEvent payload;

        Event(EtlRecord r, JetwEvent payload) {
            this.raw = r.rawTimestamp();
            this.fileTime = r.fileTime();
            this.type = r.type();
            this.instanceId = r.instanceId();
            this.parentInstanceId = r.parentInstanceId();
            this.payload = payload;
        }
    }

    private final Map<Long, List<Event>> byThread = new TreeMap<>();
    private final Map<Long, int[]> threadIds = new HashMap<>();
    private long lastFileTime = Long.MIN_VALUE;

    /** Takes a record if it is a jetw MethodCall event (START, END, CHECKPOINT). */
    void accept(EtlRecord r, JetwEvent e) {
        lastFileTime = Math.max(lastFileTime, r.fileTime());
        if (e == null || (e.kind != JetwEvent.Kind.CALL_START && e.kind != JetwEvent.Kind.CALL_END
                && e.kind != JetwEvent.Kind.CHECKPOINT)) {
            return;
        }
        long key = (long) r.processId() << 32 | (r.threadId() & 0xFFFFFFFFL);
        byThread.computeIfAbsent(key, k -> new ArrayList<>()).add(new Event(r, e));
        threadIds.putIfAbsent(key, new int[]{r.processId(), r.threadId()});
    }

    /** FILETIME of the latest record seen (of any kind): where unfinished calls are cut in a timeline. */
    long lastFileTime() {
        return lastFileTime;
    }

    List<ThreadCalls> build() {
        List<ThreadCalls> out = new ArrayList<>();
        for (Map.Entry<Long, List<Event>> t : byThread.entrySet()) {
            int[] ids = threadIds.get(t.getKey());
            ThreadCalls calls = new ThreadCalls(ids[0], ids[1]);
            List<Event> events = t.getValue();
            events.sort(Comparator.comparingLong(ev -> ev.raw));
            build(events, calls.roots);
            out.add(calls);
        }
        return out;
    }

    private static void build(List<Event> events, List<CallNode> roots) {
        Map<Integer, CallNode> open = new HashMap<>();
        for (Event e : events) {
            JetwEvent p = e.payload;
            if (p.kind == JetwEvent.Kind.CALL_START) {
                CallNode n = new CallNode(false, p.methodId, e.instanceId, e.fileTime);
                CallNode parent = e.parentInstanceId != 0 ? open.get(e.parentInstanceId) : null;
                (parent != null ? parent.children : roots).add(n);
                open.remove(e.instanceId);
                open.put(e.instanceId, n);
            } else if (p.kind == JetwEvent.Kind.CALL_END) {
                CallNode n = open.remove(e.instanceId);
                if (n == null) { // START not in the file (lost, or before the trace started)
                    n = new CallNode(false, p.methodId, e.instanceId, CallNode.NONE);
                    CallNode parent = e.parentInstanceId != 0 ? open.get(e.parentInstanceId) : null;
                    (parent != null ? parent.children : roots).add(n);
                }
                n.end = e.fileTime;
                n.text = p.text;
            } else {
                CallNode c = new CallNode(true, p.methodId, e.instanceId, e.fileTime);
                c.text = p.text;
                CallNode owner = open.get(e.instanceId);
                (owner != null ? owner.children : roots).add(c);
            }
        }
    }
}
