package dev.jetw.agent.core.writing;

import dev.jetw.etw.ClassicProvider;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The {@link ThreadContext}s of one attach: one per thread that traced something, found through a
 * ThreadLocal on method entry and through a small slot number on method exit (the slot travels in
 * the advice's token, so an exit is an array read instead of a second ThreadLocal lookup).
 *
 * <p>Contexts of threads that have ended are dropped from time to time (when the number of
 * contexts has doubled since the last look), their scratch retired and their slot reused: an
 * application that churns through threads keeps only its live threads' state.
 *
 * <p>{@link #create} runs inside the ThreadLocal's initialValue, before the thread's re-entrancy
 * flag exists, so it uses only classes that are never instrumented (arrays, System.arraycopy,
 * java.util.concurrent, Thread) itself, and answers a re-entry (a backend's scratch allocation may
 * call JDK code that bootstrap=true traces) with an always-busy context. The pruning, which hands
 * buffers to the session, runs later from {@link #pruneIfDue}, which the caller invokes with its
 * flag set.
 */
final class ThreadContexts {

    /** Slots fit in 16 bits of the token; slot 0 means "none" (the exit then uses the ThreadLocal). */
    static final int MAX_SLOT = 0xFFFF;
    private static final int FIRST_PRUNE = 64;

    private final ClassicProvider provider;
    private final Queue<ThreadContext> all = new ConcurrentLinkedQueue<>();
    private final Queue<EndedThread> endedUnnamed = new ConcurrentLinkedQueue<>();

    /** The id and name of an ended thread still to be named by the stop's rundown. */
    static final class EndedThread {
        final long javaThreadId;
        final long osThreadId;
        final String name;

        EndedThread(long javaThreadId, long osThreadId, String name) {
            this.javaThreadId = javaThreadId;
            this.osThreadId = osThreadId;
            this.name = name;
        }
    }
    private final ThreadLocal<ThreadContext> current;
    /** The same contexts, without making one on lookup: {@link #peek}. */
    private final ThreadLocal<ThreadContext> made = new ThreadLocal<>();

    // Slot table, guarded by 'this' for writes; readers see a published array through the volatile.
    private volatile ThreadContext[] bySlot = new ThreadContext[64];
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int nextSlot = 1;
    private int live;
    private int pruneAt = FIRST_PRUNE;
    /** The thread inside {@link #create}, to catch a re-entry; guarded by 'this'. */
    private Thread creating;
    private final ThreadContext reentrySentinel;

    ThreadContexts(ClassicProvider provider) {
        this.provider = provider;
        this.reentrySentinel = new ThreadContext(null, Thread.currentThread(), 0);
        reentrySentinel.busy = true;
        this.current = new ThreadLocal<ThreadContext>() {
            @Override
            protected ThreadContext initialValue() {
                return create(Thread.currentThread());
            }
        };
    }

    /**
     * The calling thread's context if it has one, else null, without making one (a thread that only hands
     * tasks over from untraced code gets no scratch).
     */
    ThreadContext peek() {
        return made.get();
    }

    /** The calling thread's context, made on its first call. */
    ThreadContext current() {
        return current.get();
    }

    /**
     * The calling thread's context by the slot from its token, or null when the slot is not the
     * calling thread's (a token of an earlier attach): the caller then ignores the token.
     */
    ThreadContext bySlot(int slot) {
        if (slot == 0) {
            return current.get();
        }
        ThreadContext[] table = bySlot;
        ThreadContext c = slot < table.length ? table[slot] : null;
        return c != null && c.thread == Thread.currentThread() ? c : null;
    }

    /** Every context, for the thread rundown; weakly consistent with threads starting meanwhile. */
    Iterable<ThreadContext> all() {
        return all;
    }

    /**
     * Ended threads dropped from {@link #all} whose DC_START was refused (the session had no buffer):
     * the stop's rundown names them. Only their id and name are kept, not the thread.
     */
    Iterable<EndedThread> endedUnnamed() {
        return endedUnnamed;
    }

    /** Contexts held: the live threads that traced, plus ended ones not yet dropped. */
    synchronized int size() {
        return live;
    }

    /** Drops ended threads' contexts when their number has doubled since the last look. */
    void pruneIfDue() {
        List<ThreadContext> ended;
        synchronized (this) {
            if (live < pruneAt) {
                return;
            }
            ended = takeEnded();
            pruneAt = Math.max(FIRST_PRUNE, live * 2);
        }
        // Outside the monitor: retiring waits for the session's flusher, which may itself be
        // making its first context (and so need the monitor).
        for (ThreadContext c : ended) {
            provider.retire(c.scratch);
        }
    }

    private synchronized ThreadContext create(Thread thread) {
        if (creating == thread) {
            // Re-entered from inside this creation (a traced JDK method that the backend's scratch
            // allocation calls, with bootstrap=true): the nested lookup gets a context that is
            // always busy, so it traces nothing; the outer initialValue then stores the real one.
            return reentrySentinel;
        }
        creating = thread;
        try {
            int slot = takeSlot();
            ThreadContext c = new ThreadContext(provider.newScratch(), thread, slot);
            if (slot != 0) {
                ThreadContext[] table = bySlot;
                if (slot >= table.length) {
                    ThreadContext[] grown = new ThreadContext[Math.min(MAX_SLOT + 1, table.length * 2)];
                    System.arraycopy(table, 0, grown, 0, table.length);
                    table = grown;
                }
                table[slot] = c;
                bySlot = table; // publishes the entry (and a grown table) to the reading threads
            }
            all.add(c);
            live++;
            made.set(c);
            return c;
        } finally {
            creating = null;
        }
    }

    private int takeSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        return nextSlot <= MAX_SLOT ? nextSlot++ : 0;
    }

    private void freeSlot(int slot) {
        if (freeCount == freeSlots.length) {
            int[] grown = new int[freeSlots.length * 2];
            System.arraycopy(freeSlots, 0, grown, 0, freeCount);
            freeSlots = grown;
        }
        freeSlots[freeCount++] = slot;
    }

    /**
     * Removes the contexts of ended threads and frees their slots; the caller retires their
     * scratches. A thread's end happens-before isAlive() returning false, so its last counts are
     * visible then.
     */
    private List<ThreadContext> takeEnded() {
        List<ThreadContext> ended = new ArrayList<>();
        for (Iterator<ThreadContext> it = all.iterator(); it.hasNext(); ) {
            ThreadContext c = it.next();
            if (!c.thread.isAlive()) {
                it.remove();
                live--;
                if (c.slot != 0) {
                    bySlot[c.slot] = null;
                    freeSlot(c.slot);
                }
                ended.add(c);
                if (c.threadNamed && !c.nameWritten) {
                    endedUnnamed.add(new EndedThread(c.javaThreadId, c.osThreadId, c.threadName));
                }
            }
        }
        return ended;
    }
}
