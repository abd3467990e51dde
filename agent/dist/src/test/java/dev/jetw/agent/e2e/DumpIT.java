package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import dev.jetw.etl.EventType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./jetw dump <pid> FILE} against a running JVM with the always-on ring: a readable file, tracing goes on. */
class DumpIT {

    @TempDir
    Path temp;

    @Test
    void theRingIsDumpedWhileTracingGoesOn() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            Path ring = temp.resolve("ring.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + AttachIT.WORKER, "backend=portable",
                    "preset=always-on", "file=" + ring);
            assertEquals(0, attached.exit(), attached.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            work(target);

            Path dump = temp.resolve("dump.etl");
            ChildJvm.Result dumped = ChildJvm.tool("dump", pid, dump.toString());
            assertEquals(0, dumped.exit(), dumped.toString());
            assertTrue(dumped.stdout().startsWith("jetw agent dumped session "), dumped.toString());
            ChildJvm.Result again = ChildJvm.tool("dump", pid, dump.toString());
            assertEquals(1, again.exit(), again.toString());
            assertEquals(List.of("jetw: dump: " + dump + " exists, and a dump never replaces anything: name a new file,"
                    + " or leave FILE out for a new name beside the trace"), errorLines(again), "one line, said once");
            work(target);
            assertEquals(0, ChildJvm.tool("detach", pid).exit());

            TraceFile d = TraceFile.read(dump);
            assertEquals(1, d.count(EventType.START, d.methodId(AttachIT.WORKER, "compute")), "the call before the dump");
            TraceFile f = TraceFile.read(ring);
            assertEquals(2, f.count(EventType.START, f.methodId(AttachIT.WORKER, "compute")), "before and after the dump");

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /** The tool's stderr without the JVM's own warnings (a dynamic agent load, class sharing). */
    private static List<String> errorLines(ChildJvm.Result r) {
        return r.stderr().lines().filter(l -> !l.contains("VM warning")).collect(java.util.stream.Collectors.toList());
    }

    private static void work(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("work");
        target.awaitStdout(from, AttachIT.EXPECTED_RESULT::equals, AttachIT.EXPECTED_RESULT);
    }
}
