package dev.jetw.agent.core;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Removes the advice of methods adaptive exclusion excluded: every {@link #stepMillis} ms, on its own
 * daemon thread (never an application thread), it marks newly excluded methods uninstrumented and
 * retransforms, in one call (one safepoint), up to the step's share of {@code classesPerSecond} of
 * their classes, so that an excluded call no longer pays the dispatcher call and the JIT sees the
 * method's original, small body again. Calls running in the old code when a class is retransformed
 * still write their END. Rate: option uninstrumentRate (docs/agent-options.md).
 *
 * <p><b>Only once exclusions settle</b>: nothing is retransformed until no method has been newly
 * excluded for {@link #SETTLE_NANOS}. Each retransformation makes the JVM throw away the class's
 * compiled code and the JIT compile it again; while an application warms up, its classes' methods
 * are excluded one after another, and removing them as they come cost more CPU than the excluded
 * calls themselves (BENCHMARKS.md §7: at 200 classes a second, 12-15 s of CPU for a 60-round run
 * instead of 9-10 s with no removal). An excluded call costs one array read meanwhile.
 */
final class ExcludedMethodRemover implements Runnable {

    static final int DEFAULT_CLASSES_PER_SECOND = 200;
    /** The shortest pause between two steps. */
    static final long MIN_STEP_MILLIS = 100;
    /** No new exclusion for this long before any retransformation. */
    static final long SETTLE_NANOS = 2_000_000_000L;

    private final AdaptiveExclusion exclusion;
    private final MethodRegistry registry;
    private final Instrumenter instrumenter;
    private final Instrumentation inst;
    /** Pause between steps, and classes retransformed per step at most: together {@code classesPerSecond}. */
    final long stepMillis;
    final int classesPerStep;
    /** Index = method id: already marked (only this class's thread reads and writes it). */
    private final boolean[] handled;
    /** Class names waiting for their retransformation, in the order their methods were excluded. */
    private final Set<String> pending = new LinkedHashSet<>();
    private volatile boolean stopped;
    private volatile int classesRetransformed;
    /** System.nanoTime() of the step that last found a newly excluded method. */
    private long lastNewExclusion;
    private Thread thread;

    ExcludedMethodRemover(AdaptiveExclusion exclusion, MethodRegistry registry, Instrumenter instrumenter, Instrumentation inst,
                          int maxMethods, int classesPerSecond) {
        this.exclusion = exclusion;
        this.registry = registry;
        this.instrumenter = instrumenter;
        this.inst = inst;
        // 200/s: a step of 20 classes every 100 ms; 5/s: one class every 200 ms.
        this.stepMillis = Math.max(MIN_STEP_MILLIS, 1000L / Math.max(1, classesPerSecond));
        this.classesPerStep = (int) Math.max(1L, classesPerSecond * stepMillis / 1000L);
        this.handled = new boolean[maxMethods + 1];
    }

    void start() {
        thread = new Thread(this, "jetw-uninstrument");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and waits for a retransformation in progress (before detach restores the classes). */
    void stop() {
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

    int classesRetransformed() {
        return classesRetransformed;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                Thread.sleep(stepMillis);
            } catch (InterruptedException e) {
                return;
            }
            if (!stopped) {
                step(System.nanoTime());
            }
        }
    }

    /**
     * One step at {@code now} ({@link System#nanoTime}): mark what was excluded since the last step;
     * once exclusions have settled, retransform up to {@link #classesPerStep} classes. Returns how many
     * classes it asked the JVM to retransform.
     */
    int step(long now) {
        int n = registry.idCount(); // every id handed out: a method pushed out of the budget keeps its id
        for (int id = 1; id <= n; id++) {
            if (!handled[id] && exclusion.states[id] == AdaptiveExclusion.EXCLUDED) {
                handled[id] = true;
                registry.uninstrument(id);
                pending.add(registry.entry(id).className);
                lastNewExclusion = now;
            }
        }
        if (pending.isEmpty() || now - lastNewExclusion < SETTLE_NANOS) {
            return 0;
        }
        Set<String> names = new HashSet<>();
        for (Iterator<String> it = pending.iterator(); it.hasNext() && names.size() < classesPerStep; ) {
            names.add(it.next());
            it.remove();
        }
        List<Class<?>> classes = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (names.contains(c.getName()) && inst.isModifiableClass(c)) {
                classes.add(c);
            }
        }
        if (!classes.isEmpty() && instrumenter.retransform(classes.toArray(new Class<?>[0]))) {
            classesRetransformed += classes.size();
        }
        return classes.size();
    }
}
