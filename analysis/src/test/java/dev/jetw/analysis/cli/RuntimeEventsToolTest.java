package dev.jetw.analysis.cli;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tools over JVM runtime events: a park on thread 12 (written by consumer thread 99, END before
 * START in the file, as caller-set time stamps allow) and a JVM-wide GC pause, both during a call on
 * thread 12. dump names the fields, tree shows both under the call, chrome-trace puts both on the JVM
 * track and the park on thread 12's JVM runtime track.
 */
class RuntimeEventsToolTest {

    static final int PID = 4242;

    @TempDir
    Path tmp;

    private static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v).array();
    }

    private static byte[] runtime(EtlFixtureBuilder b, UUID cls, int type, double ms, int inst, byte[] payload) {
        return instance(true, type, 4, 0, 99, PID, JetwTraceFixture.ts(b, ms), cls, inst, 0, null, payload);
    }

    private Path file() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, JetwTraceFixture.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(2), utf16z("com.example.Db"), utf16z("query"), utf16z("()I"))));
        b.record(full(true, EventType.DC_START, 0, 0, 12, PID, JetwTraceFixture.ts(b, 0.2), JetwSchema.THREAD_CLASS,
                concat(u64(12), utf16z("worker-1"))));
        b.record(instance(true, EventType.START, 4, 0, 12, PID, JetwTraceFixture.ts(b, 3.0), JetwSchema.METHOD_CALL_CLASS, 100, 0, null, u32(2)));
        b.record(instance(true, EventType.END, 4, 0, 12, PID, JetwTraceFixture.ts(b, 15.25), JetwSchema.METHOD_CALL_CLASS, 100, 0, null,
                concat(u32(2), utf16z(""))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 9.0, 7, concat(u64(5012), u64(12))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 4.0, 7,
                concat(u64(5012), u64(12), u64(-1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.START, 10.0, 8, concat(u64(0), u64(0), u32(3), utf16z("Pause Young"))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.END, 11.0, 8, concat(u64(0), u64(0), u32(3))));
        Path f = tmp.resolve("rt.etl");
        Files.write(f, b.build());
        return f;
    }

    @Test
    void dumpTreeAndChromeTraceShowTheRuntimeEvents() throws IOException {
        Path f = file();
        EtlToolTest.Run dump = EtlToolTest.run("dump", f.toString());
        assertTrue(dump.out().contains("JvmPark START level 4 inst 7 parent 0  Start OsThreadId=5012 JavaThreadId=12 TimeoutNs=-1 "
                + "BlockerClass=\"java.lang.Object\""), dump.out());
        assertTrue(dump.out().contains("JvmGcPause END level 4 inst 8 parent 0  End OsThreadId=0 JavaThreadId=0 GcId=3"), dump.out());

        EtlToolTest.Run tree = EtlToolTest.run("tree", f.toString());
        assertEquals(String.join("\n", "== " + f + " (session jetw)",
                "thread 12 \"worker-1\" (pid 4242)",
                "  12.250 ms  com.example.Db.query()I  @+3.000 ms",
                "    ! 5.000 ms  JvmPark Start TimeoutNs=-1 BlockerClass=\"java.lang.Object\"  @+4.000 ms",
                "    ! 1.000 ms  JvmGcPause Start GcId=3 Name=\"Pause Young\"  @+10.000 ms", ""), tree.out());

        Path json = tmp.resolve("rt.json");
        assertEquals(0, EtlToolTest.run("chrome-trace", "-o", json.toString(), f.toString()).status());
        String text = new String(Files.readAllBytes(json), StandardCharsets.UTF_8);
        assertTrue(text.contains("\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":4242,\"tid\":0,\"args\":{\"name\":\"JVM runtime (jetw jvm= events)\"}"), text);
        ChromeTraceJson chrome = ChromeTraceJson.read(json);
        long parkTrack = chrome.track("worker-1 (tid 12): JVM runtime");
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0", "JvmGcPause ts=10000.0 dur=1000.0"), chrome.on(0),
                "every runtime event on the JVM track, named by its class");
        assertEquals(List.of("JvmPark ts=4000.0 dur=5000.0"), chrome.on(parkTrack),
                "the park also on a JVM runtime track of thread 12 (not on its call track, whose slices it may overlap partly)");
        ChromeTraceJson.Slice park = chrome.slices.stream().filter(s -> s.name.equals("JvmPark")).findFirst().orElseThrow();
        assertTrue(park.args.isEmpty(), "no args (speedscope keys frames by them): the fields are in the .pftrace, tree and dump: " + park.args);
        // perfetto: each runtime class on its own track under the process, as a slice with its START's fields
        Path pf = tmp.resolve("rt.pftrace");
        assertEquals(0, EtlToolTest.run("perfetto", f.toString(), pf.toString()).status());
        PerfettoCommandTest.Decoded d = PerfettoCommandTest.read(pf);
        long process = d.tracks.entrySet().stream().filter(t -> t.getValue().containsKey(3)).findFirst().orElseThrow().getKey();
        assertEquals(2, d.events.get(d.track("JvmPark", process)).size(), "one slice: begin and end");
        assertTrue(d.events.get(d.track("JvmPark", process)).get(0).startsWith("B JvmPark Start TimeoutNs=-1"));
        assertTrue(d.events.get(d.track("JvmGcPause", process)).get(0).startsWith("B JvmGcPause Start GcId=3"));
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
