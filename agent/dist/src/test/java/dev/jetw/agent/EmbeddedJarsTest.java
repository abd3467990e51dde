package dev.jetw.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedJarsTest {

    @TempDir
    Path temp;

    private String previousLibDir;
    private final Random random = new Random(42);

    @BeforeEach
    void useTempLibDir() {
        previousLibDir = System.getProperty(EmbeddedJars.LIB_DIR_PROPERTY);
        System.setProperty(EmbeddedJars.LIB_DIR_PROPERTY, temp.resolve("libs").toString());
        temp.resolve("libs").toFile().mkdirs();
    }

    @AfterEach
    void restore() {
        if (previousLibDir == null) {
            System.clearProperty(EmbeddedJars.LIB_DIR_PROPERTY);
        } else {
            System.setProperty(EmbeddedJars.LIB_DIR_PROPERTY, previousLibDir);
        }
    }

    @Test
    void extractsBootstrapAndLibrariesInNameOrder() throws Exception {
        byte[] boot = bytes(1000);
        byte[] a = bytes(70_000);
        byte[] c = bytes(5);
        Path agent = agentJar("agent.jar", boot, a, c);

        EmbeddedJars jars = EmbeddedJars.extractFrom(agent.toFile());

        assertArrayEquals(boot, Files.readAllBytes(jars.bootstrapJar().toPath()));
        assertEquals(List.of("a.jar", "c.jar"), names(jars.libraries()));
        assertArrayEquals(a, Files.readAllBytes(jars.libraries().get(0).toPath()));
        assertArrayEquals(c, Files.readAllBytes(jars.libraries().get(1).toPath()));
        assertTrue(jars.directory().getName().startsWith("jetw-test-1-"), jars.directory().getName());
    }

    @Test
    void replacesADamagedExtractedJarAndKeepsAGoodOne() throws Exception {
        byte[] a = bytes(4096);
        Path agent = agentJar("agent.jar", bytes(10), a, bytes(20));
        EmbeddedJars first = EmbeddedJars.extractFrom(agent.toFile());
        Path extracted = first.libraries().get(0).toPath();
        Path good = first.libraries().get(1).toPath();
        long goodModified = Files.getLastModifiedTime(good).toMillis() - 10_000;
        Files.setLastModifiedTime(good, java.nio.file.attribute.FileTime.fromMillis(goodModified));
        byte[] damaged = a.clone();
        damaged[100] ^= 1; // same size, different content: only the CRC can tell
        Files.write(extracted, damaged);

        EmbeddedJars second = EmbeddedJars.extractFrom(agent.toFile());

        assertEquals(first.directory(), second.directory());
        assertArrayEquals(a, Files.readAllBytes(extracted));
        assertEquals(goodModified, Files.getLastModifiedTime(good).toMillis(), "an intact jar is not rewritten");
    }

    @Test
    void differentContentGoesToADifferentDirectory() throws Exception {
        EmbeddedJars one = EmbeddedJars.extractFrom(agentJar("one.jar", bytes(10), bytes(10), bytes(10)).toFile());
        EmbeddedJars two = EmbeddedJars.extractFrom(agentJar("two.jar", bytes(10), bytes(10), bytes(10)).toFile());
        assertTrue(!one.directory().equals(two.directory()), one.directory() + " vs " + two.directory());
    }

    @Test
    void concurrentExtractionsAllSucceedWithIdenticalFiles() throws Exception {
        byte[] a = bytes(300_000);
        Path agent = agentJar("agent.jar", bytes(100), a, bytes(200_000));
        int threads = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<EmbeddedJars>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return EmbeddedJars.extractFrom(agent.toFile());
                }));
            }
            go.countDown();
            for (Future<EmbeddedJars> r : results) {
                EmbeddedJars jars = r.get(60, TimeUnit.SECONDS);
                assertArrayEquals(a, Files.readAllBytes(jars.libraries().get(0).toPath()));
            }
            File dir = results.get(0).get().directory();
            String[] left = dir.list((d, name) -> name.endsWith(".part"));
            assertEquals(0, left.length, "temporary files left behind");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aJarWithoutEmbeddedJarsFailsWithOneLine() throws Exception {
        Path agent = temp.resolve("empty.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(agent), manifest())) {
            out.putNextEntry(new JarEntry("dev/x.txt"));
            out.write(1);
        }
        JetwFailure failure = assertThrows(JetwFailure.class, () -> EmbeddedJars.extractFrom(agent.toFile()));
        assertTrue(failure.line().startsWith("jetw: agent jar " + agent.toFile() + ": no embedded jars"), failure.line());
    }

    private Path agentJar(String name, byte[] boot, byte[] a, byte[] c) throws IOException {
        Path jar = temp.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest())) {
            // Deliberately not in name order: the class path order must not depend on the zip order.
            put(out, EmbeddedJars.LIB_PREFIX + "c.jar", c);
            put(out, EmbeddedJars.BOOT_PREFIX + "b.jar", boot);
            put(out, EmbeddedJars.LIB_PREFIX + "a.jar", a);
            // Only jars directly in the two folders count.
            put(out, EmbeddedJars.LIB_PREFIX + "nested/d.jar", new byte[] {1});
            put(out, "META-INF/jetw/e.jar", new byte[] {2});
        }
        return jar;
    }

    private static Manifest manifest() {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "test-1");
        return manifest;
    }

    private static void put(JarOutputStream out, String name, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(content);
        out.closeEntry();
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private static List<String> names(List<File> files) {
        List<String> names = new ArrayList<>();
        for (File f : files) {
            names.add(f.getName());
        }
        return names;
    }
}
