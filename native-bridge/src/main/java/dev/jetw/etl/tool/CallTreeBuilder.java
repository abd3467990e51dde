package dev.jetw.etl.tool;

import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds per-thread call trees from jetw's MethodCall events. Record order means nothing: the
 * reader delivers records in buffer order, and a call under a duration threshold has its START
 * written at its exit with its entry time, after the records of its children (and its parent's
 * START after its own). So each thread's events are sorted by time stamp (stable), then paired and
 * linked by instance id in two passes: first one node per call (START and END with the same
 * instance id; an END without START is a call whose START is not in the file), then each node goes
 * under the call whose instance id is its ParentInstanceId (top level if that call is not in the
 * file) and each CHECKPOINT under the call with its instance id (jetw writes a checkpoint with the
 * enclosing call's instance; one outside any traced call has a fresh id and stays at top level).
 * A DEQUEUE (a task handed over from a traced call, see CrossThreadLinks) is a task node, the parent
 * of the task's calls. Children keep time order. Calls without END stay unfinished (still running at stop).
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

    /** Takes a record if it is a jetw MethodCall event (START, END, CHECKPOINT, DEQUEUE). */
    void accept(EtlRecord r, JetwEvent e) {
        lastFileTime = Math.max(lastFileTime, r.fileTime());
        if (e == null || (e.kind != JetwEvent.Kind.CALL_START && e.kind != JetwEvent.Kind.CALL_END
                && e.kind != JetwEvent.Kind.CHECKPOINT && e.kind != JetwEvent.Kind.DEQUEUE)) {
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

    /** A node and the instance id it goes under: its parent's for a call, its own (the enclosing call's) for a checkpoint. */
    private static final class Placement {
        final CallNode node;
        final int under;

        Placement(CallNode node, int under) {
            this.node = node;
            this.under = under;
        }
    }

    private static void build(List<Event> events, List<CallNode> roots) {
        Map<Integer, CallNode> calls = new HashMap<>();
        List<Placement> placements = new ArrayList<>();
        for (Event e : events) {
            JetwEvent p = e.payload;
            if (p.kind == JetwEvent.Kind.CALL_START) {
                CallNode n = calls.get(e.instanceId);
                if (n == null || n.start != CallNode.NONE) { // new, or an id used again after a finished call
                    n = new CallNode(false, p.methodId, e.instanceId, e.fileTime);
                    calls.put(e.instanceId, n);
                    placements.add(new Placement(n, e.parentInstanceId));
                } else {
                    n.start = e.fileTime; // its END sorted first (a clock tie or skew): this START completes it
                }
            } else if (p.kind == JetwEvent.Kind.CALL_END) {
                CallNode n = calls.get(e.instanceId);
                if (n == null || n.end != CallNode.NONE) { // START not in the file (lost, or before the trace started)
                    n = new CallNode(false, p.methodId, e.instanceId, CallNode.NONE);
                    calls.put(e.instanceId, n);
                    placements.add(new Placement(n, e.parentInstanceId));
                }
                n.end = e.fileTime;
                n.text = p.text;
            } else if (p.kind == JetwEvent.Kind.DEQUEUE) {
                // A task handed over from a call, usually on another thread: top level here unless run inline.
                CallNode n = new CallNode(false, 0, e.instanceId, e.fileTime);
                n.task = true;
                calls.put(e.instanceId, n);
                placements.add(new Placement(n, e.parentInstanceId));
            } else {
                CallNode c = new CallNode(true, p.methodId, e.instanceId, e.fileTime);
                c.text = p.text;
                placements.add(new Placement(c, e.instanceId));
            }
        }
        for (Placement pl : placements) {
            CallNode under = pl.under != 0 ? calls.get(pl.under) : null;
            (under != null && under != pl.node ? under.children : roots).add(pl.node);
        }
    }
}
