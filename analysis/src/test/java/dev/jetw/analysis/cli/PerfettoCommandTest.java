package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.KernelRecords;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static dev.jetw.analysis.cli.EtlToolTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code jetw etl perfetto}: the output is parsed back with a protobuf decoder written here from the
 * wire format (not the exporter's code), every packet decoded, and checked against Perfetto's
 * TrackEvent rules: each event's track was declared, uuids unique, thread tracks name pid/tid/name and
 * sit under their process track, slices on a track nest (every END closes the innermost open slice)
 * and go forward in time, and counts match the source trace.
 */
class PerfettoCommandTest {

    @TempDir
    Path tmp;

    // ---- a protobuf decoder: field number -> values (Long for varints, long[1] for fixed64, byte[] for length-delimited) ----

    static Map<Integer, List<Object>> decode(byte[] b) {
        Map<Integer, List<Object>> fields = new LinkedHashMap<>();
        int[] at = {0};
        while (at[0] < b.length) {
            long key = varint(b, at);
            int field = (int) (key >>> 3);
            int wire = (int) (key & 7);
            Object v;
            if (wire == 0) {
                v = varint(b, at);
            } else if (wire == 2) {
                int len = (int) varint(b, at);
                if (len < 0 || at[0] + len > b.length) {
                    fail("length " + len + " runs past the message at " + at[0]);
                }
                byte[] sub = new byte[len];
                System.arraycopy(b, at[0], sub, 0, len);
                at[0] += len;
                v = sub;
            } else if (wire == 1) {
                if (at[0] + 8 > b.length) {
                    fail("fixed64 runs past the message at " + at[0]);
                }
                long x = 0;
                for (int i = 7; i >= 0; i--) {
                    x = x << 8 | (b[at[0] + i] & 0xFF);
                }
                at[0] += 8;
                v = new long[] {x};
            } else {
                throw new AssertionError("unexpected wire type " + wire + " for field " + field);
            }
            fields.computeIfAbsent(field, k -> new ArrayList<>()).add(v);
        }
        return fields;
    }

    private static long varint(byte[] b, int[] at) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at[0] >= b.length) {
                fail("varint runs past the end");
            }
            byte x = b[at[0]++];
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        throw new AssertionError("varint longer than 10 bytes");
    }

    static long num(Map<Integer, List<Object>> m, int field) {
        List<Object> v = m.get(field);
        assertNotNull(v, "field " + field + " missing in " + m.keySet());
        return (Long) v.get(0);
    }

    private static String str(Map<Integer, List<Object>> m, int field) {
        List<Object> v = m.get(field);
        return v == null ? null : new String((byte[]) v.get(0), StandardCharsets.UTF_8);
    }

    static Map<Integer, List<Object>> msg(Map<Integer, List<Object>> m, int field) {
        List<Object> v = m.get(field);
        return v == null ? null : decode((byte[]) v.get(0));
    }

    /** What a decoded trace holds. */
    static final class Decoded {
        final Map<Long, Map<Integer, List<Object>>> tracks = new LinkedHashMap<>();
        /** Per track uuid: "B name @ns", "E @ns", "I name @ns" in file order. */
        final Map<Long, List<String>> events = new LinkedHashMap<>();
        final Map<Long, List<Map<String, Object>>> annotations = new HashMap<>();
        /** Flow id -> "track: slice name" of the event that begins it (flow_ids 47) and that ends it (terminating_flow_ids 48). */
        final Map<Long, String> flowBegins = new LinkedHashMap<>();
        final Map<Long, String> flowEnds = new LinkedHashMap<>();
        int packets;

        /** The uuid of the track named so (thread name or track name) under {@code parent} (0: any). */
        long track(String name, long parent) {
            for (Map.Entry<Long, Map<Integer, List<Object>>> t : tracks.entrySet()) {
                Map<Integer, List<Object>> thread = msg(t.getValue(), 4);
                String n = thread != null ? str(thread, 5) : str(t.getValue(), 2);
                if (name.equals(n) && (parent == 0 || t.getValue().containsKey(5) && num(t.getValue(), 5) == parent)) {
                    return t.getKey();
                }
            }
            throw new AssertionError("no track " + name + " under " + parent + " in " + tracks.keySet());
        }

        long count(String prefix) {
            return events.values().stream().flatMap(List::stream).filter(e -> e.startsWith(prefix)).count();
        }
    }

    static Decoded read(Path pftrace) throws IOException {
        Decoded d = new Decoded();
        Map<Integer, List<Object>> trace = decode(Files.readAllBytes(pftrace));
        assertTrue(trace.isEmpty() || trace.keySet().equals(java.util.Set.of(1)), "a Trace holds only packets (field 1)");
        Map<Long, Deque<Long>> open = new HashMap<>();
        Map<Long, Long> lastTime = new HashMap<>();
        for (Object raw : trace.getOrDefault(1, List.of())) {
            d.packets++;
            Map<Integer, List<Object>> p = decode((byte[]) raw);
            assertEquals(1L, num(p, 10), "trusted_packet_sequence_id");
            Map<Integer, List<Object>> td = msg(p, 60);
            Map<Integer, List<Object>> te = msg(p, 11);
            assertTrue(td != null ^ te != null, "a packet is a track descriptor or a track event: " + p.keySet());
            if (td != null) {
                long uuid = num(td, 1);
                assertTrue(uuid != 0, "uuid 0 is the implicit global track");
                assertTrue(d.tracks.put(uuid, td) == null, "uuid " + uuid + " declared twice");
                if (td.containsKey(5)) {
                    assertTrue(d.tracks.containsKey(num(td, 5)), "parent declared before its child");
                }
                continue;
            }
            long ts = num(p, 8);
            long track = num(te, 11);
            assertTrue(d.tracks.containsKey(track), "event on undeclared track " + track);
            long type = num(te, 9);
            Long last = lastTime.get(track);
            assertTrue(last == null || ts >= last, "track " + track + " goes back in time: " + ts + " < " + last);
            lastTime.put(track, ts);
            Deque<Long> stack = open.computeIfAbsent(track, k -> new ArrayDeque<>());
            String name = str(te, 23);
            if (type == 1) {
                stack.push(ts);
                d.events.computeIfAbsent(track, k -> new ArrayList<>()).add("B " + name + " @" + ts);
            } else if (type == 2) {
                assertFalse(stack.isEmpty(), "SLICE_END without open slice on track " + track);
                assertTrue(stack.pop() <= ts, "slice ends before it begins");
                d.events.computeIfAbsent(track, k -> new ArrayList<>()).add("E @" + ts);
            } else {
                assertEquals(3L, type, "TYPE_INSTANT");
                d.events.computeIfAbsent(track, k -> new ArrayList<>()).add("I " + name + " @" + ts);
            }
            for (int[] f : new int[][] {{47, 0}, {48, 1}}) {
                for (Object id : te.getOrDefault(f[0], List.of())) {
                    assertTrue(id instanceof long[], "flow ids are fixed64 (wire type 1), not varints: field " + f[0]);
                    Map<Long, String> m = f[1] == 0 ? d.flowBegins : d.flowEnds;
                    assertNull(m.put(((long[]) id)[0], track + ": " + name), "flow id used twice");
                }
            }
            if (te.containsKey(4)) {
                Map<String, Object> a = new HashMap<>();
                for (Object o : te.get(4)) {
                    Map<Integer, List<Object>> ann = decode((byte[]) o);
                    a.put(str(ann, 10), ann.containsKey(4) ? (Object) num(ann, 4) : str(ann, 6));
                }
                d.annotations.computeIfAbsent(track, k -> new ArrayList<>()).add(a);
            }
        }
        for (Map.Entry<Long, Deque<Long>> s : open.entrySet()) {
            assertTrue(s.getValue().isEmpty(), "slices left open on track " + s.getKey());
        }
        return d;
    }

    /** ns since the Unix epoch of {@code ms} after the fixture's StartTime. */
    private static long ns(double ms) {
        return PerfettoTrace.nanos(new EtlFixtureBuilder().startFileTime + Math.round(ms * 10_000));
    }

    private Path write(String name, byte[] etl) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, etl);
        return f;
    }

    @Test
    void callsAreNestedSlicesOnTheirThreadsTrackWithNamesAndCheckpointsAsInstants() throws IOException {
        Path f = write("jetw.etl", JetwTraceFixture.build());
        Path out = tmp.resolve("out.pftrace");
        EtlToolTest.Run r = run("perfetto", f.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(out + "\n", r.out());
        Decoded d = read(out);

        Map<Integer, List<Object>> process = d.tracks.values().stream().filter(t -> t.containsKey(3)).findFirst().orElseThrow();
        assertEquals(4242L, num(msg(process, 3), 1));
        assertEquals("jetw jetw", str(msg(process, 3), 6), "the bare name: the UI shows the pid (field 1) beside it");
        long main = d.track("main", num(process, 1));
        long worker = d.track("worker-1", num(process, 1));
        assertEquals(11L, num(msg(d.tracks.get(main), 4), 2));
        assertEquals(4242L, num(msg(d.tracks.get(main), 4), 1));
        assertEquals(12L, num(msg(d.tracks.get(worker), 4), 2));

        // The fixture's 6 STARTs are 6 slices; its 2 checkpoints 2 instants; the unfinished calls end at the last record (22 ms).
        assertEquals(List.of(
                "B com.example.Shop.handle(Ljava/lang/String;)V @" + ns(1), "B com.example.Db.query()I @" + ns(2), "E @" + ns(5),
                "I validated @" + ns(6),
                "B com.example.Shop.render()V @" + ns(7), "E @" + ns(7.5), "E @" + ns(10),
                "B com.example.Shop.handle(Ljava/lang/String;)V @" + ns(20), "B com.example.Db.query()I @" + ns(21),
                "E @" + ns(22), "E @" + ns(22)), d.events.get(main));
        assertEquals(List.of("B com.example.Db.query()I @" + ns(3), "E @" + ns(15.25), "I idle @" + ns(16)),
                d.events.get(worker));
        assertEquals(6, d.count("B "));
        assertEquals(2, d.count("I "));
        assertTrue(d.annotations.get(main).stream().anyMatch(a -> "java.lang.IllegalStateException".equals(a.get("exception"))
                && Long.valueOf(3).equals(a.get("instanceId"))), d.annotations.get(main).toString());
        assertTrue(r.err().contains("6 calls, 2 checkpoints"), r.err());

        EtlToolTest.Run def = run("perfetto", f.toString());
        assertEquals(tmp.resolve("jetw.pftrace") + "\n", def.out());
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(out), Files.readAllBytes(tmp.resolve("jetw.pftrace"))));
        assertTrue(!def.err().contains("replaced"), def.err());
        EtlToolTest.Run again = run("perfetto", f.toString());
        assertTrue(again.err().contains("replaced the existing " + tmp.resolve("jetw.pftrace")), "never silently: " + again.err());
        EtlToolTest.Run named = run("perfetto", f.toString(), out.toString());
        assertTrue(!named.err().contains("replaced"), "a name the user typed is theirs to replace: " + named.err());
    }

    private static byte[] call(EtlFixtureBuilder b, int type, double ms, int inst, int parent, byte[] payload) {
        return instance(true, type, 4, 0, 11, 4242, JetwTraceFixture.ts(b, ms), JetwSchema.METHOD_CALL_CLASS, inst, parent,
                parent == 0 ? null : JetwSchema.METHOD_CALL_CLASS, payload);
    }

    private static byte[] end(int method) {
        return concat(u32(method), utf16z(""));
    }

    /**
     * Thresholded STARTs written at exit (after the children), an END whose START is not in the file
     * (with a child), a child whose START is before its parent's (skew), and a checkpoint in a call
     * whose START comes later: every slice still nests on the one track.
     */
    @Test
    void outOfOrderUnbalancedAndSkewedCallsStillNest() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 11, 4242, JetwTraceFixture.ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("a.A"), utf16z("outer"), utf16z("()V"))));
        // thresholded: child 2 (2..3 ms) first, then a checkpoint in 1, then 1's START (1 ms) and END (5 ms)
        b.record(call(b, EventType.START, 2, 2, 1, u32(1)));
        b.record(call(b, EventType.END, 3, 2, 1, end(1)));
        b.record(call(b, EventType.CHECKPOINT, 4, 1, 0, concat(u32(1), utf16z("mark"))));
        b.record(call(b, EventType.START, 1, 1, 0, u32(1)));
        b.record(call(b, EventType.END, 5, 1, 0, end(1)));
        // END without START (inst 10, at 9 ms) with a child 11 (7..8 ms)
        b.record(call(b, EventType.START, 7, 11, 10, u32(1)));
        b.record(call(b, EventType.END, 8, 11, 10, end(1)));
        b.record(call(b, EventType.END, 9, 10, 0, end(1)));
        // skew: child 21 starts (11.9 ms) before its parent 20 (12 ms), both finish by 14 ms
        b.record(call(b, EventType.START, 12, 20, 0, u32(1)));
        b.record(call(b, EventType.START, 11.9, 21, 20, u32(1)));
        b.record(call(b, EventType.END, 13, 21, 20, end(1)));
        b.record(call(b, EventType.END, 14, 20, 0, end(1)));
        Path f = write("odd.etl", b.build());
        Path out = tmp.resolve("odd.pftrace");
        EtlToolTest.Run r = run("perfetto", f.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        Decoded d = read(out); // nesting per track is checked there
        long t = d.track("tid 11", 0);
        assertEquals(List.of(
                "B a.A.outer()V @" + ns(1), "B a.A.outer()V @" + ns(2), "E @" + ns(3), "I mark @" + ns(4), "E @" + ns(5),
                "B a.A.outer()V @" + ns(7), "E @" + ns(8),
                "B a.A.outer()V @" + ns(12), "B a.A.outer()V @" + ns(12), "E @" + ns(13), "E @" + ns(14)), d.events.get(t));
        assertTrue(r.err().contains("1 calls clamped into their parent to nest"), r.err());
    }

    /** CrossThreadTreeTest's hand-offs: main's call -> worker-2's task -> (a chain) worker-3's task, as flows. */
    @Test
    void aHandOffIsAFlowFromTheSubmittingCallToTheTaskSlice() throws IOException {
        Path f = CrossThreadTreeTest.handoffFile(tmp);
        Path out = tmp.resolve("handoff.pftrace");
        EtlToolTest.Run r = run("perfetto", f.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        Decoded d = read(out);
        long main = d.track("main", 0);
        long worker = d.track("worker-2", 0);
        long third = d.track("worker-3", 0);
        assertEquals(List.of("B a.Intake.handle()V @" + ns(1), "E @" + ns(3)), d.events.get(main));
        assertEquals(List.of("B task @" + ns(5), "B a.Task.run()V @" + ns(5.1), "E @" + ns(8), "E @" + ns(8)),
                d.events.get(worker), "one name for every task: the queue wait is an annotation");
        long first = 4242L << 32 | 2;
        long chain = 4242L << 32 | 4;
        assertEquals(Map.of(first, main + ": a.Intake.handle()V", chain, worker + ": task"), d.flowBegins);
        assertEquals(Map.of(first, worker + ": task", chain, third + ": task"), d.flowEnds);
        assertTrue(r.err().contains("2 hand-off flows"), r.err());
        assertTrue(d.annotations.get(worker).stream().anyMatch(a -> Long.valueOf(3_200_000).equals(a.get("queueWaitNs"))
                && "executor".equals(a.get("handoff"))), d.annotations.get(worker).toString());
    }

    /** The stderr line of the last {@link #export}. */
    private String stderr;

    /** {@code etl} written as NAME.etl and exported by perfetto (exit 0), decoded; its stderr line in {@link #stderr}. */
    private Decoded export(String name, byte[] etl) throws IOException {
        Path f = write(name + ".etl", etl);
        Path out = tmp.resolve(name + ".pftrace");
        EtlToolTest.Run r = run("perfetto", f.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        stderr = r.err();
        return read(out);
    }

    /**
     * WhyCommandTest's merged trace (Windows numbering: header tid 5000 = OS id): thread 5000's CPU
     * state from its context switches and ReadyThread (Ready from the readying to the switch-in, the wait's
     * reason named and its waker said), its disk reads as slices, its CPU samples; thread 7000 (no jetw
     * calls, no kernel Thread record placing it in the process) is not exported.
     */
    @Test
    void kernelCpuStateDiskAndSamplesGoOnTheirOwnTracksUnderTheThread() throws IOException {
        Decoded d = export("merged", WhyCommandTest.merged());
        long main = d.track("main", 0);
        long cpu = d.track("CPU state", main);
        assertEquals(List.of("B Running @" + ns(5), "E @" + ns(14), "B Waiting (UserRequest) @" + ns(14), "E @" + ns(18),
                "B Ready @" + ns(18), "E @" + ns(19), "B Running @" + ns(19), "E @" + ns(22), "B Ready @" + ns(22),
                "E @" + ns(23), "B Running @" + ns(23), "E @" + ns(27), "B Waiting (WrQueue) @" + ns(27), "E @" + ns(29),
                "B Running @" + ns(29), "E @" + ns(35)), d.events.get(cpu));
        assertEquals(List.of(Map.of("wokenBy", "thread (tid 4)", "wakerTid", 4L)),
                d.annotations.get(cpu), "the UserRequest wait was ended by header thread 4's ReadyThread");
        long disk = d.track("Disk I/O", main);
        assertEquals(List.of("B DiskIo/Read @" + ns(7), "E @" + ns(9), "B DiskIo/Read @" + ns(13), "E @" + ns(16)),
                d.events.get(disk), "[completion - HighResResponseTime, completion]");
        assertEquals(Map.of("bytes", 4096L, "byteOffset", 8192L, "durationUs", 3000L), d.annotations.get(disk).get(1));
        assertEquals(4, d.events.get(d.track("CPU samples", main)).size());
        assertEquals(3, d.tracks.values().stream().filter(t -> t.containsKey(5) && num(t, 5) == main).count(),
                "main's three kernel tracks");
        assertTrue(d.tracks.values().stream().noneMatch(t -> msg(t, 4) != null && num(msg(t, 4), 2) == 7000),
                "no track for thread 7000");
        assertTrue(stderr.contains("8 CPU state slices, 4 CPU samples, 2 disk I/Os"), stderr);
    }

    /**
     * A portable-backend trace (jetw's headers carry Java ids 1 and 2; JVM events give their OS ids 5000
     * and 6000): the kernel's events of OS thread 5000 go under Java thread 1 "main"; a switch-out without
     * a switch-in after a wake-up is estimated Running, after a preemption Unknown; the other threads of the
     * process are named by the kernel's records (Thread/SetName, a version-4 Thread DCStart).
     */
    @Test
    void kernelTracksOfAPortableTraceGoUnderTheJavaThreadAndNameTheWakers() throws IOException {
        Decoded d = export("portable", WhyWakersTest.trace(true));
        long main = d.track("main", 0);
        long cpu = d.track("CPU state", main);
        assertEquals(List.of("B Running @" + ns(5), "E @" + ns(12), "B Waiting (UserRequest) @" + ns(12), "E @" + ns(18),
                "B Ready @" + ns(18), "E @" + ns(19), "B Running @" + ns(19), "E @" + ns(21),
                "B Waiting (UserRequest) @" + ns(21), "E @" + ns(23),
                "B Running (estimated: switch-in not recorded) @" + ns(23), "E @" + ns(25),
                "B Waiting (UserRequest) @" + ns(25), "E @" + ns(28), "B Ready @" + ns(28), "E @" + ns(29),
                "B Running @" + ns(29), "E @" + ns(31), "B Unknown (switch-in not recorded) @" + ns(31), "E @" + ns(33),
                "B Waiting (WrQueue) @" + ns(33), "E @" + ns(35), "B Ready @" + ns(35), "E @" + ns(36)), d.events.get(cpu));
        assertEquals(List.of("thread \"holder\" (tid 6000)", "an interrupt or idle CPU", "thread \"G1 Conc#0\" (tid 7000)",
                "thread \"lib-spinner\" (tid 8000)"), d.annotations.get(cpu).stream().map(a -> a.get("wokenBy")).toList());
        assertTrue(stderr.contains("; 2 switch-ins missing in the trace (time around them estimated)"), stderr);
    }

    @Test
    void cpuSamplesInPerProcessorBuffersThatInterleaveAreAllExportedInTimeOrder() throws IOException {
        // Two processors' buffers, flushed one after the other: the second holds samples from between the first's.
        // Placing records only where they are read kept 3 of these 6 samples of one thread.
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.newBuffer();
        b.record(EtlFixtureBuilder.systemLike(dev.jetw.etl.EtlFormat.HT_SYSTEM64, 3, 0x05, 3, 0, 0, b.anchor,
                EtlFixtureBuilder.concat(EtlFixtureBuilder.le(8).putInt(4242).putInt(77).array())));
        for (int ms : new int[] {10, 30, 50}) {
            b.record(KernelRecords.sample(b.anchor + ms * 10_000L, 77));
        }
        b.newBuffer();
        for (int ms : new int[] {20, 40, 60}) {
            b.record(KernelRecords.sample(b.anchor + ms * 10_000L, 77));
        }
        Path f = write("samples.etl", b.build());
        Path out = tmp.resolve("samples.pftrace");
        EtlToolTest.Run r = run("perfetto", f.toString(), out.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("6 CPU samples"), r.err());
        Decoded d = read(out); // read() fails on a track that goes back in time
        assertEquals(6, d.count("I CPU sample"), d.events.toString());
    }

    @Test
    void aWindowsKernelFileWithoutCallsOrContextSwitchesGivesAnEmptyValidTrace() throws IOException {
        Path out = tmp.resolve("k.pftrace");
        EtlToolTest.Run r = run("perfetto", EtlToolTest.sample("ShutdownPerfDiagLogger.etl"), out.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(0, read(out).packets);
        assertTrue(r.err().contains(": 0 packets: 0 calls"), r.err());
    }

    @Test
    void threadAndWindowKeepTheTopLevelCallsOfThatThreadOverlappingIt() throws IOException {
        Path f = write("jetw.etl", JetwTraceFixture.build());
        Path out = tmp.resolve("w.pftrace");
        assertEquals(0, run("perfetto", "--thread", "11", "--from", "19", f.toString(), out.toString()).status());
        Decoded d = read(out);
        assertEquals(List.of("B com.example.Shop.handle(Ljava/lang/String;)V @" + ns(20),
                "B com.example.Db.query()I @" + ns(21), "E @" + ns(22), "E @" + ns(22)), d.events.get(d.track("main", 0)));
        assertEquals(1, d.events.size(), "no other track has events");
    }
}
