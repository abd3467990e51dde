package dev.jetw.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The isolated class loader over a jar laid out as agent/dist lays out jetw-agent.jar: classes and
 * resources under {@value IsolatedClassLoader#CLASSES} (class files as {@code .classdata}), a
 * multi-release part, a class at the root that must stay out of reach, and the bootstrap package at the
 * root, served to the tool only.
 */
class IsolatedClassLoaderTest {

    @TempDir
    Path temp;

    private Path jar;
    private byte[] classA;

    @BeforeEach
    void buildJar() throws Exception {
        Path base = compile("base",
                "x/A.java", "package x; public class A { public String toString() { return \"A \" + new B(); } }",
                "x/B.java", "package x; public class B { public String toString() { return \"base\"; } }",
                "y/Root.java", "package y; public class Root { }",
                "dev/jetw/bootstrap/Boot.java", "package dev.jetw.bootstrap; public class Boot { }");
        Path v11 = compile("v11", "x/B.java", "package x; public class B { public String toString() { return \"v11\"; } }");
        Path v99 = compile("v99", "x/B.java", "package x; public class B { public String toString() { return \"v99\"; } }");
        classA = Files.readAllBytes(base.resolve("x/A.class"));
        jar = temp.resolve("agent.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, IsolatedClassLoader.CLASSES + "x/A.classdata", classA);
            put(out, IsolatedClassLoader.CLASSES + "x/B.classdata", Files.readAllBytes(base.resolve("x/B.class")));
            put(out, IsolatedClassLoader.CLASSES + "META-INF/versions/11/x/B.classdata", Files.readAllBytes(v11.resolve("x/B.class")));
            put(out, IsolatedClassLoader.CLASSES + "META-INF/versions/99/x/B.classdata", Files.readAllBytes(v99.resolve("x/B.class")));
            put(out, IsolatedClassLoader.CLASSES + "x/data.txt", "hello".getBytes(StandardCharsets.UTF_8));
            put(out, IsolatedClassLoader.VERSIONS, "# versions\n11\n99\n".getBytes(StandardCharsets.UTF_8));
            put(out, "y/Root.class", Files.readAllBytes(base.resolve("y/Root.class")));
            put(out, "dev/jetw/bootstrap/Boot.class", Files.readAllBytes(base.resolve("dev/jetw/bootstrap/Boot.class")));
        }
    }

    @Test
    void definesClassesFromTheJarWithItsCodeSourceAndPackage() throws Exception {
        try (IsolatedClassLoader loader = IsolatedClassLoader.forAgent(jar.toFile())) {
            Class<?> a = loader.loadClass("x.A");
            assertSame(loader, a.getClassLoader());
            assertEquals(jar.toUri().toURL(), a.getProtectionDomain().getCodeSource().getLocation());
            assertNotNull(a.getPackage());
            assertEquals("x", a.getPackage().getName());
            assertSame(a, loader.loadClass("x.A"));
        }
    }

    @Test
    void takesTheHighestMultiReleaseVersionNotAboveTheRunningJava() throws Exception {
        try (IsolatedClassLoader loader = IsolatedClassLoader.forAgent(jar.toFile())) {
            // Tests run on Java 17+: version 11's B, not the base one, and not 99's.
            assertEquals("A v11", loader.loadClass("x.A").getDeclaredConstructor().newInstance().toString());
            assertTrue(loader.getResource("x/B.class").toString().endsWith("!/META-INF/jetw/classes/META-INF/versions/11/x/B.classdata"));
        }
    }

    @Test
    void resourcesAreJarUrlsIntoTheAgentJar() throws Exception {
        try (IsolatedClassLoader loader = IsolatedClassLoader.forAgent(jar.toFile())) {
            URL data = loader.getResource("x/data.txt");
            assertEquals("jar:" + jar.toFile().toURI() + "!/META-INF/jetw/classes/x/data.txt", data.toString());
            try (InputStream in = data.openStream()) {
                assertEquals("hello", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            assertEquals(List.of(data), Collections.list(loader.getResources("x/data.txt")));
            // A class file as a resource (Byte Buddy reads advice classes so): the .classdata entry.
            try (InputStream in = loader.getResourceAsStream("x/A.class")) {
                assertArrayEquals(classA, in.readAllBytes());
            }
            assertNull(loader.getResource("x/missing.txt"));
            assertNull(loader.getResource("x/A.classdata"), "only the class file's own name reaches it");
            assertNotNull(loader.getResource("java/lang/Object.class"), "parent first");
        }
    }

    @Test
    void seesNeitherTheJarsRootNorTheApplicationClassPath() throws Exception {
        try (IsolatedClassLoader loader = IsolatedClassLoader.forAgent(jar.toFile())) {
            assertSame(ClassLoader.getSystemClassLoader().getParent(), loader.getParent());
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("y.Root"));
            assertNull(loader.getResource("y/Root.class"));
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass(IsolatedClassLoaderTest.class.getName()));
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.junit.jupiter.api.Test"));
            assertSame(String.class, loader.loadClass("java.lang.String"));
        }
    }

    @Test
    void theBootstrapPackageAtTheRootIsTheToolsOnly() throws Exception {
        try (IsolatedClassLoader agent = IsolatedClassLoader.forAgent(jar.toFile())) {
            // In a target JVM the boot loader has it (the launcher appends the jar); the loader must not define a second copy.
            assertThrows(ClassNotFoundException.class, () -> agent.loadClass("dev.jetw.bootstrap.Boot"));
        }
        try (IsolatedClassLoader tool = IsolatedClassLoader.forTool(jar.toFile())) {
            Class<?> boot = tool.loadClass("dev.jetw.bootstrap.Boot");
            assertSame(tool, boot.getClassLoader());
            assertEquals("jar:" + jar.toFile().toURI() + "!/dev/jetw/bootstrap/Boot.class", tool.getResource("dev/jetw/bootstrap/Boot.class").toString());
            assertThrows(ClassNotFoundException.class, () -> tool.loadClass("y.Root"));
        }
    }

    @Test
    void manyThreadsLoadingAtOnceGetTheSameClasses() throws Exception {
        try (IsolatedClassLoader loader = IsolatedClassLoader.forAgent(jar.toFile())) {
            assertTrue(loader.isRegisteredAsParallelCapable());
            int threads = 8;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<List<Class<?>>>> results = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    boolean reverse = i % 2 == 1;
                    results.add(pool.submit(() -> {
                        go.await();
                        List<Class<?>> loaded = new ArrayList<>();
                        for (String name : reverse ? List.of("x.B", "x.A") : List.of("x.A", "x.B")) {
                            loaded.add(loader.loadClass(name));
                        }
                        return loaded;
                    }));
                }
                go.countDown();
                Class<?> a = loader.loadClass("x.A");
                for (Future<List<Class<?>>> r : results) {
                    assertTrue(r.get(60, TimeUnit.SECONDS).contains(a));
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void aMissingJarFailsToOpen() {
        assertThrows(IOException.class, () -> IsolatedClassLoader.forAgent(temp.resolve("none.jar").toFile()));
    }

    private Path compile(String name, String... pathsAndSources) throws IOException {
        Path src = temp.resolve(name + "-src");
        Path classes = temp.resolve(name);
        List<String> args = new ArrayList<>(List.of("--release", "8", "-nowarn", "-d", classes.toString()));
        for (int i = 0; i < pathsAndSources.length; i += 2) {
            Path file = src.resolve(pathsAndSources[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, pathsAndSources[i + 1]);
            args.add(file.toString());
        }
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(new String[0])), "compiling " + name);
        return classes;
    }

    private static void put(JarOutputStream out, String name, byte[] content) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(content);
        out.closeEntry();
    }
}
