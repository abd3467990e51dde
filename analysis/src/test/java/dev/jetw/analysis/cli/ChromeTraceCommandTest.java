package dev.jetw.analysis.cli;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.WhyCommandTest.PID;
import static dev.jetw.analysis.cli.WhyCommandTest.call;
import static dev.jetw.analysis.cli.WhyCommandTest.runtime;
import static dev.jetw.analysis.cli.WhyCommandTest.ts;
import static dev.jetw.analysis.cli.WhyCommandTest.u64;
import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chrome-trace} as its viewers read it ({@link ChromeTraceJson}: Perfetto's and chrome://tracing's
 * nesting per track, speedscope's frame keys and pairing): stable frame names, no slices that overlap
 * partly on one track, and the kernel's evidence on tracks of their own.
 */
class ChromeTraceCommandTest {

    @TempDir
    Path tmp;

    private Path json(String name, byte[] etl, String... options) throws IOException {
        Path f = tmp.resolve(name + ".etl");
        Files.write(f, etl);
        Path out = tmp.resolve(name + ".json");
        String[] args = new String[options.length + 4];
        args[0] = "chrome-trace";
        System.arraycopy(options, 0, args, 1, options.length);
        args[options.length + 1] = "-o";
        args[options.length + 2] = out.toString();
        args[options.length + 3] = f.toString();
        EtlToolTest.Run r = run(args);
        assertEquals(0, r.status(), r.err());
        return out;
    }

    /**
     * Thread 12 (Windows numbering): query inst 1 3..15.25 with render inst 2 8..10; a park of thread 12 4..9
     * (it overlaps render partly), a contention of thread 13 6..12 (it overlaps the park partly), a GC pause
     * 10..11. On one track each of these pairs would overlap partly.
     */
    static byte[] overlapping() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(2), utf16z("com.example.Db"), utf16z("query"), utf16z("()I"))));
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(3), utf16z("com.example.Shop"), utf16z("render"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("worker-1"))));
        b.record(call(b, EventType.START, 12, 3, 1, 0, 2));
        b.record(call(b, EventType.START, 12, 8, 2, 1, 3));
        b.record(call(b, EventType.END, 12, 10, 2, 1, 3));
        b.record(call(b, EventType.END, 12, 15.25, 1, 0, 2));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 4, 7, concat(u64(12), u64(1), u64(-1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 9, 7, concat(u64(12), u64(1))));
        b.record(runtime(b, JetwSchema.JVM_CONTENTION_CLASS, EventType.START, 6, 8,
                concat(u64(13), u64(2), u32(0), u64(12), u64(1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_CONTENTION_CLASS, EventType.END, 12, 8, concat(u64(13), u64(2), u32(0))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.START, 10, 9, concat(u64(0), u64(0), u32(3), utf16z("Pause Young"))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.END, 11, 9, concat(u64(0), u64(0), u32(3))));
        return b.build();
    }

    @Test
    void runtimeEventsThatOverlapGoOnLanesSoNoTrackHasSlicesOverlappingPartly() throws IOException {
        ChromeTraceJson t = ChromeTraceJson.read(json("overlap", overlapping())); // fails on partly overlapping slices
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0", "JvmGcPause ts=10000.0 dur=1000.0"), t.on(0));
        assertEquals(List.of("JvmContention ts=6000.0 dur=6000.0"), t.on(t.track("JVM runtime (jetw jvm= events) 2")));
        assertEquals(List.of("com.example.Shop.render()V ts=8000.0 dur=2000.0", "com.example.Db.query()I ts=3000.0 dur=12250.0"),
                t.on(12), "the calls alone on the thread's track");
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0"), t.on(t.track("worker-1 (tid 12): JVM runtime")));
        assertEquals(List.of("JvmContention ts=6000.0 dur=6000.0"), t.on(t.track("tid 13: JVM runtime")));
    }

    /**
     * A portable file numbers threads by Java id (main: header id 1 = Java id 1). A park of a thread that wrote no
     * call (OS id 13177, Java id 16) goes on that thread's track by the same numbering, "tid 16", not on a track
     * keyed by its OS id among Java ids.
     */
    @Test
    void aRuntimeSubjectWithoutCallsIsNumberedAsTheFileNumbersThreads() throws IOException {
        EtlFixtureBuilder b = portableMainWithOneCall();
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 4, 7, concat(u64(13177), u64(16), u64(-1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 9, 7, concat(u64(13177), u64(16))));
        ChromeTraceJson t = ChromeTraceJson.read(json("portable", b.build()));
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0"), t.on(t.track("tid 16: JVM runtime")));
        assertTrue(t.threadNames.values().stream().noneMatch(n -> n.contains("13177")), t.threadNames.toString());
    }

    /**
     * A portable backend's file so far: thread 1 "main" (header tid = Java id) with one call of Db.query 3..5 ms; the
     * file numbers threads by Java id. Records may follow in the same buffer.
     */
    static EtlFixtureBuilder portableMainWithOneCall() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(2), utf16z("com.example.Db"), utf16z("query"), utf16z("()I"))));
        b.record(full(true, EventType.DC_START, 0, 0, 1, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("main"))));
        b.record(call(b, EventType.START, 1, 3, 1, 0, 2));
        b.record(call(b, EventType.END, 1, 5, 1, 0, 2));
        return b;
    }

    /**
     * Speedscope keys a frame by name and the B event's args, and warns on an E whose name and args differ
     * from its B's: one frame per method, one for every task, no args on a slice; a hand-off's values on its flow.
     */
    @Test
    void framesAreOnePerMethodAndTaskAndTheHandOffsValuesAreOnTheirFlows() throws IOException {
        ChromeTraceJson t = ChromeTraceJson.read(json("handoff", Files.readAllBytes(CrossThreadTreeTest.handoffFile(tmp))));
        assertEquals(Set.of("a.Intake.handle()V", "a.Task.run()V"), t.frameKeys.get("jetw"));
        assertEquals(Set.of("task"), t.frameKeys.get("jetw.task"));
        assertTrue(t.slices.stream().allMatch(s -> s.args.isEmpty()), t.slices.toString());
        assertEquals(List.of("3200000", "1000000"), t.events.stream().filter(e -> "f".equals(e.get("ph")))
                .map(e -> String.valueOf(((java.util.Map<?, ?>) e.get("args")).get("queueWaitNs"))).toList());
    }

    /**
     * WhyCommandTest's merged trace: thread 5000's CPU state (Running, Ready, Waiting with the wait reason
     * named and who woke it) and its disk reads on tracks of their own, apart from its calls.
     */
    @Test
    void kernelCpuStateAndDiskIoGetTracksOfTheirOwn() throws IOException {
        ChromeTraceJson t = ChromeTraceJson.read(json("merged", WhyCommandTest.merged()));
        long cpu = t.track("main (tid 5000): CPU state");
        assertEquals(List.of("Running ts=5000.0 dur=9000.0", "Waiting (UserRequest) ts=14000.0 dur=4000.0",
                "Ready ts=18000.0 dur=1000.0", "Running ts=19000.0 dur=3000.0", "Ready ts=22000.0 dur=1000.0",
                "Running ts=23000.0 dur=4000.0", "Waiting (WrQueue) ts=27000.0 dur=2000.0", "Running ts=29000.0 dur=6000.0"),
                t.on(cpu));
        assertEquals(List.of("DiskIo/Read ts=7000.0 dur=2000.0", "DiskIo/Read ts=13000.0 dur=3000.0"),
                t.on(t.track("main (tid 5000): Disk I/O")));
        assertEquals(4, t.instants.stream().filter(i -> "CPU sample".equals(i.get("name"))).count());
        assertTrue(t.on(5000).stream().allMatch(s -> s.startsWith("com.example.") || s.startsWith("method#")), t.on(5000).toString());
    }
}
