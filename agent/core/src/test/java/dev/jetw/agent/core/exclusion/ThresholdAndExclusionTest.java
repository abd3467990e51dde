package dev.jetw.agent.core.exclusion;

import dev.jetw.agent.core.AgentHarness;
import dev.jetw.agent.core.RecordingBackend;
import dev.jetw.agent.core.TraceModel;
import dev.jetw.bootstrap.CallHandler;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.bootstrap.MethodEntries;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Getters;
import testapp.Signatures;
import testapp.Sleepy;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.lang.instrument.ClassFileTransformer;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicReference;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The duration threshold and adaptive exclusion, through the recording backend (which keeps the
 * caller-set time of writeSmallAt, the time a Windows session receives with WNODE_FLAG_USE_TIMESTAMP).
 * Timing margins are generous: 60/80 ms sleeps against a 30 ms threshold and calls of nanoseconds.
 */
class ThresholdAndExclusionTest {

    @TempDir
    Path dir;

    @AfterEach
    void detach() {
        AgentHarness.detachQuietly();
    }

    private static ByteBuffer le(byte[] payload) {
        return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Method names ("Sleepy.pause") by id, from the Method DC_START rundown. */
    private static Map<Integer, String> methodNames(List<RecordingBackend.Event> events) {
        Map<Integer, String> names = new HashMap<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_INDEX && e.type == EventType.DC_START) {
                ByteBuffer p = le(e.payload);
                int id = p.getInt();
                String cls = TraceModel.utf16z(p);
                names.put(id, cls.substring(cls.lastIndexOf('.') + 1) + "." + TraceModel.utf16z(p));
            }
        }
        return names;
    }

    private static List<RecordingBackend.Event> calls(List<RecordingBackend.Event> events, int type) {
        List<RecordingBackend.Event> out = new ArrayList<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_CALL_INDEX && e.type == type) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void thresholdWritesExactlyTheSlowCallsWithEntryTimesAndWholeTrees() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Sleepy,threshold=30ms");
        long before = System.nanoTime();
        new Sleepy().run();
        AgentHarness.detach();
        List<RecordingBackend.Event> events = b.snapshot();
        Map<Integer, String> names = methodNames(events);

        Map<Integer, RecordingBackend.Event> startById = new HashMap<>();
        List<String> started = new ArrayList<>();
        for (RecordingBackend.Event s : calls(events, EventType.START)) {
            startById.put(s.instanceId, s);
            started.add(names.get(le(s.payload).getInt()));
        }
        // Record order: a thresholded call's START is written at its exit, after everything inside it.
        assertEquals(Arrays.asList("Sleepy.pause", "Sleepy.pause", "Sleepy.slowInner", "Sleepy.slowOuter",
                "Sleepy.checkpointed", "Sleepy.run"), started, "the slow calls and the checkpointed one; no call of fast()");
        List<RecordingBackend.Event> ends = calls(events, EventType.END);
        assertEquals(started.size(), ends.size());
        for (RecordingBackend.Event end : ends) {
            RecordingBackend.Event start = startById.get(end.instanceId);
            assertEquals(start.parentInstanceId, end.parentInstanceId, "START and END agree on the parent");
            assertEquals(RecordingBackend.NO_CALLER_TIME, end.callerNanoTime, "an END is stamped when written");
        }

        RecordingBackend.Event run = only(startById, names, "Sleepy.run");
        RecordingBackend.Event outer = only(startById, names, "Sleepy.slowOuter");
        RecordingBackend.Event inner = only(startById, names, "Sleepy.slowInner");
        RecordingBackend.Event checkpointed = only(startById, names, "Sleepy.checkpointed");
        assertEquals(0, run.parentInstanceId);
        assertEquals(run.instanceId, outer.parentInstanceId);
        assertEquals(outer.instanceId, inner.parentInstanceId);
        assertEquals(run.instanceId, checkpointed.parentInstanceId);
        List<Integer> pauseParents = new ArrayList<>();
        for (RecordingBackend.Event s : startById.values()) {
            if (names.get(le(s.payload).getInt()).equals("Sleepy.pause")) {
                pauseParents.add(s.parentInstanceId);
            }
        }
        pauseParents.sort(null);
        List<Integer> expectedParents = new ArrayList<>(Arrays.asList(outer.instanceId, inner.instanceId));
        expectedParents.sort(null);
        assertEquals(expectedParents, pauseParents);

        // Entry times: each START carries the clock reading of its call's entry.
        assertTrue(before <= run.callerNanoTime && run.callerNanoTime <= outer.callerNanoTime);
        assertTrue(outer.callerNanoTime <= Sleepy.slowOuterBegan, "slowOuter's START is its entry, before its body");
        assertTrue(Sleepy.slowOuterBegan <= inner.callerNanoTime && inner.callerNanoTime <= Sleepy.slowInnerBegan,
                "slowInner's START is its entry: after slowOuter's body began, before its own body");
        assertTrue(inner.callerNanoTime - outer.callerNanoTime >= 60_000_000L, "the 60 ms pause lies between them");

        List<RecordingBackend.Event> checkpoints = calls(events, EventType.CHECKPOINT);
        assertEquals(1, checkpoints.size());
        assertEquals(checkpointed.instanceId, checkpoints.get(0).instanceId, "the checkpoint names its (written) enclosing call");
    }

    private static RecordingBackend.Event only(Map<Integer, RecordingBackend.Event> starts, Map<Integer, String> names, String method) {
        RecordingBackend.Event found = null;
        for (RecordingBackend.Event s : starts.values()) {
            if (names.get(le(s.payload).getInt()).equals(method)) {
                assertEquals(null, found, "one call of " + method);
                found = s;
            }
        }
        assertTrue(found != null, method + " written");
        return found;
    }

    @Test
    void adaptiveExclusionStopsAHotGetterNotASlowMethodAndSaysSo() {
        RecordingBackend b = new RecordingBackend();
        // threshold=0: every call wanted, so the hot slow method is not given a threshold either (next test).
        AgentHarness.attach(b, dir, "include=testapp.Getters,threshold=0");
        Getters g = new Getters();
        long sum = 0;
        for (int i = 0; i < 3 * AdaptiveExclusion.WINDOW; i++) {
            sum += g.value();
        }
        for (int i = 0; i < AdaptiveExclusion.WINDOW + 100; i++) {
            sum += g.spin();
        }
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        List<RecordingBackend.Event> events = b.snapshot();
        Map<Integer, String> names = methodNames(events);

        Map<String, Integer> startsPerMethod = new HashMap<>();
        for (RecordingBackend.Event s : calls(events, EventType.START)) {
            startsPerMethod.merge(names.get(le(s.payload).getInt()), 1, Integer::sum);
        }
        // Whole windows of observed calls, then nothing. Usually the first window decides; on Temurin 25, with the
        // classes described from their class files (ClassDescriptions), 4 runs of 16 had more than SLOW_ALLOWED calls
        // of 2 us or more in the first window just after the attach, and the second window decided (by reflection:
        // 0 of 9). Never the third: 768 would be every call.
        int getterStarts = startsPerMethod.get("Getters.value");
        assertTrue(getterStarts == AdaptiveExclusion.WINDOW || getterStarts == 2 * AdaptiveExclusion.WINDOW,
                "the getter wrote one or two windows of observed calls, then nothing: " + getterStarts + " (sum " + sum + ")");
        assertEquals(AdaptiveExclusion.WINDOW + 100, (int) startsPerMethod.get("Getters.spin"), "every call of the slow method");

        List<RecordingBackend.Event> exclusions = new ArrayList<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_EXCLUSION_INDEX) {
                exclusions.add(e);
            }
        }
        assertEquals(1, exclusions.size(), "one exclusion event: the getter's");
        RecordingBackend.Event x = exclusions.get(0);
        assertEquals(EventType.INFO, x.type);
        assertEquals(0, x.level);
        ByteBuffer p = le(x.payload);
        assertEquals("Getters.value", names.get(p.getInt()));
        assertEquals(AdaptiveExclusion.WINDOW, p.getInt(), "calls observed");
        assertTrue(p.getInt() <= AdaptiveExclusion.SLOW_ALLOWED, "long calls within the allowance");
        assertEquals(AdaptiveExclusion.SHORT_NANOS, p.getLong());
        assertEquals(JetwSchema.EXCLUSION_HOT_SHORT, TraceModel.utf16z(p));
        assertEquals(x.payload.length, p.position());
        assertTrue(status.contains("methods excluded:    1 (adaptive: hot and short)"), status);
    }

    @Test
    void aHotMethodWithoutAThresholdIsGivenOneAndTheTraceSaysSo() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Getters");
        Getters g = new Getters();
        long sum = 0;
        // 20 us a call: a window of calls takes ~5 ms, far within HOT_WINDOW_NANOS (256 ms), so the method is hot.
        for (int i = 0; i < AdaptiveExclusion.WINDOW + 100; i++) {
            sum += g.spin();
        }
        sum += g.slow(); // called once, lasting 1.5 ms: at least the hot threshold
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        List<RecordingBackend.Event> events = b.snapshot();
        Map<Integer, String> names = methodNames(events);
        Map<String, Integer> startsPerMethod = new HashMap<>();
        for (RecordingBackend.Event s : calls(events, EventType.START)) {
            startsPerMethod.merge(names.get(le(s.payload).getInt()), 1, Integer::sum);
        }
        int spins = startsPerMethod.get("Getters.spin");
        // Every call of the window, then only those of 1 ms or more: a 20 us call lasts that long only when its
        // thread is descheduled meanwhile, so on a loaded machine a few may be written, never all 100.
        assertTrue(spins >= AdaptiveExclusion.WINDOW && spins < AdaptiveExclusion.WINDOW + 100,
                "the window's calls, then hardly any: " + spins + " (sum " + sum + ")");
        assertEquals(1, (int) startsPerMethod.get("Getters.slow"), "a method called once keeps every call");

        List<RecordingBackend.Event> exclusions = new ArrayList<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_EXCLUSION_INDEX) {
                exclusions.add(e);
            }
        }
        assertEquals(1, exclusions.size(), "one event: the hot method's threshold");
        ByteBuffer p = le(exclusions.get(0).payload);
        assertEquals("Getters.spin", names.get(p.getInt()));
        assertEquals(AdaptiveExclusion.WINDOW, p.getInt(), "calls observed");
        assertTrue(p.getInt() > AdaptiveExclusion.SLOW_ALLOWED, "long calls: not short, so not excluded");
        assertEquals(AdaptiveExclusion.SHORT_NANOS, p.getLong());
        assertEquals(JetwSchema.EXCLUSION_HOT_THRESHOLD + "1ms", TraceModel.utf16z(p));
        assertTrue(status.contains("methods thresholded: 1 (adaptive: hot, given threshold 1ms)"), status);
    }

    @Test
    void aMethodKeptWhileSlowlyCalledIsGivenTheHotThresholdOnceItIsCalledOften() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Getters");
        Getters g = new Getters();
        long sum = 0;
        // Observed while called about 900 times a second (a call every 1.1 ms or more): never hot, kept after its windows.
        int observed = AdaptiveExclusion.MAX_WINDOWS * AdaptiveExclusion.WINDOW;
        for (int i = 0; i < observed; i++) {
            sum += g.spin();
            long until = System.nanoTime() + 1_100_000L;
            while (System.nanoTime() - until < 0) {
                java.util.concurrent.locks.LockSupport.parkNanos(until - System.nanoTime());
            }
        }
        String kept = AgentHarness.run("command=status", AgentHarness.inst(), null);
        // Then called back to back (20 us a call): the rate check every RATE_CALLS kept calls finds it hot.
        int fast = 4 * AdaptiveExclusion.RATE_CALLS;
        for (int i = 0; i < fast; i++) {
            sum += g.spin();
        }
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        assertTrue(kept.contains("methods thresholded: 0 "), kept);
        assertTrue(status.contains("methods thresholded: 1 (adaptive: hot, given threshold 1ms)"), status);
        List<RecordingBackend.Event> events = b.snapshot();
        Map<Integer, String> names = methodNames(events);
        long starts = calls(events, EventType.START).stream().filter(e -> names.get(le(e.payload).getInt()).equals("Getters.spin")).count();
        // Every observed call, the kept calls up to the second rate check, then only calls of 1 ms or more
        // (a 20 us call lasts that long only when its thread is descheduled: a few at most, never the rest).
        long expected = observed + 2L * AdaptiveExclusion.RATE_CALLS;
        assertTrue(starts >= expected && starts < expected + 100, "written: " + starts + ", expected about " + expected + " (sum " + sum + ")");
        List<String> reasons = new ArrayList<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_EXCLUSION_INDEX) {
                ByteBuffer p = le(e.payload);
                assertEquals("Getters.spin", names.get(p.getInt()));
                p.position(20);
                reasons.add(TraceModel.utf16z(p));
            }
        }
        assertEquals(Arrays.asList(JetwSchema.EXCLUSION_HOT_THRESHOLD + "1ms"), reasons, "the trace says why its short calls stopped");
    }

    @Test
    void anExplicitThresholdOrAdaptiveFalseGivesNoHotMethodAThreshold() {
        for (String options : new String[] {"include=testapp.Getters,threshold=0", "include=testapp.Getters@0",
                                             "include=testapp.Getters,adaptive=false"}) {
            RecordingBackend b = new RecordingBackend();
            AgentHarness.attach(b, dir, options);
            Getters g = new Getters();
            for (int i = 0; i < AdaptiveExclusion.WINDOW + 100; i++) {
                g.spin();
            }
            AgentHarness.detach();
            List<RecordingBackend.Event> events = b.snapshot();
            assertEquals(AdaptiveExclusion.WINDOW + 100, calls(events, EventType.START).size(), options + ": every call");
            for (RecordingBackend.Event e : events) {
                assertTrue(e.classIndex != JetwSchema.METHOD_EXCLUSION_INDEX, options + ": no MethodExclusion event");
            }
        }
    }

    @Test
    void anExcludedMethodsAdviceStopsCallingIntoTheAgentAndDetachUnmutesIt() throws Exception {
        RecordingBackend b = new RecordingBackend();
        // Getters is a Java 8 class file: its entry is linked, so the remover never retransforms it and what keeps
        // the getter's calls out of the agent is the mute alone.
        AgentHarness.attach(b, dir, "include=testapp.Getters,threshold=0");
        Getters g = new Getters();
        long sum = 0;
        for (int i = 0; i < 3 * AdaptiveExclusion.WINDOW; i++) {
            sum += g.value();
        }
        CallHandler agentHandler = Dispatcher.handler();
        Map<Integer, Integer> entries = new HashMap<>();
        CallHandler counting = new CallHandler() {
            @Override
            public long enter(int methodId) {
                entries.merge(methodId, 1, Integer::sum);
                return agentHandler.enter(methodId);
            }

            @Override
            public void exit(int methodId, long token, Throwable thrown) {
                agentHandler.exit(methodId, token, thrown);
            }

            @Override
            public void checkpoint(String label, int level) {
                agentHandler.checkpoint(label, level);
            }
        };
        Dispatcher.install(counting); // unmutes every method: the getter's next call reaches the agent once
        try {
            for (int i = 0; i < 1000; i++) {
                sum += g.value();
                sum += g.spin();
            }
        } finally {
            Dispatcher.install(agentHandler);
        }
        for (int i = 0; i < 3; i++) {
            sum += g.value(); // muted again by its first call, so the detach below has something to clear
        }
        int[] mutedBeforeDetach = mutedIds();
        AtomicReference<byte[]> bytes = new AtomicReference<>();
        ClassFileTransformer capture = capturing("testapp/Getters", bytes);
        AgentHarness.inst().addTransformer(capture, true);
        try {
            AgentHarness.inst().retransformClasses(Getters.class); // shows the agent's output to the capture
        } finally {
            AgentHarness.inst().removeTransformer(capture);
        }
        Thread.sleep(2 * ExcludedMethodRemover.STEP_MILLIS + 500); // the remover looks twice: a queued class would show
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        Map<Integer, String> names = methodNames(b.snapshot());
        int value = idOf(names, "Getters.value");
        int spin = idOf(names, "Getters.spin");
        assertEquals(1, (int) entries.get(value), "the excluded getter called into the agent once, then no more (sum " + sum + ")");
        assertEquals(1000, (int) entries.get(spin), "every call of the traced method reaches the agent");
        assertTrue(Arrays.equals(new int[] {value}, mutedBeforeDetach), "only the getter is muted: " + Arrays.toString(mutedBeforeDetach));
        assertEquals(0, mutedIds().length, "the detach unmutes every method: the next attach numbers them afresh");
        assertEquals(true, linksItsEntry(bytes.get(), "value"), "a Java 8 class file gets the linked entry");
        assertTrue(status.contains("methods excluded:    1 (adaptive: hot and short), 0 classes retransformed without their advice"),
                "muted through its call site, the getter's class is not retransformed: " + status);
    }

    private static int[] mutedIds() {
        return java.util.stream.IntStream.range(0, MethodEntries.MUTABLE_IDS).filter(MethodEntries::isMuted).toArray();
    }

    private static int idOf(Map<Integer, String> names, String name) {
        return names.entrySet().stream().filter(e -> e.getValue().equals(name)).mapToInt(Map.Entry::getKey).findFirst()
                .orElseThrow(() -> new AssertionError(name + " has no DC_START: " + names));
    }

    @Test
    void excludedMethodsOfAJava6ClassLoseTheirAdviceByRetransformation() throws Exception {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.OldGetters");
        // A transformer registered after the agent's sees the agent's output when the class is retransformed.
        AtomicReference<byte[]> lastBytes = new AtomicReference<>();
        ClassFileTransformer capture = capturing("testapp/OldGetters", lastBytes);
        AgentHarness.inst().addTransformer(capture, true);
        try {
            Class<?> old = Java6Copies.define(Getters.class, "testapp.OldGetters"); // no invokedynamic: the byte-checked entry
            Object g = old.getConstructor().newInstance();
            Method value = old.getMethod("value");
            for (int i = 0; i < 2 * AdaptiveExclusion.WINDOW; i++) {
                value.invoke(g);
            }
            String status = statusOnceOneClassIsRetransformed();
            assertTrue(status.contains("methods excluded:    1 (adaptive: hot and short), 1 classes retransformed without their advice"),
                    status);
            byte[] bytes = lastBytes.get();
            assertTrue(bytes != null, "OldGetters was retransformed");
            assertEquals(false, callsDispatcher(bytes, "value"), "the excluded getter has its original body again");
            assertEquals(true, callsDispatcher(bytes, "spin"), "the other method keeps its advice");
            old.getMethod("spin").invoke(g);
        } finally {
            AgentHarness.inst().removeTransformer(capture);
        }
        AgentHarness.detach();
        Map<Integer, String> names = methodNames(b.snapshot());
        long spins = calls(b.snapshot(), EventType.END).stream().filter(e -> names.get(le(e.payload).getInt()).equals("OldGetters.spin")).count();
        assertEquals(1L, spins, "the retransformed class still traces its other method");
    }

    @Test
    void aListOfHotMethodsStartsThemExcludedOrThresholdedAndTheTraceSaysSo() throws Exception {
        Path list = dir.resolve("h2.hot");
        java.nio.file.Files.write(list, java.util.Arrays.asList(
                "# from an earlier trace",
                "hot-short testapp.Getters.value()I",
                "hot-threshold=1ms testapp.Getters.spin()J",
                "hot-fast testapp.Getters.notAMethodOfIt()V"));
        RecordingBackend b = new RecordingBackend();
        String reply = AgentHarness.attach(b, dir, "include=testapp.Getters,hotMethods=" + list);
        assertTrue(reply.contains("hot methods: 3 in " + list), reply);
        AtomicReference<byte[]> lastBytes = new AtomicReference<>();
        ClassFileTransformer capture = capturing("testapp/Getters", lastBytes);
        Getters g = new Getters();
        AgentHarness.inst().addTransformer(capture, true);
        try {
            AgentHarness.inst().retransformClasses(Getters.class); // shows the agent's output to the capture
        } finally {
            AgentHarness.inst().removeTransformer(capture);
        }
        assertEquals(false, callsDispatcher(lastBytes.get(), "value"), "a listed hot-short method never gets advice");
        assertEquals(true, callsDispatcher(lastBytes.get(), "spin"), "a thresholded one keeps it");
        long sum = 0;
        for (int i = 0; i < 10; i++) {
            sum += g.value() + g.spin(); // spin: 20 us, under its listed 1 ms threshold
        }
        sum += g.slow(); // not listed: written as any call
        String status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        List<RecordingBackend.Event> events = b.snapshot();
        Map<Integer, String> names = methodNames(events);
        Map<String, Integer> ends = new HashMap<>();
        for (RecordingBackend.Event e : calls(events, EventType.END)) {
            ends.merge(names.get(le(e.payload).getInt()), 1, Integer::sum);
        }
        assertEquals(null, ends.get("Getters.value"), "sum " + sum);
        assertEquals(null, ends.get("Getters.spin"), "calls under the listed threshold are not written");
        assertEquals(1, (int) ends.get("Getters.slow"));
        Map<String, String> reasons = new HashMap<>();
        for (RecordingBackend.Event e : events) {
            if (e.classIndex == JetwSchema.METHOD_EXCLUSION_INDEX) {
                ByteBuffer p = le(e.payload);
                String method = names.get(p.getInt());
                assertEquals(0, p.getInt(), "no calls observed: decided by the list");
                p.getInt();
                p.getLong();
                reasons.put(method, TraceModel.utf16z(p));
            }
        }
        Map<String, String> expected = new HashMap<>();
        expected.put("Getters.value", JetwSchema.EXCLUSION_HOT_SHORT + JetwSchema.EXCLUSION_KNOWN_SUFFIX);
        expected.put("Getters.spin", JetwSchema.EXCLUSION_HOT_THRESHOLD + "1ms" + JetwSchema.EXCLUSION_KNOWN_SUFFIX);
        assertEquals(expected, reasons, "one MethodExclusion per listed method instrumented, after its name");
        assertTrue(status.contains("methods excluded:    1 (adaptive: hot and short), 1 of them from hotMethods= (never instrumented)"), status);
        assertTrue(status.contains(", 1 of them from hotMethods= (3 methods in " + list + ")"), status);
    }

    @Test
    void retransformingWithoutAdviceLoadsNoClassItsSignaturesName() throws Throwable {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.OldSignatures;testapp.SignatureOnly");
        Class<?> old = Java6Copies.define(Signatures.class, "testapp.OldSignatures"); // retransformed by the remover
        Object s = old.getConstructor().newInstance();
        // A method handle, not reflection: Class.getMethod resolves the types of every method's signature.
        MethodHandle value = MethodHandles.publicLookup().findVirtual(old, "value", MethodType.methodType(int.class));
        for (int i = 0; i < 2 * AdaptiveExclusion.WINDOW; i++) {
            value.invoke(s);
        }
        String status = statusOnceOneClassIsRetransformed();
        assertTrue(status.contains("1 classes retransformed without their advice"), status);
        assertEquals(false, isLoaded("testapp.SignatureOnly"), "the retransformation loaded a class its signatures name");
        MethodHandles.publicLookup().findStatic(old, "useNew", MethodType.methodType(long.class)).invoke();
        AgentHarness.detach();
        Map<Integer, String> names = methodNames(b.snapshot());
        long gets = calls(b.snapshot(), EventType.END).stream()
                .filter(e -> "SignatureOnly.get".equals(names.get(le(e.payload).getInt()))).count();
        assertEquals(1L, gets, "a class loaded after the retransformation is traced");
    }

    private static boolean isLoaded(String className) {
        for (Class<?> c : AgentHarness.inst().getAllLoadedClasses()) {
            if (c.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    /** The agent's status once the remover has retransformed a class (a condition, not a timing assertion; 30 s at most). */
    private static String statusOnceOneClassIsRetransformed() throws InterruptedException {
        String status = "";
        for (int i = 0; i < 300 && !status.contains(", 1 classes retransformed without their advice"); i++) {
            Thread.sleep(100);
            status = AgentHarness.run("command=status", AgentHarness.inst(), null);
        }
        return status;
    }

    /** A transformer that keeps the bytes of class {@code internalName} as the transformers before it left them. */
    private static ClassFileTransformer capturing(String internalName, AtomicReference<byte[]> into) {
        return new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> cls, ProtectionDomain pd, byte[] bytes) {
                if (internalName.equals(name)) {
                    into.set(bytes.clone());
                }
                return null;
            }
        };
    }

    /** Whether method {@code name} of the class file has an invokedynamic bootstrapped by MethodEntries.link. */
    private static boolean linksItsEntry(byte[] classFile, String name) {
        return adviceCalls(classFile, name).contains("indy dev/jetw/bootstrap/MethodEntries.link");
    }

    /** Whether method {@code name} of the class file calls the jetw Dispatcher (has the advice). */
    private static boolean callsDispatcher(byte[] classFile, String name) {
        return adviceCalls(classFile, name).stream().anyMatch(c -> c.startsWith("call dev/jetw/bootstrap/Dispatcher."));
    }

    /** The calls ("call OWNER.NAME") and invokedynamic bootstraps ("indy OWNER.NAME") in method {@code name} of the class file. */
    private static List<String> adviceCalls(byte[] classFile, String name) {
        List<String> calls = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String method, String desc, String signature, String[] exceptions) {
                if (!method.equals(name)) {
                    return null;
                }
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitMethodInsn(int opcode, String owner, String m, String d, boolean itf) {
                        calls.add("call " + owner + "." + m);
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String n, String d, Handle bootstrap, Object... arguments) {
                        calls.add("indy " + bootstrap.getOwner() + "." + bootstrap.getName());
                    }
                };
            }
        }, 0);
        return calls;
    }

    @Test
    void adaptiveFalseKeepsEveryCall() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Getters,adaptive=false");
        Getters g = new Getters();
        for (int i = 0; i < 2 * AdaptiveExclusion.WINDOW; i++) {
            g.value();
        }
        AgentHarness.detach();
        assertEquals(2 * AdaptiveExclusion.WINDOW, calls(b.snapshot(), EventType.START).size());
        for (RecordingBackend.Event e : b.snapshot()) {
            assertTrue(e.classIndex != JetwSchema.METHOD_EXCLUSION_INDEX, "no exclusion");
        }
    }
}
