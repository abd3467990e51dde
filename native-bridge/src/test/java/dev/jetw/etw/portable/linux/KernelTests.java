package dev.jetw.etw.portable.linux;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * The gate of every test that needs the kernel (tracefs as root): it runs where the machine offers that,
 * and elsewhere is skipped with the reason, never passed in silence. Each decision is printed and appended
 * to {@code target/kernel-tests.log} at the repository's root (one line: "ran TEST" or "skipped TEST:
 * REASON"), which {@code .ci/run} counts and prints after the build.
 */
public final class KernelTests {

    private KernelTests() {
    }

    /** Why kernel tests cannot run here, or null when they can. */
    public static String unavailableReason() {
        if (!LinuxKernelCollector.isLinux()) {
            return "not Linux (" + System.getProperty("os.name") + ")";
        }
        try {
            int uid = ProcFs.uid();
            if (uid != 0) {
                return "not root (uid " + uid + "): tracefs is root-only";
            }
        } catch (IOException e) {
            return "no /proc/self/status: " + e.getMessage();
        }
        if (TracefsLocator.find() == null) {
            return "no tracefs mounted (as root: mount -t tracefs nodev /sys/kernel/tracing; .ci/run does)";
        }
        return null;
    }

    /** Skips the calling test, the reason printed and logged, unless kernel events can be collected here. */
    public static void require(String test) {
        String reason = unavailableReason();
        if (reason != null) {
            log("skipped " + test + ": " + reason);
            Assumptions.assumeTrue(false, "kernel test skipped: " + reason);
        }
        log("ran " + test);
    }

    private static void log(String line) {
        System.out.println("jetw kernel test: " + line);
        String repo = System.getProperty("jetw.repo.dir");
        if (repo == null) {
            return;
        }
        Path log = Paths.get(repo, "target", "kernel-tests.log");
        try {
            Files.createDirectories(log.getParent());
            Files.write(log, (line + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("jetw kernel test: could not append to " + log + ": " + e);
        }
    }
}
