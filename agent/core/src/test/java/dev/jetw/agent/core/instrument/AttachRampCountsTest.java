package dev.jetw.agent.core.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.agent.core.methods.Selection;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.agent.core.options.AttachHot;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.shapes.Shapes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The ramp's own retransformation driver (docs/attach-ramp.md): the passes in the documented order, each in class-name
 * order, the classes not seen in batches, the hot ones in one call; the classes the direct path leaves to Byte Buddy
 * after their pass; and the status counts: a retransformation call that failed is not among the classes done, and
 * says so.
 */
class AttachRampCountsTest {

    /** Hot: compiled (CompiledClasses' list); the others not seen. Shapes.WithDefault is an interface: never offered to weave. */
    private static final Set<String> COMPILED = new HashSet<>(Arrays.asList(Shapes.Concrete.class.getName(), Shapes.Annotated.class.getName()));

    private final Selection selection = new Selection(AgentOptions.parse("include=dev.jetw.shapes.**"));

    /** A JVM that records each call; {@code failing}: the classes whose call throws. */
    private static final class Recording implements AttachRamp.Retransformation {
        final List<List<String>> calls = new ArrayList<>();
        final List<String> events = new ArrayList<>();
        final Set<Class<?>> failing = new HashSet<>();
        /** What a failing call throws: the instrument layer's mapping of a JVMTI error by default. */
        java.util.function.Supplier<Throwable> failure =
                () -> new UnsupportedOperationException("class redefinition failed: attempted to change the schema");
        final List<Class<?>> leftForByteBuddy = new ArrayList<>();
        boolean byteBuddyFails;
        /** Run after each call that did not throw. */
        Runnable afterCall = () -> { };
        /** Run at each pass's end, before it counts. */
        Runnable atPassEnd = () -> { };
        private final List<Class<?>> loaded;

        Recording(Class<?>... loaded) {
            this.loaded = Arrays.asList(loaded);
        }

        @Override
        public List<Class<?>> loadedClasses() {
            return loaded;
        }

        @Override
        public boolean accepts(Class<?> type) {
            return !type.isInterface();
        }

        @Override
        public void retransform(List<Class<?>> batch) {
            List<String> names = new ArrayList<>();
            for (Class<?> c : batch) {
                // the simple name from the binary name: getSimpleName of a nested class's copy in another loader throws
                names.add(c.getName().replaceAll(".*[.$]", "") + (c.getClassLoader() instanceof ServingNoClassFile ? "@2" : ""));
            }
            calls.add(names);
            events.add("call " + names);
            for (Class<?> c : batch) {
                if (failing.contains(c)) {
                    sneakyThrow(failure.get());
                }
            }
            afterCall.run();
        }

        @Override
        public List<Class<?>> finishPass() {
            events.add("pass end");
            atPassEnd.run();
            if (leftForByteBuddy.isEmpty() || !byteBuddyFails) {
                leftForByteBuddy.clear();
                return Collections.emptyList();
            }
            List<Class<?>> failed = new ArrayList<>(leftForByteBuddy);
            leftForByteBuddy.clear();
            return failed;
        }

        @Override
        public Throwable passFailure() {
            return byteBuddyFails ? new InternalError("JVMTI error 62") : null;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    private AttachRamp ramp(AttachHot attachHot) {
        AttachRamp ramp = new AttachRamp(null, selection, attachHot);
        ramp.compiled(COMPILED);
        return ramp;
    }

    @Test
    void deferRetransformsTheClassesNotSeenByNameThenTheHotOnesInOneCall() {
        AttachRamp ramp = ramp(AttachHot.DEFER);
        Recording jvm = new Recording(Shapes.TracedClass.class, Shapes.Concrete.class, Shapes.WithDefault.class, Shapes.Plain.class,
                Shapes.Annotated.class, String.class);

        ramp.instrumentLoaded(jvm);

        assertEquals(Arrays.asList("pass end", "call [TracedClass]", "pass end", "call [Annotated, Concrete, Plain]", "pass end"), jvm.events,
                "no class seen waiting (empty first pass), the classes not seen by name, the hot ones together last (Plain too: compiled"
                        + " Annotated calls its small describe)");
        String status = ramp.status();
        assertTrue(status.contains(", 4 of 4 classes retransformed so far (of 5 loaded classes offered: 0 seen only waiting in a stack, "
                + "2 not seen, 3 hot: on a running stack or compiled); hot classes (attachHot=defer): deferred, together after the others, 3 done, 0 left"), status);
        assertTrue(status.endsWith(", 1 hot classes only for a small method that code calls)"), status);
    }

    @Test
    void nowTakesTheHotClassesWithTheFirstCallAndSkipNever() {
        Recording now = new Recording(Shapes.TracedClass.class, Shapes.Concrete.class);
        ramp(AttachHot.NOW).instrumentLoaded(now);
        assertEquals(Arrays.asList(Collections.singletonList("Concrete"), Collections.singletonList("TracedClass")), now.calls);

        Recording skip = new Recording(Shapes.TracedClass.class, Shapes.Concrete.class);
        ramp(AttachHot.SKIP).instrumentLoaded(skip);
        assertEquals(Collections.singletonList(Collections.singletonList("TracedClass")), skip.calls);
    }

    /**
     * A class not seen whose small method the hot classes' bytecode calls may be inlined into their compiled code, which
     * its retransformation would throw away: it counts hot (with skip, left alone), and status says how many.
     */
    @Test
    void aClassWhoseSmallMethodTheHotCodeCallsCountsHot() {
        AttachRamp ramp = ramp(AttachHot.SKIP);
        Recording jvm = new Recording(Shapes.Plain.class, Shapes.TracedClass.class, Shapes.Annotated.class);

        ramp.instrumentLoaded(jvm);

        assertEquals(Collections.singletonList(Collections.singletonList("TracedClass")), jvm.calls,
                "Plain (its describe called by compiled Annotated) is left alone with the hot classes");
        String status = ramp.status();
        assertTrue(status.contains("(of 3 loaded classes offered: 0 seen only waiting in a stack, 1 not seen, 2 hot: on a running stack or"
                + " compiled)"), status);
        assertTrue(status.endsWith(", 1 hot classes only for a small method that code calls)"), status);
    }

    @Test
    void theClassesNotSeenGoInBatches() {
        List<Class<?>> many = new ArrayList<>();
        for (int i = 0; i < AttachRamp.BATCH_CLASSES + 1; i++) {
            many.add(Shapes.Plain.class); // the same class offered again stands for as many loaded classes
        }
        Recording jvm = new Recording(many.toArray(new Class<?>[0]));

        ramp(AttachHot.SKIP).instrumentLoaded(jvm);

        assertEquals(2, jvm.calls.size(), "batches of " + AttachRamp.BATCH_CLASSES);
        assertEquals(AttachRamp.BATCH_CLASSES, jvm.calls.get(0).size());
        assertEquals(1, jvm.calls.get(1).size());
    }

    @Test
    void aFailedRetransformationIsCountedAsFailedNotDone() {
        AttachRamp ramp = ramp(AttachHot.SKIP);
        Recording jvm = new Recording(Shapes.Plain.class, Shapes.TracedClass.class);
        jvm.failing.add(Shapes.Plain.class);
        long errorsBefore = Dispatcher.internalErrors();

        ramp.instrumentLoaded(jvm);

        String status = ramp.status();
        assertTrue(status.contains(", 0 of 2 classes retransformed so far, 2 failed (their calls are not traced"), status);
        assertTrue(Dispatcher.internalErrors() > errorsBefore, "the JVM's error is reported");
    }

    @Test
    void anInternalErrorOfTheFirstBatchFailsItAndTheNextBatchStillRuns() {
        List<Class<?>> loaded = new ArrayList<>();
        for (int i = 0; i < AttachRamp.BATCH_CLASSES; i++) {
            loaded.add(Shapes.Plain.class); // the first batch: Plain sorts before TracedClass
        }
        loaded.add(Shapes.TracedClass.class);
        Recording jvm = new Recording(loaded.toArray(new Class<?>[0]));
        jvm.failing.add(Shapes.Plain.class);
        jvm.failure = () -> new InternalError("Merged constant pool overflow"); // a JVMTI error the instrument layer does not map
        AttachRamp ramp = ramp(AttachHot.SKIP);
        long errorsBefore = Dispatcher.internalErrors();

        ramp.instrumentLoaded(jvm);

        assertEquals(2, jvm.calls.size(), "the second batch runs after the first one's error");
        assertEquals(Collections.singletonList("TracedClass"), jvm.calls.get(1));
        String status = ramp.status();
        assertTrue(status.contains(", 1 of 26 classes retransformed so far, 25 failed (their calls are not traced; the error is counted in status; "
                + "the first: java.lang.InternalError: Merged constant pool overflow)"), status);
        assertTrue(Dispatcher.internalErrors() > errorsBefore, "the JVM's error is reported");
    }

    @Test
    void aClassByteBuddyFailedOnIsCountedAsFailedNotDone() {
        AttachRamp ramp = ramp(AttachHot.SKIP);
        Recording jvm = new Recording(Shapes.Plain.class, Shapes.TracedClass.class);
        jvm.afterCall = () -> jvm.leftForByteBuddy.add(Shapes.TracedClass.class); // say, an older class file
        jvm.byteBuddyFails = true;

        ramp.instrumentLoaded(jvm);

        String status = ramp.status();
        assertTrue(status.contains(", 1 of 2 classes retransformed so far, 1 failed (their calls are not traced; the error is counted in status; "
                + "the first: java.lang.InternalError: JVMTI error 62)"), status);
    }

    @Test
    void aDetachStopsBetweenBatches() {
        AttachRamp ramp = ramp(AttachHot.DEFER);
        Recording jvm = new Recording(Shapes.Plain.class, Shapes.Concrete.class);
        jvm.afterCall = ramp::stop;

        ramp.instrumentLoaded(jvm);

        assertEquals(Collections.singletonList(Collections.singletonList("Plain")), jvm.calls, "the deferred hot classes are not retransformed");
    }

    /** Defines Shapes.Plain a second time, and serves no class file (LoadedClassFiles reads none from it). */
    private static final class ServingNoClassFile extends ClassLoader {
        ServingNoClassFile() {
            super(AttachRampCountsTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Shapes.Plain.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) {
                    return c;
                }
                try (java.io.InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
                    byte[] buf = new byte[4096];
                    for (int n; (n = in.read(buf)) > 0; ) {
                        bytes.write(buf, 0, n);
                    }
                    byte[] b = bytes.toByteArray();
                    return defineClass(name, b, 0, b.length);
                } catch (java.io.IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
        }

        @Override
        public java.io.InputStream getResourceAsStream(String name) {
            return null;
        }
    }

    /**
     * Tiers go by name (RunningMethods.tierOf): a copy of a class moved hot by the called-small rule, in a loader whose
     * class file cannot be read, moves with it, so that every count agrees with the lists the ramp calls.
     */
    @Test
    void aSameNamedClassOfAnotherLoaderMovesWithItsName() throws Exception {
        Class<?> plainAgain = Class.forName(Shapes.Plain.class.getName(), false, new ServingNoClassFile());
        AttachRamp ramp = ramp(AttachHot.DEFER);
        Recording jvm = new Recording(Shapes.Plain.class, plainAgain, Shapes.TracedClass.class, Shapes.Annotated.class,
                Shapes.Concrete.class);

        ramp.instrumentLoaded(jvm);

        String status = ramp.status();
        assertEquals(Arrays.asList(Collections.singletonList("TracedClass"), Arrays.asList("Annotated", "Concrete", "Plain", "Plain@2")),
                jvm.calls, status + " " + jvm.events);
        assertTrue(status.contains("(of 5 loaded classes offered: 0 seen only waiting in a stack, 1 not seen, 4 hot: on a running stack or"
                + " compiled"), status);
        assertTrue(status.contains("deferred, together after the others, 4 done, 0 left"), status);
        assertTrue(status.endsWith(", 2 hot classes only for a small method that code calls)"), status);
    }

    /** The attach command replies after the first tier: the class files of the called-small rule are read after it. */
    @Test
    void theCalledSmallRuleRunsAfterTheFirstTier() {
        AttachRamp ramp = ramp(AttachHot.SKIP);
        List<String> atFirstPassEnd = new ArrayList<>();
        Recording jvm = new Recording(Shapes.Plain.class, Shapes.TracedClass.class, Shapes.Annotated.class);
        jvm.atPassEnd = () -> {
            if (atFirstPassEnd.isEmpty()) {
                atFirstPassEnd.add(ramp.status());
            }
        };

        ramp.instrumentLoaded(jvm);

        assertTrue(atFirstPassEnd.get(0).endsWith(", 0 hot classes only for a small method that code calls)"), atFirstPassEnd.get(0));
        assertTrue(ramp.status().endsWith(", 1 hot classes only for a small method that code calls)"), ramp.status());
        assertEquals(Collections.singletonList(Collections.singletonList("TracedClass")), jvm.calls);
    }

    /** skip with only hot classes: nothing follows the first tier, and the reply must still say they are left alone. */
    @Test
    void skipWithOnlyHotClassesCountsThemLeftAlone() {
        AttachRamp ramp = new AttachRamp(null, selection, AttachHot.SKIP);
        Set<String> compiled = new HashSet<>(COMPILED);
        compiled.add(Shapes.WithDefault.class.getName()); // hot and offered, but an interface: not selected

        ramp.compiled(compiled);
        ramp.instrumentLoaded(new Recording(Shapes.Annotated.class, Shapes.Concrete.class, Shapes.WithDefault.class));

        assertFalse(ramp.continuesAfterFirstTier());
        assertEquals(2, ramp.hotClassesLeftAlone(), "the two classes the options select, not the interface offered");
        AttachRamp defer = ramp(AttachHot.DEFER);
        defer.instrumentLoaded(new Recording(Shapes.Annotated.class, Shapes.Concrete.class));
        assertEquals(0, defer.hotClassesLeftAlone(), "defer retransforms them");
    }
    /**
     * The trace names what skip left alone (docs/attach-ramp.md): once the ramp is done, the hot classes the options select,
     * by name in name order, each with why it was hot; the status counts them.
     */
    @Test
    void skipNamesTheClassesItLeftAloneWithWhyOnceDone() {
        List<Map<String, String>> given = new ArrayList<>();
        AttachRamp ramp = new AttachRamp(null, selection, AttachHot.SKIP, given::add);
        ramp.compiled(COMPILED);
        Set<String> compiledInterface = new HashSet<>(COMPILED);
        compiledInterface.add(Shapes.WithDefault.class.getName()); // hot but an interface: not selected, not named
        ramp.compiled(compiledInterface);

        ramp.instrumentLoaded(new Recording(Shapes.Plain.class, Shapes.TracedClass.class, Shapes.Annotated.class,
                Shapes.Concrete.class, Shapes.WithDefault.class));

        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(Shapes.Annotated.class.getName(), "compiled");
        expected.put(Shapes.Concrete.class.getName(), "compiled");
        expected.put(Shapes.Plain.class.getName(), "a small method hot code calls");
        assertEquals(Collections.singletonList(expected), given);
        assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(given.get(0).keySet()), "in name order");
        assertEquals(3, ramp.hotClassesLeftAlone());
        assertTrue(ramp.status().contains("hot classes (attachHot=skip): 3 selected, not retransformed in this attach"), ramp.status());
    }

    /** Nothing is named when the hot classes are retransformed (defer, now) or a detach stopped the ramp. */
    @Test
    void onlyACompletedSkipNamesClassesLeftAlone() {
        for (AttachHot hot : AttachHot.values()) {
            List<Map<String, String>> given = new ArrayList<>();
            AttachRamp ramp = new AttachRamp(null, selection, hot, given::add);
            ramp.compiled(COMPILED);
            ramp.instrumentLoaded(new Recording(Shapes.TracedClass.class, Shapes.Concrete.class));
            assertEquals(hot == AttachHot.SKIP ? 1 : 0, given.size(), hot.value());

            List<Map<String, String>> afterDetach = new ArrayList<>();
            AttachRamp stopped = new AttachRamp(null, selection, hot, afterDetach::add);
            stopped.compiled(COMPILED);
            Recording jvm = new Recording(Shapes.TracedClass.class, Shapes.Plain.class, Shapes.Concrete.class);
            jvm.afterCall = stopped::stop;
            stopped.instrumentLoaded(jvm);
            assertEquals(Collections.emptyList(), afterDetach, hot.value() + ": a detach restores what the ramp did");
        }
    }

    /** A list the writer cannot take leaves the ramp done, the error counted (status' internal errors). */
    @Test
    void aFailingListOfClassesLeftAloneDoesNotFailTheRamp() {
        long before = Dispatcher.internalErrors();
        AttachRamp ramp = new AttachRamp(null, selection, AttachHot.SKIP, left -> {
            throw new IllegalStateException("no buffer");
        });
        ramp.compiled(COMPILED);
        Recording jvm = new Recording(Shapes.TracedClass.class, Shapes.Concrete.class);

        ramp.instrumentLoaded(jvm);

        assertEquals(Collections.singletonList(Collections.singletonList("TracedClass")), jvm.calls);
        assertEquals(before + 1, Dispatcher.internalErrors());
        assertTrue(Dispatcher.lastError() instanceof IllegalStateException);
    }

    /** Why a class was hot, in the trace's words: a running stack before compiled code before a small method called. */
    @Test
    void theReasonOfAHotClassPrefersTheRunningStack() {
        RunningMethods running = new RunningMethods();
        Map<Thread, StackTraceElement[]> stacks = Collections.singletonMap(Thread.currentThread(), new StackTraceElement[] {
                new StackTraceElement(Shapes.Plain.class.getName(), "describe", "Shapes.java", 1)});
        running.sample(stacks, selection);
        running.compiled(new HashSet<>(Arrays.asList(Shapes.Plain.class.getName(), Shapes.Concrete.class.getName())));
        running.calledFromCompiled(Shapes.Annotated.class.getName());

        assertEquals("on a running stack", running.hotReason(Shapes.Plain.class.getName()));
        assertEquals("compiled", running.hotReason(Shapes.Concrete.class.getName()));
        assertEquals("a small method hot code calls", running.hotReason(Shapes.Annotated.class.getName()));
    }
}
