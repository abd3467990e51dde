package dev.jetw.agent.core.instrument;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AttachHot;
import dev.jetw.agent.core.options.HotMethods;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.etl.JetwSchema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * Instrumenting a running application without stalling it (docs/attach-ramp.md). At attach, on its own thread:
 * <ol>
 * <li>reads which classes hold compiled code ({@link CompiledClasses}, before it starts), then samples every thread's
 *     stack {@link #SAMPLES} times, {@link #SAMPLE_INTERVAL_MILLIS} ms apart ({@link RunningMethods});</li>
 * <li>retransforms first, in one call, the loaded classes the options select that were seen only waiting (slow calls,
 *     near I/O): the first tier, after which the attach command replies; then the classes neither seen nor compiled
 *     (rarely called), in batches of {@link #BATCH_CLASSES}; then the hot classes (on a running stack or compiled, or
 *     with a small method the code of those calls: {@link CalledFromCompiled}, maybe inlined into compiled code) as
 *     {@code attachHot=} says: together in one last call (defer), in the first call (now) or not at all (skip). Each tier in class-name order. The methods running hot get no advice (the
 *     path {@code hotMethods=} takes: registered, named, excluded from the start);</li>
 * <li>pauses after each call for {@link #PAUSE_PER_BUSY} times as long as it took, at least
 *     {@link #MIN_PAUSE_MILLIS} and at most {@link #MAX_PAUSE_MILLIS} ms, so that a busy machine does not stretch the
 *     ramp without end.</li>
 * </ol>
 * The calls are the ramp's own ({@link #instrumentLoaded}, through {@link Retransformation}: the direct path weaves the
 * classes, Byte Buddy only those it leaves), not Byte Buddy's redefinition strategy: its discovery, type pool and
 * matchers were transformation CPU and JIT work at every attach (BENCHMARKS.md §22).
 * Why the hot classes go last: retransforming a class throws away the compiled code of all its methods (the JVM makes
 * new methods, without code) and of every method that inlined one of them, and the application runs that code
 * interpreted until the JIT compiles it again. Why together: the large compiled methods inline many hot classes, so
 * retransforming them one at a time threw the same compiled code away once per class (on H2, 129 hot classes one by
 * one cost the JIT 34 s of CPU in 150 s: BENCHMARKS.md §16, addendum of issue 31).
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
    private final AttachHot attachHot;
    private final Consumer<Map<String, String>> classesLeftAlone;
    private final RunningMethods running = new RunningMethods();
    /** Hot methods left out, as CLASS.METHOD(DESCRIPTOR) (a retransformation asks again). */
    private final Set<String> leftOut = ConcurrentHashMap.newKeySet();
    private final CountDownLatch firstTier = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Per tier (RunningMethods.Tier): loaded classes offered, classes accepted (a method may be woven), classes retransformed. */
    private final int[] tierClasses = new int[RunningMethods.Tier.values().length];
    private final int[] tierMatched = new int[RunningMethods.Tier.values().length];
    private final int[] tierDone = new int[RunningMethods.Tier.values().length];
    private volatile int compiledClasses;
    /** Of the hot classes, those counted hot only for a small method the hot classes' code calls (CalledFromCompiled). */
    private volatile int calledByHotCode;
    /** With attachHot=skip: the hot classes the options select (accepted), left alone; counted before the first tier. */
    private volatile int hotLeftAlone;
    /** Classes of the retransformation calls that failed (not among those done). */
    private volatile int failed;
    /** The JVM's error of the first call that failed (named in the status), or null. */
    private volatile Throwable firstFailure;
    /** Set before the first pass: whether a later pass has classes to offer (the attach command's reply says so). */
    private volatile boolean laterPasses;
    /** How long the last retransformation call took (the ramp's thread only). */
    private long lastBatchNanos;
    private volatile boolean stopped;
    private volatile String phase = "not started";
    private Thread thread;

    public AttachRamp(Instrumenter instrumenter, Selection selection, AttachHot attachHot) {
        this(instrumenter, selection, attachHot, leftAlone -> { });
    }

    /**
     * {@code classesLeftAlone}: with attachHot=skip, given once when the ramp is done (not after a detach) the hot classes
     * the options select that it left alone, by name in name order, each with why it was hot (JetwSchema.LEFT_ALONE_WHY):
     * the agent writes them into the trace.
     */
    public AttachRamp(Instrumenter instrumenter, Selection selection, AttachHot attachHot,
                      Consumer<Map<String, String>> classesLeftAlone) {
        this.instrumenter = instrumenter;
        this.selection = selection;
        this.attachHot = attachHot;
        this.classesLeftAlone = classesLeftAlone;
    }

    /**
     * Reads the compiled classes at once, on the attach thread, before the agent's bring-up retransforms anything (the
     * hand-off classes of propagate=true): on JDK 17 and older that first retransformation throws all compiled code
     * away, after which the list would name only what the JIT compiled again since. Then starts the ramp's thread.
     */
    public void start() {
        compiled(CompiledClasses.read());
        thread = dev.jetw.etw.JetwThreads.register(new Thread(this, "jetw-attach-ramp"));
        thread.setDaemon(true);
        thread.start();
    }

    /** The classes with compiled code (also the tests' way to make classes hot). */
    void compiled(Set<String> classes) {
        compiledClasses = classes.size();
        running.compiled(classes);
    }

    @Override
    public void run() {
        try {
            phase = "sampling the threads";
            for (int i = 0; i < SAMPLES && !stopped; i++) {
                running.sample(Thread.getAllStackTraces(), selection);
                Thread.sleep(SAMPLE_INTERVAL_MILLIS);
            }
            if (stopped) {
                phase = "stopped by detach";
                return; // nothing installed: a detach during the samples has nothing to restore
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
            firstTier.countDown();
            finished.countDown();
        }
    }

    /**
     * Waits until the first tier (the classes seen waiting; with attachHot=now the hot classes too) is instrumented: the
     * attach command replies then, and the ramp goes on in the background.
     */
    public void awaitFirstTier() throws InterruptedException {
        firstTier.await();
    }

    /** Waits until the ramp is over (tests). */
    public void await() throws InterruptedException {
        finished.await();
    }

    /**
     * True when classes were left for after the first tier (known before it starts, so the attach command's reply says
     * the same whether or not the ramp has finished by the time it is written).
     */
    public boolean continuesAfterFirstTier() {
        return laterPasses;
    }

    /**
     * Detach (or the JVM's exit): no more pauses and no further pass, and back when the batch under way is done (its
     * transformer is then complete to reset).
     */
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

    /** The hot-method decision for a method being instrumented, or null: asked by the Instrumenter's admission (both paths). */
    HotMethods.Decision decisionFor(String className, String methodName, String descriptor) {
        if (!running.isHot(className, methodName)) {
            return null;
        }
        leftOut.add(className + '.' + methodName + descriptor);
        return RUNNING_HOT;
    }

    /**
     * What the ramp's retransformations go through ({@link Instrumenter}: the direct path, and Byte Buddy for the classes
     * it leaves). One implementation in the agent; tests give their own.
     */
    interface Retransformation {
        /** The loaded classes that may be retransformed (modifiable, not arrays or primitives). */
        List<Class<?>> loadedClasses();

        /** Whether a loaded class the options do not reject by name is to be retransformed (may a method of it be woven). */
        boolean accepts(Class<?> type);

        /** Retransforms the batch in one call: all or nothing (the JVM's error is thrown). */
        void retransform(List<Class<?>> batch) throws Exception;

        /**
         * After each pass: the classes of the pass the direct path left to Byte Buddy (the API class, older class
         * files, named modules), retransformed by it; returns those of them whose call failed (its error reported,
         * and told by {@link #passFailure}).
         */
        List<Class<?>> finishPass();

        /** The error of the last {@link #finishPass} that returned classes, or null. */
        Throwable passFailure();
    }

    /**
     * Retransforms the loaded classes: one pass per tier group in the order of {@link #passOrder}, each in class-name
     * order, in the batches of {@link #batchesOf} with the pauses of {@link #pauseAfter}; the first tier's end opens the
     * attach command's reply. After a detach, no further batch (the detach restores what is done). Counts per tier the
     * classes offered, accepted and done, and the classes of failed calls.
     */
    void instrumentLoaded(Retransformation r) {
        List<List<Class<?>>> tiers = tiers(r);
        if (attachHot == AttachHot.NOW) {
            hotByCall(tiers); // they go with the first call: sorted before it
        }
        List<List<RunningMethods.Tier>> order = passOrder(attachHot);
        for (int p = 1; p < order.size(); p++) {
            laterPasses |= !classesOf(order.get(p), tiers).isEmpty();
        }
        Map<String, String> leftAlone = null;
        if (attachHot == AttachHot.SKIP && !laterPasses) {
            // The reply's "done" line reads the count (with later passes the reply says the ramp goes on). Nothing moves to
            // the hot tier after this: the called-small rule moves classes not seen, and there are none.
            leftAlone = leftAlone(r, tiers);
            hotLeftAlone = leftAlone.size();
        }
        try {
            for (int p = 0; p < order.size() && !stopped; p++) {
                if (p == 1 && attachHot != AttachHot.NOW) {
                    hotByCall(tiers); // after the first tier: the attach command's reply does not wait for the class files
                }
                List<Class<?>> pass = accepted(r, classesOf(order.get(p), tiers));
                List<List<Class<?>>> batches = batchesOf(pass);
                for (int b = 0; b < batches.size() && !stopped; b++) {
                    if (p > 0 || b > 0) {
                        pause(pauseAfter(lastBatchNanos));
                        if (stopped) {
                            break; // a detach during the pause
                        }
                    }
                    retransform(r, batches.get(b));
                }
                if (stopped) {
                    break; // a detach: what the direct path left in this pass is not brought to Byte Buddy only to be restored
                }
                for (Class<?> c : r.finishPass()) {
                    tierDone[tierOf(c)]--; // counted done with its batch; Byte Buddy's own call failed
                    failed++;
                }
                Throwable passFailure = r.passFailure();
                if (firstFailure == null && passFailure != null) {
                    firstFailure = passFailure;
                }
                if (p == 0) {
                    firstTier.countDown();
                }
            }
            if (attachHot == AttachHot.SKIP && !stopped) {
                if (leftAlone == null) {
                    leftAlone = leftAlone(r, tiers);
                    hotLeftAlone = leftAlone.size();
                }
                try {
                    classesLeftAlone.accept(leftAlone);
                } catch (RuntimeException | LinkageError e) {
                    Dispatcher.failed(e); // the trace lacks the list; the ramp itself is done
                }
            }
        } finally {
            firstTier.countDown();
        }
    }

    /**
     * The hot classes the options select (offered is not selected: a narrow include offers classes it does not weave), by
     * name: a class of that name in two loaders is one class of the trace. An annotation rule reads class files to tell.
     */
    private Map<String, String> leftAlone(Retransformation r, List<List<Class<?>>> tiers) {
        Map<String, String> left = new TreeMap<>();
        for (Class<?> c : tiers.get(RunningMethods.Tier.HOT.ordinal())) {
            String name = c.getName();
            if (!left.containsKey(name) && r.accepts(c)) {
                left.put(name, running.hotReason(name));
            }
        }
        return left;
    }

    /** The loaded classes the options do not reject by name, per tier, counted, each in class-name order. */
    private List<List<Class<?>>> tiers(Retransformation r) {
        List<List<Class<?>>> tiers = new ArrayList<>();
        for (int i = 0; i < tierClasses.length; i++) {
            tiers.add(new ArrayList<>());
        }
        for (Class<?> c : r.loadedClasses()) {
            String name = c.getName();
            if (!name.equals(Selection.API_CLASS) && selection.rejectsByName(name, c.getClassLoader())) {
                continue;
            }
            int t = tierOf(c);
            tierClasses[t]++;
            tiers.get(t).add(c);
        }
        for (List<Class<?>> tier : tiers) {
            tier.sort(Comparator.comparing(Class::getName));
        }
        return tiers;
    }

    private static List<Class<?>> classesOf(List<RunningMethods.Tier> pass, List<List<Class<?>>> tiers) {
        List<Class<?>> classes = new ArrayList<>();
        for (RunningMethods.Tier t : pass) {
            classes.addAll(tiers.get(t.ordinal()));
        }
        return classes;
    }

    /**
     * Moves to the hot classes those not seen whose small method the hot classes' bytecode calls (CalledFromCompiled):
     * the JIT may have inlined it into the hot code, which their retransformation would throw away. By name, as every
     * tier is (RunningMethods.tierOf): a class of that name in another loader moves too. A class file or loader that
     * cannot be read moves nothing: the ramp goes on without the rule.
     */
    private void hotByCall(List<List<Class<?>>> tiers) {
        List<Class<?>> hot = tiers.get(RunningMethods.Tier.HOT.ordinal());
        List<Class<?>> notSeen = tiers.get(RunningMethods.Tier.NOT_SEEN.ordinal());
        Set<String> names = new java.util.HashSet<>();
        try {
            java.util.Map<String, Set<String>> invoked = CalledFromCompiled.invokedBy(hot);
            for (Class<?> c : notSeen) {
                if (!names.contains(c.getName()) && CalledFromCompiled.calledFrom(c, invoked)) {
                    names.add(c.getName());
                }
            }
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            Dispatcher.failed(e);
            return;
        }
        int moved = 0;
        for (java.util.Iterator<Class<?>> it = notSeen.iterator(); it.hasNext(); ) {
            Class<?> c = it.next();
            if (names.contains(c.getName())) {
                it.remove();
                hot.add(c);
                moved++;
            }
        }
        for (String name : names) {
            running.calledFromCompiled(name);
        }
        hot.sort(Comparator.comparing(Class::getName));
        tierClasses[RunningMethods.Tier.NOT_SEEN.ordinal()] -= moved;
        tierClasses[RunningMethods.Tier.HOT.ordinal()] += moved;
        calledByHotCode = moved;
    }

    /** The classes of a pass to retransform, counted as the pass starts (status: "N of M ... so far", tier by tier). */
    private List<Class<?>> accepted(Retransformation r, List<Class<?>> offered) {
        List<Class<?>> accepted = new ArrayList<>();
        for (Class<?> c : offered) {
            if (r.accepts(c)) {
                tierMatched[tierOf(c)]++;
                accepted.add(c);
            }
        }
        return accepted;
    }

    /**
     * One call; its classes are done when it returns, failed when it throws (reported, not retried: the next goes on).
     * Any Throwable: the JVM's errors the instrument layer does not map come back as InternalError (a merged constant
     * pool overflow) or OutOfMemoryError (JVMTI's out of memory), and one batch's error must not end the ramp and leave
     * its counts short (Byte Buddy's redefinition strategy, before the ramp, caught Throwable per batch too).
     */
    private void retransform(Retransformation r, List<Class<?>> batch) {
        long started = System.nanoTime();
        try {
            r.retransform(batch);
            for (Class<?> c : batch) {
                tierDone[tierOf(c)]++;
            }
        } catch (Throwable e) {
            failed += batch.size();
            if (firstFailure == null) {
                firstFailure = e;
            }
            Dispatcher.failed(e);
        } finally {
            lastBatchNanos = System.nanoTime() - started;
        }
    }

    private int tierOf(Class<?> c) {
        return running.tierOf(c.getName()).ordinal();
    }

    /** The tiers of each retransformation pass, in order: the first pass is the first tier (the attach command's reply). */
    static List<List<RunningMethods.Tier>> passOrder(AttachHot attachHot) {
        List<List<RunningMethods.Tier>> passes = new ArrayList<>();
        if (attachHot == AttachHot.NOW) {
            passes.add(java.util.Arrays.asList(RunningMethods.Tier.WAITING, RunningMethods.Tier.HOT));
        } else {
            passes.add(java.util.Collections.singletonList(RunningMethods.Tier.WAITING));
        }
        passes.add(java.util.Collections.singletonList(RunningMethods.Tier.NOT_SEEN));
        if (attachHot == AttachHot.DEFER) {
            passes.add(java.util.Collections.singletonList(RunningMethods.Tier.HOT));
        }
        return passes;
    }

    /** Those not seen {@link #BATCH_CLASSES} at a time; the first pass and the deferred hot classes each in one call. */
    private List<List<Class<?>>> batchesOf(List<Class<?>> pass) {
        List<List<Class<?>>> batches = new ArrayList<>();
        if (pass.isEmpty()) {
            return batches;
        }
        int size = tierOf(pass.get(0)) == RunningMethods.Tier.NOT_SEEN.ordinal() ? BATCH_CLASSES : pass.size();
        for (int from = 0; from < pass.size(); from += size) {
            batches.add(pass.subList(from, Math.min(pass.size(), from + size)));
        }
        return batches;
    }

    /** The pause before the next call: {@link #PAUSE_PER_BUSY} times as long as the last one took, within the bounds. */
    static long pauseAfter(long lastCallNanos) {
        return Math.min(MAX_PAUSE_MILLIS, Math.max(MIN_PAUSE_MILLIS, lastCallNanos / 1_000_000L * PAUSE_PER_BUSY));
    }

    private void pause(long millis) {
        if (stopped) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    /**
     * One status line: the phase; classes retransformed of those accepted so far, of those offered, by tier;
     * what attachHot= does with the hot classes and how many are left; the hot methods left out.
     */
    public String status() {
        int w = RunningMethods.Tier.WAITING.ordinal();
        int n = RunningMethods.Tier.NOT_SEEN.ordinal();
        int h = RunningMethods.Tier.HOT.ordinal();
        return phase + ", " + sum(tierDone) + " of " + sum(tierMatched) + " classes retransformed so far"
                + (failed == 0 ? "" : ", " + failed + " failed (their calls are not traced; the error is counted in status"
                        + (firstFailure == null ? "" : "; the first: " + firstFailure) + ")")
                + " (of " + sum(tierClasses)
                + " loaded classes offered: " + tierClasses[w] + " seen only waiting in a stack, " + tierClasses[n] + " not seen, "
                + tierClasses[h] + " hot: on a running stack or compiled); hot classes (" + AttachHot.KEY + "=" + attachHot.value() + "): "
                + hotProgress(h) + "; " + leftOut.size() + " methods left out as running hot ("
                + running.hotMethodCount() + " class.method names seen hot in " + running.samples() + " stack samples, "
                + compiledClasses + " classes with compiled code, " + calledByHotCode + " hot classes only for a small method that code calls)";
    }

    private String hotProgress(int h) {
        switch (attachHot) {
            case NOW:
                return tierDone[h] + " retransformed with the first tier";
            case SKIP:
                return (hotLeftAlone == 0 ? "" : hotLeftAlone + " selected, ") + "not retransformed in this attach (their methods are not traced; to trace them too: attachHot=defer, or -javaagent"
                        + " at start-up)";
            default:
                boolean started = tierMatched[h] > 0;
                return "deferred, together after the others, " + tierDone[h] + " done, "
                        + (started ? (tierMatched[h] - tierDone[h]) + " left" : tierClasses[h] + " offered to come");
        }
    }

    private static int sum(int[] counts) {
        int s = 0;
        for (int c : counts) {
            s += c;
        }
        return s;
    }

    /**
     * With attachHot=skip, the hot classes (on a running stack or compiled) the options select and this attach leaves
     * alone: with nothing after the first tier counted before it (the attach command's reply reads it after the first
     * tier), else when the ramp is done; otherwise 0.
     */
    public int hotClassesLeftAlone() {
        return hotLeftAlone;
    }

    /** Tests: the hot methods left out. */
    Set<String> leftOut() {
        return leftOut;
    }
}
