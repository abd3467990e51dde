package dev.jetw.agent.core.writing;

import dev.jetw.etw.EventScratch;

/**
 * One thread's tracing state, created once per thread: the stack of open traced calls (per frame:
 * a tag matching the advice token, the instance id once it has one, method id, level, entry time
 * and flags, in parallel arrays that only grow), the thread's event scratch, whether its name was
 * written yet, and a re-entrancy flag so that code the agent runs for an event never traces itself.
 *
 * <p>Instance ids are allocated lazily: a call under a duration threshold gets one only when it
 * is written or something inside it is (a slow child, a checkpoint), so a dropped call costs no
 * id (on Windows an id is a native CreateTraceInstanceId call). A frame with an id is a frame
 * that will be written; if a frame has an id, so do all frames below it.
 */
final class ThreadContext {

    /** Frames deeper than this are not traced: the depth travels in 16 bits of the advice token. */
    static final int MAX_DEPTH = 0xFFFF;
    /** Frame flag: the entry time was read (threshold or adaptive observation); the exit reads the clock. */
    static final int TIMED = 1;
    /** Frame flag: the START was written at entry (no threshold); otherwise it is written at exit, or never. */
    static final int START_WRITTEN = 2;
    /** Frame flag: the DEQUEUE of a thread started from a traced call (HandoffWriter), the thread's bottom frame. */
    static final int THREAD_LINK = 4;

    final EventScratch scratch;
    final Thread thread;
    final long javaThreadId;
    /** This context's number in {@link ThreadContexts}, carried in tokens; 0 for none. */
    final int slot;
    /** The name at the thread's first event; its DC_END repeats it. */
    String threadName;
    /**
     * The OS thread id, read by the thread itself with its name (OsThreadId: /proc/thread-self on Linux), once;
     * 0 when unknown: a virtual thread (its carrier changes), or an OS that does not say.
     */
    long osThreadId;
    boolean threadNamed;
    /** Whether the thread's DC_START was accepted; if not, the stop's rundown names the thread. */
    boolean nameWritten;
    /** Whether HandoffWriter looked at the link this thread inherited from the thread that made it. */
    boolean threadLinkTaken;
    /** True while the agent writes an event on this thread. */
    boolean busy;
    /** The next frame tag; seeded per context so that a token of an earlier attach hardly ever matches. */
    private int nextTag;

    int depth;
    int[] tags = new int[32];
    /** 0 until the frame has an instance id (see the class comment). */
    int[] instanceIds = new int[32];
    int[] methodIds = new int[32];
    int[] levels = new int[32];
    int[] flags = new int[32];
    long[] entryTimes = new long[32];

    ThreadContext(EventScratch scratch, Thread thread, int slot) {
        this.scratch = scratch;
        this.thread = thread;
        this.javaThreadId = thread.getId();
        this.slot = slot;
        this.nextTag = System.identityHashCode(this);
    }

    /** Pushes a frame; returns the new depth (>= 1). Grows the arrays only when a deeper stack is first seen. */
    int push(int instanceId, int methodId, int level, long entryTime, int frameFlags) {
        if (depth == tags.length) {
            int n = depth * 2;
            tags = java.util.Arrays.copyOf(tags, n);
            instanceIds = java.util.Arrays.copyOf(instanceIds, n);
            methodIds = java.util.Arrays.copyOf(methodIds, n);
            levels = java.util.Arrays.copyOf(levels, n);
            flags = java.util.Arrays.copyOf(flags, n);
            entryTimes = java.util.Arrays.copyOf(entryTimes, n);
        }
        tags[depth] = ++nextTag;
        instanceIds[depth] = instanceId;
        methodIds[depth] = methodId;
        levels[depth] = level;
        flags[depth] = frameFlags;
        entryTimes[depth] = entryTime;
        return ++depth;
    }
}
