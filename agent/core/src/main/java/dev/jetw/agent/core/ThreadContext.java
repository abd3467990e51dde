package dev.jetw.agent.core;

import dev.jetw.etw.EventScratch;

/**
 * One thread's tracing state, created once per thread: the stack of open traced calls (instance
 * id, method id, level per frame, in parallel int arrays that only grow), the thread's event
 * scratch, whether its name was written yet, and a re-entrancy flag so that code the agent runs
 * for an event never traces itself.
 */
final class ThreadContext {

    /** Frames deeper than this are not traced: the depth travels in 16 bits of the advice token. */
    static final int MAX_DEPTH = 0xFFFF;

    final EventScratch scratch;
    final Thread thread;
    final long javaThreadId;
    /** This context's number in {@link ThreadContexts}, carried in tokens; 0 for none. */
    final int slot;
    /** The name at the thread's first event; its DC_END repeats it. */
    String threadName;
    boolean threadNamed;
    /** Whether the thread's DC_START was accepted; if not, the stop's rundown names the thread. */
    boolean nameWritten;
    /** True while the agent writes an event on this thread. */
    boolean busy;

    int depth;
    int[] instanceIds = new int[32];
    int[] methodIds = new int[32];
    int[] levels = new int[32];

    ThreadContext(EventScratch scratch, Thread thread, int slot) {
        this.scratch = scratch;
        this.thread = thread;
        this.javaThreadId = thread.getId();
        this.slot = slot;
    }

    /** Pushes a frame; returns the new depth (>= 1). Grows the arrays only when a deeper stack is first seen. */
    int push(int instanceId, int methodId, int level) {
        if (depth == instanceIds.length) {
            instanceIds = java.util.Arrays.copyOf(instanceIds, depth * 2);
            methodIds = java.util.Arrays.copyOf(methodIds, depth * 2);
            levels = java.util.Arrays.copyOf(levels, depth * 2);
        }
        instanceIds[depth] = instanceId;
        methodIds[depth] = methodId;
        levels[depth] = level;
        return ++depth;
    }
}
