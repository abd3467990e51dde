package dev.jetw.analysis.viewers;

import dev.jetw.etl.GatedTests;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The gate of every test that runs a viewer's own code over an export (speedscope's importer under Node,
 * protoc with Perfetto's .proto): it runs where {@code .ci/run} installed the tool, and elsewhere is
 * skipped with the reason, never passed in silence ({@link GatedTests}: each decision is printed and
 * appended to {@code target/viewer-tests.log}, which {@code .ci/run} counts and prints after the build).
 *
 * <p>Where the tools are looked for: speedscope's npm package under the folder of system property
 * {@code jetw.viewer.tools} (default {@code .viewer-tools} at the repository's root, where .ci/run puts
 * it), {@code node_modules/speedscope/dist/release/speedscope-*.js}; {@code node} and {@code protoc} on
 * the PATH.
 */
public final class ViewerTools {

    /** The speedscope version .ci/run installs and whose importer speedscope-import.cjs hooks into. */
    public static final String SPEEDSCOPE_VERSION = "1.25.0";

    private ViewerTools() {
    }

    /** The repository's root (the build sets jetw.repo.dir; a test run from a module's folder uses its parent). */
    static Path repo() {
        return Paths.get(System.getProperty("jetw.repo.dir", "..")).toAbsolutePath().normalize();
    }

    /** Why speedscope's importer cannot run here, or null when it can. */
    static String speedscopeMissing() {
        if (run(List.of("node", "--version"), 30).exit != 0) {
            return "no node on the PATH (.ci/run installs speedscope with npm; Node 18 or later)";
        }
        return speedscopeBundle() == null ? "no speedscope bundle under " + toolsDir().resolve("node_modules/speedscope/dist/release")
                + " (.ci/run: npm install --prefix .viewer-tools speedscope@" + SPEEDSCOPE_VERSION + ")" : null;
    }

    /** Why protoc cannot run here, or null when it can. */
    static String protocMissing() {
        return run(List.of("protoc", "--version"), 30).exit != 0
                ? "no protoc on the PATH (.ci/run installs Debian's protobuf-compiler)" : null;
    }

    static Path toolsDir() {
        String dir = System.getProperty("jetw.viewer.tools");
        return dir != null && !dir.isEmpty() ? Paths.get(dir) : repo().resolve(".viewer-tools");
    }

    static Path speedscopeBundle() {
        Path release = toolsDir().resolve("node_modules/speedscope/dist/release");
        if (!Files.isDirectory(release)) {
            return null;
        }
        try (Stream<Path> files = Files.list(release)) {
            return files.filter(p -> p.getFileName().toString().matches("speedscope-[A-Z0-9]+\\.js")).findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    /** Skips the calling test, the reason printed and logged, unless speedscope's importer can run. */
    public static void requireSpeedscope(String test) {
        require(test, speedscopeMissing());
    }

    /** Skips the calling test, the reason printed and logged, unless protoc can run. */
    public static void requireProtoc(String test) {
        require(test, protocMissing());
    }

    private static void require(String test, String reason) {
        GatedTests.require("viewer-tests.log", "jetw viewer test", test, reason);
    }

    /** A test resource of this package, copied to {@code dir} (so that a tool outside the JVM can read it). */
    static Path resource(String name, Path dir) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = ViewerTools.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("no test resource " + name + " beside " + ViewerTools.class.getName());
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    /** What a tool printed and how it ended. */
    static final class Ran {
        final int exit;
        final String stdout;
        final String stderr;

        Ran(int exit, String stdout, String stderr) {
            this.exit = exit;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public String toString() {
            return "exit " + exit + "\nstdout: " + stdout + "\nstderr: " + stderr;
        }
    }

    /** Runs {@code command} (stdin from {@code input}, or none), exit -1 when it cannot start or times out. */
    static Ran run(List<String> command, long timeoutSeconds, Path input) {
        try {
            Path out = Files.createTempFile("jetw-viewer", ".out");
            Path err = Files.createTempFile("jetw-viewer", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectOutput(out.toFile()).redirectError(err.toFile());
                if (input != null) {
                    pb.redirectInput(input.toFile());
                }
                Process p = pb.start();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    return new Ran(-1, "", command + ": no result in " + timeoutSeconds + " s");
                }
                return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            return new Ran(-1, "", command + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Ran(-1, "", command + ": interrupted");
        }
    }

    static Ran run(List<String> command, long timeoutSeconds) {
        return run(command, timeoutSeconds, null);
    }
}
