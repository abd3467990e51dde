package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.RampTargetApp;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The attach ramp (docs/attach-ramp.md) against a running JVM: the loaded classes are instrumented in the order it
 * documents (first the classes seen only waiting in a stack, then the classes not seen, each in class-name order; the
 * hot classes, on a running stack or compiled, last together with attachHot=defer, first with now, never with
 * skip, the default), the methods running hot get no advice, the attach command replies after the first tier and status shows the
 * progress. Method ids are given in the order methods are instrumented, so the trace's rundown shows the order.
 */
class AttachRampIT {

    static final String PACKAGE = "com.acme.ramp.";

    @TempDir
    Path temp;

    /** attachHot= as given, the hot classes' part of status, the classes in the trace's order. */
    static Stream<Arguments> deferAndNow() {
        return Stream.of(
                Arguments.of("defer", "defer", "deferred, together after the others, 3 done, 0 left; 4",
                        List.of("Waiter", "ColdA", "ColdB", "Middle", "Outer", "Spinner")),
                Arguments.of("now", "now", "3 retransformed with the first tier; 4",
                        List.of("Waiter", "Middle", "Outer", "Spinner", "ColdA", "ColdB")));
    }

    /**
     * defer takes the hot classes (on a running stack) after those seen only waiting and those not seen; now
     * retransforms them with the first call; both reply after the first tier and leave the running-hot methods out.
     */
    @ParameterizedTest
    @MethodSource("deferAndNow")
    void ordersTheTiersAndRepliesAfterTheFirst(String given, String attachHot, String hotPart, List<String> order) throws Exception {
        Ramped r = attach(given);
        assertTrue(r.reply.contains("attach ramp: the first tier is in; the other loaded classes follow in the background (hot classes:"
                + " attachHot=" + attachHot + "); follow it with: java -jar jetw-agent.jar status " + r.pid), r.reply);
        r.assertDone(6, attachHot, hotPart, order, "attachHot=" + attachHot);
        r.assertHotMethodsLeftOut();
    }

    /** The default (no attachHot= given) is skip: the reply and status say the hot classes are not traced and how to trace them. */
    @Test
    void theDefaultSkipLeavesTheHotClassesAlone() throws Exception {
        Ramped r = attach(null);
        assertTrue(r.reply.contains("(hot classes: attachHot=skip, not traced in this attach; attachHot=defer traces them too); follow it"
                + " with: java -jar jetw-agent.jar status " + r.pid), r.reply);
        r.assertDone(3, "skip", "3 selected, not retransformed in this attach \\(their methods are not traced; to trace them too: attachHot=defer,"
                + " or -javaagent at start-up\\); 0", List.of("Waiter", "ColdA", "ColdB"), "the hot classes are neither named nor traced");
        assertEquals(2, r.redefinitions("ColdA"), "a class the ramp instrumented is retransformed at attach and restored at detach:\n" + r.redefined);
        for (String hot : List.of("Spinner", "Middle", "Outer")) {
            // Byte Buddy's own reset retransformed every class its matcher accepts, and so threw their compiled code away.
            assertEquals(0, r.redefinitions(hot), hot + " is left alone by the attach and by the detach:\n" + String.join("\n", r.redefined));
        }
        r.assertClassesLeftAloneNamed("Middle", "Outer", "Spinner");
    }

    /**
     * A narrow attach to the class the service is running (the include names only Spinner, hot): nothing of it is traced
     * by default, and the reply and status say so and how to trace it.
     */
    @Test
    void aNarrowAttachToAHotClassSaysItIsLeftAlone() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), RampTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready 4 "), "ready");
            String pid = Long.toString(target.pid());
            ChildJvm.Result attached = ChildJvm.tool("attach", pid, "include=" + PACKAGE + "Spinner", "backend=portable", "jvm=none",
                    "file=" + temp.resolve("narrow.etl"));
            assertEquals(0, attached.exit(), attached.toString());
            // The include offers ColdA and ColdB by name (not woven), so the ramp's line is the one that says it goes on;
            // either line names the hot classes left alone and the way to trace them (AttachRampCountsTest: the other line).
            assertTrue(attached.stdout().contains("not traced in this attach; attachHot=defer traces them too")
                    || attached.stdout().contains("attach ramp: done; 1 hot classes (on a running stack or compiled) not traced in this"
                    + " attach (attachHot=skip); attachHot=defer traces them too"), attached.toString());
            String status = ChildJvm.awaitRampDone(pid);
            assertTrue(status.contains("(of 7 loaded classes offered: 2 seen only waiting in a stack, 2 not seen, 3 hot: on a running stack"
                    + " or compiled); hot classes (attachHot=skip): 1 selected, not retransformed in this attach"), status);
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /** Attaches (attachHot= when not null), waits for the ramp's end through status, detaches and reads the trace. */
    private Ramped attach(String attachHot) throws Exception {
        // The JVM's own log of each class it redefines (a retransformation is one): which classes the attach and the
        // detach touched.
        Path redefinitions = temp.resolve("redefined-" + attachHot + ".log");
        Path loads = temp.resolve("loaded-" + attachHot + ".log");
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading", "-Xlog:redefine+class+load=info:file=" + redefinitions,
                        "-Xlog:class+load=info:file=" + loads),
                ChildJvm.appClassPath(), RampTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready 4 "), "ready");
            String pid = Long.toString(target.pid());
            Path etl = temp.resolve("ramp-" + attachHot + ".etl");
            List<String> args = new ArrayList<>(List.of("attach", pid, "include=" + PACKAGE + "**", "backend=portable", "jvm=none", "file=" + etl));
            if (attachHot != null) {
                args.add("attachHot=" + attachHot);
            }
            ChildJvm.Result attached = ChildJvm.tool(args.toArray(new String[0]));
            assertEquals(0, attached.exit(), attached.toString());

            // Status answers while the ramp goes on.
            String ramp = ChildJvm.awaitRampDone(pid);
            if (attachHot != null && !"skip".equals(attachHot)) {
                // The methods left out as running hot are excluded, and status says why (it called them "adaptive: hot and short").
                ChildJvm.Result status = ChildJvm.tool("status", pid);
                assertTrue(status.stdout().contains("methods excluded:    4 (adaptive: hot and short), 4 of them running hot at attach"
                        + " (never traced)"), status.toString());
            }

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
            assertEquals(1, trace.count(EventType.START, trace.methodId(PACKAGE + "ColdA", "run")), "the cold class is traced");
            assertEquals(1, trace.count(EventType.START, trace.methodId(PACKAGE + "ColdB", "run")));

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            // Byte Buddy's self-injection (its Nexus defined in the application's loader through sun.misc.Unsafe, which
            // Java 24+ reports on the application's stderr) never comes up: jetw's builders are born without it.
            List<String> nexus = Files.readAllLines(loads).stream().filter(l -> l.contains("net.bytebuddy.dynamic.Nexus")).toList();
            assertEquals(List.of(), nexus, "no Nexus accessor loaded, no Nexus injected");
            assertTrue(target.stderrLines().stream().noneMatch(l -> l.contains("sun.misc.Unsafe")), target.toString());
            // The ramp's retransformations and the loads after the attach are the direct path's (docs/attach-ramp.md):
            // for ordinary class files Byte Buddy's AgentBuilder, its type pool, method graphs and Advice never come up.
            for (String machinery : List.of("net.bytebuddy.agent.builder.AgentBuilder$Default ", "net.bytebuddy.pool.TypePool$Default ",
                    "net.bytebuddy.dynamic.scaffold.MethodGraph$Compiler$Default ", "net.bytebuddy.asm.Advice ")) {
                assertEquals(List.of(), Files.readAllLines(loads).stream().filter(l -> l.contains(machinery)).toList(),
                        machinery + "came up at attach");
            }
            return new Ramped(pid, attached.stdout(), ramp, order, trace, etl, Files.readAllLines(redefinitions));
        }
    }

    private record Ramped(String pid, String reply, String status, List<String> order, TraceFile trace, Path etl, List<String> redefined) {

        /** How often the JVM redefined class {@code simple} of the package, attach and detach together. */
        long redefinitions(String simple) {
            return redefined.stream().filter(l -> l.contains("redefined name=" + PACKAGE + simple + ",")).count();
        }

        /**
         * Status says the ramp is done with {@code done} classes retransformed, the tiers of the 7 offered (RampTargetApp
         * too, its main thread waiting on stdin, which the include does not match), the hot classes' part up to the
         * count of methods left out; the trace's classes come in {@code order}.
         */
        void assertDone(int done, String attachHot, String hotPartAndLeftOut, List<String> order, String why) {
            assertTrue(status.matches("attach ramp:\\s+done, " + done + " of " + done + " classes retransformed so far \\(of 7 loaded classes offered: "
                    + "2 seen only waiting in a stack, 2 not seen, 3 hot: on a running stack or compiled\\); hot classes \\(attachHot=" + attachHot
                    + "\\): " + hotPartAndLeftOut + " methods left out as running hot .*"), status);
            assertEquals(order, this.order, why + "; each tier by name");
        }

        /**
         * The trace names the classes skip left alone, each with why it was hot: `etl methods` lists them, `etl summary`
         * counts them, both JSON forms carry them.
         */
        void assertClassesLeftAloneNamed(String... simpleNames) throws Exception {
            ChildJvm.Result methods = ChildJvm.tool("etl", "methods", etl.toString());
            assertEquals(0, methods.exit(), methods.toString());
            String why = String.join("|", JetwSchema.LEFT_ALONE_WHY);
            List<String> listed = methods.stdout().lines().filter(l -> l.matches("  " + java.util.regex.Pattern.quote(PACKAGE) + "\\w+  \\((" + why + ")\\)"))
                    .map(l -> l.trim().split(" ")[0].substring(PACKAGE.length())).toList();
            assertEquals(List.of(simpleNames), listed, methods.stdout());
            String count = JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH + simpleNames.length + " classes, not traced in that attach (";
            assertTrue(methods.stdout().contains(count), methods.stdout());
            ChildJvm.Result summary = ChildJvm.tool("etl", "summary", etl.toString());
            assertTrue(summary.stdout().contains("  " + count), summary.toString());
            for (String command : List.of("methods", "summary")) {
                ChildJvm.Result json = ChildJvm.tool("etl", command, "--json", etl.toString());
                assertEquals(0, json.exit(), json.toString());
                assertTrue(json.stdout().contains("\"classesLeftAloneAtAttach\":[{\"class\":\"" + PACKAGE + simpleNames[0] + "\",\"why\":\""),
                        command + ": " + json.stdout());
            }
        }

        /** The four methods running hot have no call and the trace says why (MethodExclusion, in etl summary). */
        void assertHotMethodsLeftOut() throws Exception {
            for (String hot : List.of("Spinner#step", "Spinner#spin", "Middle#a", "Middle#b")) {
                String[] cm = hot.split("#");
                int id = trace.methodId(PACKAGE + cm[0], cm[1]);
                assertEquals(0, trace.count(EventType.START, id), hot + " running hot: no call written");
            }
            assertTrue(trace.methodStarts.values().stream().anyMatch(m -> m.className().equals(PACKAGE + "Outer")), "Outer is named");
            ChildJvm.Result summary = ChildJvm.tool("etl", "summary", etl.toString());
            assertEquals(0, summary.exit(), summary.toString());
            String why = summary.stdout().lines().filter(l -> l.contains(JetwSchema.EXCLUSION_RUNNING_AT_ATTACH)).sorted()
                    .collect(Collectors.joining("\n"));
            assertTrue(why.contains(PACKAGE + "Spinner.step()V  " + JetwSchema.EXCLUSION_RUNNING_AT_ATTACH + ": 0 calls observed"), summary.stdout());
            assertEquals(4, why.lines().count(), "the trace says why each hot method is absent:\n" + why);
        }
    }
}
