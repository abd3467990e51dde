package dev.jetw.analysis.cli;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static dev.jetw.etl.KernelRecords.READY;
import static dev.jetw.etl.KernelRecords.WAITING;
import static dev.jetw.etl.KernelRecords.cswitch;
import static dev.jetw.etl.KernelRecords.diskRead;
import static dev.jetw.etl.KernelRecords.fileIo;
import static dev.jetw.etl.KernelRecords.fileIoEnd;
import static dev.jetw.etl.KernelRecords.fileIoV3;
import static dev.jetw.etl.KernelRecords.fileName;
import static dev.jetw.etl.KernelRecords.hardFault;
import static dev.jetw.etl.KernelRecords.readyThread;
import static dev.jetw.etl.KernelRecords.sample;
import static dev.jetw.analysis.cli.EtlToolTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code why} on a merged trace whose answer is known exactly: jetw's events written as on Windows
 * (header thread id = OS thread id 5000; the thread's Java id is 1) next to kernel events in the
 * documented layouts ({@link dev.jetw.etl.KernelRecords}), in buffers out of time order.
 *
 * <pre>
 * thread 5000 "main" (Java id 1), pid 4242, times in ms after the session start:
 *   handle inst 1  10 .. 30 (20 ms)      children: query inst 2 12..16, render inst 3 25..26 (5 ms)
 *   handle inst 10 40 .. 45 (5 ms)
 * thread 6000 "worker" (Java id 2): query inst 20 50 .. 52 (2 ms)
 * context switches of 5000: in at 5; out Waiting/UserRequest 14; readied 18; in 19; out Ready
 *   (preempted) 22; in 23; out Waiting/WrQueue 27; in 29 (no ReadyThread); out at 35
 *   => in 10..30: on CPU 4+3+4+1 = 12, waiting UserRequest 4, ready 1+1 = 2, waiting WrQueue 2
 * disk read by 5000 done at 16 after 3 ms (4096 bytes); one by 7000 inside, one by 5000 before the call
 * hard fault of 5000 27.5..28 (8192 bytes); CPU samples of 5000 at 11, 12, 20 (and 35, and one of 7000)
 * file I/O (FileIo, PERFINFO headers, IRP 0xA reused as Windows reuses IRPs; starts and OpEnds in different
 *   buffers; names keyed by FileKey = FileObject + 8 in version 2): 5000 reads db.mv 20.5..21.5 (16384 bytes, open
 *   0xF1), flushes it 23.5..24 through a second open 0xF3 of the same file (version 3 record, FileKey 0xF9), reads
 *   log 11..11.2 (100 bytes; named by the FileRundown at 60); 7000 writes db.mv 22..26 (not 5000's); 5000 reads
 *   db.mv at 33..34 (after the call); 5000's read of log at 12 (IRP 0xD) lost its OpEnd: 7000's write at 13 reuses
 *   0xD and completes at 29, which is not 5000's
 *   => in 10..30: 2 reads 16484 bytes, 1 flush, 1.7 ms; most waited on db.mv (1.5 ms over its two opens, 2 operations)
 * JVM (written by consumer thread 99): GC pause 20..21 (JVM-wide); park of (os 5000, java 1) 14.5..17.5;
 *   park of (os 7000, java 5000) 11..13: its Java id equals 5000 by chance, and must not count;
 *   contention of (os 6000, java 2) 15..16: another thread
 * </pre>
 */
class WhyCommandTest {

    static final int PID = 4242;

    @TempDir
    Path tmp;

    static long ts(EtlFixtureBuilder b, double ms) {
        return JetwTraceFixture.ts(b, ms);
    }

    static byte[] u64(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v).array();
    }

    static byte[] call(EtlFixtureBuilder b, int type, int tid, double ms, int inst, int parent, int method) {
        byte[] payload = type == EventType.END ? concat(u32(method), utf16z("")) : u32(method);
        return instance(true, type, 4, 0, tid, PID, ts(b, ms), JetwSchema.METHOD_CALL_CLASS, inst, parent,
                parent == 0 ? null : JetwSchema.METHOD_CALL_CLASS, payload);
    }

    static byte[] runtime(EtlFixtureBuilder b, UUID cls, int type, double ms, int inst, byte[] payload) {
        return instance(true, type, 4, 0, 99, PID, ts(b, ms), cls, inst, 0, null, payload);
    }

    static byte[] merged() {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer(); // jetw's buffer
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.example.Shop"), utf16z("handle"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("main"))));
        b.record(full(true, EventType.DC_START, 0, 0, 6000, PID, ts(b, 0.3), JetwSchema.THREAD_CLASS, concat(u64(2), utf16z("worker"))));
        b.record(call(b, EventType.START, 5000, 12, 2, 1, 2)); // a child's START before its parent's (thresholds do that)
        b.record(call(b, EventType.START, 5000, 10, 1, 0, 1));
        b.record(call(b, EventType.END, 5000, 16, 2, 1, 2));
        b.record(call(b, EventType.START, 5000, 25, 3, 1, 3));
        b.record(call(b, EventType.END, 5000, 26, 3, 1, 3));
        b.record(call(b, EventType.END, 5000, 30, 1, 0, 1));
        b.record(call(b, EventType.START, 5000, 40, 10, 0, 1));
        b.record(call(b, EventType.END, 5000, 45, 10, 0, 1));
        b.record(call(b, EventType.START, 6000, 50, 20, 0, 2));
        b.record(call(b, EventType.END, 6000, 52, 20, 0, 2));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 17.5, 7, concat(u64(5000), u64(1))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 14.5, 7, concat(u64(5000), u64(1), u64(-1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 11, 8, concat(u64(7000), u64(5000), u64(-1), utf16z("x.Y"))));
        b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 13, 8, concat(u64(7000), u64(5000))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.START, 20, 9, concat(u64(0), u64(0), u32(3), utf16z("Pause Young"))));
        b.record(runtime(b, JetwSchema.JVM_GC_PAUSE_CLASS, EventType.END, 21, 9, concat(u64(0), u64(0), u32(3))));
        b.record(runtime(b, JetwSchema.JVM_CONTENTION_CLASS, EventType.START, 15, 11,
                concat(u64(6000), u64(2), u32(0), u64(5000), u64(1), utf16z("java.lang.Object"))));
        b.record(runtime(b, JetwSchema.JVM_CONTENTION_CLASS, EventType.END, 16, 11, concat(u64(6000), u64(2), u32(0))));
        b.newBuffer(1); // CPU 1's buffer, later in time, read first (sequence 1)
        b.record(cswitch(ts(b, 19), 5000, 0, WAITING, 0));
        b.record(cswitch(ts(b, 22), 0, 5000, READY, 0));
        b.record(cswitch(ts(b, 23), 5000, 0, WAITING, 0));
        b.record(sample(ts(b, 20), 5000));
        b.record(diskRead(ts(b, 16), 5000, 4096, 30_000));
        b.record(diskRead(ts(b, 17), 7000, 512, 20_000));
        b.record(cswitch(ts(b, 27), 0, 5000, WAITING, 15));
        b.record(cswitch(ts(b, 29), 5000, 0, WAITING, 0));
        b.record(hardFault(ts(b, 28), ts(b, 27.5), 5000, 8192));
        b.record(cswitch(ts(b, 35), 0, 5000, WAITING, 6));
        b.record(sample(ts(b, 35), 5000));
        b.newBuffer(0); // CPU 0's buffer (sequence 2)
        b.record(cswitch(ts(b, 5), 5000, 0, WAITING, 0));
        b.record(diskRead(ts(b, 9), 5000, 1024, 20_000));
        b.record(sample(ts(b, 11), 5000));
        b.record(sample(ts(b, 11), 7000));
        b.record(sample(ts(b, 12), 5000));
        b.record(cswitch(ts(b, 14), 7000, 5000, WAITING, 6));
        b.record(readyThread(ts(b, 18), 5000));
        b.record(fileName(ts(b, 1), 0, 0xF9L, "\\Device\\HarddiskVolume2\\shop\\db.mv"));
        b.record(fileIo(ts(b, 11), 67, 5000, 0xBL, 0xF2L, 100));
        b.record(fileIoEnd(ts(b, 21.5), 0xAL, 16384, 0));
        b.record(fileIo(ts(b, 22), 68, 7000, 0xCL, 0xF1L, 512));
        b.record(fileIoV3(ts(b, 23.5), 73, 5000, 0xAL, 0xF3L, 0xF9L, 0));
        b.record(fileIoEnd(ts(b, 26), 0xCL, 512, 0));
        b.record(fileIoEnd(ts(b, 34), 0xAL, 4096, 0));
        b.newBuffer(1); // CPU 1's second buffer (sequence 3)
        b.record(fileIoEnd(ts(b, 11.2), 0xBL, 100, 0));
        b.record(fileIo(ts(b, 20.5), 67, 5000, 0xAL, 0xF1L, 16384));
        b.record(fileIoEnd(ts(b, 24), 0xAL, 0, 0));
        b.record(fileIo(ts(b, 33), 67, 5000, 0xAL, 0xF1L, 4096));
        b.record(fileName(ts(b, 60), 36, 0xFAL, "\\Device\\HarddiskVolume2\\shop\\log"));
        b.record(fileIo(ts(b, 12), 67, 5000, 0xDL, 0xF2L, 50));
        b.record(fileIoV3(ts(b, 13), 68, 7000, 0xDL, 0xF1L, 0xF9L, 50));
        b.record(fileIoEnd(ts(b, 29), 0xDL, 50, 0));
        b.sequence(0, 4).sequence(1, 1).sequence(2, 2).sequence(3, 3);
        return b.build();
    }

    private Path file(byte[] bytes) throws IOException {
        Path f = tmp.resolve("merged.etl");
        Files.write(f, bytes);
        return f;
    }

    @Test
    void theBreakdownOfTheSlowestCallIsExact() throws IOException {
        Path f = file(merged());
        EtlToolTest.Run r = run("why", "--slowest", "1", "--json", f.toString());
        assertEquals(0, r.status(), r.err());
        Map<String, Object> o = MiniJson.object(r.out());
        List<?> calls = (List<?>) o.get("calls");
        assertEquals(1, calls.size());
        Map<?, ?> c = (Map<?, ?>) calls.get(0);
        assertEquals("com.example.Shop.handle()V", c.get("method"));
        assertEquals(1L, lng(c.get("instanceId")));
        assertEquals("main", c.get("threadName"));
        assertEquals(20.0, num(c.get("wallMs")));
        assertEquals(5.0, num(c.get("childrenMs")));
        assertEquals(2L, lng(c.get("childCalls")));
        assertEquals(15.0, num(c.get("selfMs")));
        assertEquals(5000L, lng(c.get("kernelThreadId")));
        assertEquals(Map.of("on CPU", 12.0, "waiting: UserRequest", 4.0, "ready, waiting for a CPU", 2.0, "waiting: WrQueue", 2.0),
                doubles(c.get("states")));
        List<?> wakers = (List<?>) c.get("wakers");
        assertEquals(1, wakers.size(), "the ReadyThread at 18 (header thread 4) ended the UserRequest wait; nothing readied the WrQueue one");
        assertEquals(4L, lng(((Map<?, ?>) wakers.get(0)).get("threadId")));
        assertEquals(4.0, num(((Map<?, ?>) wakers.get(0)).get("waitMs")));
        assertEquals(3L, lng(c.get("samples")));
        Map<?, ?> disk = (Map<?, ?>) c.get("diskIo");
        assertEquals(1L, lng(disk.get("count")));
        assertEquals(4096L, lng(disk.get("bytes")));
        assertEquals(3.0, num(disk.get("ms")));
        Map<?, ?> file = (Map<?, ?>) c.get("fileIo");
        assertEquals(2L, lng(file.get("reads")));
        assertEquals(0L, lng(file.get("writes")), "7000's write is not 5000's");
        assertEquals(1L, lng(file.get("flushes")));
        assertEquals(16484L, lng(file.get("bytesRead")));
        assertEquals(1.7, num(file.get("ms")), 1e-9);
        Map<?, ?> most = (Map<?, ?>) file.get("mostWaitedOn");
        assertEquals("\\Device\\HarddiskVolume2\\shop\\db.mv", most.get("name"));
        assertEquals(1.5, num(most.get("ms")), 1e-9);
        assertEquals(2L, lng(most.get("operations")));
        Map<?, ?> faults = (Map<?, ?>) c.get("hardFaults");
        assertEquals(1L, lng(faults.get("count")));
        assertEquals(8192L, lng(faults.get("bytes")));
        assertEquals(0.5, num(faults.get("ms")));
        Map<?, ?> jvm = (Map<?, ?>) c.get("jvm");
        assertEquals(List.of("JvmGcPause", "JvmPark"), List.copyOf(jvm.keySet()), "no contention of thread 6000, no park of Java id 5000");
        assertEquals(1.0, num(((Map<?, ?>) jvm.get("JvmGcPause")).get("ms")));
        assertEquals(true, ((Map<?, ?>) jvm.get("JvmGcPause")).get("stopsEveryThread"));
        assertEquals(3.0, num(((Map<?, ?>) jvm.get("JvmPark")).get("ms")));
        assertEquals(1L, lng(((Map<?, ?>) jvm.get("JvmPark")).get("count")));
        // Ready 18..19 (woken) and 22..23 (preempted on CPU 1): CPU 0 ran 7000 from 14 on (2 ms); CPU 1 was idle
        // 22..23 and its first switch is at 19, so who ran there 18..19 is unknown. 2 + 1 + 1 = 2 ms x 2 CPUs.
        Map<?, ?> cpus = (Map<?, ?>) c.get("cpusWhileReady");
        assertEquals(2.0, num(cpus.get("readyMs")));
        assertEquals(List.of(0L, 1L), ((List<?>) cpus.get("cpus")).stream().map(WhyCommandTest::lng).toList());
        assertEquals(4.0, num(cpus.get("cpuMs")));
        List<?> holders = (List<?>) cpus.get("threads");
        assertEquals(1, holders.size(), holders.toString());
        assertEquals(7000L, lng(((Map<?, ?>) holders.get(0)).get("threadId")));
        assertEquals(2.0, num(((Map<?, ?>) holders.get(0)).get("ms")));
        assertEquals(1.0, num(((Map<?, ?>) holders.get(0)).get("shareOfReady")));
        assertEquals(1.0, num(cpus.get("idleMs")));
        assertEquals(Map.of("beforeFirstSwitch", 1.0, "notRecorded", 0.0), doubles(cpus.get("unknownMs")));
        assertEquals(List.of("a CPU was idle for 1.000 ms while the thread was ready: that wait was not for lack of CPUs"
                        + " (CPU affinity, or the scheduler's wake-up latency)",
                "who held the CPUs is unknown for 1.000 ms of CPU time while the thread was ready: before a CPU's first"
                        + " context switch in the trace",
                "no JVM runtime events of families safepoint, io in this trace (not enabled by jvm=, or none"
                + " lasted jvmThreshold)"), c.get("notes"));
    }

    @Test
    void textTableAddsUpAndOrdersTheSlowestFirst() throws IOException {
        Path f = file(merged());
        EtlToolTest.Run r = run("why", f.toString());
        assertEquals(0, r.status(), r.err());
        String out = r.out();
        assertTrue(out.startsWith("== " + f + " (session jetw): the 3 slowest finished top-level calls (asked for 3)\n"), out);
        assertTrue(out.contains("#1 20.000 ms  com.example.Shop.handle()V  inst 1  thread 5000 \"main\" (pid 4242)  @+10.000 ms\n"), out);
        assertTrue(out.contains("#2 5.000 ms  com.example.Shop.handle()V  inst 10"), out);
        assertTrue(out.contains("#3 2.000 ms  method#2  inst 20  thread 6000 \"worker\""), out);
        assertTrue(out.contains("  on CPU                                           12.000    60.0%  thread state, kernel tid 5000\n"), out);
        assertTrue(out.contains("  waiting: UserRequest                              4.000    20.0%"), out);
        assertTrue(out.contains("  disk I/O issued by the thread                     3.000    15.0%  1 request, 4096 bytes\n"), out);
        assertTrue(out.contains("  CPUs while ready (% of the ready time)                -        -  2 CPUs x 2.000 ms: thread"
                + " (tid 7000) 2.000 ms 100.0%, idle 1.000 ms 50.0%, unknown 1.000 ms 50.0%; by process: unknown processes"
                + " 2.000 ms 100.0%\n"), out);
        assertTrue(out.contains("  JvmGcPause                                        1.000     5.0%  1 event, stops every thread\n"), out);
        assertTrue(out.contains("  file I/O by the thread                            1.700     8.5%  2 reads 16484 bytes, 1 flush; most"
                + " waited on \\Device\\HarddiskVolume2\\shop\\db.mv (1.500 ms, 2 operations)\n"), out);
        assertTrue(out.contains("#2 5.000 ms") && out.contains("  file I/O by the thread                            0.000     0.0%  none\n"),
                "handle inst 10 (40..45) did no file I/O: " + out);
    }

    @Test
    void oneCallByInstanceIdAndWhatTheTraceCannotTell() throws IOException {
        Path f = file(merged());
        Map<String, Object> o = MiniJson.object(run("why", "--instance", "20", "--json", f.toString()).out());
        Map<?, ?> c = (Map<?, ?>) ((List<?>) o.get("calls")).get(0);
        assertEquals(20L, lng(c.get("instanceId")));
        assertEquals(6000L, lng(c.get("kernelThreadId")));
        assertEquals(Map.of("unknown (no context switch before it)", 2.0), doubles(c.get("states")),
                "no context switch of 6000 in the trace: its state is unknown, not zero");

        // The jetw-only fixture: no kernel events, no JVM events; said, not shown as zeros.
        Path jetwOnly = tmp.resolve("jetw.etl");
        Files.write(jetwOnly, JetwTraceFixture.build());
        EtlToolTest.Run r = run("why", "--json", jetwOnly.toString());
        Map<?, ?> slowest = (Map<?, ?>) ((List<?>) MiniJson.object(r.out()).get("calls")).get(0);
        assertEquals(100L, lng(slowest.get("instanceId")));
        assertNull(slowest.get("states"));
        assertNull(slowest.get("samples"));
        assertNull(slowest.get("diskIo"));
        assertNull(slowest.get("jvm"));
        assertEquals(2, ((List<?>) slowest.get("notes")).size());
        String text = run("why", jetwOnly.toString()).out();
        assertTrue(text.contains("note: no kernel events in this trace"), text);
        // Not a guess at jvm=none: the default families are on, and a short run may have none over jvmThreshold.
        assertTrue(text.contains("note: no JVM runtime events in this trace (not enabled by jvm=, or none lasted jvmThreshold)"), text);
        assertTrue(text.contains("not considered: 2 calls with only a START"), text);
    }

    @Test
    void treeWhyPutsTheBreakdownUnderEachTopLevelCall() throws IOException {
        Path f = file(merged());
        EtlToolTest.Run r = run("tree", "--why", f.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.lines();
        assertEquals("note: no JVM runtime events of families safepoint, io in this trace (not enabled by jvm=, or none"
                + " lasted jvmThreshold)", lines.get(1));
        assertEquals("  20.000 ms  com.example.Shop.handle()V  @+10.000 ms", lines.get(3));
        assertEquals("    ? why (ms): children 5.000 | self 15.000 | on CPU 12.000 | ready, waiting for a CPU 2.000 |"
                + " waiting: UserRequest 4.000 | waiting: WrQueue 2.000 | woken by thread (tid 4) 4.000 | disk I/O 3.000 |"
                + " file I/O 1.700 |"
                + " hard faults 0.500 |"
                + " JvmGcPause 1.000 | JvmPark 3.000", lines.get(4));
        assertEquals(3, lines.stream().filter(l -> l.startsWith("    ? why (ms): ")).count(), r.out());
        List<String> slowest = run("tree", "--why", "--slowest", f.toString()).lines();
        assertEquals(1, slowest.stream().filter(l -> l.contains("? why")).count());
        assertEquals(lines.get(4), slowest.stream().filter(l -> l.contains("? why")).findFirst().orElseThrow());
        assertEquals(run("tree", f.toString()).out(), String.join("\n", lines.stream()
                .filter(l -> !l.contains("? why") && !l.startsWith("note: ")).toList()) + "\n", "--why only adds lines");
    }

    /** tree's "!" lines use the same thread matching as why: thread 5000's own park, not the park of Java thread 5000. */
    @Test
    void treeRuntimeLinesBelongToTheSubjectThreadOnly() throws IOException {
        String out = run("tree", file(merged()).toString()).out();
        assertTrue(out.contains("JvmPark Start") && out.contains("java.lang.Object"), out);
        assertFalse(out.contains("x.Y"), "the park of OS thread 7000 (Java id 5000) is not thread 5000's: " + out);
    }

    /**
     * The real kernel sample (Thread, Process, Image events of a Windows 10 kernel logger) goes through
     * both passes: every record decoded, none of the kinds a breakdown uses, no problem, and a call
     * placed on one of its threads (tid 5060) over the whole file says that kernel evidence is missing.
     */
    @Test
    void theRealKernelSampleDecodesThroughBothPasses() throws IOException {
        Path sample = Path.of(System.getProperty("jetw.samples.dir"), "ShutdownPerfDiagLogger.etl");
        try (dev.jetw.etl.EtlReader reader = dev.jetw.etl.EtlReader.open(sample)) {
            WhyCommand.Scan scan = WhyCommand.scan(reader, new dev.jetw.analysis.why.CallSelector(3, null, null), null);
            assertEquals(List.of(), reader.problems());
            assertEquals(List.of(), scan.selector.chosen());
            for (dev.jetw.analysis.why.TraceContents.Kernel k : dev.jetw.analysis.why.TraceContents.Kernel.values()) {
                assertEquals(0, scan.contents.count(k), k.name());
            }
            long start = reader.header().startTime();
            dev.jetw.analysis.why.ExplainedCall whole = new dev.jetw.analysis.why.ExplainedCall(504, 5060, 1, 0, 1, start,
                    reader.header().endTime());
            List<dev.jetw.analysis.why.Breakdown> b = WhyCommand.explain(sample, scan, List.of(whole), true, null);
            assertEquals(1, b.size());
            assertNull(b.get(0).states);
            assertNull(b.get(0).diskIo);
            assertEquals(0, b.get(0).childCalls);
            assertTrue(b.get(0).notes.get(0).startsWith("no kernel events in this trace (context switches"), b.get(0).notes.toString());
        }
        EtlToolTest.Run r = run("why", sample.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().endsWith("(no such finished jetw call in this file)\n"), r.out());
    }

    @Test
    void aTimeWindowChoosesTheCallsThatStartInIt() throws IOException {
        Path f = file(merged()); // top-level calls start at 10 ms (inst 1), 40 ms (inst 10) and 50 ms (inst 20)
        List<?> late = (List<?>) MiniJson.object(run("why", "--from", "30", "--json", f.toString()).out()).get("calls");
        assertEquals(List.of(10L, 20L), late.stream().map(c -> lng(((Map<?, ?>) c).get("instanceId"))).toList());
        List<?> mid = (List<?>) MiniJson.object(run("why", "--from", "30", "--to", "45", "--json", f.toString()).out())
                .get("calls");
        assertEquals(List.of(10L), mid.stream().map(c -> lng(((Map<?, ?>) c).get("instanceId"))).toList());
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertEquals(EtlTool.USAGE, run("why", "--slowest", "0", "x.etl").status());
        assertEquals(EtlTool.USAGE, run("why", "--instance", "abc", "x.etl").status());
        assertEquals(EtlTool.USAGE, run("why", "--slowest").status());
        EtlToolTest.Run both = run("why", "--slowest", "1", "--instance", "5121", "x.etl");
        assertEquals(EtlTool.USAGE, both.status(), "two alternatives at once");
        assertTrue(both.err().contains("--slowest and --instance are alternatives"), both.err());
    }

    static long lng(Object o) {
        return ((Number) o).longValue();
    }

    static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    static Map<String, Double> doubles(Object o) {
        Map<String, Double> m = new java.util.HashMap<>();
        ((Map<?, ?>) o).forEach((k, v) -> m.put((String) k, num(v)));
        return m;
    }
}
