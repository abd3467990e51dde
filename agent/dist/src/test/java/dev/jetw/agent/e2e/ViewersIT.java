package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.HandoffApp;
import com.acme.app.RuntimeEventsApp;
import dev.jetw.analysis.cli.EtlTool;
import dev.jetw.analysis.viewers.PerfettoProtos;
import dev.jetw.analysis.viewers.Speedscope;
import dev.jetw.analysis.viewers.ViewerTools;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EventType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The exports of real traces read by the viewers' own code (docs/etl-tools.md, "Checked by the viewers'
 * own code"): {@code chrome-trace} by speedscope's importer, {@code perfetto} by protoc with Perfetto's
 * .proto; skipped with the reason printed where .ci/run has not installed them. The traces: an agent
 * trace with calls, hand-offs and JVM runtime events (HandoffApp, jvm=all), one with every runtime
 * family (RuntimeEventsApp), and every Windows-written sample. What a user of speedscope sees is checked
 * against the trace itself ({@link TraceFile}, read independently of the exporter): a profile per thread
 * with calls, named by the thread, one frame per method called there (and "task" where tasks ran), each
 * method's total weight the time of its calls there, and no importer warning or error.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ViewersIT {

    private final Map<String, Path> traces = new LinkedHashMap<>();
    private Path temp;

    @BeforeAll
    void writeTheTraces() throws Exception {
        temp = Files.createTempDirectory("jetw-viewers");
        Path handoff = temp.resolve("handoff.etl");
        try (ChildJvm app = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=com.acme.app.**,jvm=all,jvmThreshold=0,file="
                + handoff), ChildJvm.appClassPath(), HandoffApp.class)) {
            app.awaitStdout(l -> l.startsWith("ready"), "ready");
            int from = app.stdoutLineCount();
            app.send("run");
            app.awaitStdout(from, "ran"::equals, "ran");
            Thread.sleep(1_500); // JFR hands its runtime events over about once a second
            app.send("exit");
            assertEquals(0, app.waitForExit(), app.toString());
        }
        traces.put("agent: calls, hand-offs, JVM runtime events", handoff);

        Path runtime = temp.resolve("runtime.etl");
        ChildJvm events = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=include=" + RuntimeEventsApp.class.getName()
                + ",jvm=all,jvmThreshold=0,file=" + runtime), ChildJvm.appClassPath(), RuntimeEventsApp.class);
        assertEquals(0, events.waitForExit(), events.toString());
        traces.put("agent: every JVM runtime family", runtime);

        try (Stream<Path> samples = Files.list(Paths.get(System.getProperty("jetw.samples.dir")))) {
            samples.filter(p -> p.toString().endsWith(".etl")).sorted().forEach(p -> traces.put("Windows: " + p.getFileName(), p));
        }
    }

    @AfterAll
    void removeTheTraces() throws Exception {
        try (Stream<Path> files = Files.walk(temp)) {
            files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        }
    }

    Stream<Arguments> everyTrace() {
        return traces.entrySet().stream().map(t -> Arguments.of(t.getKey(), t.getValue()));
    }

    /** Runs {@code jetw etl ARGS}; returns its stderr after checking it succeeded. */
    private static String etl(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(status == EtlTool.OK || status == EtlTool.INCOMPLETE, "jetw etl " + String.join(" ", args) + ": exit " + status + ": " + said);
        return said;
    }

    @ParameterizedTest(name = "speedscope imports chrome-trace of {0}")
    @MethodSource("everyTrace")
    void speedscopeShowsEachThreadsCallsByMethod(String kind, Path trace) throws Exception {
        ViewerTools.requireSpeedscope("ViewersIT.speedscope " + kind);
        Path json = temp.resolve(trace.getFileName() + ".json");
        String said = etl("chrome-trace", "--quiet", "-o", json.toString(), trace.toString());
        Speedscope s = Speedscope.open(json);
        if (!s.imported) {
            // Nothing to show (a Windows sample without jetw, runtime or kernel events): said so, not handed over in silence.
            assertFalse(kind.startsWith("agent"), kind + ": speedscope recognised nothing in " + Files.readString(json));
            assertTrue(said.contains("nothing to show"), said);
            return;
        }
        assertEquals(List.of("Importing as Trace Event Format profile"), s.logs, kind);
        assertEquals(List.of(), s.warnings, kind + ": speedscope's importer warned");
        assertEquals(List.of(), s.errors, kind + ": speedscope's importer reported errors");
        if (!kind.startsWith("agent")) {
            return;
        }
        TraceFile calls = TraceFile.read(trace);
        String process;
        try (EtlReader reader = EtlReader.open(trace)) {
            process = "jetw " + reader.header().loggerName();
        }
        Map<Integer, Map<String, Double>> expected = expectedWeights(calls);
        Map<Integer, Set<String>> tasks = new TreeMap<>();
        calls.calls.stream().filter(c -> c.type() == EventType.DEQUEUE)
                .forEach(c -> tasks.computeIfAbsent(c.threadId(), t -> new TreeSet<>()).add("task"));
        assertFalse(expected.isEmpty(), kind + ": no calls");
        for (Map.Entry<Integer, Map<String, Double>> thread : expected.entrySet()) {
            int tid = thread.getKey();
            String name = calls.threadStarts.get((long) tid);
            // An unnamed virtual thread (Java 21+: its Thread rundown has no name and no OS thread) is named
            // "virtual thread #<java id>" by the exports (the portable backend's header tid is that id); a thread with
            // no name otherwise gets no thread_name: speedscope then names the profile by its pid and tid.
            boolean virtual = name != null && name.isEmpty() && Long.valueOf(0).equals(calls.osThreadIds.get((long) tid));
            String shown = virtual ? "virtual thread #" + tid : name;
            Speedscope.Profile profile = shown == null || shown.isEmpty() ? only(s, process + " (pid ", ", tid " + tid + ")")
                    : only(s, process + " (pid ", "), " + shown + " (tid " + tid + ")");
            Set<String> frames = new TreeSet<>(thread.getValue().keySet());
            frames.addAll(tasks.getOrDefault(tid, Set.of()));
            assertEquals(frames, new TreeSet<>(profile.frames.keySet()), kind + ", " + profile.name + ": one frame per method called there");
            for (Map.Entry<String, Double> method : thread.getValue().entrySet()) {
                double seen = profile.frames.get(method.getKey()).totalWeight;
                if (!Double.isNaN(method.getValue())) {
                    assertEquals(method.getValue(), seen, 0.05 + method.getValue() * 1e-9,
                            kind + ", " + profile.name + ", " + method.getKey() + ": total weight (µs) = the time of its calls there");
                }
            }
        }
    }

    /** The one profile whose name starts and ends so (the pid between them is the traced JVM's). */
    private static Speedscope.Profile only(Speedscope s, String start, String end) {
        List<Speedscope.Profile> found = s.profiles.stream().filter(p -> p.name.startsWith(start) && p.name.endsWith(end)
                && p.name.indexOf("), ") == p.name.lastIndexOf("), ")).toList();
        assertEquals(1, found.size(), "one speedscope profile named \"" + start + "N" + end + "\" in "
                + s.profiles.stream().map(p -> p.name).toList());
        return found.get(0);
    }

    /**
     * Per thread (its header id) and method ("class.method" + descriptor, as the exports name it): the µs of
     * its calls there, each counted once where it is inside a call of the same method (speedscope's total
     * weight of a frame); NaN where one of them has no END (it lasts to the file's last record).
     */
    private static Map<Integer, Map<String, Double>> expectedWeights(TraceFile trace) {
        Map<Integer, Map<String, Double>> out = new TreeMap<>();
        Map<Integer, List<TraceFile.Call>> open = new HashMap<>();
        Map<Integer, Map<Integer, TraceFile.Call>> byInstance = new HashMap<>();
        for (TraceFile.Call c : trace.calls) {
            if (c.type() != EventType.START && c.type() != EventType.END) {
                continue;
            }
            String method = methodName(trace, c.methodId());
            Map<String, Double> weights = out.computeIfAbsent(c.threadId(), t -> new TreeMap<>());
            weights.putIfAbsent(method, 0.0);
            List<TraceFile.Call> stack = open.computeIfAbsent(c.threadId(), t -> new ArrayList<>());
            if (c.type() == EventType.START) {
                stack.add(c);
                byInstance.computeIfAbsent(c.threadId(), t -> new HashMap<>()).put(c.instanceId(), c);
                continue;
            }
            TraceFile.Call start = byInstance.getOrDefault(c.threadId(), Map.of()).get(c.instanceId());
            if (start == null) {
                continue; // an END whose START is not in the file: not on the timeline
            }
            stack.remove(start);
            boolean nested = stack.stream().anyMatch(o -> o.methodId() == c.methodId());
            if (!nested) {
                weights.put(method, weights.get(method) + (c.timestamp() - start.timestamp()) / 10.0); // 100 ns ticks to µs
            }
        }
        open.forEach((tid, stack) -> stack.forEach(c -> out.get(tid).put(methodName(trace, c.methodId()), Double.NaN)));
        return out;
    }

    private static String methodName(TraceFile trace, int id) {
        TraceFile.Method m = trace.methodStarts.getOrDefault(id, trace.methodEnds.get(id));
        return m == null ? "method#" + id : m.className() + "." + m.methodName() + m.descriptor();
    }

    @ParameterizedTest(name = "Perfetto's .proto reads perfetto of {0}")
    @MethodSource("everyTrace")
    void perfettosOwnProtoReadsTheExport(String kind, Path trace) throws Exception {
        ViewerTools.requireProtoc("ViewersIT.perfetto " + kind);
        Path out = temp.resolve(trace.getFileName() + ".pftrace");
        String said = etl("perfetto", "--quiet", trace.toString(), out.toString());
        Matcher reported = Pattern.compile(": ([0-9,]+) packets: ([0-9,]+) calls, ").matcher(said);
        assertTrue(reported.find(), said);
        PerfettoProtos p = PerfettoProtos.decode(out);
        assertEquals(List.of(), p.unknownFields, kind + ": fields Perfetto's schema does not have, or of another wire type");
        assertEquals(Long.parseLong(reported.group(1).replace(",", "")), p.packets.size(), kind + ": packets");
        assertEquals(p.events("TYPE_SLICE_BEGIN"), p.events("TYPE_SLICE_END"), kind + ": slices balanced");
        Set<String> tracks = new TreeSet<>();
        p.packets("track_descriptor").forEach(d -> assertTrue(tracks.add(d.get("uuid")), kind + ": uuid declared twice: " + d));
        List<Object> begun = new ArrayList<>();
        List<Object> ended = new ArrayList<>();
        for (PerfettoProtos.Message e : p.packets("track_event")) {
            assertTrue(tracks.contains(e.get("track_uuid")), kind + ": an event on an undeclared track: " + e);
            begun.addAll(e.all("flow_ids"));
            ended.addAll(e.all("terminating_flow_ids"));
        }
        assertEquals(new TreeSet<>(begun), new TreeSet<>(ended), kind + ": every flow begun ends");
        if (kind.startsWith("agent")) {
            TraceFile calls = TraceFile.read(trace);
            long starts = calls.calls.stream().filter(c -> c.type() == EventType.START).count();
            long dequeues = calls.calls.stream().filter(c -> c.type() == EventType.DEQUEUE).count();
            assertEquals(starts, count(p, "jetw", "TYPE_SLICE_BEGIN"), kind + ": a slice per call");
            assertEquals(dequeues, count(p, "jetw.task", "TYPE_SLICE_BEGIN"), kind + ": a slice per task");
            assertEquals(calls.calls.stream().filter(c -> c.type() == EventType.CHECKPOINT).count(),
                    count(p, "jetw.checkpoint", "TYPE_INSTANT"), kind + ": an instant per checkpoint");
            assertTrue(p.packets("track_event").stream().anyMatch(e -> String.valueOf(e.get("categories")).startsWith("jetw.jvm.")),
                    kind + ": JVM runtime events");
        }
    }

    private static long count(PerfettoProtos p, String category, String type) {
        return p.packets("track_event").stream().filter(e -> category.equals(e.get("categories")) && type.equals(e.get("type"))).count();
    }
}
