package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.acme.app.HandoffApp;
import com.acme.app.HotGetterApp;
import com.acme.app.RampTargetApp;
import dev.jetw.analysis.cli.EtlTool;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.portable.linux.KernelTests;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code jetw etl} command, in its text and its {@code --json} form, on every kind of trace a user
 * has: a trace written with the agent's default options (adaptive exclusion, JVM runtime events), one
 * with cross-thread hand-offs, an attach trace, one whose attach left hot classes alone, a buffering-mode dump, a merged jetw + Linux kernel trace
 * (the portable backend's kernel=, as root with tracefs), one with CPU samples and hard faults (perf events, Java
 * 22+), and every Windows-written sample.
 * Each run must end with a documented exit status and must not die of an exception. A new command or
 * a new kind of trace is a new row here.
 *
 * <p>The kernel rows are kernel tests (KernelTests): where tracefs or root is missing each skips with the
 * reason printed and logged, and .ci/run counts it; they never pass without the trace.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EveryCommandIT {

    /** The command forms; {@code OUT} stands for a fresh output file. */
    static final List<List<String>> FORMS = List.of(
            List.of("summary"), List.of("summary", "--json"),
            List.of("dump"), List.of("dump", "--json"),
            List.of("tree"), List.of("tree", "--why"), List.of("tree", "--slowest"),
            List.of("methods"), List.of("methods", "--json"),
            List.of("why"), List.of("why", "--json"),
            List.of("chrome-trace", "-o", "OUT"),
            List.of("perfetto", "FILE", "OUT"),
            List.of("hot-methods", "-o", "OUT"));

    /** The kind of the merged jetw + Linux kernel trace: its rows run only where kernel events can be collected. */
    static final String MERGED_KERNEL = "merged jetw + Linux kernel (kernel=process,thread,cswitch,disk_io,file_io,file_io_init)";

    /** The kind of the merged jetw + perf (CPU samples, hard faults) trace: its rows run only where perf events can be collected. */
    static final String MERGED_PERF = "merged jetw + Linux perf events (kernel=profile,memory_hard_faults,cswitch)";

    private final Map<String, Path> traces = new LinkedHashMap<>();
    private Path temp;

    @BeforeAll
    void writeTheTraces() throws Exception {
        temp = Files.createTempDirectory("jetw-every-command");
        Path defaults = temp.resolve("defaults.etl");
        ChildJvm hot = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=com.acme.app.**,file=" + defaults),
                ChildJvm.appClassPath(), HotGetterApp.class);
        assertEquals(0, hot.waitForExit(), hot.toString());
        traces.put("agent, default options (exclusion, JVM events)", defaults);

        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), HandoffApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            Path handoff = temp.resolve("handoff.etl");
            assertEquals(0, ChildJvm.tool("attach", pid, "include=com.acme.app.**", "file=" + handoff).exit());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            int from = target.stdoutLineCount();
            target.send("run");
            target.awaitStdout(from, "ran"::equals, "ran");
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            traces.put("attach, hand-offs", handoff);
        }

        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            Path ring = temp.resolve("ring.etl");
            assertEquals(0, ChildJvm.tool("attach", pid, "include=" + AttachIT.WORKER, "preset=always-on", "file=" + ring).exit());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            int from = target.stdoutLineCount();
            target.send("work");
            target.awaitStdout(from, AttachIT.EXPECTED_RESULT::equals, AttachIT.EXPECTED_RESULT);
            Path dump = temp.resolve("dump.etl");
            ChildJvm.Result dumped = ChildJvm.tool("dump", pid, dump.toString());
            assertEquals(0, dumped.exit(), dumped.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            traces.put("attach, buffering mode (ring)", ring);
            traces.put("dump of a buffering session", dump);
        }

        // attachHot=skip (the default) with classes running hot: the trace names the classes it left alone.
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading"), ChildJvm.appClassPath(), RampTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready 4 "), "ready");
            String pid = Long.toString(target.pid());
            Path skipped = temp.resolve("left-alone.etl");
            assertEquals(0, ChildJvm.tool("attach", pid, "include=" + AttachRampIT.PACKAGE + "**", "file=" + skipped).exit());
            ChildJvm.awaitRampDone(pid);
            int from = target.stdoutLineCount();
            target.send("cold");
            target.awaitStdout(from, "cold 6"::equals, "cold 6");
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            assertTrue(ChildJvm.tool("etl", "summary", skipped.toString()).stdout().contains(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH + "3 classes"),
                    "the row holds the records of the classes left alone");
            traces.put("attach, hot classes left alone (attachHot=skip)", skipped);
        }

        // Null where the machine cannot collect kernel events: the rows then skip with the reason (KernelTests).
        Path merged = null;
        if (KernelTests.unavailableReason() == null) {
            merged = temp.resolve("merged-kernel.etl");
            ChildJvm kernel = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=com.acme.app.**,backend=portable,"
                    + "kernel=process,thread,cswitch,disk_io,file_io,file_io_init,file=" + merged), ChildJvm.appClassPath(),
                    HotGetterApp.class);
            assertEquals(0, kernel.waitForExit(), kernel.toString());
            assertFalse(kernel.stderr().contains("no kernel events"), kernel.toString());
            assertTrue(kernel.stderr().contains("kernel events: "), "the stop line counts the kernel's events: " + kernel);
        }
        traces.put(MERGED_KERNEL, merged);

        Path perf = null;
        if (KernelTests.perfUnavailableReason() == null) {
            perf = temp.resolve("merged-perf.etl");
            ChildJvm kernel = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=com.acme.app.**,backend=portable,"
                    + "kernel=profile,memory_hard_faults,cswitch,file=" + perf), ChildJvm.appClassPath(), HotGetterApp.class);
            assertEquals(0, kernel.waitForExit(), kernel.toString());
            assertFalse(kernel.stderr().contains("no kernel events") || kernel.stderr().contains("kernel=profile"),
                    kernel.toString());
            assertTrue(kernel.stderr().contains("kernel events: "), "the stop line counts the kernel's events: " + kernel);
        }
        traces.put(MERGED_PERF, perf);

        try (Stream<Path> samples = Files.list(Paths.get(System.getProperty("jetw.samples.dir")))) {
            samples.filter(p -> p.toString().endsWith(".etl")).sorted()
                    .forEach(p -> traces.put("Windows: " + p.getFileName(), p));
        }
    }

    @AfterAll
    void removeTheTraces() throws Exception {
        try (Stream<Path> files = Files.walk(temp)) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
    }

    Stream<Arguments> everyCommandOnEveryTrace() {
        List<Arguments> rows = new ArrayList<>();
        for (Map.Entry<String, Path> trace : traces.entrySet()) {
            for (List<String> form : FORMS) {
                rows.add(Arguments.of(String.join(" ", form), trace.getKey(), trace.getValue(), form));
            }
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("everyCommandOnEveryTrace")
    void runsToADocumentedExitWithoutAnException(String name, String kind, Path trace, List<String> form) throws Exception {
        if (kind.equals(MERGED_KERNEL)) {
            KernelTests.require("EveryCommandIT " + name + " on the merged jetw + kernel trace");
        }
        if (kind.equals(MERGED_PERF)) {
            KernelTests.requirePerf("EveryCommandIT " + name + " on the merged jetw + perf trace");
        }
        List<String> args = new ArrayList<>();
        Path out = Files.createTempFile(temp, "out", ".bin");
        Files.delete(out);
        boolean fileGiven = false;
        for (String a : form) {
            if (a.equals("OUT")) {
                args.add(out.toString());
            } else if (a.equals("FILE")) {
                args.add(trace.toString());
                fileGiven = true;
            } else {
                args.add(a);
            }
        }
        if (!fileGiven) {
            args.add("--quiet");
            args.add(trace.toString());
        }
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int status = EtlTool.run(args.toArray(new String[0]), new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        String err = stderr.toString(StandardCharsets.UTF_8);
        String text = stdout.toString(StandardCharsets.UTF_8);
        String seen = "jetw etl " + String.join(" ", args) + "\nexit " + status + "\nstderr: " + err
                + "\nstdout (end): " + text.substring(Math.max(0, text.length() - 2000));
        assertTrue(status == EtlTool.OK || status == EtlTool.INCOMPLETE, seen);
        assertFalse(err.contains("Exception") || err.contains("\tat "), seen);
        if (status == EtlTool.INCOMPLETE) {
            assertTrue(err.contains("jetw etl") || text.contains("lost") || text.contains("truncated") || text.contains("problem"),
                    "an incomplete trace is said so: " + seen);
        }
        if (form.contains("--json") && !form.contains("dump")) {
            assertTrue(text.trim().startsWith("{") || text.trim().startsWith("["), seen);
        }
        if (form.contains("--json") && form.contains("dump")) {
            for (String line : text.split("\n")) {
                assertTrue(line.isEmpty() || line.startsWith("{") && line.endsWith("}"), "one JSON object per line: " + line);
            }
        }
        if (form.contains("OUT") && status == EtlTool.OK) {
            assertTrue(Files.isRegularFile(out), "wrote " + out + ": " + seen); // empty only when the trace has nothing to show
            assertTrue(Files.size(out) > 0 || !kind.startsWith("agent") && !kind.startsWith("attach"), "wrote " + out + ": " + seen);
        }
    }
}
