package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.sun.tools.attach.VirtualMachine;
import java.nio.file.Files;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 30 attach/detach cycles against one JVM (issue 11 item 6): the time per cycle has no growth trend and
 * the heap and Metaspace after GC do not grow per cycle. The first attach goes through the tool (it loads
 * the agent); the cycles then talk to the control channel as the tool does, without a tool JVM per step,
 * so the test takes seconds. Factors and tolerances are generous: this looks for a trend, not a speed.
 */
class AttachCyclesIT {

    static final int CYCLES = 30;
    static final String INCLUDE = "include=com.acme.app.**";

    @TempDir
    Path temp;

    @Test
    void thirtyAttachDetachCyclesStayFlatInTimeAndMemory() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading", "-Xmx256m"), ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            ChildJvm.Result first = ChildJvm.tool("attach", pid, INCLUDE, "backend=portable", "file=" + temp.resolve("first.etl"));
            assertEquals(0, first.exit(), first.toString());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            String channel = controlChannel(pid);
            int stderrBefore = target.stderrLines().size(); // the first load may warn once (JDK 21+, JDK 24+ Unsafe)
            Method request = controlClient();

            long[] nanos = new long[CYCLES];
            long[] heap = new long[CYCLES];
            long[] metaspace = new long[CYCLES];
            for (int i = 0; i < CYCLES; i++) {
                Path file = temp.resolve("c" + i + ".etl");
                long start = System.nanoTime();
                String attached = (String) request.invoke(null, channel, "attach", INCLUDE + ",backend=portable,file=" + file);
                work(target);
                String detached = (String) request.invoke(null, channel, "detach", "");
                nanos[i] = System.nanoTime() - start;
                assertTrue(attached.startsWith("jetw agent attached"), attached);
                assertTrue(detached.startsWith("jetw agent detached"), detached);
                Files.delete(file);
                long[] mem = memory(target);
                heap[i] = mem[0];
                metaspace[i] = mem[1];
            }
            String report = "per-cycle ms " + Arrays.toString(Arrays.stream(nanos).map(n -> n / 1_000_000).toArray())
                    + "\nheap KB " + Arrays.toString(Arrays.stream(heap).map(b -> b / 1024).toArray())
                    + "\nMetaspace KB " + Arrays.toString(Arrays.stream(metaspace).map(b -> b / 1024).toArray());
            System.out.println(report);
            // Time: the last five cycles' median within 3x the first five's (plus 200 ms for a busy machine).
            assertTrue(median(nanos, CYCLES - 5) <= 3 * median(nanos, 0) + 200_000_000L, report);
            // Memory after GC: what cycles 6-30 add stays under a small bound (no per-cycle retention).
            assertTrue(heap[CYCLES - 1] - heap[5] < 4L * 1024 * 1024, "heap grows per cycle:\n" + report);
            assertTrue(metaspace[CYCLES - 1] - metaspace[5] < 1024L * 1024, "Metaspace grows per cycle:\n" + report);

            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
            List<String> err = target.stderrLines();
            assertEquals(List.of(), err.subList(stderrBefore, err.size()), "the cycles print nothing in the target");
        }
    }

    /**
     * Issue 27, item 8: what jetw itself keeps per cycle. With the JIT's profiling on, Metaspace grows 18-36 KB
     * per cycle for dozens of cycles (JDK 17 and 25, propagate=false too), and the JVM's loaded-class count by 8:
     * measured with -Xlog:class+load, jcmd VM.metaspace and clhsdb, that is the JVM warming up to the agent, not
     * something jetw holds: (1) MethodData of the agent's and Byte Buddy's methods as more of them reach the
     * profiling thresholds (the isolated loader's Metaspace grew while its class count did not); (2) one
     * reflection accessor class per method Byte Buddy calls reflectively (advice annotations, Instrumentation,
     * Module), 74 in all, the last by cycle 15; (3) HotSpot counts every redefinition (3 application classes and
     * ThreadPoolExecutor, at attach and at detach) as a class loaded and never as one unloaded, though the old
     * version is freed. Without profiling (C1 only) Metaspace is flat from cycle 5 on JDK 17 and 25, and
     * so are the live classes: this test pins that jetw retains nothing per cycle.
     */
    @Test
    void withoutTheJitsProfilingThirtyCyclesKeepMetaspaceAndClassesFlat() throws Exception {
        try (ChildJvm target = ChildJvm.start(List.of("-XX:+EnableDynamicAgentLoading", "-Xmx256m", "-XX:TieredStopAtLevel=1"),
                ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            assertEquals(0, ChildJvm.tool("attach", pid, INCLUDE, "backend=portable", "file=" + temp.resolve("first.etl")).exit());
            assertEquals(0, ChildJvm.tool("detach", pid).exit());
            String channel = controlChannel(pid);
            Method request = controlClient();
            long[] metaspace = new long[CYCLES];
            long[] classes = new long[CYCLES];
            for (int i = 0; i < CYCLES; i++) {
                Path file = temp.resolve("c" + i + ".etl");
                assertTrue(((String) request.invoke(null, channel, "attach", INCLUDE + ",backend=portable,file=" + file)).startsWith("jetw agent attached"));
                work(target);
                assertTrue(((String) request.invoke(null, channel, "detach", "")).startsWith("jetw agent detached"));
                Files.delete(file);
                metaspace[i] = memory(target)[1];
                classes[i] = liveClasses(pid);
            }
            String report = "Metaspace KB " + Arrays.toString(Arrays.stream(metaspace).map(b -> b / 1024).toArray())
                    + "\nlive classes " + Arrays.toString(classes);
            System.out.println(report);
            int last = CYCLES - 1;
            int warm = CYCLES - 21; // the last 20 cycles, after 10 of warm-up
            assertTrue(metaspace[last] - metaspace[warm] <= 20 * 4096L, "Metaspace over 4 KB per cycle:\n" + report);
            assertTrue(classes[last] - classes[warm] <= 20, "more than one class per cycle:\n" + report);
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
    }

    /** The classes the JVM holds (jcmd VM.metaspace: "Total Usage - N loaders, M classes"), redefinitions not counted. */
    private static long liveClasses(String pid) throws Exception {
        Path jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd");
        ChildJvm.Result r = ChildJvm.run(List.of(jcmd.toString(), pid, "VM.metaspace"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Total Usage - \\d+ loaders, (\\d+) classes").matcher(r.stdout());
        assertTrue(m.find(), r.toString());
        return Long.parseLong(m.group(1));
    }

    private static String controlChannel(String pid) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        try {
            String channel = vm.getSystemProperties().getProperty("jetw.control");
            assertNotNull(channel, "the agent publishes its control channel");
            return channel;
        } finally {
            vm.detach();
        }
    }

    /** The core's ControlClient.request (the core is on the tests' class path, as a "provided" dependency). */
    private static Method controlClient() throws Exception {
        return Class.forName("dev.jetw.agent.core.control.ControlClient").getMethod("request", String.class, String.class, String.class);
    }

    private static long median(long[] values, int from) {
        long[] five = Arrays.copyOfRange(values, from, from + 5);
        Arrays.sort(five);
        return five[2];
    }

    private static void work(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("work");
        target.awaitStdout(from, AttachIT.EXPECTED_RESULT::equals, AttachIT.EXPECTED_RESULT);
    }

    private static long[] memory(ChildJvm target) throws Exception {
        int from = target.stdoutLineCount();
        target.send("mem");
        String[] f = target.awaitStdout(from, l -> l.startsWith("mem "), "mem").split(" ");
        return new long[] {Long.parseLong(f[1]), Long.parseLong(f[2])};
    }
}
