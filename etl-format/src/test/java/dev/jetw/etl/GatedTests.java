package dev.jetw.etl;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The gate of the tests that need what a machine may lack (the kernel's tracefs as root, a viewer's own
 * code): such a test runs where the machine offers it and elsewhere is skipped with the reason, never
 * passed in silence. Each decision is printed and appended to {@code target/LOG} at the repository's root
 * (one line: "ran TEST" or "skipped TEST: REASON"), which {@code .ci/run} counts and prints after the build.
 * Shared by the kernel tests (native-bridge's KernelTests) and the viewer tests (analysis's ViewerTools).
 */
public final class GatedTests {

    private GatedTests() {
    }

    /**
     * Skips the calling test unless {@code reason} is null, the decision printed as "{@code what}: ..." and
     * logged to {@code target/log}.
     */
    public static void require(String log, String what, String test, String reason) {
        if (reason != null) {
            log(log, what, "skipped " + test + ": " + reason);
            Assumptions.assumeTrue(false, what + " skipped: " + reason);
        }
        log(log, what, "ran " + test);
    }

    private static void log(String name, String what, String line) {
        System.out.println(what + ": " + line);
        String repo = System.getProperty("jetw.repo.dir");
        if (repo == null) {
            return;
        }
        Path log = Paths.get(repo, "target", name);
        try {
            Files.createDirectories(log.getParent());
            Files.write(log, (line + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println(what + ": could not append to " + log + ": " + e);
        }
    }
}
