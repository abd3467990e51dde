package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every class of H2 and Jackson (the libraries of the benchmarks' real workload) woven with every method the
 * options select, defined in a loader of its own and linked, which makes HotSpot verify it: no VerifyError and no
 * ClassFormatError. A class that cannot be linked because a library it names is absent (H2's optional Lucene,
 * servlet or OSGi support) is counted apart: that fails the same way unwoven. The jars are read from the local
 * Maven repository (the benchmarks module resolves them); without them the test is skipped with the reason.
 */
class LibraryWeavingTest {

    private static final String[] JARS = {
        "com/h2database/h2/2.3.232/h2-2.3.232.jar",
        "com/fasterxml/jackson/core/jackson-databind/2.17.2/jackson-databind-2.17.2.jar",
        "com/fasterxml/jackson/core/jackson-core/2.17.2/jackson-core-2.17.2.jar",
        "com/fasterxml/jackson/core/jackson-annotations/2.17.2/jackson-annotations-2.17.2.jar",
    };

    /** Serves the woven classes of the jars, each defined as it is first asked for; the JDK's from the platform. */
    private static final class WovenLibraries extends ClassLoader {
        private final Map<String, byte[]> woven;

        WovenLibraries(Map<String, byte[]> woven) {
            super(ClassLoader.getPlatformClassLoader());
            this.woven = woven;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            byte[] b = woven.get(name);
            if (b == null) {
                throw new ClassNotFoundException(name);
            }
            return defineClass(name, b, 0, b.length);
        }
    }

    @Test
    void everySelectedMethodOfH2AndJacksonIsWovenAndVerifies() throws IOException, ClassNotFoundException {
        String repository = System.getProperty("jetw.localRepository", System.getProperty("user.home") + "/.m2/repository");
        List<File> jars = new ArrayList<>();
        for (String jar : JARS) {
            File f = new File(repository, jar);
            if (!f.isFile()) {
                System.out.println("LibraryWeavingTest skipped: " + f + " is missing (mvn -pl benchmarks dependency:resolve fetches it)");
            }
            assumeTrue(f.isFile(), f + " is missing");
            jars.add(f);
        }
        List<ClassFileLocator> locators = new ArrayList<>();
        for (File f : jars) {
            locators.add(ClassFileLocator.ForJarFile.of(f));
        }
        locators.add(ClassFileLocator.ForClassLoader.ofSystemLoader());
        TestWeaving weaving = new TestWeaving("include=org.h2.**;com.fasterxml.jackson.**,trivial=trace",
                new ClassFileLocator.Compound(locators), null);

        long errorsBefore = Dispatcher.internalErrors();
        Map<String, byte[]> woven = new TreeMap<>();
        Map<String, byte[]> older = new TreeMap<>();
        int absent = 0;
        List<String> notWoven = new ArrayList<>();
        for (File f : jars) {
            try (JarFile jar = new JarFile(f)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    String path = entry.getName();
                    if (!path.endsWith(".class") || path.startsWith("META-INF/") || path.endsWith("module-info.class")) {
                        continue;
                    }
                    String name = path.substring(0, path.length() - ".class".length()).replace('/', '.');
                    byte[] original = jar.getInputStream(entry).readAllBytes();
                    int major = (original[6] & 0xFF) << 8 | original[7] & 0xFF;
                    if (major < 51) {
                        older.put(name, original); // the byte-checked Advice's (jackson-annotations): defined as it is
                        continue;
                    }
                    try {
                        woven.put(name, weaving.weave(name, original));
                    } catch (net.bytebuddy.pool.TypePool.Resolution.NoSuchTypeException x) {
                        absent++; // its super type or a signature is of an absent optional library: it cannot load either
                    } catch (RuntimeException | LinkageError x) {
                        notWoven.add(name + ": " + x);
                    }
                }
            }
        }
        assertEquals(new ArrayList<String>(), notWoven);
        assertEquals(errorsBefore, Dispatcher.internalErrors(), "a selected method was left unwoven: " + Dispatcher.lastError());

        Map<String, byte[]> all = new TreeMap<>(older);
        all.putAll(woven);
        WovenLibraries loader = new WovenLibraries(all);
        List<String> refused = new ArrayList<>();
        int linked = 0;
        int unresolved = absent;
        for (String name : woven.keySet()) {
            try {
                Class.forName(name, false, loader).getDeclaredMethods(); // links, so verifies
                linked++;
            } catch (VerifyError | ClassFormatError e) {
                refused.add(name + ": " + e);
            } catch (LinkageError e) {
                unresolved++; // a class of an absent optional library: not the weaving's doing
            }
        }
        int methods = weaving.registry.idCount();
        System.out.println("LibraryWeavingTest: " + woven.size() + " classes woven (" + older.size() + " older than Java 7 left), " + methods + " methods, "
                + linked + " linked and verified, " + unresolved + " name an absent library, " + refused.size() + " refused");
        assertEquals(new ArrayList<String>(), refused);
        assertTrue(methods > 10_000, methods + " methods woven");
        assertTrue(linked > woven.size() * 9 / 10, linked + " of " + woven.size() + " linked");
    }
}
