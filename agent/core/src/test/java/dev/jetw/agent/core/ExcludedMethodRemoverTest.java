package dev.jetw.agent.core;

import org.junit.jupiter.api.Test;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The remover's pace and which excluded methods it takes the advice from (no class is retransformed here). */
class ExcludedMethodRemoverTest {

    /** An Instrumentation with no loaded class: the step marks methods but has nothing to retransform. */
    private static Instrumentation noClasses() {
        return (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(), new Class<?>[] {Instrumentation.class},
                (proxy, method, args) -> method.getName().equals("getAllLoadedClasses") ? new Class<?>[0] : null);
    }

    private static ExcludedMethodRemover remover(AdaptiveExclusion x, MethodRegistry r, int rate) {
        Instrumentation inst = noClasses();
        return new ExcludedMethodRemover(x, r, new Instrumenter(inst, null, r, null, false), inst, r.capacity(), rate);
    }

    @Test
    void theRateIsSpreadOverShortSteps() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=a.**").rules);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        ExcludedMethodRemover byDefault = remover(x, r, ExcludedMethodRemover.DEFAULT_CLASSES_PER_SECOND);
        assertEquals(100, byDefault.stepMillis);
        assertEquals(20, byDefault.classesPerStep, "200 classes a second: 20 every 100 ms");
        ExcludedMethodRemover slow = remover(x, r, 5);
        assertEquals(200, slow.stepMillis);
        assertEquals(1, slow.classesPerStep, "5 a second: one every 200 ms");
        ExcludedMethodRemover fast = remover(x, r, 1000);
        assertEquals(100, fast.stepMillis);
        assertEquals(100, fast.classesPerStep);
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

    @Test
    void nothingIsRetransformedUntilExclusionsSettle() {
        MethodRegistry r = new MethodRegistry(10, AgentOptions.parse("include=java.lang.**").rules);
        int first = r.register("java.lang.String", "length", "()I", 4, -1L, 0);
        int second = r.register("java.lang.Integer", "intValue", "()I", 4, -1L, 0);
        AdaptiveExclusion x = new AdaptiveExclusion(r.thresholds, true);
        Instrumentation inst = (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(),
                new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getAllLoadedClasses":
                            return new Class<?>[] {String.class, Integer.class};
                        case "isModifiableClass":
                            return true;
                        default:
                            return null; // retransformClasses: done
                    }
                });
        ExcludedMethodRemover m = new ExcludedMethodRemover(x, r, new Instrumenter(inst, null, r, null, false), inst, r.capacity(), 20);
        exclude(x, first);
        long s = ExcludedMethodRemover.SETTLE_NANOS;
        assertEquals(0, m.step(0L), "just excluded: wait");
        exclude(x, second);
        assertEquals(0, m.step(s - 1), "another exclusion: the wait starts again");
        assertEquals(0, m.step(2 * s - 2), "still within the wait since the second exclusion");
        assertEquals(2, m.step(2 * s), "settled: both classes in one retransformation");
        assertEquals(2, m.classesRetransformed());
        assertEquals(0, m.step(3 * s), "nothing left");
    }

    private static void exclude(AdaptiveExclusion x, int id) {
        for (int i = 0; i < AdaptiveExclusion.WINDOW; i++) {
            x.observe(id, 10, i);
        }
        assertEquals(AdaptiveExclusion.EXCLUDED, x.states[id]);
    }
}
