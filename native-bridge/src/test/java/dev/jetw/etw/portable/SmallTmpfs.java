package dev.jetw.etw.portable;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A real small file system for the tests of what the OS refuses: a 64 KB tmpfs (full: ENOSPC) or a
 * read-only one (EROFS), mounted on a test folder. Root can mount it; where mounting is not permitted the
 * test is aborted (reported as skipped) with the reason printed, never passed silently.
 */
final class SmallTmpfs implements AutoCloseable {

    private final Path dir;

    private SmallTmpfs(Path dir) {
        this.dir = dir;
    }

    /** Mounts a 64 KB tmpfs on the new folder {@code dir}, {@code readOnly} or filled to the last byte. */
    static SmallTmpfs mount(Path dir, boolean readOnly) throws Exception {
        Files.createDirectories(dir);
        String options = (readOnly ? "ro," : "") + "size=64k";
        String problem = run("mount", "-t", "tmpfs", "-o", options, "tmpfs", dir.toString());
        if (problem != null) {
            String reason = "cannot mount a tmpfs here (" + problem + "): the real-condition test is skipped";
            System.out.println(reason);
            Assumptions.abort(reason);
        }
        SmallTmpfs fs = new SmallTmpfs(dir);
        if (!readOnly) {
            fs.fill();
        }
        return fs;
    }

    Path dir() {
        return dir;
    }

    /** Writes a file until the device is full (ENOSPC). */
    private void fill() throws IOException {
        byte[] block = new byte[1024];
        try (OutputStream out = Files.newOutputStream(dir.resolve("filler"))) {
            for (int i = 0; i < 1024; i++) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            return;
        }
        throw new IllegalStateException("a 64 KB tmpfs took 1 MB");
    }

    /** Frees the space the filler took. */
    void free() throws IOException {
        Files.delete(dir.resolve("filler"));
    }

    @Override
    public void close() throws Exception {
        String problem = run("umount", "-l", dir.toString());
        if (problem != null) {
            throw new IllegalStateException("umount " + dir + ": " + problem);
        }
    }

    /** Runs a command; null when it succeeded, else its exit code and output. */
    private static String run(String... command) throws Exception {
        List<String> c = Arrays.asList(command);
        Process p;
        try {
            p = new ProcessBuilder(c).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            byte[] b = new byte[4096];
            for (int n; (n = in.read(b)) > 0;) {
                out.write(b, 0, n);
            }
        }
        int exit = p.waitFor();
        return exit == 0 ? null : String.join(" ", c) + " exited " + exit + ": " + out.toString(StandardCharsets.UTF_8.name()).trim();
    }
}
