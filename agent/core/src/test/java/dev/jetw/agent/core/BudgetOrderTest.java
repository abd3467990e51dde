package dev.jetw.agent.core;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The method budget with the agent attached: classes of testapp.order (4 x 12 methods), loaded by
 * a fresh class loader per run in different orders, give the same instrumented set, and only
 * that set writes events; with two rules, each gets its share whichever rule's classes load first.
 */
class BudgetOrderTest {

    private static final String PKG = "testapp.order.";

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    /** Attaches, loads the classes in {@code order} in a new loader, calls every method; returns the instrumented set. */
    private List<String> run(String options, String... order) throws Exception {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, options);
        URL classes = BudgetOrderTest.class.getProtectionDomain().getCodeSource().getLocation();
        List<String> instrumented;
        TreeSet<String> written = new TreeSet<>();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes}, null)) {
            List<Class<?>> loaded = new ArrayList<>();
            for (String simple : order) {
                loaded.add(Class.forName(PKG + simple, true, loader));
            }
            instrumented = new ArrayList<>(AgentMain.current().registry.instrumented());
            instrumented.removeIf(k -> !k.startsWith(PKG)); // @Traced methods of classes other tests loaded
            for (Class<?> c : loaded) {
                Object o = c.getConstructor().newInstance();
                for (Method m : c.getDeclaredMethods()) {
                    assertEquals(7 + Integer.parseInt(m.getName().substring(1)), m.invoke(o, 7), m.getName());
                }
            }
        }
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b);
        for (String name : t.methodStarts.values()) {
            if (name.startsWith(PKG) && !t.callsOf(name).isEmpty()) {
                written.add(name);
            }
        }
        TreeSet<String> kept = new TreeSet<>();
        for (String k : instrumented) {
            kept.add(k.substring(0, k.indexOf('(')));
        }
        assertEquals(kept, written, "exactly the instrumented methods write events");
        return instrumented;
    }

    @Test
    void theSameMethodsWhateverTheLoadingOrder() throws Exception {
        String options = "include=testapp.order.*,maxMethods=10,trivial=trace"; // the fixtures are trivial methods
        List<String> forward = run(options, "P", "Q", "R", "S");
        assertEquals(10, forward.size());
        assertEquals(forward, run(options, "S", "R", "Q", "P"));
        assertEquals(forward, run(options, "R", "P", "S", "Q"));
        assertNotEquals(12, forward.stream().filter(k -> k.startsWith(PKG + "P.")).count(),
                "not simply the first class's methods");
    }

    @Test
    void bothRulesGetMethodsWhicheverLoadsFirst() throws Exception {
        String options = "include=testapp.order.*;testapp.order.P,maxMethods=10,trivial=trace";
        List<String> pLast = run(options, "Q", "R", "S", "P");
        assertEquals(Arrays.asList(5L, 5L), Arrays.asList(
                pLast.stream().filter(k -> k.startsWith(PKG + "P.")).count(),
                pLast.stream().filter(k -> !k.startsWith(PKG + "P.")).count()));
        assertEquals(pLast, run(options, "P", "S", "R", "Q"));
    }
}
