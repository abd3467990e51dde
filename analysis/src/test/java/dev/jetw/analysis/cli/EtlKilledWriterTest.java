package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.portable.CrashChild;
import dev.jetw.etw.portable.PortableBackend;
import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.analysis.cli.EtlTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM writing through the portable backend is killed with SIGKILL mid-session; the reader and the
 * CLI read its file: every flushed event, no damage reported. The child is the portable backend's
 * own test program {@code dev.jetw.etw.portable.CrashChild} (writes N START events whose payload
 * holds {stream, seq}, then idles with the session running and a 1 s flush timer).
 */
class EtlKilledWriterTest {

    @TempDir
    Path dir;

    /** Sequence numbers of the child's events, or null while the file is not readable yet. */
    private static List<Integer> sequences(Path file) {
        try (EtlReader r = EtlReader.open(file)) {
            List<Integer> seqs = new ArrayList<>();
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (e.headerType() == EtlFormat.HT_INSTANCE64) {
                    seqs.add(ByteBuffer.wrap(e.userData()).order(ByteOrder.LITTLE_ENDIAN).getInt(4));
                }
            }
            return r.problems().isEmpty() ? seqs : null;
        } catch (Exception e) {
            return null; // not created yet, or caught between a buffer and its header update
        }
    }

    @Test
    void aKilledWritersFileIsReadWhole() throws Exception {
        Path file = dir.resolve("killed.etl");
        int n = 1000;
        String cp = location(CrashChild.class) + File.pathSeparator + location(PortableBackend.class)
                + File.pathSeparator + location(EtlReader.class);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(Arrays.asList(java.toString(), "-cp", cp,
                CrashChild.class.getName(), file.toString(), Integer.toString(n)))
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                List<Integer> s = sequences(file);
                if (s != null && s.size() == n) {
                    break;
                }
                assertTrue(child.isAlive(), () -> "child exited: " + log());
                assertTrue(System.nanoTime() < deadline, "timed out waiting for the child's events in " + file);
                Thread.sleep(50);
            }
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(137, child.exitValue(), "killed by SIGKILL");

        try (EtlReader r = EtlReader.open(file)) {
            List<Integer> seqs = new ArrayList<>();
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (e.headerType() == EtlFormat.HT_INSTANCE64) {
                    seqs.add(ByteBuffer.wrap(e.userData()).order(ByteOrder.LITTLE_ENDIAN).getInt(4));
                    assertEquals(child.pid(), e.processId());
                }
            }
            for (int i = 0; i < n; i++) {
                assertEquals(i, seqs.get(i));
            }
            assertEquals(n, seqs.size());
            assertTrue(r.problems().isEmpty(), r.problems().toString());
            assertEquals(Files.size(file), (long) r.header().buffersWritten() * r.header().bufferSize());
            assertTrue(r.header().endTime() > r.header().startTime(), "EndTime kept current");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[]{"summary", "--json", file.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("\"events\":" + n + ","), out.toString(StandardCharsets.UTF_8));
    }

    private String log() {
        try {
            return new String(Files.readAllBytes(dir.resolve("child.log")), StandardCharsets.UTF_8);
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
