package dev.jetw.agent.core.exclusion;

import dev.jetw.agent.core.methods.MethodRegistry;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.HotMethods;
import org.junit.jupiter.api.Test;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The remover's pace and which methods it takes the advice from (no class is really retransformed here). */
class ExcludedMethodRemoverTest {

    /** An Instrumentation with no loaded class: the step marks methods but has nothing to retransform. */
    private static Instrumentation noClasses() {
        return (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(), new Class<?>[] {Instrumentation.class},
                (proxy, method, args) -> method.getName().equals("getAllLoadedClasses") ? new Class<?>[0] : null);
    }

    private static ExcludedMethodRemover remover(AdaptiveExclusion x, MethodRegistry r, int rate) {
        return remover(x, r, noClasses(), rate);
    }

    /** A remover over {@code inst} retransforming at most {@code rate} classes a second. */
    private static ExcludedMethodRemover remover(AdaptiveExclusion x, MethodRegistry r, Instrumentation inst, int rate) {
        return new ExcludedMethodRemover(x, r, inst, r.capacity(), rate);
    }

    @Test
    void anExcludedMethodWhoseIdIsAboveTheInstrumentedCountLosesItsAdvice() {
        // A budget of 5 for 20 methods: methods are pushed out on the way, so ids go beyond the 5 instrumented.
        MethodRegistry r = new MethodRegistry(5, AgentOptions.parse("include=a.**,maxMethods=5").rules);
        int last = 0;
        for (int i = 0; i < 20; i++) {
            int id = r.register("a.C" + i, "m", "()V", 4, -1L, 0);
            if (id != 0) {
                last = id;
            }
        }
        assertEquals(5, r.count());
        assertTrue(last > r.count(), "an id above the count: " + last);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
            x.observe(last, 10, i);
        }
        assertEquals(AdaptiveExclusion.EXCLUDED, x.states[last]);
        remover(x, r, 20).step(0L);
        assertTrue(r.isUninstrumented(last), "its next retransformation leaves it out");
    }

    /** An Instrumentation whose loaded classes are {@code loaded}; every retransformation it is asked for is recorded. */
    private static Instrumentation loaded(List<List<Class<?>>> retransformed, Class<?>... loaded) {
        return (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getAllLoadedClasses":
                            return loaded;
                        case "isModifiableClass":
                            return true;
                        case "retransformClasses":
                            retransformed.add(Arrays.asList((Class<?>[]) args[0]));
                            return null;
                        default:
                            return null;
                    }
                });
    }

    @Test
    void oneEarlyBatchThenOneAMinuteAndEachClassWaitsItsHold() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=java.lang.**").rules);
        int first = r.register("java.lang.String", "length", "()I", 4, -1L, 0);
        int sibling = r.register("java.lang.String", "isEmpty", "()Z", 4, -1L, 0);
        int second = r.register("java.lang.Integer", "intValue", "()I", 4, -1L, 0);
        int third = r.register("java.lang.Long", "longValue", "()J", 4, -1L, 0);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        List<List<Class<?>>> calls = new ArrayList<>();
        Instrumentation inst = loaded(calls, String.class, Integer.class, Long.class);
        ExcludedMethodRemover m = remover(x, r, inst, 20);
        long s = 1_000_000_000L;
        assertEquals(s, ExcludedMethodRemover.HOLD_NANOS);
        assertEquals(2 * s, ExcludedMethodRemover.FIRST_BATCH_NANOS);
        assertEquals(64 * s, ExcludedMethodRemover.LATER_BATCH_NANOS);
        exclude(x, first);
        assertEquals(0, m.step(0L), "just excluded: its class waits");
        exclude(x, sibling);
        assertEquals(0, m.step(s), "String's hold is over, but the first batch is due 2 s after the first exclusion");
        assertTrue(r.isUninstrumented(sibling), "a sibling excluded meanwhile is marked, to leave with the same retransformation");
        exclude(x, second);
        assertEquals(1, m.step(2 * s), "the first batch: String; Integer, queued at 2 s, still waits its hold");
        assertEquals(Collections.singletonList(Collections.singletonList(String.class)), calls);
        exclude(x, third);
        assertEquals(0, m.step(4 * s), "Integer and Long are ready, but the next batch is due 64 s after the first");
        assertEquals(", 2 waiting for the next batch (in 62 s)", m.waiting(4 * s), "status says what waits and till when");
        assertEquals(0, m.step(66 * s - 1));
        assertEquals(2, m.step(66 * s), "the second batch takes every class ready, in one call");
        assertEquals(Arrays.asList(Integer.class, Long.class), calls.get(1));
        assertEquals(3, m.classesRetransformed());
        assertEquals("", m.waiting(66 * s), "nothing waits");
        int late = r.register("java.lang.Short", "shortValue", "()S", 4, -1L, 0);
        exclude(x, late);
        assertEquals(0, m.step(130 * s - 1), "queued (Short is not loaded here anyway), and the pause is still 64 s");
        assertEquals(0, m.step(130 * s), "the third batch finds no loaded class of that name: nothing asked");
        assertEquals(2, calls.size());
    }

    @Test
    void aBatchTakesNoMoreClassesThanTheRateForEachSecondSinceThePrevious() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=java.lang.**").rules);
        int a = r.register("java.lang.String", "length", "()I", 4, -1L, 0);
        int b = r.register("java.lang.Integer", "intValue", "()I", 4, -1L, 0);
        int c = r.register("java.lang.Long", "longValue", "()J", 4, -1L, 0);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        List<List<Class<?>>> calls = new ArrayList<>();
        Instrumentation inst = loaded(calls, String.class, Integer.class, Long.class);
        ExcludedMethodRemover m = remover(x, r, inst, 1);
        exclude(x, a);
        exclude(x, b);
        exclude(x, c);
        long s = 1_000_000_000L;
        m.step(0L);
        assertEquals(2, m.step(2 * s), "rate 1, 2 s since the queue started: two classes");
        assertEquals(1, m.step(66 * s), "the third a batch later");
        assertEquals(3, m.classesRetransformed());
    }

    @Test
    void aMethodPushedOutOfTheBudgetLosesTheAdviceItWasGiven() {
        // Budget 1: a second method of smaller name hash pushes the first out; the first's class still has its advice.
        MethodRegistry r = new MethodRegistry(1, AgentOptions.parse("include=java.lang.**,maxMethods=1").rules);
        int kept = 0;
        int pushedOut = 0;
        String[] names = {"length", "isEmpty", "hashCode", "trim", "intern", "strip", "lines", "chars"};
        for (String name : names) {
            int id = r.register("java.lang.String", name, "()V", 4, -1L, 0);
            if (id != 0 && kept != 0 && r.isEvicted(kept)) {
                pushedOut = kept;
            }
            if (id != 0) {
                kept = id;
            }
        }
        assertTrue(pushedOut != 0, "some registered method was pushed out by a later one");
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        List<List<Class<?>>> calls = new ArrayList<>();
        Instrumentation inst = loaded(calls, String.class);
        ExcludedMethodRemover m = remover(x, r, inst, 20);
        m.step(0L);
        assertEquals(1, m.step(ExcludedMethodRemover.FIRST_BATCH_NANOS), "its class is retransformed without it, though it was never excluded");
        assertEquals(Collections.singletonList(Collections.singletonList(String.class)), calls);
        assertEquals(AdaptiveExclusion.OBSERVING, x.states[pushedOut]);
    }

    @Test
    void aMethodExcludedFromAListBeforeItsAdviceCostsNoRetransformation() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=java.lang.**").rules);
        int listed = r.register("java.lang.String", "length", "()I", 4, -1L, 0);
        int found = r.register("java.lang.Integer", "intValue", "()I", 4, -1L, 0);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        // What the instrumenter does for a method a hotMethods= list names hot-short: excluded, left without advice.
        assertTrue(x.startKnown(listed, new HotMethods.Decision("hot-short", 0L)));
        r.uninstrument(listed);
        List<List<Class<?>>> calls = new ArrayList<>();
        Instrumentation inst = loaded(calls, String.class, Integer.class);
        ExcludedMethodRemover m = remover(x, r, inst, 20);
        m.step(0L);
        assertEquals(0, m.step(ExcludedMethodRemover.FIRST_BATCH_NANOS), "String never had the listed method's advice: nothing queued");
        exclude(x, found);
        m.step(ExcludedMethodRemover.FIRST_BATCH_NANOS + 1);
        assertEquals(1, m.step(2 * ExcludedMethodRemover.FIRST_BATCH_NANOS + 1), "a method excluded in this run still loses its advice");
        assertEquals(Collections.singletonList(Collections.singletonList(Integer.class)), calls);
    }

    @Test
    void aMethodWithALinkedEntryIsMutedNotRetransformed() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=java.lang.**").rules);
        int linked = r.register("java.lang.String", "length", "()I", 4, -1L, 0);
        int byteChecked = r.register("java.lang.Integer", "intValue", "()I", 4, -1L, 0);
        r.markLinked(linked); // what the instrumenter does for a class file of Java 7 or later
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        List<List<Class<?>>> calls = new ArrayList<>();
        Instrumentation inst = loaded(calls, String.class, Integer.class);
        ExcludedMethodRemover m = remover(x, r, inst, 20);
        exclude(x, linked);
        exclude(x, byteChecked);
        m.step(0L);
        assertEquals(1, m.step(ExcludedMethodRemover.FIRST_BATCH_NANOS), "only the byte-checked method's class is retransformed");
        assertEquals(Collections.singletonList(Collections.singletonList(Integer.class)), calls);
        assertEquals(false, r.isUninstrumented(linked), "the linked method keeps its (muted) advice");
    }

    private static void exclude(AdaptiveExclusion x, int id) {
        for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
            x.observe(id, 10, i);
        }
        assertEquals(AdaptiveExclusion.EXCLUDED, x.states[id]);
    }
}
