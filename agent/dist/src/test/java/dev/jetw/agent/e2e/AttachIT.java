package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.acme.app.Worker;
import dev.jetw.etl.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attach tool against a running JVM: attach, status, detach, attach again, and a bad option.
 * The target does work only when told ("work"), so each phase knows exactly which calls happened.
 */
class AttachIT {

    static final String WORKER = Worker.class.getName();
    static final String EXPECTED_RESULT = "done 385"; // sum of squares 1..10

    @TempDir
    Path temp;

    @Test
    void attachDetachAndAttachAgain() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            work(target);

            assertNotAttached(pid, "status");
            assertNotAttached(pid, "detach");

            // First session.
            Path first = temp.resolve("first.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + WORKER, "backend=portable", "file=" + first);
            assertEquals(0, attached.exit(), attached.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            work(target);
            work(target);

            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertEquals(0, status.exit(), status.toString());
            assertTrue(status.stdout().contains(first.toString()), "status names the file:\n" + status);
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("methods instrumented:\\s+2\\b.*")), "compute and square:\n" + status);
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("internal errors:\\s+0")), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("events lost:\\s+0 .*")), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("events emitted:\\s+[1-9][0-9]*")), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("session:\\s+\\S+")), status.toString());

            ChildJvm.Result list = ChildJvm.tool("list");
            assertEquals(0, list.exit(), list.toString());
            assertTrue(list.stdout().lines().anyMatch(l -> l.startsWith(pid + " ") && l.contains("attached") && l.contains(AttachTargetApp.class.getName())),
                    "list marks the target:\n" + list);

            ChildJvm.Result detached = ChildJvm.tool("detach", pid);
            assertEquals(0, detached.exit(), detached.toString());
            assertTrue(detached.stdout().startsWith("jetw agent detached"), detached.toString());
            long sizeAtDetach = Files.size(first);
            TraceFile firstTrace = TraceFile.read(first);
            int compute = firstTrace.methodId(WORKER, "compute");
            int square = firstTrace.methodId(WORKER, "square");
            assertEquals(2, firstTrace.count(EventType.START, compute), "two calls while attached, none before");
            assertEquals(20, firstTrace.count(EventType.START, square));
            firstTrace.assertBalancedAndNested();
            assertEquals(firstTrace.methodStarts.keySet(), firstTrace.methodEnds.keySet(), "detach writes the rundown end");

            // Detached: the classes are back to their original bytes, so work writes nothing anywhere.
            work(target);
            assertEquals(sizeAtDetach, Files.size(first), "nothing written after detach");
            assertEquals(firstTrace.records, TraceFile.read(first).records);
            assertNotAttached(pid, "status");
            assertNotAttached(pid, "detach");

            // Attach again: a new session in a new file, working as before.
            Path second = temp.resolve("second.etl");
            ChildJvm.Result again = ChildJvm.tool("attach", pid, "include=" + WORKER + "#compute", "backend=portable", "file=" + second);
            assertEquals(0, again.exit(), again.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            work(target);
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            TraceFile secondTrace = TraceFile.read(second);
            assertEquals(1, secondTrace.count(EventType.START, secondTrace.methodId(WORKER, "compute")));
            assertTrue(secondTrace.methodStarts.values().stream().noneMatch(m -> m.methodName().equals("square")), "only compute this time");
            secondTrace.assertBalancedAndNested();

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    @Test
    void badOptionAtAttachFailsTheToolWithTheAgentsLineAndTheAppRunsOn() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());

            ChildJvm.Result bad = ChildJvm.tool("attach", pid, "include=" + WORKER, "frobnicate=yes");
            assertEquals(1, bad.exit(), bad.toString());
            List<String> lines = bad.stderr().lines().toList();
            assertEquals(1, lines.size(), "exactly one line:\n" + bad);
            String line = lines.get(0);
            assertTrue(line.startsWith("jetw: option frobnicate"), line);
            assertTrue(line.contains("allowed"), "names what is allowed: " + line);
            target.awaitStderr(line::equals, "the same line in the target");

            work(target);
            assertNotAttached(pid, "status");
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /**
     * status and detach without an agent, a repeated attach, and long options: all answered in the tool,
     * nothing in the target's output; the agent is loaded once, so JDK 21+ warns (without
     * -XX:+EnableDynamicAgentLoading) once, not for every command.
     */
    @Test
    void controlCommandsAnswerInTheToolAndPrintNothingInTheTarget() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of(), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            assertNotAttached(pid, "status");
            assertNotAttached(pid, "detach");

            // 2,000 characters of name: refused by validation with the real limit, not by the attach protocol.
            String name = "n".repeat(2000);
            ChildJvm.Result longName = ChildJvm.tool("attach", pid, "backend=portable", "name=" + name, "file=" + temp.resolve("n.etl"));
            assertEquals(1, longName.exit(), longName.toString());
            assertTrue(longName.stderr().startsWith("jetw: option name=nnnn"), longName.toString());
            assertTrue(longName.stderr().contains("allowed a non-empty session name of at most 1024 characters"), longName.toString());

            // A 24 KB include list works at attach as at start-up.
            StringBuilder include = new StringBuilder("include=" + WORKER);
            for (int i = 0; include.length() < 24 * 1024; i++) {
                include.append(";com.example.unused").append(i).append(".**");
            }
            Path file = temp.resolve("long.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, include.toString(), "backend=portable", "file=" + file);
            assertEquals(0, attached.exit(), attached.toString());
            assertTrue(attached.stdout().startsWith("jetw agent attached"), attached.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            work(target);

            ChildJvm.Result same = ChildJvm.tool("attach", pid, include.toString(), "backend=portable", "file=" + file);
            assertEquals(0, same.exit(), same.toString());
            assertTrue(same.stdout().startsWith("jetw agent already attached with these options"), same.toString());
            ChildJvm.Result other = ChildJvm.tool("attach", pid, "include=" + WORKER, "backend=portable", "file=" + temp.resolve("o.etl"));
            assertEquals(1, other.exit(), other.toString());
            assertEquals(1, other.stderr().lines().count(), other.toString());
            assertTrue(other.stderr().startsWith("jetw: attach: a jetw session is already active in this JVM"), other.toString());

            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertEquals(0, status.exit(), status.toString());
            assertTrue(status.stdout().lines().anyMatch(l -> l.matches("methods instrumented:\\s+2\\b.*")), status.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            TraceFile trace = TraceFile.read(file);
            assertEquals(10, trace.count(EventType.START, trace.methodId(WORKER, "square")), "one work call while attached");
            assertNotAttached(pid, "status");

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            List<String> err = target.stderrLines();
            // Only the attach that failed says so in the target too (as it would have at start-up); no query, no repeat.
            assertEquals(List.of(longName.stderr().trim()), err.stream().filter(l -> l.startsWith("jetw")).toList(),
                    "nothing else of jetw in the target's output:\n" + target);
            long warnings = err.stream().filter(l -> l.contains("has been loaded dynamically")).count();
            assertEquals(Runtime.version().feature() >= 21 ? 1 : 0, warnings, "the agent is loaded once:\n" + target);
        }
    }

    /** status or detach without an agent: a failure, one line, exit 1 (before the first attach and after a detach alike). */
    private static void assertNotAttached(String pid, String command) throws Exception {
        ChildJvm.Result r = ChildJvm.tool(command, pid);
        assertEquals(1, r.exit(), r.toString());
        assertEquals(List.of("jetw: " + command + ": no jetw agent is attached in this JVM"), r.stderr().lines().toList(), r.toString());
    }

    private static void work(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("work");
        // This request's reply, not an earlier one.
        target.awaitStdout(from, EXPECTED_RESULT::equals, EXPECTED_RESULT);
    }
}
