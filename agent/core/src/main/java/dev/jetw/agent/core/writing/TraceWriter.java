package dev.jetw.agent.core.writing;

import dev.jetw.agent.core.exclusion.AdaptiveExclusion;
import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.options.Durations;
import dev.jetw.bootstrap.CallHandler;
import dev.jetw.bootstrap.MethodEntries;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etl.EventType;

import java.nio.ByteBuffer;

/**
 * The hot path: turns advice calls into MethodCall START / END / CHECKPOINT events
 * (JetwSchema payloads) through the classic provider. After a thread's first event nothing here
 * allocates, locks or blocks. A filtered call costs the provider's level check, a field read.
 * START and a normal END, nearly every event, carry at most 8 payload bytes and go through
 * {@link ClassicProvider#writeSmall}, which skips payload staging.
 *
 * <p><b>Duration threshold</b> (docs/agent-options.md): a method with a threshold writes nothing
 * at entry but reads the clock; at exit, a call shorter than its threshold is forgotten (two clock
 * reads, no instance id, no buffer work), a longer one writes its START with the entry time
 * ({@link ClassicProvider#writeSmallAt}) and then its END. A call is also written, whatever its
 * duration, when something inside it was written (a slow or unthresholded child, a checkpoint):
 * the child then takes the enclosing calls' instance ids ahead of their STARTs, so parent ids are
 * always those of written calls and trees stay whole. Readers pair by instance id and order by time.
 *
 * <p><b>Adaptive exclusion</b> ({@link AdaptiveExclusion}): while a method is observed its calls
 * are timed; once excluded its next entry mutes it ({@link MethodEntries#mute}: its advice stops calling
 * in), and the thread that decided writes one MethodExclusion event naming it.
 *
 * <p>Tokens handed to the advice: {@code tag << 32 | slot << 16 | depth}, depth >= 1, so 0 means
 * "nothing written". The slot finds the thread's context without a second ThreadLocal lookup. The
 * exit checks that the slot is the calling thread's and that the frame at that depth still has
 * the tag, which makes a token from an earlier attach (or a frame whose exit was lost) harmless.
 */
public final class TraceWriter implements CallHandler {

    private static final int CALL = JetwSchema.METHOD_CALL_INDEX;
    /** START: u32 methodId. */
    private static final int START_PAYLOAD = 4;
    /** END of a normal return: u32 methodId, then "" as UTF-16Z (one u16 zero). */
    private static final int RETURN_PAYLOAD = 6;
    /** The MethodExclusion reason of a hot method given the agent's threshold. */
    private static final String HOT_THRESHOLD_REASON =
            JetwSchema.EXCLUSION_HOT_THRESHOLD + Durations.format(AdaptiveExclusion.HOT_THRESHOLD_NANOS);

    private final ClassicProvider provider;
    private final byte[] levels;
    private final long[] thresholds;
    private final AdaptiveExclusion exclusion;
    private final byte[] states;
    private final int exceptionLevel;
    private final ThreadContexts contexts;
    /** Cross-thread links (propagate=true), set before the handler is installed; null otherwise. */
    private HandoffWriter handoffs;

    public TraceWriter(ClassicProvider provider, MethodRegistry registry, AdaptiveExclusion exclusion, int exceptionLevel) {
        this.provider = provider;
        this.levels = registry.levels;
        this.thresholds = registry.thresholds;
        this.exclusion = exclusion;
        this.states = exclusion.states;
        this.exceptionLevel = exceptionLevel;
        this.contexts = new ThreadContexts(provider);
    }

    @Override
    public long enter(int methodId) {
        if (methodId <= 0 || methodId >= levels.length) {
            return 0L; // not an id of this attach (cannot happen while reset works; cheap to be sure)
        }
        // Excluded or pushed out: the first call here after the decision mutes the method, and its advice calls in no more.
        byte state = states[methodId];
        int level = levels[methodId] & 0xFF;
        if (state == AdaptiveExclusion.EXCLUDED || level == 0) { // level 0: pushed out of the method budget
            MethodEntries.mute(methodId); // for good in this attach: the advice stops calling in
            return 0L;
        }
        if (!provider.isEnabled(level)) {
            return 0L;
        }
        return enterTraced(methodId, level, state);
    }

    /**
     * The entry of a call that is traced or observed, out of {@link #enter} so that what the JIT inlines
     * into every instrumented method is only the checks above: inlining all of it into thousands of a
     * library's methods made the JIT's work and the compiled code several times larger (BENCHMARKS.md §7).
     */
    private long enterTraced(int methodId, int level, byte state) {
        ThreadContext c = contexts.current();
        if (c.busy || c.depth >= ThreadContext.MAX_DEPTH) {
            return 0L;
        }
        c.busy = true;
        try {
            if (c.depth == 0 && handoffs != null) {
                handoffs.threadBegins(c);
            }
            boolean thresholded = thresholds[methodId] > 0;
            boolean timed = thresholded || state == AdaptiveExclusion.OBSERVING;
            int flags = timed ? ThreadContext.TIMED : 0;
            int instanceId = 0;
            if (!thresholded) {
                nameThread(c);
                int parent = c.depth > 0 ? instanceIdAt(c, c.depth - 1) : 0;
                instanceId = provider.newInstanceId(c.scratch, CALL);
                provider.writeSmall(c.scratch, EventType.START, level, CALL, instanceId, parent == 0 ? -1 : CALL, parent,
                        methodId & 0xFFFFFFFFL, START_PAYLOAD);
                flags |= ThreadContext.START_WRITTEN;
            }
            // After the START: adaptive exclusion times the method, not the agent's own write.
            long now = timed ? System.nanoTime() : 0L;
            int depth = c.push(instanceId, methodId, level, now, flags);
            return ((long) c.tags[depth - 1] << 32) | (long) c.slot << 16 | depth;
        } finally {
            c.busy = false;
        }
    }

    @Override
    public void exit(int methodId, long token, Throwable thrown) {
        ThreadContext c = contexts.bySlot((int) (token >>> 16) & 0xFFFF);
        if (c == null || c.busy) {
            return;
        }
        int depth = (int) token & 0xFFFF;
        if (depth < 1 || depth > c.depth || c.tags[depth - 1] != (int) (token >>> 32)) {
            return; // a token of an earlier session or of a frame already unwound
        }
        c.busy = true;
        try {
            int frame = depth - 1;
            int flags = c.flags[frame];
            c.depth = frame; // also drops frames above whose exits never ran
            long duration = 0L;
            if ((flags & ThreadContext.TIMED) != 0) {
                long now = System.nanoTime();
                duration = now - c.entryTimes[frame];
                if (states[methodId] == AdaptiveExclusion.OBSERVING) {
                    long threshold = thresholds[methodId];
                    if (threshold > 0 && duration >= threshold) {
                        exclusion.keep(methodId);
                    } else {
                        int decided = exclusion.observe(methodId, duration, now);
                        if (decided != AdaptiveExclusion.UNDECIDED) {
                            writeExclusion(c, methodId, decided == AdaptiveExclusion.DECIDED_EXCLUDED ? JetwSchema.EXCLUSION_HOT_SHORT
                                    : HOT_THRESHOLD_REASON, AdaptiveExclusion.SHORT_NANOS);
                        }
                    }
                } else if (exclusion.timedKeptCall(methodId, duration >= thresholds[methodId])
                        == AdaptiveExclusion.DECIDED_FAST) {
                    writeExclusion(c, methodId, JetwSchema.EXCLUSION_HOT_FAST, AdaptiveExclusion.HOT_THRESHOLD_NANOS);
                }
            } else if (thresholds[methodId] < 0 && exclusion.keptCall(methodId) == AdaptiveExclusion.DECIDED_THRESHOLD) {
                writeExclusion(c, methodId, HOT_THRESHOLD_REASON, AdaptiveExclusion.SHORT_NANOS);
            }
            int instanceId = c.instanceIds[frame];
            if ((flags & ThreadContext.START_WRITTEN) == 0) {
                if (instanceId == 0 && duration < thresholds[methodId]) {
                    return; // under the threshold and nothing inside it was written: forgotten
                }
                nameThread(c);
                instanceId = instanceIdAt(c, frame);
                int parent = frame > 0 ? c.instanceIds[frame - 1] : 0;
                provider.writeSmallAt(c.scratch, c.entryTimes[frame], EventType.START, c.levels[frame], CALL, instanceId,
                        parent == 0 ? -1 : CALL, parent, methodId & 0xFFFFFFFFL, START_PAYLOAD);
            }
            int parent = frame > 0 ? c.instanceIds[frame - 1] : 0;
            int level = c.levels[frame];
            if (thrown != null && exceptionLevel < level) {
                level = exceptionLevel;
            }
            if (thrown == null) {
                // The method id, then the empty exception class: its UTF-16 terminator is the word's zero bytes 4-5.
                provider.writeSmall(c.scratch, EventType.END, level, CALL, instanceId, parent == 0 ? -1 : CALL, parent,
                        methodId & 0xFFFFFFFFL, RETURN_PAYLOAD);
            } else {
                String exception = thrown.getClass().getName();
                ByteBuffer p = c.scratch.payload(4 + Payloads.utf16zBytes(exception));
                p.putInt(methodId);
                Payloads.putUtf16z(p, exception);
                provider.write(c.scratch, EventType.END, level, CALL, instanceId, parent == 0 ? -1 : CALL, parent);
            }
        } finally {
            c.busy = false;
        }
    }

    /**
     * The instance id of the open frame at index {@code frame}, allocated now if it has none yet,
     * together with those of the frames below it that have none (see ThreadContext): every frame
     * given an id here will be written at its exit.
     */
    int instanceIdAt(ThreadContext c, int frame) {
        int first = frame;
        while (first >= 0 && c.instanceIds[first] == 0) {
            first--;
        }
        for (int i = first + 1; i <= frame; i++) {
            c.instanceIds[i] = provider.newInstanceId(c.scratch, CALL);
        }
        return c.instanceIds[frame];
    }

    @Override
    public void checkpoint(String label, int level) {
        // No Math.min: with bootstrap=true nothing the event path calls before the busy check may be JDK code.
        int lvl = level < 0 ? 0 : level > 255 ? 255 : level;
        if (!provider.isEnabled(lvl)) {
            return;
        }
        ThreadContext c = contexts.current();
        if (c.busy) {
            return;
        }
        c.busy = true;
        try {
            nameThread(c);
            int instanceId;
            int methodId;
            int parent;
            if (c.depth > 0) {
                // Same instance as the enclosing call, as ETW's TraceEventInstance wants for its checkpoints;
                // taking its id makes the enclosing calls be written even when under their threshold.
                instanceId = instanceIdAt(c, c.depth - 1);
                methodId = c.methodIds[c.depth - 1];
                parent = c.depth > 1 ? c.instanceIds[c.depth - 2] : 0;
            } else {
                instanceId = provider.newInstanceId(c.scratch, CALL);
                methodId = 0;
                parent = 0;
            }
            ByteBuffer p = c.scratch.payload(4 + Payloads.utf16zBytes(label));
            p.putInt(methodId);
            Payloads.putUtf16z(p, label);
            provider.write(c.scratch, EventType.CHECKPOINT, lvl, CALL, instanceId, parent == 0 ? -1 : CALL, parent);
        } finally {
            c.busy = false;
        }
    }

    /** The MethodExclusion event of a method adaptive exclusion just decided on: why, and the calls behind it. */
    private void writeExclusion(ThreadContext c, int methodId, String reason, long longNanos) {
        writeExclusionRecord(c, methodId, exclusion.callsObserved(methodId), exclusion.slowCalls(methodId), longNanos, reason);
    }

    /**
     * After a method's DC_START (the rundown thread): the MethodExclusion event of the decision an earlier trace
     * made for it (option hotMethods=), if one was applied, with no calls observed and the reason marked as
     * coming from the file, so that the trace says why the method is absent or thresholded from its start.
     */
    void writeKnownDecision(ThreadContext c, int methodId) {
        String reason = exclusion.knownReason(methodId);
        if (reason != null) {
            // The attach ramp's decisions come from the application's stacks, not from a hotMethods= file.
            writeExclusionRecord(c, methodId, 0, 0, 0L,
                    reason.equals(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH) ? reason : reason + JetwSchema.EXCLUSION_KNOWN_SUFFIX);
        }
    }

    /**
     * At stop: per rule that left trivial methods uninstrumented (option trivial=), one MethodExclusion
     * naming no method (id 0), the rule and the count in its reason, so that the trace says what is absent.
     */
    public void writeTrivialLeftOut(java.util.Map<String, Integer> countByRule) {
        ThreadContext c = acquire();
        if (c == null) {
            return;
        }
        try {
            nameThread(c);
            for (java.util.Map.Entry<String, Integer> e : countByRule.entrySet()) {
                writeExclusionRecord(c, 0, 0, 0, 0L,
                        JetwSchema.EXCLUSION_TRIVIAL + e.getValue() + " methods of rule " + e.getKey() + " not instrumented");
            }
        } finally {
            release(c);
        }
    }

    /**
     * When an attach ramp with attachHot=skip is done: per class it left alone (by name, with why it was hot), one
     * MethodExclusion naming no method (id 0), so that the trace says which classes' methods this attach does not trace.
     */
    public void writeClassesLeftAlone(java.util.Map<String, String> whyByClass) {
        ThreadContext c = acquire();
        if (c == null) {
            return;
        }
        try {
            for (java.util.Map.Entry<String, String> e : whyByClass.entrySet()) {
                writeExclusionRecord(c, 0, 0, 0, 0L, JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH + e.getKey() + " (" + e.getValue() + ")");
            }
        } finally {
            release(c);
        }
    }

    /**
     * A MethodExclusion record (level 0: kept by any enabled session): the method, the calls observed,
     * how many of them lasted {@code longNanos} or more, and the reason.
     */
    private void writeExclusionRecord(ThreadContext c, int methodId, int calls, int longCalls, long longNanos, String reason) {
        nameThread(c);
        ByteBuffer p = c.scratch.payload(20 + Payloads.utf16zBytes(reason));
        p.putInt(methodId);
        p.putInt(calls);
        p.putInt(longCalls);
        p.putLong(longNanos);
        Payloads.putUtf16z(p, reason);
        provider.write(c.scratch, EventType.INFO, 0, JetwSchema.METHOD_EXCLUSION_INDEX, 0, -1, 0);
    }

    /** Thread DC_START once per thread, on its first event; also when ended threads' contexts are dropped. */
    void nameThread(ThreadContext c) {
        if (!c.threadNamed) {
            contexts.pruneIfDue();
            c.threadNamed = true;
            c.threadName = Thread.currentThread().getName();
            c.osThreadId = OsThreads.ofCurrentThread();
            writeThread(c, EventType.DC_START);
        }
    }

    /** Through the provider's reserved path, without waiting: this runs on the application's thread. */
    private void writeThread(ThreadContext c, int type) {
        c.nameWritten = writeThreadName(c, type, c.javaThreadId, c.osThreadId, c.threadName, 0L);
    }

    /** The calling thread's context, marked busy; the caller must call {@link #release}. Used by rundown and stop. */
    ThreadContext acquire() {
        ThreadContext c = contexts.current();
        if (c.busy) {
            return null;
        }
        c.busy = true;
        return c;
    }

    void release(ThreadContext c) {
        c.busy = false;
    }

    /** Names the calling thread now (the attaching thread, before any instrumentation). */
    public void nameCurrentThread() {
        ThreadContext c = acquire();
        if (c != null) {
            try {
                nameThread(c);
            } finally {
                release(c);
            }
        }
    }

    /**
     * Thread {@code type} for the threads that wrote an event: DC_END at the end for every one still
     * known (ended threads too, and those whose contexts were dropped before their DC_START could be
     * written), DC_START again before a dump for the live ones. Written from
     * the calling thread's scratch (the payload carries the Java thread id, so the writer's OS thread
     * does not matter); the agent's thread may wait for a buffer until {@code deadline} ({@link System#nanoTime}).
     */
    void threadRundown(ThreadContext writer, int type, long deadline) {
        boolean end = type == EventType.DC_END;
        for (ThreadContext t : contexts.all()) {
            // DC_END for every named thread still known, ended ones too: in a circular file or a ring its
            // DC_START may have been overwritten while the thread's events survive.
            if (t.threadNamed && (end || t.thread.isAlive())) {
                writeThreadName(writer, type, t.javaThreadId, t.osThreadId, t.threadName, Rundown.patienceUntil(deadline));
            }
        }
        if (end) {
            for (ThreadContexts.EndedThread t : contexts.endedUnnamed()) {
                writeThreadName(writer, type, t.javaThreadId, t.osThreadId, t.name, Rundown.patienceUntil(deadline));
            }
        }
    }

    /**
     * A Thread rundown record (version 1: u64 Java thread id, u64 OS thread id, name) from {@code writer}'s scratch,
     * waiting up to {@code patienceNanos} for a buffer.
     */
    private boolean writeThreadName(ThreadContext writer, int type, long javaThreadId, long osThreadId, String name,
                                    long patienceNanos) {
        ByteBuffer p = writer.scratch.payload(16 + Payloads.utf16zBytes(name));
        p.putLong(javaThreadId);
        p.putLong(osThreadId);
        Payloads.putUtf16z(p, name);
        return provider.writeReserved(writer.scratch, type, 0, JetwSchema.THREAD_VERSION, JetwSchema.THREAD_INDEX, 0, -1,
                0, patienceNanos);
    }

    ThreadContexts contexts() {
        return contexts;
    }

    public void linkThreads(HandoffWriter handoffs) {
        this.handoffs = handoffs;
    }

    public HandoffWriter handoffs() {
        return handoffs;
    }

    public int threadCount() {
        return contexts.size();
    }
}
