package dev.jetw.analysis.cli;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.WhyCommandTest.PID;
import static dev.jetw.analysis.cli.WhyCommandTest.call;
import static dev.jetw.analysis.cli.WhyCommandTest.doubles;
import static dev.jetw.analysis.cli.WhyCommandTest.lng;
import static dev.jetw.analysis.cli.WhyCommandTest.num;
import static dev.jetw.analysis.cli.WhyCommandTest.runtime;
import static dev.jetw.analysis.cli.WhyCommandTest.ts;
import static dev.jetw.analysis.cli.WhyCommandTest.u64;
import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static dev.jetw.etl.KernelRecords.READY;
import static dev.jetw.etl.KernelRecords.WAITING;
import static dev.jetw.etl.KernelRecords.cswitch;
import static dev.jetw.etl.KernelRecords.readyThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlFixtureBuilder;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.KernelRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code why} names what woke a waiting call, and does not invent time where the trace misses a
 * switch-in. The trace (times in ms after the session start; kernel thread ids 5000 "main", 6000
 * "holder" with jetw calls, 7000 named by Thread/SetName, 8000 by a version-4 Thread DCStart):
 *
 * <pre>
 * 5000: handle inst 1 10..40          6000: Holder.run inst 20 11..25, Lock.release inst 21 17..19 under it
 * 5000 in 5; out Waiting/UserRequest 12; readied by 6000 at 18; in 19; out Waiting/UserRequest 21;
 *   readied by 0 (an interrupt) at 23; [no switch-in] out Waiting/UserRequest 25; readied by 7000 at 28; in 29;
 *   out Ready (preempted) 31; [no switch-in] out Waiting/WrQueue 33; readied by 8000 at 35; in 36
 * => on CPU 2+2+2+4 = 10, on CPU estimated 23..25 = 2 (since its wake-up), unknown 31..33 = 2 (no wake-up),
 *    ready 1+1+1 = 3, waiting UserRequest 6+2+3 = 11, WrQueue 2: 30 ms; 2 switch-ins missing
 * wakers: holder 6 ms (in Lock.release at 18), G1 Conc#0 3, an interrupt 2, lib-spinner 2
 * </pre>
 *
 * Thread 9999, of another process, leaves its CPU at 2 and 3 (its switch-ins are not in the trace: not counted). The kernel events are in two buffers read out of time order. With {@code portable}, jetw's records
 * carry Java thread ids (1, 2) as the portable backend writes them, and JVM park events give their OS ids.
 */
class WhyWakersTest {

    @TempDir
    Path tmp;

    static byte[] trace(boolean portable) {
        return trace(portable, "G1 Conc#0");
    }

    /** The trace with waker 7000 named {@code g1} (Thread/SetName). */
    static byte[] trace(boolean portable, String g1) {
        int main = portable ? 1 : 5000;
        int holder = portable ? 2 : 6000;
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, main, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.acme.Shop"), utf16z("handle"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, main, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(2), utf16z("com.acme.Holder"), utf16z("run"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, main, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(3), utf16z("com.acme.Lock"), utf16z("release"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, main, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS, concat(u64(1), utf16z("main"))));
        b.record(full(true, EventType.DC_START, 0, 0, holder, PID, ts(b, 0.3), JetwSchema.THREAD_CLASS, concat(u64(2), utf16z("holder"))));
        b.record(call(b, EventType.START, main, 10, 1, 0, 1));
        b.record(call(b, EventType.END, main, 40, 1, 0, 1));
        b.record(call(b, EventType.START, holder, 11, 20, 0, 2));
        b.record(call(b, EventType.START, holder, 17, 21, 20, 3));
        b.record(call(b, EventType.END, holder, 19, 21, 20, 3));
        b.record(call(b, EventType.END, holder, 25, 20, 0, 2));
        if (portable) { // the OS ids of Java threads 1 and 2, from the subjects of JVM events
            b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 1, 7, concat(u64(5000), u64(1), u64(-1), utf16z("x.A"))));
            b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 2, 7, concat(u64(5000), u64(1))));
            b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.START, 1, 8, concat(u64(6000), u64(2), u64(-1), utf16z("x.A"))));
            b.record(runtime(b, JetwSchema.JVM_PARK_CLASS, EventType.END, 2, 8, concat(u64(6000), u64(2))));
        }
        b.newBuffer(); // the later half of the kernel's events, read first
        b.record(cswitch(ts(b, 21), 0, 5000, WAITING, 6));
        b.record(readyThread(ts(b, 23), 5000, 0, 0));
        b.record(cswitch(ts(b, 25), 0, 5000, WAITING, 6));
        b.record(readyThread(ts(b, 28), 5000, 7000, PID));
        b.record(cswitch(ts(b, 29), 5000, 0, WAITING, 0));
        b.record(cswitch(ts(b, 31), 0, 5000, READY, 32));
        b.record(cswitch(ts(b, 33), 0, 5000, WAITING, 15));
        b.record(readyThread(ts(b, 35), 5000, 8000, PID));
        b.record(cswitch(ts(b, 36), 5000, 0, WAITING, 0));
        b.newBuffer();
        b.record(KernelRecords.setName(ts(b, 1), PID, 7000, g1));
        // A thread of another process, seen only when it leaves its CPU: its switch-ins are not in the trace, and are
        // not counted missing (only the traced threads' are).
        b.record(cswitch(ts(b, 2), 0, 9999, WAITING, 6));
        b.record(cswitch(ts(b, 3), 0, 9999, WAITING, 6));
        b.record(KernelRecords.thread(ts(b, 1), 3, PID, 8000, "lib-spinner"));
        b.record(cswitch(ts(b, 5), 5000, 0, WAITING, 0));
        b.record(cswitch(ts(b, 12), 0, 5000, WAITING, 6));
        b.record(readyThread(ts(b, 18), 5000, 6000, PID));
        b.record(cswitch(ts(b, 19), 5000, 0, WAITING, 0));
        b.sequence(0, 3).sequence(1, 1).sequence(2, 2);
        return b.build();
    }

    private Path file(boolean portable) throws IOException {
        Path f = tmp.resolve(portable ? "portable.etl" : "windows.etl");
        Files.write(f, trace(portable));
        return f;
    }

    private static Map<?, ?> onlyCall(EtlToolTest.Run r) {
        assertEquals(0, r.status(), r.err());
        List<?> calls = (List<?>) MiniJson.object(r.out()).get("calls");
        assertEquals(1, calls.size());
        return (Map<?, ?>) calls.get(0);
    }

    @Test
    void aSwitchOutWithoutASwitchInCountsOnCpuSinceTheWakeUpElseUnknownAndIsNoted() throws IOException {
        Path f = file(false);
        EtlToolTest.Run r = run("why", "--instance", "1", "--json", f.toString());
        Map<?, ?> c = onlyCall(r);
        assertEquals(Map.of("on CPU", 10.0, "on CPU, estimated (switch-in not recorded)", 2.0,
                "ready, waiting for a CPU", 3.0, "waiting: UserRequest", 11.0, "waiting: WrQueue", 2.0,
                "unknown (switch-in not recorded)", 2.0), doubles(c.get("states")));
        assertEquals(2L, lng(MiniJson.object(r.out()).get("missingSwitchIns")));
        assertTrue(((List<?>) c.get("notes")).contains("2 switch-ins missing in this trace (a thread switched out while"
                + " not on a CPU); time around them is estimated: on CPU since the thread's last wake-up, else unknown"),
                c.get("notes").toString());
        String text = run("why", "--instance", "1", f.toString()).out();
        assertTrue(text.contains("note: 2 switch-ins missing in this trace"), text);
    }

    @Test
    void theThreadsThatWokeTheCallAreNamedWithTheirCallLargestWaitFirst() throws IOException {
        for (boolean portable : new boolean[] {false, true}) {
            Path f = file(portable);
            Map<?, ?> c = onlyCall(run("why", "--instance", "1", "--json", f.toString()));
            List<?> wakers = (List<?>) c.get("wakers");
            assertEquals(4, wakers.size(), wakers.toString());
            Map<?, ?> holder = (Map<?, ?>) wakers.get(0);
            assertEquals(6000L, lng(holder.get("threadId")));
            assertEquals("holder", holder.get("name"));
            assertEquals("thread", holder.get("kind"));
            assertEquals(1L, lng(holder.get("wakeups")));
            assertEquals(6.0, num(holder.get("waitMs")));
            assertEquals(18.0, num(holder.get("atMs")));
            Map<?, ?> in = (Map<?, ?>) holder.get("call");
            assertEquals("com.acme.Lock.release()V", in.get("method"), "the innermost call of the waker at the wake-up");
            assertEquals(21L, lng(in.get("instanceId")));
            assertEquals(portable ? 2L : 6000L, lng(in.get("threadId")));
            Map<?, ?> g1 = (Map<?, ?>) wakers.get(1);
            assertEquals(List.of(7000L, "G1 Conc#0", 3.0), List.of(lng(g1.get("threadId")), g1.get("name"), num(g1.get("waitMs"))));
            assertNull(g1.get("call"));
            Map<?, ?> irq = (Map<?, ?>) wakers.get(2);
            assertEquals(List.of(0L, "interrupt or idle CPU", 2.0), List.of(lng(irq.get("threadId")), irq.get("kind"),
                    num(irq.get("waitMs"))));
            Map<?, ?> spinner = (Map<?, ?>) wakers.get(3);
            assertEquals(List.of(8000L, "lib-spinner", 2.0), List.of(lng(spinner.get("threadId")), spinner.get("name"),
                    num(spinner.get("waitMs"))));
        }
    }

    @Test
    void textSumsUpTheMainWakersAndTreeWhyNamesTheFirst() throws IOException {
        Path f = file(false);
        String text = run("why", "--instance", "1", f.toString()).out();
        assertTrue(text.contains(String.format("  %-44s %10s %7.1f%%  %s%n", "woken by thread \"holder\" (tid 6000)", "6.000",
                20.0, "1 wake-up at +18.000 ms, in com.acme.Lock.release()V (inst 21)")), text);
        assertTrue(text.contains(String.format("  %-44s %10s %7.1f%%  %s%n", "woken by thread \"G1 Conc#0\" (tid 7000)",
                "3.000", 10.0, "1 wake-up at +28.000 ms")), text);
        assertTrue(text.contains("  woken by an interrupt or idle CPU "), text);
        assertTrue(text.contains(String.format("  %-44s %10s %7.1f%%  %s%n", "woken by 1 more thread", "2.000", 6.7,
                "1 wake-up")), "three wakers by name, the rest summed: " + text);
        String tree = run("tree", "--why", f.toString()).out();
        assertTrue(tree.contains(" | woken by thread \"holder\" (tid 6000) 6.000 in com.acme.Lock.release()V"), tree);
    }

    /** A waker named with controls (ESC, a newline, BEL): why's text and tree --why's line escape the name. */
    @Test
    void aWakersNameIsEscapedInTheText() throws IOException {
        Path f = tmp.resolve("controls.etl");
        Files.write(f, trace(false, "lib\u001b]0;x\u0007\nFAKE"));
        String text = run("why", "--instance", "1", f.toString()).out();
        WhyCpuHoldersTest.noControls(text);
        assertTrue(text.contains("woken by thread \"lib\\u001b]0;x\\u0007\\nFAKE\" (tid 7000)"), text);
    }

    /** jetw's own names (a method, a thread) with controls: tree's text escapes them too. */
    @Test
    void treeEscapesTheNamesItPrints() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.1), JetwSchema.METHOD_CLASS,
                concat(u32(1), utf16z("com.acme.Shop"), utf16z("handle\u001b[31m"), utf16z("()V"))));
        b.record(full(true, EventType.DC_START, 0, 0, 5000, PID, ts(b, 0.2), JetwSchema.THREAD_CLASS,
                concat(u64(1), utf16z("main\nFAKE"))));
        b.record(call(b, EventType.START, 5000, 10, 1, 0, 1));
        b.record(call(b, EventType.END, 5000, 40, 1, 0, 1));
        Path f = tmp.resolve("tree.etl");
        Files.write(f, b.build());
        String tree = run("tree", f.toString()).out();
        WhyCpuHoldersTest.noControls(tree);
        assertTrue(tree.contains("handle\\u001b[31m"), tree);
        assertTrue(tree.contains("\"main\\nFAKE\""), tree);
    }
}
