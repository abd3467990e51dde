package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the C compilers the native tests need (host gcc for the stub, mingw-w64 for the probes).
 * A missing compiler skips the test, except in CI (env CI=true), where it fails: CI installs them.
 */
final class ProbeToolchain {

    /** Generous: a cold gcc on a loaded 2-core machine can take many seconds. */
    private static final long COMPILE_TIMEOUT_MINUTES = 5;

    private ProbeToolchain() {
    }

    /** The module directory (surefire sets basedir; the working directory otherwise is the module). */
    static Path moduleDir() {
        return Paths.get(System.getProperty("basedir", ".")).toAbsolutePath().normalize();
    }

    static Path targetDir(String name) {
        return moduleDir().resolve("target").resolve(name);
    }

    /** Skips (outside CI) or fails (CI=true) when {@code compiler} cannot be run. */
    static void require(String compiler) {
        boolean present;
        try {
            present = run(Arrays.asList(compiler, "--version"), moduleDir()).exitCode == 0;
        } catch (IOException e) {
            present = false;
        }
        if (!present && "true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(compiler + " is not installed, and CI=true requires it (.ci/run installs it)");
        }
        Assumptions.assumeTrue(present, compiler + " is not installed: native test skipped (it fails under CI=true)");
    }

    /** Runs a compiler command and fails the test with its output when it exits non-zero. */
    static String compile(List<String> command, Path workDir) {
        try {
            Result r = run(command, workDir);
            if (r.exitCode != 0) {
                fail("compiler failed (exit " + r.exitCode + "): " + String.join(" ", command) + "\n" + r.output);
            }
            return r.output;
        } catch (IOException e) {
            throw new AssertionError("could not run " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    static final class Result {
        final int exitCode;
        final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    static Result run(List<String> command, Path workDir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(workDir.toFile())
                .redirectErrorStream(true);
        Process p = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);   // until the process closes its output, i.e. exits
            if (!p.waitFor(COMPILE_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(command.get(0) + " did not finish within " + COMPILE_TIMEOUT_MINUTES + " minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        }
        return new Result(p.exitValue(), out.toString(StandardCharsets.UTF_8));
    }
}
