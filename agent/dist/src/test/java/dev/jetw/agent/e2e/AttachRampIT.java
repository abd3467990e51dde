package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.RampTargetApp;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attach ramp (docs/attach-ramp.md) against a running JVM: the loaded classes are instrumented in the order it
 * documents (first classes seen waiting or deep in a stack, then classes holding a method running hot, then classes
 * not seen running, each tier in class-name order), and the methods running hot get no advice. Method ids are given in the
 * order methods are instrumented, so the trace's rundown shows the order.
 */
class AttachRampIT {

    static final String PACKAGE = "com.acme.ramp.";

    @TempDir
    Path temp;

    @Test
    void instrumentsTheTiersInOrderAndLeavesTheHotMethodsOut() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), RampTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready 4 "), "ready");
            String pid = Long.toString(target.pid());
            Path etl = temp.resolve("ramp.etl");
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + PACKAGE + "**", "backend=portable", "jvm=none", "file=" + etl);
            assertEquals(0, attached.exit(), attached.toString());

            // The attach command returns when the ramp is done; status says what it did. Offered: the loaded classes of
            // com.acme (RampTargetApp too, its main thread waiting on stdin, which the include then does not match).
            ChildJvm.Result status = ChildJvm.tool("status", pid);
            assertEquals(0, status.exit(), status.toString());
            String ramp = status.stdout().lines().filter(l -> l.startsWith("attach ramp:")).findFirst().orElseThrow(() -> new AssertionError(status.toString()));
            assertTrue(ramp.matches("attach ramp:\\s+done, 6 of 6 classes retransformed so far \\(of 7 loaded classes offered: "
                    + "3 seen waiting or deep in a stack, 2 not seen, 2 holding a method running hot\\); 4 methods left out as running hot .*"), ramp);

            int from = target.stdoutLineCount();
            target.send("cold");
            target.awaitStdout(from, "cold 6"::equals, "cold 6");
            ChildJvm.Result detached = ChildJvm.tool("detach", pid);
            assertEquals(0, detached.exit(), detached.toString());

            TraceFile trace = TraceFile.read(etl);
            // Classes in the order of their first method id (ids are given as methods are instrumented).
            List<String> order = new ArrayList<>();
            for (TraceFile.Method m : trace.methodStarts.values().stream().sorted((a, b) -> Integer.compare(a.id(), b.id())).toList()) {
                String simple = m.className().substring(PACKAGE.length());
                if (!order.contains(simple)) {
                    order.add(simple);
                }
            }
            assertEquals(List.of("Outer", "Waiter", "Middle", "Spinner", "ColdA", "ColdB"), order,
                    "seen waiting or deep, then holding hot methods (together, first), then not seen; each by name");

            for (String hot : List.of("Spinner#step", "Spinner#spin", "Middle#a", "Middle#b")) {
                String[] cm = hot.split("#");
                int id = trace.methodId(PACKAGE + cm[0], cm[1]);
                assertEquals(0, trace.count(EventType.START, id), hot + " running hot: no call written");
            }
            assertEquals(1, trace.count(EventType.START, trace.methodId(PACKAGE + "ColdA", "run")), "the cold class is traced");
            assertEquals(1, trace.count(EventType.START, trace.methodId(PACKAGE + "ColdB", "run")));

            ChildJvm.Result summary = ChildJvm.tool("etl", "summary", etl.toString());
            assertEquals(0, summary.exit(), summary.toString());
            String why = summary.stdout().lines().filter(l -> l.contains(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH)).sorted()
                    .collect(Collectors.joining("\n"));
            assertTrue(why.contains(PACKAGE + "Spinner.step()V  " + JetwSchema.EXCLUSION_RUNNING_AT_ATTACH + ": 0 calls observed"), summary.stdout());
            assertEquals(4, why.lines().count(), "the trace says why each hot method is absent:\n" + why);

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }
}
