package dev.jetw.agent.core.instrument;

import dev.jetw.bootstrap.Dispatcher;
import net.bytebuddy.dynamic.ClassFileLocator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

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
 * Every class of real libraries woven with every method the options select, defined in a loader of its own and
 * linked, which makes HotSpot verify it: no VerifyError and no ClassFormatError. Two corpora: javac's H2 and Jackson
 * (the benchmarks' real workload), and the class files of other compilers, whose shapes javac never writes (Kotlin's
 * standard library, Scala's, Groovy's runtime: synthetic accessors, huge switch-based methods, invokedynamic call
 * sites of their own bootstraps). A class that cannot be linked because a library it names is absent (H2's optional
 * Lucene, servlet or OSGi support) is counted apart: that fails the same way unwoven. The jars are copied by the
 * module's build (the library-jars execution); without them the test is skipped with the reason.
 */
class LibraryWeavingTest {

    /** A corpus: its name, its jars (file names in the library-jars folder) and the include that selects all of it. */
    enum Corpus {
        JAVAC("H2 and Jackson", "include=org.h2.**;com.fasterxml.jackson.**",
                "h2-2.3.232.jar", "jackson-databind-2.17.2.jar", "jackson-core-2.17.2.jar", "jackson-annotations-2.17.2.jar"),
        OTHER_COMPILERS("Kotlin, Scala and Groovy", "include=kotlin.**;scala.**;groovy.**;org.codehaus.groovy.**;org.apache.groovy.**",
                "kotlin-stdlib-2.0.21.jar", "scala-library-2.13.15.jar", "groovy-4.0.24.jar");

        final String title;
        final String include;
        final String[] jars;

        Corpus(String title, String include, String... jars) {
            this.title = title;
            this.include = include;
            this.jars = jars;
        }
    }

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

    /** The corpus's jars as the build copied them; the test is skipped, saying why, when one is missing. */
    private static List<File> jars(Corpus corpus) {
        String folder = System.getProperty("jetw.libraryJars", "target/library-jars");
        List<File> jars = new ArrayList<>();
        for (String jar : corpus.jars) {
            File f = new File(folder, jar);
            if (!f.isFile()) {
                System.out.println("LibraryWeavingTest skipped: " + f + " is missing (the agent/core build's library-jars execution copies it)");
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

    @ParameterizedTest
    @EnumSource(Corpus.class)
    void everySelectedMethodIsWovenAndVerifies(Corpus corpus) throws IOException, ClassNotFoundException {
        List<File> jars = jars(corpus);
        TestWeaving weaving = new TestWeaving(corpus.include + ",trivial=trace", locatorOf(jars), null);

        long errorsBefore = Dispatcher.internalErrors();
        Map<String, byte[]> woven = new TreeMap<>();
        Map<String, byte[]> older = new TreeMap<>();
        int absent = 0;
        List<String> notWoven = new ArrayList<>();
        for (Map.Entry<String, byte[]> c : classFiles(jars).entrySet()) {
            String name = c.getKey();
            byte[] original = c.getValue();
            if (DirectWeaving.majorVersion(original) < DirectWeaving.JAVA_7) {
                older.put(name, original); // the byte-checked Advice's (jackson-annotations, some of Groovy's): defined as it is
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
        System.out.println("LibraryWeavingTest, " + corpus.title + ": " + woven.size() + " classes woven (" + older.size() + " older than Java 7 left), " + methods + " methods, "
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
    @ParameterizedTest
    @EnumSource(Corpus.class)
    void theDirectPathSelectsWhatByteBuddysPathSelectsAndVerifies(Corpus corpus) throws IOException, ClassNotFoundException {
        List<File> jars = jars(corpus);
        String options = corpus.include + ",maxMethods=1000000";
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
        System.out.println("LibraryWeavingTest (direct path), " + corpus.title + ": " + woven.size() + " classes woven, " + expected.size() + " methods as Byte Buddy's path, "
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
