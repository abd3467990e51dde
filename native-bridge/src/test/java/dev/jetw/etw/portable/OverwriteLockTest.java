package dev.jetw.etw.portable;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * overwrite=true never removes a file another live session writes (issue 27, item 3): the second JVM's
 * start is refused naming the holder, and the first JVM's file stays its own.
 */
class OverwriteLockTest {

    @TempDir
    Path dir;

    @Test
    void overwriteRefusesAFileAnotherJvmsSessionWrites() throws Exception {
        Path file = dir.resolve("same.etl");
        Process child = startHolder(file, dir.resolve("holder-dump.etl"));
        try {
            String ready = awaitReady(child);
            byte[] before = Files.readAllBytes(file);
            EtwException e = assertThrows(EtwException.class, () -> new PortableBackend().startSession(SessionConfig.builder()
                    .sessionName(TestSupport.uniqueName("second")).logFile(file).overwrite(true).build()));
            assertEquals(Win32Error.SHARING_VIOLATION, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("process " + child.pid()), "names the holder: " + e.getMessage());
            assertTrue(Files.exists(file), "the holder's file is still there");
            assertEquals(ready.substring("ready ".length()), EtlLayoutCheck.read(file).loggerName, "and still the holder's session");
            assertTrue(Arrays.equals(before, Files.readAllBytes(file)), "untouched by the refused start");
        } finally {
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        }
    }

    /** A child JVM whose session writes {@code file} (and has dumped it to {@code dump}). */
    static Process startHolder(Path file, Path dump) throws Exception {
        String cp = location(FileHolderChild.class) + File.pathSeparator + location(PortableBackend.class)
                + File.pathSeparator + location(dev.jetw.etl.EtlFormat.class);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(Arrays.asList(java.toString(), "-cp", cp, FileHolderChild.class.getName(),
                file.toString(), dump.toString())).redirectErrorStream(true).start();
    }

    /** The child's "ready <session>" line, once its session runs. */
    static String awaitReady(Process child) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            if (line.startsWith("ready ")) {
                return line;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the child ended before it was ready: " + seen);
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
