package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.HotMethods;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.etl.JetwSchema;
import net.bytebuddy.agent.builder.AgentBuilder;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * Instrumenting a running application without stalling it (docs/attach-ramp.md). At attach, on its own thread:
 * <ol>
 * <li>samples every thread's stack {@link #SAMPLES} times, {@link #SAMPLE_INTERVAL_MILLIS} ms apart
 *     ({@link RunningMethods});</li>
 * <li>retransforms first, in one call, the loaded classes the options select that were seen in the samples: those
 *     with a method seen waiting or deep in a stack (slow calls, near I/O), then those holding a method seen running
 *     hot, whose hot methods get no advice (the path {@code hotMethods=} takes: registered, named, excluded from the
 *     start); then the classes not seen (rarely called), in batches of {@link #BATCH_CLASSES}; each tier in
 *     class-name order;</li>
 * <li>pauses after each call for {@link #PAUSE_PER_BUSY} times as long as it took, at least
 *     {@link #MIN_PAUSE_MILLIS} and at most {@link #MAX_PAUSE_MILLIS} ms, so that the retransformation and the
 *     recompilation it causes take a bounded share of the machine, and a busy machine does not stretch the ramp
 *     without end.</li>
 * </ol>
 * Why: a retransformation makes the JVM throw compiled code away, and advice in hot methods runs on every call until
 * adaptive exclusion mutes it; doing the whole library at once dropped a busy H2 application to 0.02 × for 15 s
 * (BENCHMARKS.md §16). Why the classes seen go first and together: the first retransformation in a JVM started without
 * an agent throws away all compiled code whatever it retransforms (HotSpot has recorded no dependencies to be more
 * selective), so the classes on the running stacks, which the JIT compiles again first, go in with it and are
 * compiled again once rather than twice; the classes not seen are rarely inlined into running code, so their later
 * batches throw little away.
 */
public final class AttachRamp implements Runnable {

    static final int SAMPLES = 40;
    static final long SAMPLE_INTERVAL_MILLIS = 10;
    static final int BATCH_CLASSES = 25;
    static final long MIN_PAUSE_MILLIS = 50;
    static final long MAX_PAUSE_MILLIS = 1_000;
    static final int PAUSE_PER_BUSY = 4;

    /** The reason a method running hot at attach is left out with (its MethodExclusion event in the trace). */
    static final HotMethods.Decision RUNNING_HOT = new HotMethods.Decision(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH, 0L);

    private final Instrumenter instrumenter;
    private final Selection selection;
    private final RunningMethods running = new RunningMethods();
    /** Hot methods left out, as CLASS.METHOD(DESCRIPTOR) (a retransformation asks again). */
    private final Set<String> leftOut = ConcurrentHashMap.newKeySet();
    private final CountDownLatch finished = new CountDownLatch(1);
    private final int[] tierClasses = new int[RunningMethods.Tier.values().length];
    private volatile boolean stopped;
    private volatile String phase = "not started";
    /** Classes retransformed so far, of those Byte Buddy matched (its passes so far), of those offered. */
    private volatile int classesDone;
    private volatile int classesMatched;
    private volatile int classesOffered;
    private Thread thread;

    public AttachRamp(Instrumenter instrumenter, Selection selection) {
        this.instrumenter = instrumenter;
        this.selection = selection;
    }

    public void start() {
        thread = dev.jetw.etw.JetwThreads.register(new Thread(this, "jetw-attach-ramp"));
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void run() {
        try {
            phase = "sampling the threads";
            for (int i = 0; i < SAMPLES && !stopped; i++) {
                running.sample(Thread.getAllStackTraces(), selection);
                Thread.sleep(SAMPLE_INTERVAL_MILLIS);
            }
            phase = "instrumenting";
            instrumenter.install(this);
            phase = stopped ? "stopped by detach" : "done";
        } catch (InterruptedException e) {
            phase = "interrupted";
        } catch (RuntimeException | Error e) {
            Dispatcher.failed(e);
            phase = "failed: " + e;
        } finally {
            finished.countDown();
        }
    }

    /** Waits until every loaded class is instrumented (the attach command's reply waits for this). */
    public void await() throws InterruptedException {
        finished.await();
    }

    /** Detach: no more pauses, and back when the classes under way are done (their transformer is then complete to reset). */
    public void stop() {
        stopped = true;
        try {
            if (thread != null) {
                thread.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The hot-method decision for a method being instrumented, or null: asked by the Instrumenter's selector. */
    HotMethods.Decision decisionFor(String className, String methodName, String descriptor) {
        if (!running.isHot(className, methodName)) {
            return null;
        }
        leftOut.add(className + '.' + methodName + descriptor);
        return RUNNING_HOT;
    }

    /**
     * The loaded classes the ramp offers Byte Buddy (which still matches each): a first pass with the classes seen in
     * the samples (waiting or deep, then holding hot methods), a second with those not seen; each tier in name order.
     */
    AgentBuilder.RedefinitionStrategy.DiscoveryStrategy discovery() {
        return instrumentation -> {
            List<List<Class<?>>> tiers = new ArrayList<>();
            for (int i = 0; i < tierClasses.length; i++) {
                tiers.add(new ArrayList<>());
            }
            for (Class<?> c : instrumentation.getAllLoadedClasses()) {
                if (c.isArray() || c.isPrimitive() || !instrumentation.isModifiableClass(c)) {
                    continue;
                }
                String name = c.getName();
                if (!name.equals(Selection.API_CLASS) && selection.rejectsByName(name, c.getClassLoader())) {
                    continue;
                }
                tiers.get(running.tierOf(name).ordinal()).add(c);
            }
            int total = 0;
            for (int i = 0; i < tiers.size(); i++) {
                tiers.get(i).sort(Comparator.comparing(Class::getName));
                tierClasses[i] = tiers.get(i).size();
                total += tierClasses[i];
            }
            classesOffered = total;
            List<Class<?>> seen = new ArrayList<>(tiers.get(RunningMethods.Tier.WAITING_OR_DEEP.ordinal()));
            seen.addAll(tiers.get(RunningMethods.Tier.HOT.ordinal()));
            List<Iterable<Class<?>>> passes = new ArrayList<>();
            passes.add(seen);
            passes.add(tiers.get(RunningMethods.Tier.NOT_SEEN.ordinal()));
            return passes;
        };
    }

    /** The classes seen in one batch (their pass is the first), the others {@link #BATCH_CLASSES} at a time. */
    AgentBuilder.RedefinitionStrategy.BatchAllocator batches() {
        AgentBuilder.RedefinitionStrategy.BatchAllocator fixed = AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(BATCH_CLASSES);
        return types -> types.isEmpty() || running.tierOf(types.get(0).getName()) == RunningMethods.Tier.NOT_SEEN
                ? fixed.batch(types) : java.util.Collections.singletonList(types);
    }

    /** Paces the batches and counts the classes done. */
    AgentBuilder.RedefinitionStrategy.Listener pacing() {
        return new AgentBuilder.RedefinitionStrategy.Listener.Adapter() {
            private long batchStarted;
            private int batchSize;
            private List<Class<?>> pass;

            @Override
            public void onBatch(int index, List<Class<?>> batch, List<Class<?>> types) {
                long now = System.nanoTime();
                if (types != pass) {
                    pass = types; // the first batch of a tier's pass: its matched classes
                    classesMatched += types.size();
                }
                if (batchSize > 0) {
                    classesDone += batchSize;
                    pause((now - batchStarted) / 1_000_000L);
                }
                batchStarted = System.nanoTime();
                batchSize = batch.size();
            }

            @Override
            public void onComplete(int amount, List<Class<?>> types, Map<List<Class<?>>, Throwable> failures) {
                classesDone += batchSize;
                batchSize = 0;
            }
        };
    }

    private void pause(long busyMillis) {
        if (stopped) {
            return;
        }
        try {
            Thread.sleep(Math.min(MAX_PAUSE_MILLIS, Math.max(MIN_PAUSE_MILLIS, busyMillis * PAUSE_PER_BUSY)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    /** One status line: the phase, classes done of those offered, the tiers, the hot methods left out. */
    public String status() {
        return phase + ", " + classesDone + " of " + classesMatched + " classes retransformed so far (of " + classesOffered
                + " loaded classes offered: " + tierClasses[0] + " seen waiting or deep in a stack, " + tierClasses[1] + " not seen, "
                + tierClasses[2] + " holding a method running hot); " + leftOut.size() + " methods left out as running hot ("
                + running.hotMethodCount() + " class.method names seen hot in " + running.samples() + " stack samples)";
    }

    /** Tests: the hot methods left out. */
    Set<String> leftOut() {
        return leftOut;
    }
}
