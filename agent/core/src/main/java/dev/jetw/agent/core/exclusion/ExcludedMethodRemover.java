package dev.jetw.agent.core.exclusion;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.bootstrap.Dispatcher;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Removes the advice of methods that no longer need it, where muting is not enough: those adaptive
 * exclusion excluded and those the method budget pushed out after they were instrumented, in classes
 * whose class file predates Java 7. A method of a newer class file has a linked entry, and muting it
 * ({@link dev.jetw.bootstrap.MethodEntries}) already takes its advice out of compiled code without a
 * retransformation, so this class leaves it alone. Every {@link #STEP_MILLIS} ms, on its own daemon thread
 * (never an application thread), it marks the newly excluded methods uninstrumented and queues their
 * classes; in batches, it retransforms in one call (one safepoint) the classes that have waited at least
 * {@link #HOLD_NANOS}, so that such a call no longer reads the muted byte and the JIT sees the method's
 * original, small body again. Calls running in the old code when a class is retransformed still write
 * their END. Rate: option uninstrumentRate (docs/agent-options.md).
 *
 * <p><b>One early batch, then one a minute.</b> Each retransformation makes the JVM throw away the
 * compiled code that inlined any method of the class, and the JIT compile it again: on H2 one large caller
 * ({@code MVMap.operate}, 95 KB of compiled code, 100-500 ms of C2 each time) was recompiled 14 times
 * when classes were retransformed every second, and each later batch of an earlier schedule (2, 10, 42 s
 * after the first exclusion) cost a 3-4 s stall, whatever its size (BENCHMARKS.md §7). Waiting for
 * exclusions to stop did not work either: they keep trickling in (hot-fast). A muted method's advice costs
 * a byte read per call, so the first batch goes {@link #FIRST_BATCH_NANOS} after the first exclusion, when
 * most of a warm-up's exclusions have come, and each later one {@link #LATER_BATCH_NANOS} after the
 * previous. A batch takes at most {@code classesPerSecond} classes for each second since the previous one.
 * The hold lets a class collect the exclusions of its sibling methods first.
 */
public final class ExcludedMethodRemover implements Runnable {

    /** Pause between two looks at the exclusions. */
    static final long STEP_MILLIS = 1_000L;
    /** A class waits this long after its first method was queued before it is retransformed. */
    static final long HOLD_NANOS = 1_000_000_000L;
    /** The pause before the first batch (from the first exclusion). */
    static final long FIRST_BATCH_NANOS = 2_000_000_000L;
    /** The pause after each batch: batches at 2, 66, 130 ... s after the first exclusion, while there are exclusions. */
    static final long LATER_BATCH_NANOS = 64_000_000_000L;

    private final AdaptiveExclusion exclusion;
    private final MethodRegistry registry;
    private final Instrumentation inst;
    /** Classes retransformed per second since the previous batch at most: the option's rate. */
    final int classesPerSecond;
    /** Index = method id: already queued (only this class's thread reads and writes it). */
    private final boolean[] handled;
    /** Class names waiting for their retransformation, with the System.nanoTime() they were queued at, oldest first. */
    private final Map<String, Long> pending = new LinkedHashMap<>();
    private volatile boolean stopped;
    private volatile int classesRetransformed;
    /** For status: classes queued, and System.nanoTime() of the next batch (0: none due yet). */
    private volatile int classesWaiting;
    private volatile long nextBatchAt;
    private Thread thread;
    /** System.nanoTime() before which no batch goes (0: not set yet). */
    private long nextBatch;
    private long lastBatch;

    public ExcludedMethodRemover(AdaptiveExclusion exclusion, MethodRegistry registry, Instrumentation inst, int maxMethods, int classesPerSecond) {
        this.exclusion = exclusion;
        this.registry = registry;
        this.inst = inst;
        this.classesPerSecond = Math.max(1, classesPerSecond);
        this.handled = new boolean[maxMethods + 1];
    }

    public void start() {
        thread = dev.jetw.etw.JetwThreads.register(new Thread(this, "jetw-uninstrument"));
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and waits for a retransformation in progress (before detach restores the classes). */
    public void stop() {
        stopped = true;
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public int classesRetransformed() {
        return classesRetransformed;
    }

    /** For status: ", N waiting for the next batch (in S s)" (or "(due)": at the next step, once their hold is over) while classes wait, else "". */
    public String waiting(long now) {
        int n = classesWaiting;
        long at = nextBatchAt;
        if (n == 0) {
            return "";
        }
        long seconds = at == 0 ? 0 : Math.max(0L, (at - now + 999_999_999L) / 1_000_000_000L);
        return ", " + n + " waiting for the next batch (" + (seconds == 0 ? "due" : "in " + seconds + " s") + ")";
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                Thread.sleep(STEP_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (!stopped) {
                step(System.nanoTime());
            }
        }
    }

    /**
     * One step at {@code now} ({@link System#nanoTime}): queue the classes of methods excluded or pushed out
     * of the budget since the last step; if a batch is due, retransform the classes queued at least
     * {@link #HOLD_NANOS} ago, at most {@link #classesPerSecond} for each second since the previous batch.
     * Returns how many classes it asked the JVM to retransform.
     */
    int step(long now) {
        int n = registry.idCount(); // every id handed out: a method pushed out of the budget keeps its id
        for (int id = 1; id <= n; id++) {
            if (handled[id]) {
                continue;
            }
            boolean excluded = exclusion.states[id] == AdaptiveExclusion.EXCLUDED;
            if (excluded || registry.isEvicted(id)) {
                handled[id] = true;
                if (registry.isUninstrumented(id) || registry.isLinked(id)) {
                    continue; // never had its advice (option hotMethods=), or muted through its linked entry for free
                }
                if (excluded) {
                    registry.uninstrument(id);
                }
                pending.putIfAbsent(registry.entry(id).className, now);
            }
        }
        classesWaiting = pending.size();
        if (pending.isEmpty()) {
            return 0;
        }
        if (nextBatch == 0) {
            nextBatch = now + FIRST_BATCH_NANOS;
            lastBatch = now;
        }
        nextBatchAt = nextBatch;
        if (now - nextBatch < 0) {
            return 0;
        }
        long most = Math.max(1L, classesPerSecond * Math.max(1L, (now - lastBatch) / 1_000_000_000L));
        Set<String> names = new HashSet<>();
        for (Iterator<Map.Entry<String, Long>> it = pending.entrySet().iterator(); it.hasNext() && names.size() < most; ) {
            Map.Entry<String, Long> e = it.next();
            if (now - e.getValue() < HOLD_NANOS) {
                break; // oldest first: the rest were queued later still
            }
            names.add(e.getKey());
            it.remove();
        }
        if (names.isEmpty()) {
            return 0;
        }
        lastBatch = now;
        nextBatch = now + LATER_BATCH_NANOS;
        classesWaiting = pending.size();
        nextBatchAt = nextBatch;
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (names.contains(c.getName()) && inst.isModifiableClass(c)) {
                classes.add(c);
            }
        }
        if (!classes.isEmpty() && retransform(classes.toArray(new Class<?>[0]))) {
            classesRetransformed += classes.size();
        }
        return classes.size();
    }

    /**
     * Retransforms {@code classes} (their methods marked uninstrumented lose their advice); false
     * when the JVM refused, which is counted as an internal error. Called off the application's threads.
     */
    private boolean retransform(Class<?>[] classes) {
        try {
            inst.retransformClasses(classes);
            return true;
        } catch (Exception | LinkageError e) {
            Dispatcher.failed(e);
            return false;
        }
    }
}
