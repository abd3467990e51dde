package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds per-thread call trees from jetw's MethodCall events as they stream by, and hands each
 * top-level tree to a {@link Sink} as soon as it is complete, so memory holds the calls still open
 * and the tree being built, never the whole file.
 *
 * <p>Record order is not time order: a call under a duration threshold has its START written at its
 * exit with its entry time, after the records of its children. Calls are therefore paired by
 * instance id (START and END) and placed at their END: under the open call whose instance id is their
 * ParentInstanceId; at top level when the parent id is 0; otherwise they wait for that parent, whose
 * START comes later (it names them as children). A CHECKPOINT goes under the open call with its
 * instance id (jetw gives it the enclosing call's), or waits the same way (a checkpoint outside any
 * call has a fresh id: it waits until the next top-level call completes). When a top-level call
 * completes nothing can claim what still waits on that thread (any call still open on the thread
 * would enclose that top-level call), so the waiting nodes become top-level too, in time order. At the
 * end of the file calls without END are given out as unfinished, under their open parent if any.
 * An END without START (lost, or before the trace started) is a call whose START is not in the file.
 *
 * <p>A DEQUEUE (a task handed over from a traced call, docs/cross-thread.md) is a task node, open like
 * a call: the task's calls are its children. jetw writes no event when a task returns, so a task is
 * closed (its end the last END below it) when the thread shows it is over: the END of the call it ran
 * inside (a task run inline), a top-level call ending on the thread, the next task that is not nested
 * in it, or the end of the file. Its parent is usually on another thread: it then goes out as a
 * top-level node of its thread.
 *
 * <p>Memory: per thread the open calls and what waits for a parent, plus the largest top-level tree
 * (a traced call that wraps the whole run holds every call of its thread until it ends).
 */
final class CallTreeBuilder {

    /** Receives each complete top-level call or checkpoint, children in time order. */
    interface Sink {
        void root(int processId, int threadId, CallNode root);
    }

    /** END-without-START nodes remembered for a START that may still come (clock tie or skew): at most this many per thread. */
    private static final int STARTLESS_KEPT = 1024;

    private static final class ThreadState {
        final int processId;
        final int threadId;
        final Map<Integer, CallNode> open = new HashMap<>();
        /** The open tasks (DEQUEUEs) of the thread, innermost last. */
        final List<CallNode> tasks = new ArrayList<>();
        final Map<Integer, List<CallNode>> waiting = new HashMap<>();
        final Map<Integer, CallNode> startless = new LinkedHashMap<Integer, CallNode>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, CallNode> eldest) {
                return size() > STARTLESS_KEPT;
            }
        };

        ThreadState(int processId, int threadId) {
            this.processId = processId;
            this.threadId = threadId;
        }
    }

    private static final Comparator<CallNode> BY_TIME = Comparator.comparingLong(CallNode::time);

    private final Sink sink;
    private final Map<Long, ThreadState> threads = new HashMap<>();

    CallTreeBuilder(Sink sink) {
        this.sink = sink;
    }

    /** Takes a record if it is a jetw MethodCall event (START, END, CHECKPOINT, DEQUEUE). */
    void accept(EtlRecord r, JetwEvent e) {
        if (e == null || (e.kind != JetwEvent.Kind.CALL_START && e.kind != JetwEvent.Kind.CALL_END
                && e.kind != JetwEvent.Kind.CHECKPOINT && e.kind != JetwEvent.Kind.DEQUEUE)) {
            return;
        }
        long key = (long) r.processId() << 32 | (r.threadId() & 0xFFFFFFFFL);
        ThreadState t = threads.computeIfAbsent(key, k -> new ThreadState(r.processId(), r.threadId()));
        int inst = r.instanceId();
        if (e.kind == JetwEvent.Kind.CALL_START) {
            CallNode late = t.startless.remove(inst);
            if (late != null && late.start == CallNode.NONE && r.fileTime() <= late.end) {
                late.start = r.fileTime(); // its END came first (a clock tie or skew): this START completes it
                return;
            }
            CallNode n = new CallNode(false, e.methodId, inst, r.fileTime());
            n.parentInstanceId = r.parentInstanceId();
            claim(t, n);
            t.open.put(inst, n);
        } else if (e.kind == JetwEvent.Kind.DEQUEUE) {
            if (!t.open.containsKey(r.parentInstanceId())) {
                closeTasks(t, 0); // a new task from elsewhere: the thread's previous one has returned
            }
            CallNode n = new CallNode(false, 0, inst, r.fileTime());
            n.task = true;
            n.parentInstanceId = r.parentInstanceId();
            claim(t, n);
            t.open.put(inst, n);
            t.tasks.add(n);
        } else if (e.kind == JetwEvent.Kind.CALL_END) {
            closeTasks(t, inst);
            if (r.parentInstanceId() == 0) {
                closeTasks(t, 0);
            }
            CallNode n = t.open.remove(inst);
            if (n == null) { // START not in the file (lost, before the trace started, or still to come)
                n = new CallNode(false, e.methodId, inst, CallNode.NONE);
                n.parentInstanceId = r.parentInstanceId();
                claim(t, n);
                t.startless.put(inst, n);
            }
            n.end = r.fileTime();
            n.text = e.text;
            place(t, n, n.parentInstanceId);
        } else {
            CallNode c = new CallNode(true, e.methodId, inst, r.fileTime());
            c.text = e.text;
            place(t, c, inst);
        }
    }

    /**
     * Closes the open tasks run inside call {@code callInstance} (it is ending), or with 0 the tasks
     * not nested in an open call of the thread (a top-level call ends, or another task begins).
     */
    private void closeTasks(ThreadState t, int callInstance) {
        for (int i = t.tasks.size() - 1; i >= 0; i--) {
            CallNode task = t.tasks.get(i);
            boolean inline = task.parentInstanceId != 0 && t.open.containsKey(task.parentInstanceId);
            if (callInstance == 0 ? !inline : task.parentInstanceId == callInstance) {
                t.tasks.remove(i);
                t.open.remove(task.instanceId);
                task.end = Math.max(task.start, task.lastEnd());
                CallNode parent = inline ? t.open.get(task.parentInstanceId) : null;
                if (parent != null) {
                    parent.children.add(task);
                } else {
                    topLevel(t, task);
                }
            }
        }
    }

    /** Gives {@code n} the nodes that wait for its instance id. */
    private static void claim(ThreadState t, CallNode n) {
        List<CallNode> children = t.waiting.remove(n.instanceId);
        if (children != null) {
            n.children.addAll(children);
        }
    }

    private void place(ThreadState t, CallNode n, int under) {
        CallNode parent = under != 0 ? t.open.get(under) : null;
        if (parent != null && parent != n) {
            parent.children.add(n);
        } else if (under == 0) {
            topLevel(t, n);
        } else {
            t.waiting.computeIfAbsent(under, k -> new ArrayList<>()).add(n);
        }
    }

    /** A top-level node is complete: it goes out, after what waited on the thread and started before it. */
    private void topLevel(ThreadState t, CallNode n) {
        List<CallNode> out = new ArrayList<>();
        for (List<CallNode> w : t.waiting.values()) {
            out.addAll(w);
        }
        t.waiting.clear();
        out.add(n);
        out.sort(BY_TIME);
        for (CallNode root : out) {
            emit(t, root);
        }
    }

    private void emit(ThreadState t, CallNode root) {
        sortChildren(root);
        sink.root(t.processId, t.threadId, root);
    }

    private static void sortChildren(CallNode n) {
        if (n.children.size() > 1) {
            n.children.sort(BY_TIME);
        }
        for (CallNode c : n.children) {
            sortChildren(c);
        }
    }

    /** End of the file: calls without END go out as unfinished, under their open parent if it has one. */
    void finish() {
        List<Long> keys = new ArrayList<>(threads.keySet());
        keys.sort(null);
        for (Long key : keys) {
            ThreadState t = threads.get(key);
            for (CallNode task : t.tasks) { // still open at the end: it lasted at least until its last call
                task.end = Math.max(task.start, task.lastEnd());
            }
            t.tasks.clear();
            List<CallNode> roots = new ArrayList<>();
            for (Map.Entry<Integer, List<CallNode>> w : t.waiting.entrySet()) {
                CallNode parent = t.open.get(w.getKey());
                (parent != null ? parent.children : roots).addAll(w.getValue());
            }
            t.waiting.clear();
            List<CallNode> unfinished = new ArrayList<>(t.open.values());
            unfinished.sort(BY_TIME);
            for (CallNode n : unfinished) {
                CallNode parent = n.parentInstanceId != 0 ? t.open.get(n.parentInstanceId) : null;
                (parent != null && parent != n ? parent.children : roots).add(n);
            }
            t.open.clear();
            roots.sort(BY_TIME);
            for (CallNode r : roots) {
                emit(t, r);
            }
        }
        threads.clear();
    }
}
