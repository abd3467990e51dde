package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.acme.app.Worker;
import dev.jetw.etl.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code -javaagent:jetw-agent.jar=standby}: the JVM starts with the agent loaded and nothing else (no session, no
 * trace file, no jetw thread), and a later {@code jetw attach} works as against any JVM, detach and re-attach
 * included. On JDK 17 and older the attach to a JVM started without any agent says, in one warning line (and status in
 * its "compiled code:" line), that the JVM will throw its compiled code away and names the flag; to a standby JVM it
 * says nothing of it
 * (docs/attach-ramp.md).
 */
class StandbyIT {

    static final String WORKER = Worker.class.getName();
    static final String EXPECTED_RESULT = "done 385";
    static final String NOTE = "throws all its compiled code away at the first class an attach retransforms";

    @TempDir
    Path temp;

    @Test
    void standbyStartsNothingUntilAnAttachWhichTracesDetachesAndAttachesAgain() throws Exception {
        Path redefinitions = temp.resolve("standby-redefinitions.log");
        List<String> flags = List.of("-javaagent:" + ChildJvm.agentJar() + "=standby", "-XX:+EnableDynamicAgentLoading",
                "-Xlog:redefine+class+nmethod=debug:file=" + redefinitions);
        try (ChildJvm target = ChildJvm.start(flags, ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            work(target);

            // Before the attach: no jetw thread, no trace file, no session; list tells it is standing by.
            assertEquals(List.of(), jetwThreads(target), "no jetw thread before the attach");
            assertEquals(List.of(), defaultTraceFiles(pid), "no trace file before the attach");
            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertEquals(List.of("jetw: status: no jetw agent is attached in this JVM"), status.stderr().lines().toList(), status.toString());
            ChildJvm.Result list = ChildJvm.tool("list");
            assertTrue(list.stdout().lines().anyMatch(l -> l.startsWith(pid + " ") && l.contains(" standby ")), "list:\n" + list);
            assertTrue(target.stderrLines().stream().noneMatch(l -> l.startsWith("jetw")), "premain says nothing:\n" + target);

            Path first = temp.resolve("first.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + WORKER, "backend=portable", "file=" + first);
            assertEquals(0, attached.exit(), attached.toString());
            assertTrue(attached.stdout().startsWith("jetw agent attached"), attached.toString());
            assertTrue(!attached.stderr().contains(NOTE), "started with an agent: no note\n" + attached);
            ChildJvm.awaitRampDone(pid);
            work(target);
            assertTrue(jetwThreads(target).size() > 0, "the attach started the agent's threads");
            assertKeptCompiledCode(redefinitions, true);
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            TraceFile firstTrace = TraceFile.read(first);
            assertEquals(1, firstTrace.count(EventType.START, firstTrace.methodId(WORKER, "compute")), "one work call while attached");
            assertEquals(10, firstTrace.count(EventType.START, firstTrace.methodId(WORKER, "square")));
            firstTrace.assertBalancedAndNested();

            Path second = temp.resolve("second.etl");
            ChildJvm.Result again = ChildJvm.tool("attach", pid, "include=" + WORKER + "#compute", "backend=portable", "file=" + second);
            assertEquals(0, again.exit(), again.toString());
            ChildJvm.awaitRampDone(pid);
            work(target);
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            TraceFile secondTrace = TraceFile.read(second);
            assertEquals(1, secondTrace.count(EventType.START, secondTrace.methodId(WORKER, "compute")));

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            assertEquals(List.of(), defaultTraceFiles(pid), "no default trace file at exit either");
        }
    }

    /** The note: given on JDK 17 and older to a JVM started without an agent, one warning line; never on JDK 18+. */
    @Test
    void anAttachToAJvmStartedWithoutAnAgentSaysWhatJdk17WillDo() throws Exception {
        Path redefinitions = temp.resolve("plain-redefinitions.log");
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading", "-Xlog:redefine+class+nmethod=debug:file=" + redefinitions),
                ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + WORKER, "backend=portable", "file=" + temp.resolve("a.etl"));
            assertEquals(0, attached.exit(), attached.toString());
            List<String> notes = attached.stderr().lines().filter(l -> l.contains(NOTE)).toList();
            if (Runtime.version().feature() <= 17) {
                assertEquals(1, notes.size(), attached.toString());
                assertTrue(notes.get(0).startsWith("jetw: warning: this JVM (Java " + Runtime.version().feature() + ")"), notes.get(0));
                assertTrue(notes.get(0).contains("-javaagent:jetw-agent.jar=standby"), notes.get(0));
            } else {
                assertEquals(List.of(), notes, attached.toString());
            }
            ChildJvm.awaitRampDone(pid);
            assertKeptCompiledCode(redefinitions, Runtime.version().feature() > 17);
            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertEquals(Runtime.version().feature() <= 17 ? 1 : 0,
                    status.stdout().lines().filter(l -> l.startsWith("compiled code: ") && l.contains(NOTE)).count(), status.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            // A second attach in the same JVM: the first retransformation is paid, nothing to warn of.
            ChildJvm.Result again = ChildJvm.tool("attach", pid, "include=" + WORKER, "backend=portable", "file=" + temp.resolve("b.etl"));
            assertEquals(0, again.exit(), again.toString());
            assertTrue(!again.stderr().contains(NOTE), again.toString());
            ChildJvm.awaitRampDone(pid);
            ChildJvm.Result statusAgain = ChildJvm.tool("status", pid);
            assertTrue(statusAgain.stdout().lines().noneMatch(l -> l.startsWith("compiled code: ")), statusAgain.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /** standby with anything else: one line naming the option and the allowed form; the application runs on. */
    @Test
    void standbyWithOtherOptionsIsOneLineAndTheApplicationRunsOn() throws Exception {
        List<String> flags = List.of("-javaagent:" + ChildJvm.agentJar() + "=standby,include=" + WORKER);
        try (ChildJvm target = ChildJvm.start(flags, ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            work(target);
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            List<String> jetw = target.stderrLines().stream().filter(l -> l.startsWith("jetw")).toList();
            assertEquals(1, jetw.size(), target.toString());
            assertTrue(jetw.get(0).startsWith("jetw: option standby="), jetw.get(0));
            assertTrue(jetw.get(0).contains("allowed only alone and at start-up, as -javaagent:jetw-agent.jar=standby"), jetw.get(0));
        }
    }

    /**
     * What the feature is for, from HotSpot's own log of the attach's redefinitions: "Marked all nmethods for deopt" when
     * the JVM throws all its compiled code away (JDK 17 and older, no agent at start-up), "Marked N dependent nmethods"
     * otherwise.
     */
    private static void assertKeptCompiledCode(Path log, boolean kept) throws Exception {
        List<String> lines = Files.readAllLines(log);
        boolean all = lines.stream().anyMatch(l -> l.contains("Marked all nmethods for deopt"));
        assertTrue(lines.stream().anyMatch(l -> l.contains("nmethods for deopt") || l.contains("dependent nmethods")),
                "the log holds the redefinitions' deoptimisation lines:\n" + String.join("\n", lines));
        assertEquals(!kept, all, String.join("\n", lines));
    }

    private static List<String> jetwThreads(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("threads");
        String line = target.awaitStdout(from, l -> l.startsWith("threads "), "threads");
        return Arrays.stream(line.substring("threads ".length()).split("\\|")).filter(n -> n.startsWith("jetw")).toList();
    }

    /** The trace files a session without file= would write in the target's working directory (this test's). */
    private static List<Path> defaultTraceFiles(String pid) throws Exception {
        try (Stream<Path> files = Files.list(Paths.get("").toAbsolutePath())) {
            return files.filter(f -> f.getFileName().toString().startsWith("jetw-" + pid + "-")).toList();
        }
    }

    private static void work(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("work");
        target.awaitStdout(from, EXPECTED_RESULT::equals, EXPECTED_RESULT);
    }
}
