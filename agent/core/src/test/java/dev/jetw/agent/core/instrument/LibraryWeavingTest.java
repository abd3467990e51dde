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

    /** The libraries' jars from the local Maven repository; the test is skipped, saying why, when one is missing. */
    private static List<File> jars() {
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
        return jars;
    }

    private static ClassFileLocator locatorOf(List<File> jars) throws IOException {
        List<ClassFileLocator> locators = new ArrayList<>();
        for (File f : jars) {
            locators.add(ClassFileLocator.ForJarFile.of(f));
        }
        locators.add(ClassFileLocator.ForClassLoader.ofSystemLoader());
        return new ClassFileLocator.Compound(locators);
    }

    /** Every class file of the jars (binary name to bytes, in the jars' order), module-info and META-INF left out. */
    private static Map<String, byte[]> classFiles(List<File> jars) throws IOException {
        Map<String, byte[]> classes = new java.util.LinkedHashMap<>();
        for (File f : jars) {
            try (JarFile jar = new JarFile(f)) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    JarEntry entry = e.nextElement();
                    String path = entry.getName();
                    if (!path.endsWith(".class") || path.startsWith("META-INF/") || path.endsWith("module-info.class")) {
                        continue;
                    }
                    classes.put(path.substring(0, path.length() - ".class".length()).replace('/', '.'), jar.getInputStream(entry).readAllBytes());
                }
            }
        }
        return classes;
    }

    @Test
    void everySelectedMethodOfH2AndJacksonIsWovenAndVerifies() throws IOException, ClassNotFoundException {
        List<File> jars = jars();
        TestWeaving weaving = new TestWeaving("include=org.h2.**;com.fasterxml.jackson.**,trivial=trace", locatorOf(jars), null);

        long errorsBefore = Dispatcher.internalErrors();
        Map<String, byte[]> woven = new TreeMap<>();
        Map<String, byte[]> older = new TreeMap<>();
        int absent = 0;
        List<String> notWoven = new ArrayList<>();
        for (Map.Entry<String, byte[]> c : classFiles(jars).entrySet()) {
            String name = c.getKey();
            byte[] original = c.getValue();
            if (DirectWeaving.majorVersion(original) < DirectWeaving.JAVA_7) {
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
        assertEquals(new ArrayList<String>(), notWoven);
        assertEquals(errorsBefore, Dispatcher.internalErrors(), "a selected method was left unwoven: " + Dispatcher.lastError());

        Linked linked = link(woven, older, absent);
        int methods = weaving.registry.idCount();
        System.out.println("LibraryWeavingTest: " + woven.size() + " classes woven (" + older.size() + " older than Java 7 left), " + methods + " methods, "
                + linked.linked + " linked and verified, " + linked.unresolved + " name an absent library, " + linked.refused.size() + " refused");
        assertEquals(new ArrayList<String>(), linked.refused);
        assertTrue(methods > 10_000, methods + " methods woven");
        assertTrue(linked.linked > woven.size() * 9 / 10, linked.linked + " of " + woven.size() + " linked");
    }

    /**
     * The direct path (premain's, {@link DirectWeaving}) on every class of the libraries selects what Byte Buddy's path
     * selects (the same ids, levels, trivial methods left out: {@code trivial=} at its default), and each class it
     * weaves is defined, linked and verified by the JVM.
     */
    @Test
    void theDirectPathSelectsWhatByteBuddysPathSelectsOnH2AndJacksonAndVerifies() throws IOException, ClassNotFoundException {
        List<File> jars = jars();
        String options = "include=org.h2.**;com.fasterxml.jackson.**,maxMethods=1000000";
        DirectWeavingTest.Direct direct = new DirectWeavingTest.Direct(options);
        DirectWeavingTest.Direct other = new DirectWeavingTest.Direct(options);
        TestWeaving byteBuddy = other.byteBuddy(locatorOf(jars));

        long errorsBefore = Dispatcher.internalErrors();
        Map<String, byte[]> woven = new TreeMap<>();
        Map<String, byte[]> unchanged = new TreeMap<>();
        List<String> notWoven = new ArrayList<>();
        int absent = 0;
        for (Map.Entry<String, byte[]> c : classFiles(jars).entrySet()) {
            String name = c.getKey();
            byte[] original = c.getValue();
            if (DirectWeaving.majorVersion(original) < DirectWeaving.JAVA_7) {
                unchanged.put(name, original); // Byte Buddy's, on both paths
                continue;
            }
            try {
                if (byteBuddy.matchesType(name)) {
                    byteBuddy.weave(name, original);
                }
            } catch (net.bytebuddy.pool.TypePool.Resolution.NoSuchTypeException x) {
                absent++; // Byte Buddy cannot describe it: the class cannot load either (an absent optional library)
                unchanged.put(name, original);
                continue;
            }
            try {
                byte[] b = direct.weave(name, original);
                (b == null ? unchanged : woven).put(name, b == null ? original : b);
            } catch (RuntimeException | LinkageError x) {
                notWoven.add(name + ": " + x);
            }
        }
        assertEquals(new ArrayList<String>(), notWoven);
        assertEquals(errorsBefore, Dispatcher.internalErrors(), "a selected method was left unwoven: " + Dispatcher.lastError());
        List<String> expected = DirectWeavingTest.selected(other.registry);
        assertEquals(expected, DirectWeavingTest.selected(direct.registry));
        assertEquals(other.registry.trivialLeftOut(), direct.registry.trivialLeftOut());

        Linked linked = link(woven, unchanged, absent);
        System.out.println("LibraryWeavingTest (direct path): " + woven.size() + " classes woven, " + expected.size() + " methods as Byte Buddy's path, "
                + direct.registry.trivialLeftOut() + " trivial left out, " + linked.linked + " linked and verified, "
                + linked.unresolved + " name an absent library, " + linked.refused.size() + " refused");
        assertEquals(new ArrayList<String>(), linked.refused);
        assertTrue(expected.size() > 10_000, expected.size() + " methods woven");
        assertTrue(linked.linked > woven.size() * 9 / 10, linked.linked + " of " + woven.size() + " linked");
    }

    /** What linking the woven classes gave: linked (so verified), naming an absent library, refused by the verifier. */
    private static final class Linked {
        int linked;
        int unresolved;
        final List<String> refused = new ArrayList<>();
    }

    /** Defines every woven class (the others as they are) in a loader of its own and links each, which verifies it. */
    private static Linked link(Map<String, byte[]> woven, Map<String, byte[]> others, int absent) throws ClassNotFoundException {
        Map<String, byte[]> all = new TreeMap<>(others);
        all.putAll(woven);
        WovenLibraries loader = new WovenLibraries(all);
        Linked result = new Linked();
        result.unresolved = absent;
        for (String name : woven.keySet()) {
            try {
                Class.forName(name, false, loader).getDeclaredMethods(); // links, so verifies
                result.linked++;
            } catch (VerifyError | ClassFormatError e) {
                result.refused.add(name + ": " + e);
            } catch (LinkageError e) {
                result.unresolved++; // a class of an absent optional library: not the weaving's doing
            }
        }
        return result;
    }
}
