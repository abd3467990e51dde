package dev.jetw.agent.core;

import dev.jetw.api.Jetw;
import dev.jetw.bootstrap.CallHandler;
import dev.jetw.bootstrap.Dispatcher;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Annotated;
import testapp.Calls;
import testapp.Kinds;
import testapp.Levels;
import testapp.Many;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent in this JVM over a recording backend: what it writes for real calls. */
class AgentTraceTest {

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    private static final String C = "testapp.Calls.";

    @Test
    void callTreeCheckpointsExceptionsAndRundown() {
        RecordingBackend backend = new RecordingBackend();
        AgentHarness.attach(backend, dir, "include=testapp.Calls");
        assertTrue(Jetw.isActive(), "Jetw.isActive() while attached");
        assertEquals(116, new Calls().run(), "the application's result is unchanged");
        Jetw.checkpoint("outside", Jetw.WARNING);
        long tid = Thread.currentThread().getId();
        AgentHarness.detach();
        assertFalse(Jetw.isActive(), "Jetw.isActive() after detach");

        TraceModel t = TraceModel.of(backend);
        assertEquals(Arrays.asList(
                C + "run",
                C + "run>" + C + "middle",
                C + "run>" + C + "middle>" + C + "leaf",
                C + "run>" + C + "middle>" + C + "leaf",
                C + "run>" + C + "middle",
                C + "run>" + C + "middle>" + C + "leaf",
                C + "run>" + C + "middle>" + C + "leaf",
                C + "run>" + C + "safeFail",
                C + "run>" + C + "safeFail>" + C + "fail"), t.paths(tid));

        List<TraceModel.Call> middles = t.callsOf(C + "middle");
        assertEquals(Arrays.asList("in-middle-1@4"), middles.get(0).checkpoints);
        assertEquals(Arrays.asList("in-middle-2@4"), middles.get(1).checkpoints);
        assertEquals(Arrays.asList("outside@3"), t.orphanCheckpoints);

        TraceModel.Call fail = t.callsOf(C + "fail").get(0);
        assertEquals("java.lang.IllegalStateException", fail.exception);
        assertEquals(4, fail.startLevel);
        assertEquals(2, fail.endLevel, "an exceptional END is raised to exceptionLevel (error)");
        TraceModel.Call safe = t.callsOf(C + "safeFail").get(0);
        assertEquals("", safe.exception, "a normal return has an empty exception class");
        assertEquals(4, safe.endLevel);

        // Rundown: every instrumented method named once at start and once at the end, nothing else.
        List<String> expected = Arrays.asList(C + "run", C + "middle", C + "leaf", C + "safeFail", C + "fail");
        // (@Traced methods of other loaded test classes are always selected too; only Calls matters here.)
        assertSameElements(expected, only(C, t.methodStarts.values()));
        assertSameElements(expected, only(C, t.methodEnds.values()));
        assertEquals(Arrays.asList(Thread.currentThread().getName()), t.threadStarts.get(tid));
        assertEquals(Arrays.asList(Thread.currentThread().getName()), t.threadEnds.get(tid));
    }

    @Test
    void detachRestoresClassesAndAttachWorksAgain() {
        RecordingBackend first = new RecordingBackend();
        AgentHarness.attach(first, dir, "include=testapp.Calls");
        new Calls().run();
        String reply = AgentHarness.detach();
        assertTrue(reply.startsWith("jetw agent detached: "), reply);
        assertTrue(reply.contains(" events written"), reply);
        assertNull(Dispatcher.handler(), "detach removes the handler");

        // Calls after detach reach nobody (the session is gone) ...
        int before = first.events.size();
        new Calls().run();
        assertEquals(before, first.events.size());

        // ... and the old advice is gone: a new attach that selects nothing of Calls sees none of its calls,
        // although the Dispatcher would route any leftover advice to the new handler.
        RecordingBackend second = new RecordingBackend();
        AgentHarness.attach(second, dir, "include=testapp.Levels#info");
        new Calls().run();
        new Levels().info();
        AgentHarness.detach();
        TraceModel t = TraceModel.of(second);
        assertEquals(Arrays.asList("testapp.Levels.info"), methodsCalled(t));

        // A third attach instruments Calls again.
        RecordingBackend third = new RecordingBackend();
        AgentHarness.attach(third, dir, "include=testapp.Calls#leaf");
        new Calls().run();
        AgentHarness.detach();
        assertEquals(4, TraceModel.of(third).callsOf(C + "leaf").size());
    }

    @Test
    void levelsFilterAsConfigured() {
        RecordingBackend info = new RecordingBackend();
        AgentHarness.attach(info, dir, "include=testapp.Levels#info;testapp.Levels#verbose@verbose,enableLevel=information");
        new Levels().all();
        AgentHarness.detach();
        TraceModel t = TraceModel.of(info);
        assertEquals(Arrays.asList("testapp.Levels.info", "testapp.Levels.tracedDefault"), methodsCalled(t));
        for (TraceModel.Call c : t.calls) {
            assertEquals(4, c.startLevel);
        }
        // Filtered methods are still instrumented and named: a session enabled later at verbose decodes them.
        assertSameElements(Arrays.asList("testapp.Levels.info", "testapp.Levels.verbose", "testapp.Levels.tracedVerbose",
                "testapp.Levels.tracedDefault"), t.methodStarts.values());

        RecordingBackend verbose = new RecordingBackend();
        AgentHarness.attach(verbose, dir, "include=testapp.Levels#info;testapp.Levels#verbose@verbose,enableLevel=verbose");
        new Levels().all();
        AgentHarness.detach();
        TraceModel v = TraceModel.of(verbose);
        assertEquals(Arrays.asList("testapp.Levels.info", "testapp.Levels.verbose", "testapp.Levels.tracedVerbose",
                "testapp.Levels.tracedDefault"), methodsCalled(v));
        assertEquals(5, v.callsOf("testapp.Levels.verbose").get(0).startLevel);
        assertEquals(5, v.callsOf("testapp.Levels.tracedVerbose").get(0).startLevel);
    }

    @Test
    void exceptionLevelRaisesButNeverLowersTheEnd() {
        RecordingBackend critical = new RecordingBackend();
        AgentHarness.attach(critical, dir, "include=testapp.Calls#*Fail;testapp.Calls#fail,exceptionLevel=critical");
        new Calls().run();
        AgentHarness.detach();
        TraceModel t = TraceModel.of(critical);
        assertEquals(1, t.callsOf(C + "fail").get(0).endLevel);
        assertEquals(4, t.callsOf(C + "safeFail").get(0).endLevel, "safeFail returned normally");

        RecordingBackend warning = new RecordingBackend();
        AgentHarness.attach(warning, dir, "include=testapp.Calls#fail@error,exceptionLevel=warning");
        new Calls().run();
        AgentHarness.detach();
        TraceModel.Call fail = TraceModel.of(warning).callsOf(C + "fail").get(0);
        assertEquals(2, fail.startLevel);
        assertEquals(2, fail.endLevel, "an END already more severe than exceptionLevel keeps its level");
    }

    @Test
    void defaultLevelAppliesToRulesWithoutOne() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Levels#info,level=warning");
        new Levels().info();
        AgentHarness.detach();
        assertEquals(3, TraceModel.of(b).callsOf("testapp.Levels.info").get(0).startLevel);
    }

    @Test
    void excludeWinsAndAnnotationsSelect() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Calls,exclude=testapp.Calls#leaf;testapp.Calls#fail,annotation=testapp.Timed@verbose");
        new Calls().run();
        new Annotated().timed();
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b);
        assertSameElements(Arrays.asList(C + "run", C + "middle", C + "safeFail"), only(C, t.methodStarts.values()));
        assertSameElements(Arrays.asList("testapp.Annotated.timed"), only("testapp.Annotated.", t.methodStarts.values()));
        assertEquals(5, t.callsOf("testapp.Annotated.timed").get(0).startLevel);
        assertTrue(t.callsOf("testapp.Annotated.untimed").isEmpty());
    }

    @Test
    void leavesAbstractNativeLambdaAndBridgeMethodsAlone() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Kinds;testapp.Kinds$Impl");
        Kinds k = new Kinds.Impl();
        assertEquals(42, k.withLambda());
        assertEquals(0, ((Comparable<Kinds>) k).compareTo(k));
        AgentHarness.detach();
        assertSameElements(Arrays.asList("testapp.Kinds.withLambda", "testapp.Kinds.compareTo", "testapp.Kinds$Impl.abstractOne"),
                only("testapp.Kinds", TraceModel.of(b).methodStarts.values()));
    }

    @Test
    void threadsEachBalanceAndAreNamedOnce() throws Exception {
        RecordingBackend b = new RecordingBackend();
        // adaptive=false: 150 runs reach an exclusion window, and an excluded method's checkpoint goes to its caller.
        AgentHarness.attach(b, dir, "include=testapp.Calls,adaptive=false");
        int n = 3;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int r = 0; r < 50; r++) {
                    new Calls().run();
                }
            }, "worker-" + i);
            threads.add(th);
            th.start();
        }
        go.countDown();
        for (Thread th : threads) {
            th.join();
        }
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b); // checks balance and parents per thread
        for (Thread th : threads) {
            assertEquals(50 * 9, t.paths(th.getId()).size(), th.getName());
            assertEquals(Arrays.asList(th.getName()), t.threadStarts.get(th.getId()));
            // The rundown's DC_END names every thread still known, ended ones too: in a circular file or
            // a ring their DC_START may be gone while their events survive.
            assertEquals(Arrays.asList(th.getName()), t.threadEnds.get(th.getId()), th.getName());
        }
        Thread self = Thread.currentThread();
        assertEquals(Arrays.asList(self.getName()), t.threadEnds.get(self.getId()), "the live attaching thread");
    }

    @Test
    void maxMethodsGuardStopsInstrumenting() throws Exception {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Many,maxMethods=2");
        assertEquals(15, new Many().all());
        Path out = dir.resolve("status.txt");
        String status = AgentMain.run("command=status,out=" + out, AgentHarness.inst(), null);
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b);
        // Every selected method is named (one pushed out of the budget may have written events before),
        // but only the two the budget kept were called with advice that writes.
        List<String> called = new ArrayList<>();
        for (String m : only("testapp.Many.", t.methodStarts.values())) {
            if (!t.callsOf(m).isEmpty()) {
                called.add(m);
            }
        }
        assertEquals(2, called.size(), called.toString());
        // The include rule has the whole budget; @Traced methods (testapp.Annotated, loaded by other tests) a guard of their own.
        assertTrue(status.matches("(?s).*methods instrumented: [0-9]+ \\(maxMethods=2 reached\\)\n.*"), status);
        assertTrue(status.contains("  rule testapp.Many@4: 2 instrumented, 4 left out (share 2)\n"), status);
        assertEquals(status, new String(Files.readAllBytes(out), StandardCharsets.UTF_8));
    }

    @Test
    void statusReportsSessionMethodsEventsAndErrors() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Calls,name=status-test");
        new Calls().run();
        String status = AgentMain.run("command=status", AgentHarness.inst(), null);
        String again = AgentMain.run("include=testapp.Levels", AgentHarness.inst(), b);
        String same = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Calls,name=status-test", AgentHarness.inst(), b);
        AgentHarness.detach();
        assertTrue(status.contains("session:             status-test"), status);
        assertTrue(status.contains("backend:             recording"), status);
        assertTrue(status.contains("file:                " + dir.resolve("t.etl").toAbsolutePath()), status);
        assertTrue(status.contains("methods instrumented: " + TraceModel.of(b).methodStarts.size() + "\n"), status);
        assertTrue(TraceModel.of(b).methodStarts.size() >= 5);
        assertTrue(status.matches("(?s).*events written: +[1-9][0-9]* \\(reached the file or ring\\)\n.*"), status);
        assertTrue(status.contains("events lost:         0 (in buffers that could not be written)"), status);
        assertTrue(status.contains("internal errors:"), status);
        assertTrue(again.startsWith("jetw: attach: a jetw session is already active in this JVM (session status-test"), again);
        assertTrue(same.startsWith("jetw agent already attached with these options (session status-test)"), same);
        assertEquals("jetw: status: no jetw agent is attached in this JVM", AgentMain.run("command=status", AgentHarness.inst(), null));
        assertEquals("jetw: detach: no jetw agent is attached in this JVM", AgentMain.run("command=detach", AgentHarness.inst(), null));
    }

    @Test
    void badOptionsGiveOneLineAndLeaveTheAgentInert() {
        RecordingBackend b = new RecordingBackend();
        String reply = AgentMain.run("include=testapp.Calls,level=loud", AgentHarness.inst(), b);
        assertEquals("jetw: option level=loud: allowed: critical, error, warning, information, verbose or 1-255; "
                + "the agent stays inactive", reply);
        assertFalse(reply.contains("\n"));
        assertNull(AgentMain.current());
        assertFalse(Jetw.isActive());
        assertEquals(116, new Calls().run());
        assertTrue(b.events.isEmpty());
        assertFalse(b.sessionRunning);

        RecordingBackend refusing = new RecordingBackend();
        refusing.failStart = true;
        String refused = AgentMain.run("include=testapp.Calls,file=" + dir.resolve("x.etl"), AgentHarness.inst(), refusing);
        assertTrue(refused.startsWith("jetw: session: StartTraceW failed: ERROR_ACCESS_DENIED (5)"), refused);
        assertTrue(refused.endsWith("the agent stays inactive"), refused);
        assertNull(AgentMain.current());
        assertEquals(116, new Calls().run());
    }

    @Test
    void internalErrorsNeverReachTheApplicationAndAreCounted() {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Calls");
        CallHandler real = Dispatcher.handler();
        long before = Dispatcher.internalErrors();
        Dispatcher.install(new CallHandler() {
            @Override
            public long enter(int methodId) {
                throw new IllegalStateException("enter broken");
            }

            @Override
            public void exit(int methodId, long token, Throwable thrown) {
                throw new IllegalStateException("exit broken");
            }

            @Override
            public void checkpoint(String label, int level) {
                throw new IllegalStateException("checkpoint broken");
            }
        });
        try {
            assertEquals(116, new Calls().run());
        } finally {
            Dispatcher.install(real);
        }
        // 9 calls whose enter failed (their exits see token 0 and do nothing) and 2 checkpoints.
        assertEquals(11, Dispatcher.internalErrors() - before);
        String status = AgentMain.run("command=status", AgentHarness.inst(), null);
        assertTrue(status.contains("checkpoint broken") || status.contains("enter broken"), status);

        // A backend that throws on write: the provider counts drops, the application runs on.
        b.writeFailure = new IllegalStateException("backend broken");
        assertEquals(116, new Calls().run());
        b.writeFailure = null;
        AgentHarness.detach();
        TraceModel.of(b); // what was written still balances
    }

    @Test
    void bootstrapClassesOnlyWithOptIn() {
        RecordingBackend without = new RecordingBackend();
        AgentHarness.attach(without, dir, "include=java.util.StringJoiner#add");
        new StringJoiner(",").add("a");
        AgentHarness.detach();
        assertTrue(only("java.", TraceModel.of(without).methodStarts.values()).isEmpty(), "java.* is not instrumented without bootstrap=true");

        RecordingBackend with = new RecordingBackend();
        AgentHarness.attach(with, dir, "include=java.util.StringJoiner#add,bootstrap=true");
        assertEquals("a,b", new StringJoiner(",").add("a").add("b").toString());
        AgentHarness.detach();
        TraceModel t = TraceModel.of(with);
        assertSameElements(Arrays.asList("java.util.StringJoiner.add"), only("java.", t.methodStarts.values()));
        assertEquals(2, t.callsOf("java.util.StringJoiner.add").size());
    }

    @Test
    void agentAndLibrariesAreNeverInstrumented() throws Exception {
        Class.forName("testapp.Many"); // loaded before attach, never called
        RecordingBackend b = new RecordingBackend();
        // Everything the application class loader has, except the test framework (org.junit, surefire, ...).
        AgentHarness.attach(b, dir, "include=**,exclude=org.**,trivial=trace"); // Many.m1 is trivial
        new Calls().run();
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b);
        for (String m : t.methodStarts.values()) {
            assertFalse(m.startsWith("dev.jetw.") || m.startsWith("net.bytebuddy.") || m.startsWith("com.sun.jna.")
                    || m.startsWith("java.") || m.startsWith("jdk.") || m.startsWith("sun.") || m.startsWith("org.junit."), m);
        }
        assertTrue(t.methodStarts.containsValue(C + "run"), "application classes are selected by **");
        assertTrue(t.methodStarts.containsValue("testapp.Many.m1"), "loaded but uncalled classes too");
        assertEquals(1, t.callsOf(C + "run").size());
    }

    private static List<String> only(String prefix, Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.startsWith(prefix)) {
                out.add(n);
            }
        }
        return out;
    }

    private static List<String> methodsCalled(TraceModel t) {
        List<String> out = new ArrayList<>();
        for (TraceModel.Call c : t.calls) {
            out.add(c.method);
        }
        return out;
    }

    private static void assertSameElements(Collection<String> expected, Collection<String> actual) {
        List<String> e = new ArrayList<>(expected);
        List<String> a = new ArrayList<>(actual);
        e.sort(null);
        a.sort(null);
        assertEquals(e, a);
    }
}
