package dev.jetw.analysis.cli;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.function.IntPredicate;

/**
 * For {@code tree}: joins each task handed to another thread to the call that handed it over (its
 * {@link CallNode#handed}), so that a request comes out as one tree across threads, between the
 * {@link CallTreeBuilder} and a sink. Top-level trees come out per thread in the order the builder gave
 * them; a task tree joined elsewhere still comes out on its own thread, flagged, for its "<- task" line.
 *
 * <p>Trees meet in either order: a request whose tasks are still to complete is held (and, to keep its
 * thread's order, every later tree of its thread) until they have; a task that completes before its
 * submitting request is held until that request does (and, likewise, the later trees of its thread).
 * Only hand-offs whose both ends will reach the builder are waited for (links resolved beforehand, both
 * threads kept by --thread). Memory: the requests in flight at a time with their tasks, plus what their
 * threads did meanwhile; a task that runs until the end of the file (a thread started from a traced call
 * that lives on) holds its submitter's thread until then. At most {@link #HELD_LIMIT} top-level trees are
 * held: beyond that the oldest held tree goes out without the tasks it still waits for, which then come
 * out on their own threads.
 */
final class CrossThreadTrees implements CallTreeBuilder.Sink {

    /** Receives each top-level tree; {@code joinedElsewhere}: a task whose calls went out under its submitter. */
    interface Out {
        void root(int processId, int threadId, CallNode root, boolean joinedElsewhere);
    }

    static final int HELD_LIMIT = 100_000;

    /** A top-level tree waiting to go out on its thread. */
    private static final class Entry {
        final int processId;
        final int threadId;
        final CallNode root;
        /** Tasks still to be joined to this request; for an early task, 1 until its submitter decides. */
        int waiting;
        boolean joinedElsewhere;

        Entry(int processId, int threadId, CallNode root) {
            this.processId = processId;
            this.threadId = threadId;
            this.root = root;
        }
    }

    /** Where an awaited task goes: the request and the call (or task) that handed it over. */
    private static final class Pending {
        final Entry request;
        final CallNode at;

        Pending(Entry request, CallNode at) {
            this.request = request;
            this.at = at;
        }
    }

    private final CrossThreadLinks links;
    private final IntPredicate threadKept;
    private final BiPredicate<Integer, CallNode> shown;
    private final Out out;
    private final Map<Long, ArrayDeque<Entry>> queues = new TreeMap<>();
    /** Task (pid, DEQUEUE id) -> where it is to be joined. */
    private final Map<Long, Pending> awaited = new HashMap<>();
    /** Task (pid, DEQUEUE id) -> its tree, complete before its submitter's request. */
    private final Map<Long, Entry> early = new HashMap<>();
    /** Tasks (pid, DEQUEUE id) not to be joined any more: their tree or their request went out over the limit. */
    private final Set<Long> gone = new HashSet<>();
    private int held;
    private final int heldLimit;

    /**
     * {@code shown(threadId, root)}: whether a top-level tree is printed (--from/--to); the tasks of a
     * request that is not are printed on their own threads.
     */
    CrossThreadTrees(CrossThreadLinks links, IntPredicate threadKept, BiPredicate<Integer, CallNode> shown, Out out) {
        this(links, threadKept, shown, out, HELD_LIMIT);
    }

    CrossThreadTrees(CrossThreadLinks links, IntPredicate threadKept, BiPredicate<Integer, CallNode> shown, Out out,
                     int heldLimit) {
        this.heldLimit = heldLimit;
        this.links = links;
        this.threadKept = threadKept;
        this.shown = shown;
        this.out = out;
    }

    @Override
    public void root(int processId, int threadId, CallNode root) {
        if (links.isEmpty()) { // a file without hand-offs: nothing to join, nothing held
            out.root(processId, threadId, root, false);
            return;
        }
        long key = threadKey(processId, threadId);
        Entry e = new Entry(processId, threadId, root);
        queues.computeIfAbsent(key, k -> new ArrayDeque<>()).add(e);
        held++;
        CrossThreadLinks.Link l = root.task ? links.task(processId, root.instanceId) : null;
        if (l != null && joinable(l) && !gone.remove(taskKey(l))) {
            Pending p = awaited.remove(taskKey(l));
            if (p != null) {
                join(p, e, l);
            } else {
                e.waiting = 1;
                early.put(taskKey(l), e);
            }
        } else if (shown.test(threadId, root)) {
            collect(e, e, root);
        } else {
            release(processId, threadId, root);
        }
        flush(key);
        while (held > heldLimit) {
            release();
        }
    }

    /** After the builder's finish: everything still held goes out, what it waits for is not coming. */
    void finish() {
        for (Entry e : early.values()) {
            e.waiting = 0;
        }
        early.clear();
        for (Pending p : awaited.values()) {
            p.request.waiting = 0;
        }
        awaited.clear();
        for (Long key : new ArrayList<>(queues.keySet())) {
            flush(key);
        }
    }

    /** A hand-off whose both ends reach the builder, on two threads. */
    private boolean joinable(CrossThreadLinks.Link l) {
        return l.resolved() && l.submitterThreadId != l.taskThreadId && threadKept.test(l.submitterThreadId)
                && threadKept.test(l.taskThreadId);
    }

    /** Registers the tasks handed over from {@code n} and below; joins those already complete. */
    private void collect(Entry request, Entry where, CallNode n) {
        if (n.checkpoint) {
            return;
        }
        for (CrossThreadLinks.Link l : links.submittedFrom(where.processId, n.instanceId)) {
            if (!joinable(l) || l.submitterThreadId != where.threadId || gone.remove(taskKey(l))) {
                continue;
            }
            Entry task = early.remove(taskKey(l));
            request.waiting++;
            if (task != null) {
                join(new Pending(request, n), task, l);
            } else {
                awaited.put(taskKey(l), new Pending(request, n));
            }
        }
        for (CallNode c : n.children) {
            collect(request, where, c);
        }
    }

    /** A request that is not printed: its tasks print on their own threads (those held go now, the others when they come). */
    private void release(int processId, int threadId, CallNode n) {
        if (n.checkpoint) {
            return;
        }
        for (CrossThreadLinks.Link l : links.submittedFrom(processId, n.instanceId)) {
            if (joinable(l) && l.submitterThreadId == threadId) {
                Entry task = early.remove(taskKey(l));
                if (task != null) {
                    task.waiting = 0;
                    flush(threadKey(task.processId, task.threadId));
                } else {
                    gone.add(taskKey(l));
                }
            }
        }
        for (CallNode c : n.children) {
            release(processId, threadId, c);
        }
    }

    private void join(Pending p, Entry task, CrossThreadLinks.Link l) {
        if (p.at.handed == null) {
            p.at.handed = new ArrayList<>();
        }
        p.at.handed.add(task.root);
        task.joinedElsewhere = true;
        task.waiting = 0;
        collect(p.request, task, task.root); // its own hand-offs (a chain) belong to the same request
        p.request.waiting--;
        flush(threadKey(task.processId, task.threadId));
        flush(threadKey(p.request.processId, p.request.threadId));
    }

    private void flush(long key) {
        ArrayDeque<Entry> q = queues.get(key);
        while (q != null && !q.isEmpty() && q.peekFirst().waiting == 0) {
            give(q.pollFirst());
        }
    }

    private void give(Entry e) {
        held--;
        out.root(e.processId, e.threadId, e.root, e.joinedElsewhere);
    }

    /** Over the limit: the oldest held tree of the fullest thread goes out as it is. */
    private void release() {
        ArrayDeque<Entry> fullest = null;
        long fullestKey = 0;
        for (Map.Entry<Long, ArrayDeque<Entry>> q : queues.entrySet()) {
            if (fullest == null || q.getValue().size() > fullest.size()) {
                fullest = q.getValue();
                fullestKey = q.getKey();
            }
        }
        Entry head = fullest.pollFirst();
        for (Iterator<Map.Entry<Long, Entry>> i = early.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<Long, Entry> t = i.next();
            if (t.getValue() == head) {
                gone.add(t.getKey());
                i.remove();
            }
        }
        for (Iterator<Map.Entry<Long, Pending>> i = awaited.entrySet().iterator(); i.hasNext(); ) {
            Map.Entry<Long, Pending> t = i.next();
            if (t.getValue().request == head) {
                gone.add(t.getKey());
                i.remove();
            }
        }
        head.waiting = 0;
        give(head);
        flush(fullestKey);
    }

    private static long taskKey(CrossThreadLinks.Link l) {
        return (long) l.processId << 32 | l.dequeueInstanceId & 0xFFFFFFFFL;
    }

    private static long threadKey(int processId, int threadId) {
        return (long) processId << 32 | threadId & 0xFFFFFFFFL;
    }

    /** The end of {@code n} or of the last task joined below it (end to end across threads). */
    static long endToEnd(CallNode n) {
        long end = n.end;
        for (CallNode c : n.children) {
            end = Math.max(end, endToEnd(c));
        }
        if (n.handed != null) {
            for (CallNode t : n.handed) {
                end = Math.max(end, endToEnd(t));
            }
        }
        return end;
    }
}
