package dev.jetw.agent.core.writing;

import dev.jetw.bootstrap.HandoffHandler;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;

import java.nio.ByteBuffer;
import java.util.concurrent.ForkJoinWorkerThread;

/**
 * Cross-thread links (docs/cross-thread.md): the submitting side gives the innermost open traced call
 * as a link; on the running side a linked task writes a MethodCall DEQUEUE event, parented to that call
 * (ParentInstanceId may name an instance on another thread), carrying the queue wait, and becomes an
 * open frame of the thread's context, so that the task's traced calls — and tasks it submits in turn —
 * are parented to it. The frame goes when the task returns: a pool thread's next task starts clean.
 *
 * <p>DEQUEUE payload: u32 methodId (0: not a method), u32 kind ({@link dev.jetw.bootstrap.Handoff}),
 * u64 queue wait in nanoseconds.
 */
public final class HandoffWriter implements HandoffHandler {

    static final int LEVEL = TraceLevel.INFORMATION;
    static final int DEQUEUE_PAYLOAD = 16;
    private static final int CALL = JetwSchema.METHOD_CALL_INDEX;

    private final ClassicProvider provider;
    private final TraceWriter writer;
    private final ThreadContexts contexts;
    /** Marks a thread whose inherited link was looked at (or that had none); new threads made by it inherit through childValue. */
    private static final long[] SEED = new long[0];
    /**
     * Links of new threads. Thread's constructor (platform and virtual) calls childValue on the creating
     * thread, for each inheritable value that thread holds: there the creating thread's open traced call
     * becomes the new thread's link, with no JDK class changed (retransforming java.lang.Thread at every
     * attach and detach would leave a previous version of it in Metaspace per cycle: Thread.run never
     * returns on long-lived threads). A thread holds the seed once it traced, so only such threads pay
     * for the call, once per thread they make.
     */
    private final InheritableThreadLocal<long[]> threadLinks = new InheritableThreadLocal<long[]>() {
        @Override
        protected long[] childValue(long[] parentValue) {
            if (!dev.jetw.bootstrap.Handoff.isCurrent(HandoffWriter.this)) {
                return SEED; // a thread seeded in an earlier attach, until this ThreadLocal is collected
            }
            long link = link();
            return link == 0L ? SEED : new long[] {link, System.nanoTime()};
        }
    };

    public HandoffWriter(ClassicProvider provider, TraceWriter writer) {
        this.provider = provider;
        this.writer = writer;
        this.contexts = writer.contexts();
    }

    @Override
    public long link() {
        if (!provider.isEnabled(LEVEL)) {
            return 0L;
        }
        ThreadContext c = contexts.peek(); // a thread that never traced is in no traced call: no context made for it
        if (c == null || c.busy || c.depth == 0) {
            return 0L;
        }
        c.busy = true;
        try {
            // Taking the id makes a call under its threshold be written (its callers too), as a written child does.
            return (long) CALL << 32 | writer.instanceIdAt(c, c.depth - 1) & 0xFFFFFFFFL;
        } finally {
            c.busy = false;
        }
    }

    @Override
    public long taskStarting(long link, long dueNanos, int kind) {
        if (!provider.isEnabled(LEVEL)) {
            return 0L;
        }
        ThreadContext c = contexts.current();
        if (c.busy || c.depth >= ThreadContext.MAX_DEPTH) {
            return 0L;
        }
        c.busy = true;
        try {
            // A pool worker made in a traced call is not that call's task: its tasks carry their own links.
            takeThreadLink(c);
            if (c.depth == 1 && (c.flags[0] & ThreadContext.THREAD_LINK) != 0) {
                c.depth = 0;
            }
            return dequeue(c, link, dueNanos, kind, 0);
        } finally {
            c.busy = false;
        }
    }

    @Override
    public void taskEnded(long token) {
        ThreadContext c = contexts.bySlot((int) (token >>> 16) & 0xFFFF);
        if (c == null) {
            return;
        }
        int depth = (int) token & 0xFFFF;
        if (depth >= 1 && depth <= c.depth && c.tags[depth - 1] == (int) (token >>> 32)) {
            c.depth = depth - 1; // also drops traced frames above whose exits never ran
        }
    }

    /**
     * Called by {@link TraceWriter#enter} on a thread's outermost traced call, with the context busy:
     * the first time, if the thread was made in a traced call, its DEQUEUE becomes the bottom frame for
     * the thread's life (a thread per task). ForkJoinPool's workers are not tasks.
     */
    void threadBegins(ThreadContext c) {
        long[] made = takeThreadLink(c);
        if (made != null && provider.isEnabled(LEVEL) && !(c.thread instanceof ForkJoinWorkerThread)) {
            dequeue(c, made[0], made[1], dev.jetw.bootstrap.Handoff.THREAD_START, ThreadContext.THREAD_LINK);
        }
    }

    /** The thread's inherited link the first time (then null), and the seed for the threads it makes. */
    private long[] takeThreadLink(ThreadContext c) {
        if (c.threadLinkTaken) {
            return null;
        }
        c.threadLinkTaken = true;
        long[] inherited = threadLinks.get();
        threadLinks.set(SEED);
        return inherited != null && inherited.length == 2 ? inherited : null;
    }

    private long dequeue(ThreadContext c, long link, long dueNanos, int kind, int frameFlags) {
        writer.nameThread(c);
        long now = System.nanoTime();
        int id = provider.newInstanceId(c.scratch, CALL);
        ByteBuffer p = c.scratch.payload(DEQUEUE_PAYLOAD);
        p.putInt(0);
        p.putInt(kind);
        p.putLong(Math.max(0L, now - dueNanos));
        provider.write(c.scratch, EventType.DEQUEUE, LEVEL, CALL, id, (int) (link >>> 32), (int) link);
        int depth = c.push(id, 0, LEVEL, now, ThreadContext.START_WRITTEN | frameFlags);
        return ((long) c.tags[depth - 1] << 32) | (long) c.slot << 16 | depth;
    }
}
