package dev.jetw.analysis.cli;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.WhyCommandTest.PID;
import static dev.jetw.analysis.cli.WhyCommandTest.call;
import static dev.jetw.analysis.cli.WhyCommandTest.doubles;
import static dev.jetw.analysis.cli.WhyCommandTest.lng;
import static dev.jetw.analysis.cli.WhyCommandTest.num;
import static dev.jetw.analysis.cli.WhyCommandTest.ts;
import static dev.jetw.analysis.cli.WhyCommandTest.u64;
import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static dev.jetw.etl.KernelRecords.READY;
import static dev.jetw.etl.KernelRecords.WAITING;
import static dev.jetw.etl.KernelRecords.cswitch;
import static dev.jetw.etl.KernelRecords.process;
import static dev.jetw.etl.KernelRecords.thread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.KernelRecords;
import dev.jetw.etl.SessionNotice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code why}'s "CPUs while ready": who held the CPUs while the call's thread was ready, from every CPU's
 * Thread/CSwitch records (the CPU is the record's buffer's processor), on merged traces whose answer is known
 * exactly (Windows numbering: jetw's header thread id is the OS id).
 *
 * <pre>
 * thread 5000 "main" of pid 4242 ("java.exe"): call inst 1 from 10 to 30 ms.
 * CPU 0: 5000 in at 5; preempted by 7001 at 12 (Ready); back in at 20; out at 35 (Waiting)
 *   => ready 12..20 (8 ms); CPU 0 then ran 7001 "spinner" of pid 7000 ("hog.exe") for all 8 ms.
 * CPU 1: as each test says.
 * </pre>
 */
class WhyCpuHoldersTest {

    @TempDir
    Path tmp;

    private Path trace(int processors, int logFileMode, Consumer<EtlFixtureBuilder> cpu1) throws IOException {
        return trace(processors, logFileMode, null, cpu1);
    }

    /** {@code writer}: the text of a WRITER notice (as the portable backend writes one), or null (none, as ETW). */
    private Path trace(int processors, int logFileMode, String writer, Consumer<EtlFixtureBuilder> cpu1) throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.processors = processors;
        b.logFileMode = logFileMode;
        b.newBuffer(); // jetw's
        if (writer != null) {
            b.record(full(true, EventType.INFO, 4, SessionNotice.VERSION, 0, PID, ts(b, 0.05), SessionNotice.CLASS,
                    SessionNotice.encode(SessionNotice.WRITER, writer)));
        }
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.example.Shop"), utf16z("handle"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("main"))));
        b.record(call(b, EventType.START, 5000, 10, 1, 0, 1));
        b.record(call(b, EventType.END, 5000, 30, 1, 0, 1));
        b.newBuffer(0); // the kernel's rundown and CPU 0's switches
        b.record(process(ts(b, 0.3), 3, PID, 1, "java.exe"));
        b.record(process(ts(b, 0.4), 3, 7000, 1, "hog.exe"));
        b.record(thread(ts(b, 0.5), 3, PID, 5000, null));
        b.record(thread(ts(b, 0.6), 3, 7000, 7001, "spinner"));
        b.record(thread(ts(b, 0.7), 3, 7000, 7002, null));
        b.record(thread(ts(b, 0.8), 3, 7000, 7003, null));
        b.record(cswitch(ts(b, 5), 5000, 0, WAITING, 0));
        b.record(cswitch(ts(b, 12), 7001, 5000, READY, 32));
        b.record(cswitch(ts(b, 20), 5000, 7001, READY, 32));
        b.record(cswitch(ts(b, 35), 0, 5000, WAITING, 6));
        b.newBuffer(1);
        cpu1.accept(b);
        Path f = tmp.resolve("cpus-" + processors + "-" + Integer.toHexString(logFileMode) + (writer != null ? "-portable" : "")
                + ".etl");
        Files.write(f, b.build());
        return f;
    }

    private static Map<?, ?> cpusWhileReady(Path f) {
        EtlToolTest.Run r = run("why", "--json", f.toString());
        assertEquals(0, r.status(), r.err());
        Map<?, ?> c = (Map<?, ?>) ((List<?>) MiniJson.object(r.out()).get("calls")).get(0);
        assertEquals(Map.of("on CPU", 12.0, "ready, waiting for a CPU", 8.0), doubles(c.get("states")), r.out());
        return (Map<?, ?>) c.get("cpusWhileReady");
    }

    private static List<?> notes(Path f) {
        return (List<?>) ((Map<?, ?>) ((List<?>) MiniJson.object(run("why", "--json", f.toString()).out()).get("calls")).get(0))
                .get("notes");
    }

    /** The threads' time, idle and unknown add up to ready time x CPUs, exactly. */
    private static void addsUp(Map<?, ?> cpus) {
        double sum = num(cpus.get("idleMs")) + num(cpus.get("moreThreadsMs"));
        for (Object t : (List<?>) cpus.get("threads")) {
            sum += num(((Map<?, ?>) t).get("ms"));
        }
        for (double u : doubles(cpus.get("unknownMs")).values()) {
            sum += u;
        }
        assertEquals(num(cpus.get("cpuMs")), sum, 1e-9, cpus.toString());
        assertEquals(num(cpus.get("readyMs")) * ((List<?>) cpus.get("cpus")).size(), num(cpus.get("cpuMs")), 1e-9);
    }

    @Test
    void twoCpusBusyWithAnotherProcessNameItsThreadsAndTheProcess() throws IOException {
        Path f = trace(2, 1, b -> {
            b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0));
            b.record(cswitch(ts(b, 40), 0, 7002, WAITING, 6));
        });
        Map<?, ?> cpus = cpusWhileReady(f);
        addsUp(cpus);
        assertEquals(16.0, num(cpus.get("cpuMs")));
        List<?> threads = (List<?>) cpus.get("threads");
        assertEquals(2, threads.size());
        Map<?, ?> first = (Map<?, ?>) threads.get(0);
        assertEquals(7001L, lng(first.get("threadId")), "equal times: the lower id first");
        assertEquals("spinner", first.get("name"));
        assertEquals(7000L, lng(first.get("processId")));
        assertEquals("hog.exe", first.get("processName"));
        assertEquals(8.0, num(first.get("ms")));
        assertEquals(1.0, num(first.get("shareOfReady")));
        assertEquals(7002L, lng(((Map<?, ?>) threads.get(1)).get("threadId")));
        assertNull(((Map<?, ?>) threads.get(1)).get("name"));
        assertEquals(0.0, num(cpus.get("idleMs")));
        List<?> processes = (List<?>) cpus.get("processes");
        assertEquals(1, processes.size());
        Map<?, ?> hog = (Map<?, ?>) processes.get(0);
        assertEquals(7000L, lng(hog.get("processId")));
        assertEquals("hog.exe", hog.get("name"));
        assertEquals(2L, lng(hog.get("threads")));
        assertEquals(16.0, num(hog.get("ms")));
        assertEquals(2.0, num(hog.get("shareOfReady")));
        assertFalse(notes(f).stream().anyMatch(n -> n.toString().startsWith("a CPU was idle")
                || n.toString().startsWith("who held the CPUs") || n.toString().contains("do not meet")
                || n.toString().startsWith("context switches on")),
                "nothing unknown, no idle CPU, every CPU with switches: " + notes(f));

        String text = run("why", f.toString()).out();
        assertTrue(text.contains("  CPUs while ready (% of the ready time)                -        -  2 CPUs x 8.000 ms:"
                + " thread \"spinner\" (tid 7001, pid 7000 \"hog.exe\") 8.000 ms 100.0%,"
                + " thread (tid 7002, pid 7000 \"hog.exe\") 8.000 ms 100.0%;"
                + " by process: \"hog.exe\" (pid 7000) 16.000 ms 200.0%\n"), text);
    }

    @Test
    void anIdleCpuWhileTheThreadWaitsIsSaid() throws IOException {
        Path f = trace(2, 1, b -> {
            b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0));
            b.record(cswitch(ts(b, 14), 0, 7002, WAITING, 6)); // CPU 1 idle from 14 while 5000 is ready until 20
        });
        Map<?, ?> cpus = cpusWhileReady(f);
        addsUp(cpus);
        assertEquals(6.0, num(cpus.get("idleMs")));
        assertEquals(2.0, num(((Map<?, ?>) ((List<?>) cpus.get("threads")).get(1)).get("ms")), "7002 ran 12..14");
        assertTrue(notes(f).contains("a CPU was idle for 6.000 ms while the thread was ready: that wait was not for lack"
                + " of CPUs (CPU affinity, or the scheduler's wake-up latency)"), notes(f).toString());
        String text = run("why", f.toString()).out();
        assertTrue(text.contains(", idle 6.000 ms 75.0%;"), text);
    }

    /**
     * The header says 4 CPUs, switches are on 2; on CPU 1 the switch at 16 takes out 7004, not 7002, which the
     * switch at 2 put in: the switches between are not in the trace (12..16 unknown), and 7003 holds it from 16.
     */
    @Test
    void cpusWithoutSwitchesAndSwitchesThatDoNotMeetAreUnknownAndSaid() throws IOException {
        Path f = trace(4, 1, b -> {
            b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0));
            b.record(cswitch(ts(b, 16), 7003, 7004, READY, 32));
        });
        Map<?, ?> cpus = cpusWhileReady(f);
        addsUp(cpus);
        assertEquals(List.of(0L, 1L), ((List<?>) cpus.get("cpus")).stream().map(WhyCommandTest::lng).toList());
        assertEquals(Map.of("beforeFirstSwitch", 0.0, "notRecorded", 4.0), doubles(cpus.get("unknownMs")));
        List<?> threads = (List<?>) cpus.get("threads");
        assertEquals(List.of(7001L, 7003L), threads.stream().map(t -> lng(((Map<?, ?>) t).get("threadId"))).toList());
        assertEquals(4.0, num(((Map<?, ?>) threads.get(1)).get("ms")));
        List<?> notes = notes(f);
        assertTrue(notes.contains("context switches on 2 of the 4 CPUs of this trace (its NumberOfProcessors): the others"
                + " are left out of who held the CPUs while ready (offline, or no switch recorded there: on Linux only"
                + " switches to or from the traced JVM's threads are)"), notes.toString());
        assertTrue(notes.stream().anyMatch(n -> n.toString().startsWith("4.000 ms of CPU time while the thread was ready lie"
                + " between two switches of a CPU that do not meet")), notes.toString());
        assertTrue(run("why", f.toString()).out().contains(", switches not recorded 4.000 ms 50.0%;"));
    }

    /** A CPU whose first switch comes after the ready stretch began: who ran there before it is unknown. */
    @Test
    void beforeACpusFirstSwitchIsUnknown() throws IOException {
        Path f = trace(2, 1, b -> b.record(cswitch(ts(b, 15), 7002, 0, WAITING, 0)));
        Map<?, ?> cpus = cpusWhileReady(f);
        addsUp(cpus);
        assertEquals(Map.of("beforeFirstSwitch", 3.0, "notRecorded", 0.0), doubles(cpus.get("unknownMs")));
        assertEquals(5.0, num(((Map<?, ?>) ((List<?>) cpus.get("threads")).get(1)).get("ms")), "7002 from 15 to 20");
        assertTrue(notes(f).contains("who held the CPUs is unknown for 3.000 ms of CPU time while the thread was ready:"
                + " before a CPU's first context switch in the trace"), notes(f).toString());
        assertTrue(run("why", f.toString()).out().contains(", unknown 3.000 ms 37.5%;"));
    }

    @Test
    void theJsonShape() throws IOException {
        Map<?, ?> cpus = cpusWhileReady(trace(2, 1, b -> b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0))));
        assertEquals(Set.of("readyMs", "cpus", "cpuMs", "threads", "moreThreads", "moreThreadsMs", "moreThreadsAtMost",
                "idleMs", "idleAtMost", "unknownMs", "processes", "switchesOfTracedThreadsOnly"), cpus.keySet());
        assertEquals(Set.of("threadId", "processId", "name", "processName", "ms", "shareOfReady", "atMost"),
                ((Map<?, ?>) ((List<?>) cpus.get("threads")).get(0)).keySet());
        assertEquals(Set.of("processId", "name", "threads", "ms", "shareOfReady", "atMost"),
                ((Map<?, ?>) ((List<?>) cpus.get("processes")).get(0)).keySet());
        assertEquals(Set.of("beforeFirstSwitch", "notRecorded"), ((Map<?, ?>) cpus.get("unknownMs")).keySet());
        assertEquals(0L, lng(cpus.get("moreThreads")));
    }

    /** EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING: a buffer's processor is not the CPU that switched; nothing is told. */
    @Test
    void buffersNotPerCpuTellNothingAndSaySo() throws IOException {
        Path f = trace(2, 0x10000001, b -> b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0)));
        assertNull(cpusWhileReady(f));
        assertTrue(notes(f).stream().anyMatch(n -> n.toString().startsWith("this trace's buffers are not per CPU")),
                notes(f).toString());
        assertFalse(run("why", f.toString()).out().contains("CPUs while ready"));
    }

    /** A call that was never ready has no such row, and JSON null. */
    @Test
    void aCallNeverReadyHasNoRow() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("main"))));
        b.record(call(b, EventType.START, 5000, 10, 1, 0, 1));
        b.record(call(b, EventType.END, 5000, 30, 1, 0, 1));
        b.newBuffer(0);
        b.record(cswitch(ts(b, 5), 5000, 0, WAITING, 0));
        b.record(cswitch(ts(b, 35), 0, 5000, WAITING, 6));
        Path f = tmp.resolve("never-ready.etl");
        Files.write(f, b.build());
        Map<?, ?> c = (Map<?, ?>) ((List<?>) MiniJson.object(run("why", "--json", f.toString()).out()).get("calls")).get(0);
        assertEquals(Map.of("on CPU", 20.0), doubles(c.get("states")));
        assertTrue(c.containsKey("cpusWhileReady"));
        assertNull(c.get("cpusWhileReady"));
        assertFalse(run("why", f.toString()).out().contains("CPUs while ready"));
    }

    /** No C0 control but the line ends, no DEL, no C1 control: nothing a terminal acts on. */
    static void noControls(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            assertFalse(c != '\n' && Text.control(c), "control U+" + Integer.toHexString(c) + " at " + i + ": " + text);
        }
    }

    /**
     * Another local user's thread named ESC "[2J" newline "FAKE" and its process named with a C1 CSI and DEL: why's text
     * escapes them (no control reaches the terminal, no line is forged), as do dump's and the JSON (which keeps the
     * names exact once parsed).
     */
    @Test
    void controlCharactersInTheNamesAreEscapedInTheText() throws IOException {
        String thread = "x\u001b[2J\nFAKE";
        String process = "p\u009b2J\u007f";
        Path f = trace(2, 1, b -> {
            b.record(process(ts(b, 0.9), 3, 8000, 1, process));
            b.record(thread(ts(b, 1), 3, 8000, 7004, thread));
            b.record(cswitch(ts(b, 2), 7004, 0, WAITING, 0));
        });
        String text = run("why", f.toString()).out();
        noControls(text);
        assertTrue(text.contains("thread \"x\\u001b[2J\\nFAKE\" (tid 7004, pid 8000 \"p\\u009b2J\\u007f\")"), text);
        assertTrue(text.contains("\"p\\u009b2J\\u007f\" (pid 8000)"), text);
        assertFalse(text.contains("\nFAKE"), "a forged line: " + text);
        String dump = run("dump", f.toString()).out();
        noControls(dump);
        assertTrue(dump.contains("x\\u001b[2J\\nFAKE"), dump);
        EtlToolTest.Run json = run("why", "--json", f.toString());
        noControls(json.out());
        Map<?, ?> cpus = (Map<?, ?>) ((Map<?, ?>) ((List<?>) MiniJson.object(json.out()).get("calls")).get(0))
                .get("cpusWhileReady");
        Map<?, ?> holder = (Map<?, ?>) ((List<?>) cpus.get("threads")).stream()
                .filter(t -> lng(((Map<?, ?>) t).get("threadId")) == 7004L).findFirst().orElseThrow();
        assertEquals(thread, holder.get("name"));
        assertEquals(process, holder.get("processName"));
    }

    @Test
    void textEscapesC0DelAndC1AndNothingElse() {
        assertEquals("a\\nb\\rc\\td\\u001be\\u007ff\\u0080g\\u009fh\\u0000", Text.safe("a\nb\rc\td\u001be\u007ff\u0080g\u009fh\u0000"));
        assertEquals("C:\\Temp\\a.txt \u00a0\u00e9\u4e2d", Text.safe("C:\\Temp\\a.txt \u00a0\u00e9\u4e2d"));
        String plain = "sh";
        assertTrue(plain == Text.safe(plain), "a clean name is not copied");
        assertNull(Text.safe(null));
    }

    static final String LINUX_WRITER = "jetw portable backend, Java 17.0.15, Linux 6.18.0 amd64";

    private static Map<?, ?> holder(Map<?, ?> cpus, String list, long id) {
        for (Object o : (List<?>) cpus.get(list)) {
            Map<?, ?> m = (Map<?, ?>) o;
            if (lng(m.get(list.equals("threads") ? "threadId" : "processId")) == id) {
                return m;
            }
        }
        throw new AssertionError(id + " not in " + cpus);
    }

    /**
     * CPU 1 idle from 2 to 40 between two switches of the traced process's thread 5001 (idle meets idle), CPU 0 held
     * by another process's thread 7001 between two of 5000's. In a file of the portable backend (its WRITER notice),
     * whose switches are the traced process's only, others may have run unrecorded in both: 7001's and its process's
     * time and idle are upper bounds ("at most", atMost), and the note says the CPU may have been idle. The same
     * records without the notice (ETW's kernel logger records every switch): exact, and the CPU was idle.
     */
    @Test
    void inATraceOfTheTracedProcessesSwitchesOnlyOthersAndIdleAreAtMost() throws IOException {
        for (String writer : new String[] {LINUX_WRITER, null}) {
            boolean linux = writer != null;
            Path f = trace(2, 1, writer, b -> {
                b.record(thread(ts(b, 0.9), 3, PID, 5001, "C2 CompilerThre"));
                b.record(cswitch(ts(b, 2), 0, 5001, WAITING, 0));
                b.record(cswitch(ts(b, 40), 5001, 0, WAITING, 0));
            });
            Map<?, ?> cpus = cpusWhileReady(f);
            addsUp(cpus);
            assertEquals(linux, cpus.get("switchesOfTracedThreadsOnly"));
            Map<?, ?> spinner = holder(cpus, "threads", 7001);
            assertEquals(8.0, num(spinner.get("ms")));
            assertEquals(linux, spinner.get("atMost"));
            assertEquals(linux, holder(cpus, "processes", 7000).get("atMost"));
            assertEquals(8.0, num(cpus.get("idleMs")));
            assertEquals(linux, cpus.get("idleAtMost"));
            assertEquals(0.0, num(((Map<?, ?>) cpus.get("unknownMs")).get("notRecorded")));
            List<?> notes = notes(f);
            assertEquals(!linux, notes.stream().anyMatch(n -> n.toString().startsWith("a CPU was idle for 8.000 ms")), notes.toString());
            assertEquals(linux, notes.stream().anyMatch(n -> n.toString().startsWith("a CPU may have been idle for up to 8.000 ms")),
                    notes.toString());
            String text = run("why", f.toString()).out();
            String at = linux ? "at most " : "";
            assertTrue(text.contains("thread \"spinner\" (tid 7001, pid 7000 \"hog.exe\") " + at + "8.000 ms 100.0%"), text);
            assertTrue(text.contains("idle " + at + "8.000 ms 100.0%"), text);
            assertTrue(text.contains("\"hog.exe\" (pid 7000) " + at + "8.000 ms 100.0%"), text);
        }
    }

    /**
     * After a CPU's last switch in a trace of the traced process's switches only, anything may have run: unless it
     * switched in a thread of the traced process (whose switch out would be in the trace), that time is not recorded.
     * CPU 1's last switch puts in another process's thread 7002 (at 2), the idle thread, or the traced process's 5001.
     */
    @Test
    void inATraceOfTheTracedProcessesSwitchesOnlyTimeAfterACpusLastSwitchIsNotRecorded() throws IOException {
        for (String writer : new String[] {LINUX_WRITER, null}) {
            boolean linux = writer != null;
            for (int in : new int[] {7002, 0, 5001}) {
                Path f = trace(2, 1, writer, b -> {
                    b.record(thread(ts(b, 0.9), 3, PID, 5001, "C2 CompilerThre"));
                    b.record(cswitch(ts(b, 2), in, 7003, WAITING, 0));
                });
                Map<?, ?> cpus = cpusWhileReady(f);
                addsUp(cpus);
                boolean traced = in == 5001;
                double notRecorded = linux && !traced ? 8.0 : 0.0;
                String what = (linux ? "portable, " : "ETW, ") + "in " + in + ": " + cpus;
                assertEquals(notRecorded, num(((Map<?, ?>) cpus.get("unknownMs")).get("notRecorded")), what);
                assertEquals(in == 0 && !linux ? 8.0 : 0.0, num(cpus.get("idleMs")), what);
                boolean credited = ((List<?>) cpus.get("threads")).stream()
                        .anyMatch(t -> lng(((Map<?, ?>) t).get("threadId")) == in);
                assertEquals(in != 0 && (traced || !linux), credited, what);
                if (traced) {
                    assertEquals(false, holder(cpus, "threads", 5001).get("atMost"), "the traced process's time is exact");
                    assertEquals(false, holder(cpus, "processes", PID).get("atMost"));
                }
                List<?> notes = notes(f);
                assertEquals(notRecorded > 0, notes.stream().anyMatch(n -> n.toString().contains("after a CPU's last switch")),
                        notes.toString());
                assertFalse(linux && notes.stream().anyMatch(n -> n.toString().startsWith("a CPU was idle")), notes.toString());
            }
        }
    }

    /**
     * Thread 7001 "spinner" of "hog.exe" held CPU 0 during the call (ready 12..20, the call 10..30); after the call
     * its id is reused by another process's thread (Process and Thread Start at 50, 51) and pid 7000 by another
     * image (at 52): the holder keeps the names it had then, in the text and the JSON. Thread 7002, first named at
     * 15 (inside the call, as the Linux collector names a thread at its first switch with a traced one), is named.
     */
    @Test
    void aThreadIdReusedAfterTheCallDoesNotRenameTheHolder() throws IOException {
        Path f = trace(2, 1, b -> {
            b.record(cswitch(ts(b, 2), 7002, 0, WAITING, 0));
            b.record(KernelRecords.setName(ts(b, 15), 7000, 7002, "first-named"));
            b.record(process(ts(b, 50), 1, 8000, 1, "later.exe"));
            b.record(thread(ts(b, 51), 1, 8000, 7001, "latecomer"));
            b.record(process(ts(b, 52), 1, 7000, 1, "reused.exe"));
            b.record(thread(ts(b, 53), 1, 7000, 7002, "latecomer2"));
        });
        String text = run("why", f.toString()).out();
        assertTrue(text.contains("thread \"spinner\" (tid 7001, pid 7000 \"hog.exe\")"), text);
        assertTrue(text.contains("thread \"first-named\" (tid 7002, pid 7000 \"hog.exe\")"), text);
        assertTrue(text.contains("by process: \"hog.exe\" (pid 7000)"), text);
        assertFalse(text.contains("latecomer") || text.contains("later.exe") || text.contains("reused.exe"), text);
        Map<?, ?> cpus = cpusWhileReady(f);
        Map<?, ?> spinner = holder(cpus, "threads", 7001);
        assertEquals("spinner", spinner.get("name"));
        assertEquals(7000L, lng(spinner.get("processId")));
        assertEquals("hog.exe", spinner.get("processName"));
        assertEquals("hog.exe", holder(cpus, "processes", 7000).get("name"));
    }
}
