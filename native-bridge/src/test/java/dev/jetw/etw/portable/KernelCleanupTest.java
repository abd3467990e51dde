package dev.jetw.etw.portable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etw.KernelFlag;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.portable.linux.KernelTests;
import dev.jetw.etw.portable.linux.TracefsTestAccess;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing is left in tracefs (kernel tests: root and tracefs, skipped with the reason elsewhere): after a
 * start that fails half-way (the session runs on without kernel events, the trace says why), and after a JVM
 * killed with SIGKILL (the kernel stops and shrinks its instances at once; the next start removes them).
 */
class KernelCleanupTest {

    @TempDir
    Path dir;

    private final PortableBackend etw = new PortableBackend();

    private SessionConfig kernelConfig(String name, Path file) {
        return SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(0)
                .modes(EnumSet.of(LogFileMode.SEQUENTIAL, LogFileMode.SYSTEM_LOGGER))
                .kernelFlags(EnumSet.of(KernelFlag.THREAD, KernelFlag.CSWITCH, KernelFlag.DISK_IO, KernelFlag.FILE_IO,
                        KernelFlag.FILE_IO_INIT)).build();
    }

    @Test
    void aStartThatFailsHalfWayLeavesNothingAndTheSessionRunsOn() throws Exception {
        KernelTests.require("KernelCleanupTest.aStartThatFailsHalfWayLeavesNothingAndTheSessionRunsOn");
        startFailingAfterTracingOn("halfway", () -> TracefsTestAccess.failAfterTracingOn("injected: tracefs went away"),
                "injected");
    }

    @Test
    void anErrorAtStartLeavesNothingAndTheSessionRunsOn() throws Exception {
        KernelTests.require("KernelCleanupTest.anErrorAtStartLeavesNothingAndTheSessionRunsOn");
        startFailingAfterTracingOn("error", () -> TracefsTestAccess.failAfterTracingOnWithError("injected"),
                "unable to create native thread: injected");
    }

    /** A session whose collector start fails once its instances trace ({@code inject}): nothing left, one problem. */
    private void startFailingAfterTracingOn(String what, Runnable inject, String cause) throws Exception {
        String name = TestSupport.uniqueName(what);
        inject.run();
        try {
            etw.startSession(kernelConfig(name, dir.resolve(what + ".etl")));
        } finally {
            TracefsTestAccess.failAfterTracingOn(null);
        }
        assertFalse(KernelSessionTest.leftInTracefs(), Arrays.toString(KernelSessionTest.tracefsInstances()));
        List<String> notices = etw.notices(name);
        assertEquals(1, notices.size(), notices.toString());
        assertTrue(notices.get(0).contains("no kernel events") && notices.get(0).contains(cause), notices.get(0));
        assertEquals(0, etw.stopSession(name).kernelEventsWritten());
    }

    @Test
    void aKilledJvmsInstancesStopAtOnceAndTheNextStartRemovesThem() throws Exception {
        KernelTests.require("KernelCleanupTest.aKilledJvmsInstancesStopAtOnceAndTheNextStartRemovesThem");
        String cp = location(KernelChild.class) + File.pathSeparator + location(PortableBackend.class)
                + File.pathSeparator + location(dev.jetw.etl.EtlFormat.class);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(Arrays.asList(java.toString(), "-cp", cp, KernelChild.class.getName(),
                dir.resolve("child.etl").toString())).redirectErrorStream(true).start();
        List<String> childInstances;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            StringBuilder all = new StringBuilder();
            while ((line = out.readLine()) != null && !line.equals("ready")) {
                all.append(line).append('\n');
            }
            assertEquals("ready", line, all.toString());
            childInstances = instancesOf(child.pid());
            assertEquals(3, childInstances.size(), "scheduler, block and file instances: " + childInstances);
            for (String n : childInstances) {
                assertEquals("1", read(n, "tracing_on"));
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        }
        // disable_on_free: the kernel closed free_buffer when the process died, stopped the instance and shrank it.
        for (String n : childInstances) {
            assertEquals("0", read(n, "tracing_on"), n);
            int kb = Integer.parseInt(read(n, "buffer_total_size_kb").split("\\s")[0]);
            assertTrue(kb < 1024, n + " still holds " + kb + " KiB");
        }
        String name = TestSupport.uniqueName("sweeper");
        etw.startSession(kernelConfig(name, dir.resolve("sweeper.etl")));
        try {
            assertEquals(new ArrayList<String>(), instancesOf(child.pid()), "the next start's sweep removed them");
        } finally {
            etw.stopSession(name);
        }
        assertFalse(KernelSessionTest.leftInTracefs());
    }

    private static List<String> instancesOf(long pid) {
        List<String> out = new ArrayList<>();
        for (String n : KernelSessionTest.tracefsInstances()) {
            if (n.startsWith("jetw-" + pid + "-")) {
                out.add(n);
            }
        }
        return out;
    }

    private static String read(String instance, String file) throws Exception {
        return TracefsTestAccess.read(new File(TracefsTestAccess.root(), "instances/" + instance + "/" + file)).trim();
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
