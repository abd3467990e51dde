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
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A virtual thread (Java 21+) has no name unless the application gives it one, and no OS thread of its own: its
 * Thread rundown says name "" and osThreadId 0. Every export that names threads calls it "virtual thread #<java id>"
 * (the viewers otherwise show a bare pid/tid); a virtual thread the application named, and platform threads, keep
 * their names.
 */
class VirtualThreadNamesTest {

    @TempDir
    Path tmp;

    /** Thread 11 "main" (OS id 7011), virtual thread 31 unnamed, virtual thread 32 named "vt-worker"; one call each. */
    private static byte[] trace() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 11, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.example.Shop"), utf16z("handle"), utf16z("()V"))));
        long[][] threads = {{11, 7011}, {31, 0}, {32, 0}};
        String[] names = {"main", "", "vt-worker"};
        for (int i = 0; i < threads.length; i++) {
            int tid = (int) threads[i][0];
            // Thread version 1: u64 javaThreadId, u64 osThreadId, UTF-16Z name (the portable backend's header tid is the Java id).
            b.record(full(true, EventType.DC_START, 0, 1, tid, PID, ts(b, 0.2 + i * 0.1), JetwSchema.THREAD_CLASS,
                    concat(u64(tid), u64(threads[i][1]), utf16z(names[i]))));
            b.record(call(b, EventType.START, tid, 1 + i, 10 + i, 0, 1));
            b.record(call(b, EventType.END, tid, 1.5 + i, 10 + i, 0, 1));
        }
        return b.build();
    }

    private Path etl() throws IOException {
        Path f = tmp.resolve("vt.etl");
        Files.write(f, trace());
        return f;
    }

    @Test
    void chromeTraceNamesTheUnnamedVirtualThread() throws IOException {
        Path out = tmp.resolve("vt.json");
        EtlToolTest.Run r = run("chrome-trace", "-o", out.toString(), etl().toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(Map.of(11L, "main", 31L, "virtual thread #31", 32L, "vt-worker"), ChromeTraceJson.read(out).threadNames);
    }

    @Test
    void perfettoNamesTheUnnamedVirtualThread() throws IOException {
        Path out = tmp.resolve("vt.pftrace");
        EtlToolTest.Run r = run("perfetto", "-o", out.toString(), etl().toString());
        assertEquals(0, r.status(), r.err());
        PerfettoCommandTest.Decoded d = PerfettoCommandTest.read(out);
        for (Object[] t : new Object[][] {{"main", 11L}, {"virtual thread #31", 31L}, {"vt-worker", 32L}}) {
            long track = d.track((String) t[0], 0);
            assertEquals(t[1], PerfettoCommandTest.num(PerfettoCommandTest.msg(d.tracks.get(track), 4), 2), t[0] + "'s tid");
        }
    }

    @Test
    void aVirtualThreadKnownOnlyByItsJvmEventsIsNamedSoToo() throws IOException {
        // JvmThread START of virtual thread 16 (no OS id, Virtual 1, no name), then a park of it; no jetw call on it.
        // A jetw call on thread 1 "main": the file numbers threads by Java id (ChromeTraceCommandTest's portable case).
        EtlFixtureBuilder b = ChromeTraceCommandTest.portableMainWithOneCall();
        b.record(runtime(b, JetwSchema.JVM_THREAD_CLASS, EventType.START, 1, 6, concat(u64(0), u64(16), u32(1), utf16z(""))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 4, 7, concat(u64(0), u64(16), u64(-1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 9, 7, concat(u64(0), u64(16))));
        Path f = tmp.resolve("vt-jvm.etl");
        Files.write(f, b.build());
        Path out = tmp.resolve("vt-jvm.json");
        EtlToolTest.Run r = run("chrome-trace", "-o", out.toString(), f.toString());
        assertEquals(0, r.status(), r.err());
        ChromeTraceJson t = ChromeTraceJson.read(out);
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0"), t.on(t.track("virtual thread #16 (tid 16): JVM runtime")), t.threadNames.toString());
    }

    @Test
    void theTextCommandsSayTheSame() throws IOException {
        EtlToolTest.Run tree = run("tree", etl().toString());
        assertEquals(0, tree.status(), tree.err());
        assertTrue(tree.out().contains("thread 31 \"virtual thread #31\" (pid " + PID + ")"), tree.out());
        assertTrue(tree.out().contains("thread 32 \"vt-worker\" (pid " + PID + ")"), tree.out());
    }
}
