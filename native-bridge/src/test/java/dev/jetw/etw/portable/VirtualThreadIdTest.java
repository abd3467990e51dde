package dev.jetw.etw.portable;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A virtual thread's events carry the virtual thread's id (not its carrier's), across unmounts.
 * Needs a Java 21+ runtime (from JETW_JAVA21 or /usr/lib/jvm); skipped without one.
 */
class VirtualThreadIdTest {

    @TempDir
    Path dir;

    @Test
    void eventsOfAVirtualThreadCarryItsOwnId() throws Exception {
        Optional<Path> java = findJava21();
        Assumptions.assumeTrue(java.isPresent(), "no Java 21+ runtime found");
        Path file = dir.resolve("v.etl");
        String cp = location(VirtualThreadChild.class) + File.pathSeparator + location(PortableBackend.class)
                + File.pathSeparator + location(dev.jetw.etl.EtlFormat.class);
        Process child = new ProcessBuilder(Arrays.asList(java.get().toString(), "-cp", cp,
                VirtualThreadChild.class.getName(), file.toString()))
                .redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes()).trim();
        assertTrue(child.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), out);
        String[] words = out.substring(out.lastIndexOf("vthread")).split("\\s+");
        int vthreadId = (int) Long.parseLong(words[1]);
        int mainId = (int) Long.parseLong(words[3]);
        List<EtlLayoutCheck.Event> ev = EtlLayoutCheck.read(file).events();
        assertEquals(20, ev.size());
        for (EtlLayoutCheck.Event e : ev) {
            assertEquals(vthreadId, e.threadId);
        }
        assertTrue(vthreadId != mainId);
    }

    private static Optional<Path> findJava21() throws Exception {
        String env = System.getenv("JETW_JAVA21");
        if (env != null && Files.isExecutable(Paths.get(env))) {
            return Optional.of(Paths.get(env));
        }
        if (Runtime.version().feature() >= 21) {
            return Optional.of(Paths.get(System.getProperty("java.home"), "bin", "java"));
        }
        Path jvms = Paths.get("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.filter(d -> featureOf(d.resolve("release")) >= 21)
                    .map(d -> d.resolve("bin").resolve("java")).filter(Files::isExecutable).findFirst();
        }
    }

    private static int featureOf(Path release) {
        try {
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    String v = line.substring(line.indexOf('"') + 1);
                    return Integer.parseInt(v.split("[.\"]")[0]);
                }
            }
        } catch (Exception e) {
            // not a JDK
        }
        return 0;
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
