package dev.jetw.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** --serve as a real process: SIGTERM (what Ctrl-C and service managers send) stops it with its report. */
class ServeProcessTest {

    @Test
    @DisabledOnOs(value = OS.WINDOWS, disabledReason = "no SIGTERM on Windows; Ctrl-C there runs the same shutdown hook")
    void sigtermStopsServeCleanlyAndPrintsTheReport() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                OrderGatewayApp.class.getName(), "--serve", "--interval-ms", "20").redirectErrorStream(true);
        Process process = pb.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String first = out.readLine();
            assertTrue(first != null && first.startsWith("order gateway listening on 127.0.0.1:"), String.valueOf(first));
            // What Ctrl-C and service managers send. (Process.destroy() would also close our end of the pipes.)
            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).inheritIO().start();
            assertEquals(0, kill.waitFor());
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "--serve did not stop after SIGTERM");
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        } finally {
            process.destroyForcibly();
        }
        assertEquals(143, process.exitValue(), "128 + SIGTERM: the JVM exited through its shutdown sequence");
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("Processed ") && l.contains(" ok, ")),
                "the report must be printed on SIGTERM: " + lines);
    }
}
