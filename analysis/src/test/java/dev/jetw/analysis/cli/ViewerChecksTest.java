package dev.jetw.analysis.cli;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.analysis.viewers.PerfettoProtos;
import dev.jetw.analysis.viewers.Speedscope;
import dev.jetw.analysis.viewers.ViewerTools;
import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exports of the hand-built traces read by the viewers' own code (skipped, with the reason printed and
 * logged, where .ci/run has not installed them: {@link ViewerTools}): {@code chrome-trace} by speedscope's
 * importer, as a user who opens the file there sees it; {@code perfetto} by protoc with Perfetto's own
 * .proto. The same checks run on real agent traces and the Windows samples in agent/dist's ViewersIT.
 */
class ViewerChecksTest {

    @TempDir
    Path tmp;

    private Path etl(String name, byte[] bytes) throws IOException {
        Path f = tmp.resolve(name + ".etl");
        Files.write(f, bytes);
        return f;
    }

    private Path chromeTrace(Path etl) {
        Path out = tmp.resolve(etl.getFileName() + ".json");
        EtlToolTest.Run r = run("chrome-trace", "-o", out.toString(), etl.toString());
        assertEquals(0, r.status(), r.err());
        return out;
    }

    /** The .pftrace of {@code etl} and the exporter's own packet count (from its summary line). */
    private long perfetto(Path etl, Path out) {
        EtlToolTest.Run r = run("perfetto", etl.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        Matcher m = Pattern.compile(": ([0-9,]+) packets: ").matcher(r.err());
        assertTrue(m.find(), r.err());
        return Long.parseLong(m.group(1).replace(",", ""));
    }

    /** What speedscope must say of any chrome-trace export: the format it took it for, and nothing else. */
    private static Speedscope speedscope(Path json) throws IOException {
        Speedscope s = Speedscope.open(json);
        assertTrue(s.imported, "speedscope recognised no format in " + json);
        assertEquals(List.of("Importing as Trace Event Format profile"), s.logs);
        assertEquals(List.of(), s.warnings, "speedscope's importer warned");
        assertEquals(List.of(), s.errors, "speedscope's importer reported errors");
        return s;
    }

    /** Frame name to total weight (µs), rounded to 0.1 µs (speedscope adds doubles). */
    private static Map<String, Double> weights(Speedscope.Profile p) {
        Map<String, Double> out = new TreeMap<>();
        p.frames.values().forEach(f -> out.put(f.name, Math.round(f.totalWeight * 10) / 10.0));
        return out;
    }

    @Test
    void speedscopeShowsAProfilePerThreadAFramePerMethodAndEachTaskOnItsThread() throws IOException {
        ViewerTools.requireSpeedscope("ViewerChecksTest.speedscope hand-offs");
        Speedscope s = speedscope(chromeTrace(CrossThreadTreeTest.handoffFile(tmp)));
        assertEquals(List.of("jetw jetw (pid 4242), main (tid 11)", "jetw jetw (pid 4242), worker-2 (tid 12)",
                "jetw jetw (pid 4242), worker-3 (tid 13)"), s.profiles.stream().map(p -> p.name).toList());
        assertEquals(Map.of("a.Intake.handle()V", 2000.0), weights(s.profile("jetw jetw (pid 4242), main (tid 11)")));
        assertEquals(Map.of("task", 3000.0, "a.Task.run()V", 2900.0), weights(s.profile("jetw jetw (pid 4242), worker-2 (tid 12)")));
        assertEquals(Map.of("task", 2900.0, "a.Task.run()V", 2800.0), weights(s.profile("jetw jetw (pid 4242), worker-3 (tid 13)")));
    }

    /** Thread 11: m 1.0..1.0 (zero length), m 2.0..3.5, and n 2.5..2.5 inside it. */
    static byte[] zeroLengthCalls() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 11, WhyCommandTest.PID, WhyCommandTest.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("a.B"), utf16z("m"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, 11, WhyCommandTest.PID, WhyCommandTest.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(2), utf16z("a.B"), utf16z("n"), utf16z("()V"))));
        b.record(WhyCommandTest.call(b, EventType.START, 11, 1.0, 1, 0, 1));
        b.record(WhyCommandTest.call(b, EventType.END, 11, 1.0, 1, 0, 1));
        b.record(WhyCommandTest.call(b, EventType.START, 11, 2.0, 2, 0, 1));
        b.record(WhyCommandTest.call(b, EventType.START, 11, 2.5, 3, 2, 2));
        b.record(WhyCommandTest.call(b, EventType.END, 11, 2.5, 3, 2, 2));
        b.record(WhyCommandTest.call(b, EventType.END, 11, 3.5, 2, 0, 1));
        return b.build();
    }

    /** A call of zero length must not be a frame of its own (speedscope keys a B event's frame by its args too). */
    @Test
    void callsOfZeroLengthAreFramesOfTheirMethodInSpeedscope() throws IOException {
        ViewerTools.requireSpeedscope("ViewerChecksTest.speedscope zero-length calls");
        Speedscope s = speedscope(chromeTrace(etl("zero", zeroLengthCalls())));
        assertEquals(1, s.profiles.size(), s.profiles.toString());
        assertEquals(Map.of("a.B.m()V", 1500.0, "a.B.n()V", 0.0), weights(s.profiles.get(0)));
    }

    /** Kernel evidence (CPU state, disk I/O on lanes) and JVM runtime spans: one frame per state or class, no warning. */
    @Test
    void speedscopeReadsTheKernelAndRuntimeTracksWithoutAWarning() throws IOException {
        ViewerTools.requireSpeedscope("ViewerChecksTest.speedscope kernel and runtime tracks");
        Speedscope merged = speedscope(chromeTrace(etl("merged", WhyCommandTest.merged())));
        Speedscope.Profile main = merged.profile("jetw jetw (pid 4242), main (tid 5000)");
        assertEquals(Map.of("com.example.Shop.handle()V", 25000.0, "method#2", 4000.0, "method#3", 1000.0), weights(main));
        Speedscope.Profile cpu = merged.profiles.stream().filter(p -> p.name.contains("main (tid 5000): CPU state")).findFirst().orElseThrow();
        assertEquals(Set.of("Running", "Ready", "Waiting (UserRequest)", "Waiting (WrQueue)"), cpu.frames.keySet());
        assertEquals(9000 + 3000 + 4000 + 6000, weights(cpu).get("Running"), 0.05);
        Speedscope.Profile disk = merged.profiles.stream().filter(p -> p.name.contains("main (tid 5000): Disk I/O")).findFirst().orElseThrow();
        assertEquals(Map.of("DiskIo/Read", 5000.0), weights(disk));

        Speedscope runtime = speedscope(chromeTrace(etl("overlap", ChromeTraceCommandTest.overlapping())));
        assertEquals(Map.of("JvmPark", 5000.0, "JvmGcPause", 1000.0),
                weights(runtime.profile("jetw jetw (pid 4242), JVM runtime (jetw jvm= events) (tid 0)")));
    }

    /** The checker itself: a B/E pair whose E has other args than its B, and an E that closes nothing, are warnings. */
    @Test
    void theSpeedscopeCheckSeesTheImportersWarnings() throws IOException {
        ViewerTools.requireSpeedscope("ViewerChecksTest.speedscope check's own warnings");
        Path json = tmp.resolve("bad.json");
        Files.writeString(json, "{\"traceEvents\":[{\"name\":\"m\",\"ph\":\"B\",\"ts\":1,\"pid\":1,\"tid\":1},"
                + "{\"name\":\"m\",\"ph\":\"E\",\"ts\":2,\"pid\":1,\"tid\":1,\"args\":{\"instanceId\":7}},"
                + "{\"name\":\"n\",\"ph\":\"E\",\"ts\":3,\"pid\":1,\"tid\":1}]}", StandardCharsets.UTF_8);
        Speedscope s = Speedscope.open(json);
        assertEquals(2, s.warnings.size(), s.warnings.toString());
        assertTrue(s.warnings.get(0).contains("Tried to end \"m {\"instanceId\":7}\""), s.warnings.get(0));
        assertFalse(Speedscope.open(tmp.resolve("bad.json")).profiles.isEmpty());
        Path empty = tmp.resolve("empty.json");
        Files.writeString(empty, "{\"traceEvents\":[]}", StandardCharsets.UTF_8);
        assertFalse(Speedscope.open(empty).imported, "no events: speedscope recognises no format");
    }

    /**
     * Perfetto's schema reads every packet of every export with no field it does not know and no wrong
     * wire type; the counts are the exporter's; every event's track is declared; slices are balanced;
     * every flow that begins ends once.
     */
    @Test
    void perfettosOwnProtoReadsEveryExport() throws IOException {
        ViewerTools.requireProtoc("ViewerChecksTest.perfetto proto");
        Map<String, Path> traces = new TreeMap<>();
        traces.put("handoff", CrossThreadTreeTest.handoffFile(tmp));
        traces.put("merged", etl("merged", WhyCommandTest.merged()));
        traces.put("overlap", etl("overlap", ChromeTraceCommandTest.overlapping()));
        traces.put("fixture", etl("fixture", JetwTraceFixture.build()));
        traces.put("zero", etl("zero", zeroLengthCalls()));
        Map<String, long[]> counts = new TreeMap<>();
        for (Map.Entry<String, Path> t : traces.entrySet()) {
            Path out = tmp.resolve(t.getKey() + ".pftrace");
            long reported = perfetto(t.getValue(), out);
            PerfettoProtos p = PerfettoProtos.decode(out);
            String what = t.getKey() + ": ";
            assertEquals(List.of(), p.unknownFields, what + "fields Perfetto's schema does not have, or of another wire type");
            assertEquals(reported, p.packets.size(), what + "packets");
            for (PerfettoProtos.Message d : p.packets("track_descriptor")) {
                PerfettoProtos.Message process = d.message("process");
                if (process != null) {
                    assertEquals("jetw jetw", process.get("process_name"), what + "the bare name: Perfetto shows the pid beside it");
                    assertEquals("4242", process.get("pid"), what + "pid");
                }
            }
            Set<String> tracks = new HashSet<>();
            for (PerfettoProtos.Message d : p.packets("track_descriptor")) {
                assertTrue(tracks.add(d.get("uuid")), what + "uuid declared twice: " + d);
                assertTrue(d.get("parent_uuid") == null || tracks.contains(d.get("parent_uuid")), what + "parent declared first: " + d);
            }
            Set<String> flowsBegun = new HashSet<>();
            Set<String> flowsEnded = new HashSet<>();
            for (PerfettoProtos.Message e : p.packets("track_event")) {
                assertTrue(tracks.contains(e.get("track_uuid")), what + "event on an undeclared track: " + e);
                e.all("flow_ids").forEach(id -> assertTrue(flowsBegun.add((String) id), what + "flow begun twice " + id));
                e.all("terminating_flow_ids").forEach(id -> assertTrue(flowsEnded.add((String) id), what + "flow ended twice " + id));
            }
            assertEquals(flowsBegun, flowsEnded, what + "flows");
            assertEquals(p.events("TYPE_SLICE_BEGIN"), p.events("TYPE_SLICE_END"), what + "slices balanced");
            long calls = p.packets("track_event").stream().filter(e -> "jetw".equals(e.get("categories"))
                    && "TYPE_SLICE_BEGIN".equals(e.get("type"))).count();
            counts.put(t.getKey(), new long[] {calls, p.events("TYPE_INSTANT"), flowsBegun.size(), p.packets("track_descriptor").size()});
        }
        // calls, instants (checkpoints, CPU samples, runtime instants), flows, tracks
        assertEquals("{fixture=[6, 2, 0, 3], handoff=[3, 0, 2, 4], merged=[5, 4, 0, 9], overlap=[2, 0, 0, 5], zero=[3, 0, 0, 2]}",
                counts.entrySet().stream().map(e -> e.getKey() + "=" + java.util.Arrays.toString(e.getValue()))
                        .collect(java.util.stream.Collectors.joining(", ", "{", "}")));
    }

    /** The checker itself: a field Perfetto's schema does not have, and a known field of another wire type, are found. */
    @Test
    void theProtoCheckSeesUnknownFieldsAndWrongWireTypes() throws IOException {
        ViewerTools.requireProtoc("ViewerChecksTest.perfetto proto check's own findings");
        ProtoMessage event = new ProtoMessage().varint(9, PerfettoTrace.INSTANT).varint(11, 1);
        ProtoMessage packet = new ProtoMessage().varint(10, 1).varint(11, 5).message(11, event).varint(1999, 3);
        Path bad = tmp.resolve("bad.pftrace");
        try (java.io.OutputStream out = Files.newOutputStream(bad)) {
            packet.writeAsField(1, out);
        }
        PerfettoProtos p = PerfettoProtos.decode(bad);
        assertEquals(List.of("packet.11: 5", "packet.1999: 3"), p.unknownFields);
        assertEquals("TYPE_INSTANT", p.packets("track_event").get(0).get("type"));
    }
}
