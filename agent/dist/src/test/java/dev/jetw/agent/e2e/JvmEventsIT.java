package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.RuntimeEventsApp;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etl.EventType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JVM runtime events (jvm=) end to end in a child JVM of the JDK running the tests (run the suite on 17
 * and on 25): RuntimeEventsApp forces each family inside a traced method; each expected event must be
 * in the file, on the right subject thread, with a plausible duration, inside (in the session clock)
 * the call that caused it.
 */
class JvmEventsIT {

    static final String APP = RuntimeEventsApp.class.getName();

    @TempDir
    Path temp;

    @Test
    void everyFamilyIsWrittenInsideTheCallThatCausedIt() throws Exception {
        Path etl = temp.resolve("jvm.etl");
        ChildJvm child = start("jvm=all,jvmThreshold=0", etl);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());
        // With -javaagent the JVM events start with the first class the options may select (docs/agent-options.md "Start-up").
        assertTrue(child.stderr().contains("jvm events gc,safepoint,contention,park,jit,classload,exception,thread,io from the first class"
                + " that may be selected (none has loaded yet)"), child.toString());
        Map<String, Long> tids = threadIds(child);
        long main = tids.get("main");
        long contender = tids.get("jetw-contender");

        TraceFile calls = TraceFile.read(etl);
        RuntimeTrace rt = RuntimeTrace.read(etl);
        String all = rt.events.stream().collect(java.util.stream.Collectors.groupingBy(e -> e.cls().name + " " + e.type(),
                java.util.TreeMap::new, java.util.stream.Collectors.counting())).toString();

        // gc: System.gc's pause inside collect(), a stop-the-world safepoint around it, the collection with its cause.
        TraceFile.Call[] collect = call(calls, "collect", main);
        RuntimeTrace.Span pause = only(rt.spans(JvmEventSchema.GC_PAUSE), s -> inside(s, collect), "GC pause in collect()", all);
        assertTrue(pause.duration() > 0, "pause duration");
        int gcId = ((Long) pause.start().get("GcId")).intValue();
        RuntimeTrace.Span gc = only(rt.spans(JvmEventSchema.GC), s -> ((Long) s.start().get("GcId")).intValue() == gcId, "collection " + gcId, all);
        assertTrue(((String) gc.start().get("Cause")).contains("System.gc"), gc.toString());
        assertTrue(rt.events(JvmEventSchema.GC, EventType.INFO).stream().anyMatch(e -> ((Long) e.get("GcId")).intValue() == gcId),
                "heap summaries of collection " + gcId);
        assertTrue(rt.spans(JvmEventSchema.SAFEPOINT).stream().anyMatch(s -> s.start().timestamp() <= pause.start().timestamp()
                && s.end().timestamp() >= pause.end().timestamp() && (Long) s.start().get("TimeToSafepointNs") >= 0),
                "a safepoint around the GC pause: " + rt.spans(JvmEventSchema.SAFEPOINT));

        // contention: the contender blocked entering the monitor main held for 60 ms, inside its enterContended().
        RuntimeTrace.Span blocked = only(rt.spans(JvmEventSchema.CONTENTION), s -> s.start().javaThreadId() == contender
                && (Long) s.start().get("Kind") == 0, "contended enter", all);
        assertEquals("java.lang.Object", blocked.start().get("MonitorClass"));
        assertEquals(main, blocked.start().get("OwnerJavaThreadId"));
        assertTrue(rt.millis(blocked.duration()) >= 30 && rt.millis(blocked.duration()) < 10_000, "blocked " + rt.millis(blocked.duration()) + " ms");
        assertTrue(inside(blocked, call(calls, "enterContended", contender)), "inside enterContended()");
        assertTrue((Long) blocked.start().get("OsThreadId") > 0, "OS thread id of the subject");

        // park: parkNanos(50 ms) inside park() on main.
        RuntimeTrace.Span parked = only(rt.spans(JvmEventSchema.PARK), s -> s.start().javaThreadId() == main
                && (Long) s.start().get("TimeoutNs") == 50_000_000L, "parkNanos(50 ms)", all);
        assertTrue(rt.millis(parked.duration()) >= 40 && rt.millis(parked.duration()) < 10_000, "parked " + rt.millis(parked.duration()) + " ms");
        assertTrue(inside(parked, call(calls, "park", main)), "inside park()");

        // classload: from the new loader, inside loadClass() on main.
        RuntimeTrace.Span loaded = only(rt.spans(JvmEventSchema.CLASS_LOAD), s -> "com.acme.app.LoadedByNewLoader".equals(s.start().get("ClassName")),
                "load of LoadedByNewLoader", all);
        assertEquals(main, loaded.start().javaThreadId());
        assertTrue(((String) loaded.start().get("Loader")).contains("URLClassLoader"), loaded.toString());
        assertTrue(inside(loaded, call(calls, "loadClass", main)), "inside loadClass()");

        // jit: hot(int) compiled by a compiler thread, after compile() began.
        List<RuntimeTrace.Span> compiled = rt.spans(JvmEventSchema.JIT).stream()
                .filter(s -> (APP + ".hot(I)I").equals(s.start().get("Method"))).toList();
        assertFalse(compiled.isEmpty(), "hot(I)I compiled: " + all);
        for (RuntimeTrace.Span s : compiled) {
            assertTrue(s.start().javaThreadId() != main && s.duration() >= 0, s.toString());
            assertTrue(s.start().timestamp() >= call(calls, "compile", main)[0].timestamp(), "compiled after compile() began");
        }

        // exception: created in thrower(), inside that call, on every JDK (on 25 only because the source
        // also enables jdk.JavaErrorThrow: docs/jvm-events.md).
        exceptionInThrower(rt, calls, main, all);

        // thread: the short-lived thread's start and end (and a virtual thread on 21+).
        long shortLived = tids.get("jetw-short-lived");
        RuntimeTrace.Event started = only(rt.events(JvmEventSchema.THREAD, EventType.START), e -> e.javaThreadId() == shortLived, "thread start", all);
        RuntimeTrace.Event ended = only(rt.events(JvmEventSchema.THREAD, EventType.END), e -> e.javaThreadId() == shortLived, "thread end", all);
        assertEquals("jetw-short-lived", started.get("ThreadName"));
        assertEquals(0L, started.get("Virtual"));
        assertTrue(started.timestamp() <= ended.timestamp(), "start before end");
        if (Runtime.version().feature() >= 21) {
            long virtual = tids.get("virtual");
            RuntimeTrace.Event v = only(rt.events(JvmEventSchema.THREAD, EventType.START), e -> e.javaThreadId() == virtual, "virtual thread start", all);
            assertEquals(1L, v.get("Virtual"));
        }

        // io: the 1 MB file written then read, inside fileIo().
        String path = child.stdout().lines().filter(l -> l.startsWith("file ")).findFirst().orElseThrow().substring(5);
        TraceFile.Call[] io = call(calls, "fileIo", main);
        for (long kind : new long[] {1, 0}) {
            RuntimeTrace.Span s = only(rt.spans(JvmEventSchema.IO), x -> path.equals(x.start().get("Target")) && (Long) x.start().get("Kind") == kind
                    && x.end().get("Bytes").equals((long) (1 << 20)), "file " + (kind == 1 ? "write" : "read"), all);
            assertTrue(inside(s, io), "inside fileIo()");
        }

        // jetw's own threads are left out (its logger parks about once a second and writes the file), found by
        // the name jetw gives them here in the test only; the application's thread named jetw-contender is in (above).
        java.util.Set<Long> jetwThreads = new java.util.TreeSet<>();
        child.stdout().lines().filter(l -> l.startsWith("live ")).map(l -> l.split(" ", 3))
                .filter(p -> p[2].startsWith("jetw-logger-") || p[2].equals("jetw-jfr-consumer") || p[2].startsWith("jetw-control")
                        || p[2].equals("jetw-rundown") || p[2].equals("jetw-uninstrument"))
                .forEach(p -> jetwThreads.add(Long.parseLong(p[1])));
        assertTrue(jetwThreads.size() >= 2, "the logger and the JFR consumer are alive at the end: " + child.stdout());
        List<String> ofJetw = rt.events.stream().filter(e -> e.cls() != JvmEventSchema.SAFEPOINT && jetwThreads.contains(e.javaThreadId()))
                .limit(10).map(Object::toString).toList();
        assertEquals(List.of(), ofJetw, "no runtime event of jetw's threads " + jetwThreads + " (the first 10)");
        assertFalse(rt.events.stream().anyMatch(e -> etl.toString().equals(e.get("Target"))), "the logger's writes of the trace itself");
    }

    @Test
    void noneWritesNoRuntimeEvent() throws Exception {
        Path etl = temp.resolve("none.etl");
        ChildJvm child = start("jvm=none", etl);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stderr().contains("jvm events none"), child.toString());
        assertTrue(TraceFile.read(etl).calls.size() > 0, "method events still written");
        assertEquals(List.of(), RuntimeTrace.read(etl).events);
    }

    @Test
    void badJvmValueGivesOneLineAndTheApplicationRunsOn() throws Exception {
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=" + APP + ",jvm=gc,bogus"),
                ChildJvm.appClassPath(), RuntimeEventsApp.class);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());
        List<String> lines = child.stderrLines().stream().filter(l -> l.startsWith("jetw")).toList();
        assertEquals(1, lines.size(), child.toString());
        assertTrue(lines.get(0).startsWith("jetw: option jvm=gc+bogus: unknown family 'bogus'; allowed: all, none, or a list of gc,"), lines.get(0));
    }

    private static void exceptionInThrower(RuntimeTrace rt, TraceFile calls, long main, String all) {
        RuntimeTrace.Event thrown = only(rt.events(JvmEventSchema.EXCEPTION, EventType.INFO),
                e -> "java.lang.IllegalArgumentException".equals(e.get("ExceptionClass")), "IllegalArgumentException", all);
        assertEquals(APP + ".thrower()V", thrown.get("ThrowingMethod"));
        assertEquals("jetw test exception", thrown.get("Message"));
        assertEquals(main, thrown.javaThreadId());
        TraceFile.Call[] thrower = call(calls, "thrower", main);
        assertTrue(thrown.timestamp() >= thrower[0].timestamp() && thrown.timestamp() <= thrower[1].timestamp(), "inside thrower()");
    }

    private ChildJvm start(String jvmOptions, Path etl) throws Exception {
        String options = "include=" + APP + ",exclude=" + APP + "#hot," + jvmOptions + ",backend=portable,file=" + etl;
        return ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(), RuntimeEventsApp.class);
    }

    /** "tid NAME ID" lines of the application. */
    private static Map<String, Long> threadIds(ChildJvm child) {
        Map<String, Long> ids = new HashMap<>();
        child.stdout().lines().filter(l -> l.startsWith("tid ")).forEach(l -> {
            String[] p = l.split(" ");
            ids.put(p[1], Long.parseLong(p[2]));
        });
        return ids;
    }

    /** START and END of the one call of APP#method on the thread with this Java id (the portable backend's header thread id). */
    private static TraceFile.Call[] call(TraceFile t, String method, long javaTid) {
        int id = t.methodId(APP, method);
        List<TraceFile.Call> c = t.calls.stream().filter(x -> x.methodId() == id && x.threadId() == javaTid
                && (x.type() == EventType.START || x.type() == EventType.END)).toList();
        assertEquals(2, c.size(), method + ": " + c);
        return new TraceFile.Call[] {c.get(0), c.get(1)};
    }

    private static boolean inside(RuntimeTrace.Span s, TraceFile.Call[] call) {
        return s.start().timestamp() >= call[0].timestamp() && s.end().timestamp() <= call[1].timestamp();
    }

    private static <T> T only(List<T> items, Predicate<T> test, String what, String all) {
        List<T> found = items.stream().filter(test).toList();
        assertEquals(1, found.size(), what + ": " + found + "\nall runtime events: " + all);
        return found.get(0);
    }
}
