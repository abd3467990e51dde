package dev.jetw.etw.portable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A JVM killed with SIGKILL mid-trace leaves a file readers accept, with every flushed buffer. */
class CrashSafetyTest {

    @TempDir
    Path dir;

    @Test
    void aKilledJvmLeavesAValidFileWithEveryFlushedBuffer() throws Exception {
        Path file = dir.resolve("crash.etl");
        int n = 1000; // about 13 full 4 KB buffers and a partial one that only the flush timer writes
        String cp = location(CrashChild.class) + File.pathSeparator + location(PortableBackend.class)
                + File.pathSeparator + location(dev.jetw.etl.EtlFormat.class);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(Arrays.asList(java.toString(), "-cp", cp,
                CrashChild.class.getName(), file.toString(), Integer.toString(n)))
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        try {
            // Wait until the flush timer has written the last, partial buffer: every event is in the file.
            TestSupport.await(() -> {
                if (!child.isAlive()) {
                    throw new AssertionError("child exited: " + log());
                }
                if (TestSupport.headerBuffersWritten(file) <= 1) {
                    return false;
                }
                try {
                    return EtlLayoutCheck.read(file).events().size() == n;
                } catch (Exception | AssertionError e) {
                    return false; // caught between a buffer and its header update
                }
            }, 120, "the child's events in the file");
        } finally {
            child.destroyForcibly(); // SIGKILL: no shutdown hook, no stop
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(137, child.exitValue());
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file); // BuffersWritten == buffers in file, each valid
        assertEquals(Files.size(file), (long) f.buffersWritten * 4096);
        assertTrue(f.buffersWritten > 2);
        List<EtlLayoutCheck.Event> ev = f.events();
        assertEquals(n, ev.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, ev.get(i).payloadInt(4));
        }
        assertTrue(f.endTime > f.startTime, "EndTime kept current");
        assertEquals(child.pid(), f.headerProcessId);
        assertEquals(child.pid(), ev.get(0).processId);
        // The product's reader accepts the file as it is: no damage, every event.
        List<EtlLayoutCheck.Event> viaReader = ReaderCheck.events(file);
        assertEquals(n, viaReader.size());
        assertEquals(n - 1, viaReader.get(n - 1).payloadInt(4));
    }

    private String log() {
        try {
            return new String(Files.readAllBytes(dir.resolve("child.log")));
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
