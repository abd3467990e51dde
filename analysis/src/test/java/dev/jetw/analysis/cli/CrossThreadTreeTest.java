package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Records as the agent writes a hand-off (docs/cross-thread.md): a request on "main" hands a task to
 * "worker-2", whose DEQUEUE (parent: the submitting call on main, 3.2 ms of queue wait) parents the
 * task's call; the worker's task then hands a second task back... to "worker-3" from outside any call
 * (a chain: its DEQUEUE's parent is the first DEQUEUE). tree prints one tree across threads,
 * --slowest measures it to the end of the last task, chrome-trace draws the arrows.
 */
class CrossThreadTreeTest {

    private static final int PID = 4242;
    private static final int MAIN = 11;
    private static final int WORKER = 12;
    private static final int THIRD = 13;

    @TempDir
    Path tmp;

    private static long ts(EtlFixtureBuilder b, double ms) {
        return b.anchor + Math.round(ms * 10_000);
    }

    private static byte[] call(EtlFixtureBuilder b, int tid, int type, double ms, int inst, int parent, byte[] payload) {
        return instance(true, type, 4, 0, tid, PID, ts(b, ms), JetwSchema.METHOD_CALL_CLASS, inst, parent,
                parent == 0 ? null : JetwSchema.METHOD_CALL_CLASS, payload);
    }

    private static byte[] dequeue(int kind, long waitNanos) {
        return ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putInt(0).putInt(kind).putLong(waitNanos).array();
    }

    private static byte[] thread(long id, String name) {
        return concat(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(id).array(), utf16z(name));
    }

    private Path file() throws IOException {
        return handoffFile(tmp);
    }

    /** The hand-offs of this test as a file in {@code dir} (PerfettoCommandTest uses it too). */
    static Path handoffFile(Path dir) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, MAIN, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS, concat(u32(1), utf16z("a.Intake"), utf16z("handle"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, MAIN, PID, ts(b, 0.2), JetwSchema.METHOD_CLASS, concat(u32(2), utf16z("a.Task"), utf16z("run"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, MAIN, PID, ts(b, 0.3), JetwSchema.THREAD_CLASS, thread(MAIN, "main")));
        b.record(full(true, EventType.DC_START, 0, 0, WORKER, PID, ts(b, 0.4), JetwSchema.THREAD_CLASS, thread(WORKER, "worker-2")));
        b.record(full(true, EventType.DC_START, 0, 0, THIRD, PID, ts(b, 0.5), JetwSchema.THREAD_CLASS, thread(THIRD, "worker-3")));
        // main: handle (inst 1, 1..3 ms) submits at 1.8 ms; worker-2 starts the task at 5.0 ms (queued 3.2 ms).
        b.record(call(b, MAIN, EventType.START, 1.0, 1, 0, u32(1)));
        b.record(call(b, MAIN, EventType.END, 3.0, 1, 0, concat(u32(1), utf16z(""))));
        b.record(call(b, WORKER, EventType.DEQUEUE, 5.0, 2, 1, dequeue(1, 3_200_000)));
        b.record(call(b, WORKER, EventType.START, 5.1, 3, 2, u32(2)));
        b.record(call(b, WORKER, EventType.END, 8.0, 3, 2, concat(u32(2), utf16z(""))));
        // The task hands a second one over after its call returned (a chain): worker-3 runs it 1 ms later.
        b.record(call(b, THIRD, EventType.DEQUEUE, 9.1, 4, 2, dequeue(2, 1_000_000)));
        b.record(call(b, THIRD, EventType.START, 9.2, 5, 4, u32(2)));
        b.record(call(b, THIRD, EventType.END, 12.0, 5, 4, concat(u32(2), utf16z(""))));
        Path f = dir.resolve("handoff.etl");
        Files.write(f, b.build());
        return f;
    }

    /** {@code jetw etl tree ARGS}'s output, after checking it succeeded. */
    private static String tree(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "tree";
        System.arraycopy(args, 0, command, 1, args.length);
        EtlToolTest.Run r = EtlToolTest.run(command);
        assertEquals(0, r.status(), r.err());
        return r.out();
    }

    @Test
    void textDumpNamesEachHandOffItsKindAndQueueWait() throws IOException {
        EtlToolTest.Run r = EtlToolTest.run("dump", file().toString());
        assertEquals(0, r.status(), r.err());
        List<String> dequeues = r.out().lines().filter(l -> l.contains(" DEQUEUE ") || l.contains("task taken")).collect(java.util.stream.Collectors.toList());
        assertEquals(2, dequeues.size(), r.out());
        assertTrue(dequeues.get(0).endsWith("task taken (" + CrossThreadLinks.kindName(1) + "), queued 3.200 ms, submitted by instance 1"), dequeues.get(0));
        assertTrue(dequeues.get(1).endsWith("task taken (" + CrossThreadLinks.kindName(2) + "), queued 1.000 ms, submitted by instance 2"), dequeues.get(1));
        assertTrue(r.out().lines().noneMatch(l -> l.contains("java thread 0 = \"null\"")), r.out());
    }

    @Test
    void slowestRequestIsOneTreeAcrossThreadsMeasuredEndToEnd() throws IOException {
        Path f = file();
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "slowest top-level call: 2.000 ms, 11.000 ms end to end with the tasks it handed to other threads",
                "thread 11 \"main\" (pid 4242)",
                "  2.000 ms  a.Intake.handle()V  @+1.000 ms",
                "    -> queued 3.200 ms on worker-2 (thread 12), executor  @+1.800 ms",
                "      2.900 ms  a.Task.run()V  @+5.100 ms",
                "      -> queued 1.000 ms on worker-3 (thread 13), fork-join  @+8.100 ms",
                "        2.800 ms  a.Task.run()V  @+9.200 ms", ""), tree("--slowest", f.toString()));
    }

    @Test
    void wholeListingShowsTheRequestAcrossThreadsAndEachTaskOnItsThreadOnce() throws IOException {
        Path f = file();
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "thread 11 \"main\" (pid 4242)",
                "  2.000 ms  a.Intake.handle()V  @+1.000 ms",
                "    -> queued 3.200 ms on worker-2 (thread 12), executor  @+1.800 ms",
                "      2.900 ms  a.Task.run()V  @+5.100 ms",
                "      -> queued 1.000 ms on worker-3 (thread 13), fork-join  @+8.100 ms",
                "        2.800 ms  a.Task.run()V  @+9.200 ms",
                "thread 12 \"worker-2\" (pid 4242)",
                "  <- task from main (thread 11), queued 3.200 ms, executor  @+5.000 ms  (its calls are shown under the submitting call)",
                "thread 13 \"worker-3\" (pid 4242)",
                "  <- task from worker-2 (thread 12), queued 1.000 ms, fork-join  @+9.100 ms  (its calls are shown under the submitting call)",
                ""), tree(f.toString()));
    }

    @Test
    void perThreadListingNamesWhereEachTaskCameFromAndShowsItsCalls() throws IOException {
        Path f = file();
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "thread 12 \"worker-2\" (pid 4242)",
                "  <- task from main (thread 11), queued 3.200 ms, executor  @+5.000 ms",
                "    2.900 ms  a.Task.run()V  @+5.100 ms",
                ""), tree("--thread", Integer.toString(WORKER), f.toString()));
    }

    @Test
    void aRequestOutsideTheWindowLeavesItsTasksOnTheirThreadsWithTheirCalls() throws IOException {
        Path f = file();
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "thread 12 \"worker-2\" (pid 4242)",
                "  <- task from main (thread 11), queued 3.200 ms, executor  @+5.000 ms",
                "    2.900 ms  a.Task.run()V  @+5.100 ms",
                "    -> queued 1.000 ms on worker-3 (thread 13), fork-join  @+8.100 ms",
                "      2.800 ms  a.Task.run()V  @+9.200 ms",
                "thread 13 \"worker-3\" (pid 4242)",
                "  <- task from worker-2 (thread 12), queued 1.000 ms, fork-join  @+9.100 ms  (its calls are shown under the submitting call)",
                ""), tree("--from", "4", f.toString()));
    }

    /**
     * A task that completes before its submitting call (the submitter waits for it) is held until that
     * call completes, then printed under it; each thread's later calls stay in time order.
     */
    @Test
    void aTaskDoneBeforeItsSubmitterIsJoinedAndEachThreadKeepsItsOrder() throws IOException {
        Path f = syncFile(tmp);
        assertEquals(String.join("\n",
                "== " + f + " (session jetw)",
                "thread 11 (pid 4242)",
                "  9.000 ms  a.Intake.handle()V  @+1.000 ms",
                "    -> queued 1.000 ms on thread 12, executor  @+2.000 ms",
                "      1.900 ms  a.Task.run()V  @+3.100 ms",
                "  1.000 ms  a.Intake.handle()V  @+11.000 ms",
                "thread 12 (pid 4242)",
                "  <- task from thread 11, queued 1.000 ms, executor  @+3.000 ms  (its calls are shown under the submitting call)",
                "  1.000 ms  a.Task.run()V  @+6.000 ms",
                ""), tree(f.toString()));
    }

    /** Over the limit of held trees the oldest goes out unjoined: the task keeps its calls on its thread, the request goes without it. */
    @Test
    void overTheHeldLimitTheOldestTreeGoesOutUnjoined() throws IOException {
        Path f = syncFile(tmp);
        Progress quiet = Progress.create(System.err, true, false, System::nanoTime, "test");
        TraceContext context = TraceContext.read(f, quiet);
        java.util.List<String> out = new java.util.ArrayList<>();
        CrossThreadTrees joined = new CrossThreadTrees(context.links, tid -> true, (tid, root) -> true,
                (pid, tid, root, elsewhere) -> out.add(tid + ":" + root.instanceId + (elsewhere ? " joined" : "")
                        + (root.handed != null ? " with " + root.handed.size() + " task" : "")), 1);
        CallTreeBuilder builder = new CallTreeBuilder(joined);
        try (dev.jetw.etl.EtlReader reader = dev.jetw.etl.EtlReader.open(f)) {
            for (dev.jetw.etl.EtlRecord r = reader.next(); r != null; r = reader.next()) {
                builder.accept(r, JetwEvent.decode(r));
            }
        }
        builder.finish();
        joined.finish();
        assertEquals(java.util.List.of("12:2", "12:4", "11:1", "11:5"), out);
    }

    /** main's handle (1..10 ms) hands a task to thread 12 (3..5 ms) and waits for it; each thread has a later call. */
    private static Path syncFile(Path dir) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, MAIN, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS, concat(u32(1), utf16z("a.Intake"), utf16z("handle"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, MAIN, PID, ts(b, 0.2), JetwSchema.METHOD_CLASS, concat(u32(2), utf16z("a.Task"), utf16z("run"), utf16z("()V"))));
        b.record(call(b, MAIN, EventType.START, 1.0, 1, 0, u32(1)));
        b.record(call(b, WORKER, EventType.DEQUEUE, 3.0, 2, 1, dequeue(1, 1_000_000)));
        b.record(call(b, WORKER, EventType.START, 3.1, 3, 2, u32(2)));
        b.record(call(b, WORKER, EventType.END, 5.0, 3, 2, concat(u32(2), utf16z(""))));
        b.record(call(b, WORKER, EventType.START, 6.0, 4, 0, u32(2))); // closes the task: a top-level call on the worker
        b.record(call(b, WORKER, EventType.END, 7.0, 4, 0, concat(u32(2), utf16z(""))));
        b.record(call(b, MAIN, EventType.END, 10.0, 1, 0, concat(u32(1), utf16z(""))));
        b.record(call(b, MAIN, EventType.START, 11.0, 5, 0, u32(1)));
        b.record(call(b, MAIN, EventType.END, 12.0, 5, 0, concat(u32(1), utf16z(""))));
        Path f = dir.resolve("sync.etl");
        Files.write(f, b.build());
        return f;
    }

    @Test
    void chromeTraceDrawsAFlowArrowPerHandOff() throws IOException {
        Path f = file();
        Path json = tmp.resolve("handoff.json");
        EtlToolTest.Run r = EtlToolTest.run("chrome-trace", "-o", json.toString(), f.toString());
        assertEquals(0, r.status(), r.err());
        String out = Files.readString(json);
        assertTrue(out.contains("{\"name\":\"hand-off\",\"cat\":\"jetw.handoff\",\"ph\":\"s\",\"id\":1,\"ts\":1800.0,\"pid\":4242,\"tid\":11}"), out);
        assertTrue(out.contains("{\"name\":\"hand-off\",\"cat\":\"jetw.handoff\",\"ph\":\"f\",\"id\":1,\"ts\":5000.0,\"pid\":4242,\"tid\":12,\"bp\":\"e\","
                + "\"args\":{\"queueWaitNs\":3200000,\"handoff\":\"executor\",\"submitterInstanceId\":1,\"taskInstanceId\":2}}"),
                "the hand-off's values are the args of its arrow's end (speedscope ignores flow events)\n" + out);
        assertTrue(out.contains("\"ph\":\"s\",\"id\":2,\"ts\":8100.0,\"pid\":4242,\"tid\":12}"), "the chain: from the first task's slice\n" + out);
        ChromeTraceJson t = ChromeTraceJson.read(json);
        ChromeTraceJson.Slice task = t.slices.stream().filter(x -> x.cat.equals("jetw.task") && x.tid == 12).findFirst().orElseThrow();
        assertEquals("task ts=5000.0 dur=3000.0", task.toString(), "one name for every task");
        assertTrue(task.args.isEmpty(), "no args on the slice: speedscope would key a frame by them");
        assertEquals(java.util.Set.of("task"), t.frameKeys.get("jetw.task"));
    }
}
