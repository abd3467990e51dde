package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.CallTreeApp;
import com.acme.app.QuietWork;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM started with -javaagent:jetw-agent.jar over a test application with a known call tree. */
class JavaagentIT {

    static final String APP = CallTreeApp.class.getName();
    static final String QUIET = QuietWork.class.getName();

    @TempDir
    Path temp;

    @Test
    void traceCarriesTheCallTreeCheckpointsExceptionsAndRundown() throws Exception {
        Path etl = temp.resolve("calltree.etl");
        String options = "include=" + APP + ";" + QUIET + "@verbose,enableLevel=information,backend=portable,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(), CallTreeApp.class);
        int exit = child.waitForExit();

        assertEquals(0, exit, child.toString());
        assertTrue(child.stdout().contains("caught boom\nquiet 7\nresult 19 6\n"), "application output intact:\n" + child);
        String summary = child.stderrLines().stream().filter(l -> l.matches("jetw: \\d+ events written, \\d+ dropped, \\d+ lost of \\d+ emitted, \\d+ methods, file .*"))
                .findFirst().orElseThrow(() -> new AssertionError("no shutdown summary line\n" + child));
        // The JVM may end before JFR's stream (started after premain, issue 31) records: the line then says so.
        assertTrue(summary.endsWith(etl.toString()) || summary.endsWith(etl + " (no JVM runtime events: the agent stopped before"
                + " JFR's stream had started)"), summary);
        assertTrue(Files.size(etl) > 0);

        TraceFile trace = TraceFile.read(etl);
        int main = trace.methodId(APP, "main");
        int outer = trace.methodId(APP, "outer");
        int middle = trace.methodId(APP, "middle");
        int inner = trace.methodId(APP, "inner");
        int failing = trace.methodId(APP, "failing");
        int quiet = trace.methodId(QUIET, "quiet");

        // The rundown names every instrumented method, at start and again at the end.
        Set<String> started = trace.methodStarts.values().stream().map(TraceFile.Method::name).collect(Collectors.toSet());
        assertTrue(started.containsAll(Set.of(APP + "#main", APP + "#outer", APP + "#middle", APP + "#inner", APP + "#failing", QUIET + "#quiet")),
                started.toString());
        assertEquals(trace.methodStarts.keySet(), trace.methodEnds.keySet(), "DC_END for every DC_START");
        for (TraceFile.Call c : trace.calls) {
            assertTrue(trace.methodStarts.containsKey(c.methodId()) || c.methodId() == 0, "event for a method without rundown: " + c);
        }
        assertTrue(trace.threadStarts.containsValue("main") && trace.threadStarts.containsValue("jetw-worker"), trace.threadStarts.toString());

        // Balance and nesting per thread, against the real call tree.
        trace.assertBalancedAndNested();
        assertEquals(1, trace.count(EventType.START, main));
        assertEquals(2, trace.count(EventType.START, outer));
        assertEquals(5, trace.count(EventType.START, middle));
        assertEquals(11, trace.count(EventType.START, inner));
        assertEquals(1, trace.count(EventType.START, failing));
        Set<Integer> middleInstances = instances(trace, middle);
        Set<Integer> failingInstances = instances(trace, failing);
        for (TraceFile.Call c : trace.calls) {
            if (c.type() == EventType.START && c.methodId() == inner) {
                assertTrue(middleInstances.contains(c.parentInstanceId()) || failingInstances.contains(c.parentInstanceId()), trace.describe(c));
            }
            if (c.type() == EventType.START && c.methodId() == middle) {
                assertTrue(instances(trace, outer).contains(c.parentInstanceId()), trace.describe(c));
            }
        }

        // Checkpoints inside the calls that made them, at their levels; one above the session's level is filtered.
        List<TraceFile.Call> checkpoints = trace.calls.stream().filter(c -> c.type() == EventType.CHECKPOINT).toList();
        assertEquals(List.of("outer-begin", "outer-begin", "about-to-fail"), checkpoints.stream().map(TraceFile.Call::text).sorted(
                java.util.Comparator.comparing((String t) -> !t.equals("outer-begin"))).toList(), checkpoints.toString());
        for (TraceFile.Call c : checkpoints) {
            boolean warning = c.text().equals("about-to-fail");
            assertEquals(warning ? failing : outer, c.methodId(), trace.describe(c));
            assertEquals(warning ? TraceLevel.WARNING : TraceLevel.INFORMATION, c.level(), trace.describe(c));
        }

        // An exceptional exit: END carries the exception class, at the raised (default: error) level.
        TraceFile.Call failed = trace.calls.stream().filter(c -> c.type() == EventType.END && c.methodId() == failing).findFirst().orElseThrow();
        assertEquals("java.lang.IllegalStateException", failed.text());
        assertEquals(TraceLevel.ERROR, failed.level());
        TraceFile.Call normal = trace.calls.stream().filter(c -> c.type() == EventType.END && c.methodId() == inner).findFirst().orElseThrow();
        assertEquals("", normal.text());
        assertEquals(TraceLevel.INFORMATION, normal.level());

        // Levels: QuietWork's rule is verbose, the session enables information: no events at all.
        assertEquals(0, trace.calls.stream().filter(c -> c.methodId() == quiet).count());
    }

    @Test
    void badOptionPrintsOneLineAndTheApplicationRunsOn() throws Exception {
        String options = "include=" + APP + ",frobnicate=yes";
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(), CallTreeApp.class);

        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("caught boom\nquiet 7\nresult 19 6\n"), "application output intact:\n" + child);
        List<String> jetwLines = child.stderrLines().stream().filter(l -> l.startsWith("jetw")).toList();
        assertEquals(1, jetwLines.size(), "exactly one line from the agent:\n" + child);
        assertTrue(jetwLines.get(0).startsWith("jetw: option frobnicate"), jetwLines.get(0));
        assertTrue(jetwLines.get(0).contains("allowed"), "names what is allowed: " + jetwLines.get(0));
    }

    private static Set<Integer> instances(TraceFile trace, int methodId) {
        return trace.calls.stream().filter(c -> c.type() == EventType.START && c.methodId() == methodId)
                .map(TraceFile.Call::instanceId).collect(Collectors.toSet());
    }
}
