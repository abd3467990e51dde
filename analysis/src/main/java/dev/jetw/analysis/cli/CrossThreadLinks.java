package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves jetw's cross-thread links (docs/cross-thread.md): a MethodCall DEQUEUE is written on the
 * thread where a handed-over task begins; its ParentInstanceId is the submitting call (a START's
 * instance, usually on another thread) or, for a task handed over by another task outside any traced
 * call, that task's DEQUEUE. Made before the pass that builds trees ({@link TraceContext}): {@link
 * #accept} every record of the first pass (it keeps the DEQUEUEs), then {@link #resolve} reads the file
 * once more, only when it has DEQUEUEs whose submitter is not a DEQUEUE itself, to find the thread of
 * each submitting call's START; then {@link #links}, {@link #submittedFrom} or {@link #task}. Memory:
 * one link per DEQUEUE and one entry per submitting call (instance id to thread), never the calls, and
 * nothing at all for a file without hand-offs.
 */
final class CrossThreadLinks {

    /** One hand-off: submitter (call or task) on one thread, task on another (or the same). Times are FILETIMEs. */
    static final class Link {
        final int processId;
        final int submitterInstanceId;
        /** The submitter's thread; -1 when its START (or DEQUEUE) is not in the file. */
        int submitterThreadId = -1;
        /** The submitter is a task (its DEQUEUE), as in a CompletableFuture chain: no traced call was open. */
        boolean submitterIsTask;
        final int taskThreadId;
        final int dequeueInstanceId;
        /** When the task began (the DEQUEUE's time stamp). */
        final long dequeueTime;
        final long waitNanos;
        final int kind;

        Link(int processId, int submitterInstanceId, int taskThreadId, int dequeueInstanceId, long dequeueTime, long waitNanos,
             int kind) {
            this.processId = processId;
            this.submitterInstanceId = submitterInstanceId;
            this.taskThreadId = taskThreadId;
            this.dequeueInstanceId = dequeueInstanceId;
            this.dequeueTime = dequeueTime;
            this.waitNanos = waitNanos;
            this.kind = kind;
        }

        /** When the task was submitted (or, scheduled, became due): the DEQUEUE's time less the wait. */
        long submitTime() {
            return dequeueTime - waitNanos / 100;
        }

        boolean resolved() {
            return submitterThreadId != -1;
        }
    }

    /** (pid, instance id) of each submitter (a START or a DEQUEUE) -> its thread id; a DEQUEUE's entry is marked by {@link #TASK}. */
    private final Map<Long, Long> owners = new HashMap<>();
    private static final long TASK = 1L << 32;
    private final List<Link> links = new ArrayList<>();
    private Map<Long, List<Link>> bySubmitter;
    private Map<Long, Link> byTask;

    /** First pass: keeps each DEQUEUE (a hand-off). */
    void accept(EtlRecord r, JetwEvent e) {
        if (e != null && e.kind == JetwEvent.Kind.DEQUEUE) {
            owners.put(key(r.processId(), r.instanceId()), TASK | r.threadId() & 0xFFFFFFFFL);
            links.add(new Link(r.processId(), r.parentInstanceId(), r.threadId(), r.instanceId(), r.fileTime(), e.queueWaitNanos(),
                    e.handoffKind()));
            bySubmitter = null;
        }
    }

    boolean isEmpty() {
        return links.isEmpty();
    }

    /**
     * Finds each submitter's thread: DEQUEUEs from the first pass, STARTs by one more pass over {@code
     * file} (skipped when every submitter is a DEQUEUE, as in a file without hand-offs).
     */
    void resolve(java.nio.file.Path file, Progress progress) throws java.io.IOException {
        java.util.Set<Long> wanted = new java.util.HashSet<>();
        for (Link l : links) {
            wanted.add(key(l.processId, l.submitterInstanceId));
        }
        for (Link l : links) {
            long k = key(l.processId, l.dequeueInstanceId);
            if (wanted.remove(k)) {
                owners.put(k, TASK | l.taskThreadId & 0xFFFFFFFFL);
            }
        }
        if (!wanted.isEmpty()) {
            try (dev.jetw.etl.EtlReader pass = dev.jetw.etl.EtlReader.open(file)) {
                for (EtlRecord r = pass.next(); r != null; r = pass.next()) {
                    progress.record(pass, "an extra pass for hand-off links");
                    long k = key(r.processId(), r.instanceId());
                    if (wanted.contains(k)) {
                        JetwEvent e = JetwEvent.decode(r);
                        if (e != null && e.kind == JetwEvent.Kind.CALL_START) {
                            owners.put(k, r.threadId() & 0xFFFFFFFFL);
                        }
                    }
                }
            }
        }
        bySubmitter = null;
        resolve();
    }

    /** Every hand-off in the file, in the order their tasks' DEQUEUEs were read. */
    List<Link> links() {
        resolve();
        return links;
    }

    /** The tasks handed over from the call (or task) with this instance id, in submission order. */
    List<Link> submittedFrom(int processId, int instanceId) {
        resolve();
        List<Link> l = bySubmitter.get(key(processId, instanceId));
        return l == null ? Collections.<Link>emptyList() : l;
    }

    /** The hand-off whose task has this DEQUEUE instance id, or null. */
    Link task(int processId, int dequeueInstanceId) {
        resolve();
        return byTask.get(key(processId, dequeueInstanceId));
    }

    static String kindName(int kind) {
        switch (kind) {
            case 1: return "executor";
            case 2: return "fork-join";
            case 3: return "scheduled";
            case 4: return "thread start";
            default: return "kind " + kind;
        }
    }

    private void resolve() {
        if (bySubmitter != null) {
            return;
        }
        bySubmitter = new HashMap<>();
        byTask = new HashMap<>();
        for (Link l : links) {
            Long owner = owners.get(key(l.processId, l.submitterInstanceId));
            if (owner != null) {
                l.submitterThreadId = (int) owner.longValue();
                l.submitterIsTask = (owner & TASK) != 0;
            }
            bySubmitter.computeIfAbsent(key(l.processId, l.submitterInstanceId), k -> new ArrayList<>()).add(l);
            byTask.put(key(l.processId, l.dequeueInstanceId), l);
        }
        for (List<Link> l : bySubmitter.values()) {
            l.sort((a, b) -> Long.compare(a.submitTime(), b.submitTime()));
        }
    }

    private static long key(int processId, int instanceId) {
        return (long) processId << 32 | instanceId & 0xFFFFFFFFL;
    }
}
