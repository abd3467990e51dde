package dev.jetw.etl.tool;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;

import java.io.IOException;
import java.util.List;

/** One pass over a file: jetw's call trees per thread, and the names from its rundown. */
final class CallTrees {

    final List<ThreadCalls> threads;
    final JetwNames names;
    /** FILETIME of the last record in the file. */
    final long lastFileTime;
    /** The JVM runtime events (jvm= option) as spans. */
    final RuntimeSpans runtime;
    /** Hand-offs between threads (DEQUEUE events). */
    final CrossThreadLinks links;
    /** (pid, DEQUEUE instance id) -> the task's node and thread; made on first use. */
    private java.util.Map<Long, TaskPlace> tasks;

    /** Where a task node is: the node and its thread. */
    private static final class TaskPlace {
        final CallNode node;
        final ThreadCalls thread;

        TaskPlace(CallNode node, ThreadCalls thread) {
            this.node = node;
            this.thread = thread;
        }
    }

    private CallTrees(List<ThreadCalls> threads, JetwNames names, long lastFileTime, RuntimeSpans runtime, CrossThreadLinks links) {
        this.threads = threads;
        this.names = names;
        this.lastFileTime = lastFileTime;
        this.runtime = runtime;
        this.links = links;
    }

    /** The task node of a hand-off (its calls are its children), or null when the DEQUEUE is not in the trees. */
    CallNode taskNode(CrossThreadLinks.Link link) {
        TaskPlace t = task(link);
        return t == null ? null : t.node;
    }

    ThreadCalls taskThread(CrossThreadLinks.Link link) {
        TaskPlace t = task(link);
        return t == null ? null : t.thread;
    }

    private TaskPlace task(CrossThreadLinks.Link link) {
        if (tasks == null) {
            tasks = new java.util.HashMap<>();
            for (ThreadCalls t : threads) {
                indexTasks(t, t.roots);
            }
        }
        return tasks.get((long) link.processId << 32 | link.dequeueInstanceId & 0xFFFFFFFFL);
    }

    private void indexTasks(ThreadCalls t, List<CallNode> nodes) {
        for (CallNode n : nodes) {
            if (n.task) {
                tasks.put((long) t.processId << 32 | n.instanceId & 0xFFFFFFFFL, new TaskPlace(n, t));
            }
            indexTasks(t, n.children);
        }
    }

    static CallTrees read(EtlReader reader) throws IOException {
        JetwNames names = new JetwNames();
        CallTreeBuilder builder = new CallTreeBuilder();
        RuntimeSpans runtime = new RuntimeSpans();
        CrossThreadLinks links = new CrossThreadLinks();
        for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
            JetwEvent e = JetwEvent.decode(r);
            names.accept(r, e);
            builder.accept(r, e);
            runtime.accept(r, e);
            links.accept(r, e);
        }
        return new CallTrees(builder.build(), names, builder.lastFileTime(), runtime, links);
    }
}
