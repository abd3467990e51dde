package dev.jetw.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The layout of the built jetw-agent.jar (docs/agent-dist.md, "Layout"): nothing nested, a root that
 * holds only what the application and boot class loaders may load, and every class of every embedded
 * library under {@value IsolatedClassLoader#CLASSES}, byte for byte.
 */
class AgentJarLayoutIT {

    private static final Set<String> ENTRY_CLASSES = Set.of("dev/jetw/agent/AgentEntry.class", "dev/jetw/agent/IsolatedClassLoader.class");

    private JarFile jar;

    @BeforeEach
    void open() throws IOException {
        String path = System.getProperty("jetw.agent.jar");
        assertTrue(path != null && Files.isRegularFile(Paths.get(path)), "jetw.agent.jar=" + path + ": the end-to-end tests run after 'package'");
        jar = new JarFile(path);
    }

    @AfterEach
    void close() throws IOException {
        jar.close();
    }

    @Test
    void theRootHoldsTheEntryClassesAndTheBootstrapClassesOnly() throws Exception {
        Set<String> rootClasses = new TreeSet<>();
        List<String> unexpected = new ArrayList<>();
        for (JarEntry entry : jar.stream().toList()) {
            String name = entry.getName();
            if (name.endsWith(".jar")) {
                unexpected.add(name + " (a nested jar)");
            } else if (name.startsWith(IsolatedClassLoader.CLASSES)) {
                if (name.endsWith(".class")) {
                    unexpected.add(name + " (a .class under the hidden prefix)");
                }
            } else if (name.endsWith(".class")) {
                rootClasses.add(name);
            } else if (!entry.isDirectory() && !name.equals("META-INF/MANIFEST.MF") && !name.startsWith("META-INF/maven/dev.jetw/jetw-agent/")
                    && !name.startsWith("META-INF/jetw/")) {
                unexpected.add(name + " (at the root: visible to the application and, after the append, the boot loader)");
            }
        }
        assertEquals(List.of(), unexpected);
        Set<String> expected = new TreeSet<>(ENTRY_CLASSES);
        expected.addAll(classFilesOf(dev.jetw.bootstrap.Dispatcher.class).keySet());
        assertEquals(expected, rootClasses);
    }

    /**
     * Once the jar is appended to the boot class loader's search, a root class resolved for the first
     * time would be defined by the boot loader: the entry classes name no agent class but each other,
     * and have no nested classes, so nothing of theirs is left to resolve after the append.
     */
    @Test
    void theEntryClassesNameNoOtherClassOfTheAgent() throws Exception {
        Set<String> allowed = new TreeSet<>();
        for (String entryClass : ENTRY_CLASSES) {
            allowed.add(entryClass.substring(0, entryClass.length() - ".class".length()));
        }
        for (String entryClass : ENTRY_CLASSES) {
            try (InputStream in = jar.getInputStream(jar.getJarEntry(entryClass))) {
                Set<String> named = LayoutRulesTest.namedTypes(in, entryClass);
                named.removeAll(allowed);
                named.removeIf(n -> n.endsWith("/")); // a package's prefix in a string (IsolatedClassLoader.BOOTSTRAP_PACKAGE), no class
                assertEquals(Set.of(), named, entryClass);
            }
        }
    }

    @Test
    void everyClassOfEveryLibraryIsUnderTheHiddenPrefixByteForByte() throws Exception {
        Class<?>[] oneOfEach = {
            net.bytebuddy.ByteBuddy.class, com.sun.jna.Native.class, dev.jetw.agent.core.AgentMain.class, dev.jetw.etw.SessionController.class,
            dev.jetw.etl.EtlReader.class, dev.jetw.analysis.cli.EtlTool.class, dev.jetw.selftest.Selftest.class, dev.jetw.api.Jetw.class,
            Class.forName("dev.jetw.agent.jfr.JfrEventSource", false, getClass().getClassLoader()),
        };
        int compared = 0;
        for (Class<?> library : oneOfEach) {
            Map<String, byte[]> classes = classFilesOf(library);
            assertTrue(classes.size() > 0, library.getName());
            for (Map.Entry<String, byte[]> c : classes.entrySet()) {
                String stored = IsolatedClassLoader.CLASSES + c.getKey().substring(0, c.getKey().length() - ".class".length())
                        + IsolatedClassLoader.CLASS_DATA;
                JarEntry entry = jar.getJarEntry(stored);
                assertNotNull(entry, stored + " of " + library.getName());
                try (InputStream in = jar.getInputStream(entry)) {
                    assertArrayEquals(c.getValue(), in.readAllBytes(), stored);
                }
                compared++;
            }
        }
        assertTrue(compared > 3000, compared + " classes");
        // The launcher (agent/dist's own classes other than the entry classes) is under the prefix too.
        assertNotNull(jar.getJarEntry(IsolatedClassLoader.CLASSES + AgentEntry.LAUNCHER.replace('.', '/') + IsolatedClassLoader.CLASS_DATA));
        assertNotNull(jar.getJarEntry(IsolatedClassLoader.CLASSES + AgentEntry.TOOL.replace('.', '/') + IsolatedClassLoader.CLASS_DATA));
    }

    @Test
    void byteBuddysMultiReleasePartLicencesAndTheLibraryListAreThere() throws Exception {
        assertEquals("24", text(IsolatedClassLoader.VERSIONS).lines().filter(l -> !l.startsWith("#")).reduce("", String::concat));
        assertNotNull(jar.getJarEntry(IsolatedClassLoader.CLASSES + "META-INF/versions/24/net/bytebuddy/jar/asmjdkbridge/JdkClassReader"
                + IsolatedClassLoader.CLASS_DATA));
        assertTrue(jar.stream().noneMatch(e -> e.getName().endsWith("module-info.class") || e.getName().endsWith("module-info.classdata")));
        String bytebuddy = jarName(net.bytebuddy.ByteBuddy.class);
        String jna = jarName(com.sun.jna.Native.class);
        String libraries = text("META-INF/jetw/libraries");
        for (String licence : List.of(bytebuddy + "/LICENSE", bytebuddy + "/NOTICE", bytebuddy + "/licenses/ASM",
                jna + "/LICENSE", jna + "/AL2.0", jna + "/LGPL2.1")) {
            assertNotNull(jar.getJarEntry("META-INF/jetw/licenses/" + licence), licence);
        }
        assertTrue(libraries.contains("\n" + bytebuddy + ".jar ") && libraries.contains("\n" + jna + ".jar "), libraries);
    }

    /** "byte-buddy-1.18.17" for Byte Buddy's jar. */
    private static String jarName(Class<?> type) throws Exception {
        String file = Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI()).getFileName().toString();
        return file.substring(0, file.length() - ".jar".length());
    }

    private String text(String name) throws IOException {
        JarEntry entry = jar.getJarEntry(name);
        assertNotNull(entry, name);
        try (InputStream in = jar.getInputStream(entry)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The class files (name → bytes, module-info left out) of the jar or folder {@code type} was loaded from. */
    static Map<String, byte[]> classFilesOf(Class<?> type) throws Exception {
        Path source = Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, byte[]> classes = new LinkedHashMap<>();
        if (Files.isDirectory(source)) {
            try (Stream<Path> files = Files.walk(source)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    classes.put(source.relativize(f).toString().replace('\\', '/'), Files.readAllBytes(f));
                }
            }
        } else {
            try (JarFile library = new JarFile(source.toFile())) {
                for (JarEntry e : library.stream().toList()) {
                    if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
                        try (InputStream in = library.getInputStream(e)) {
                            classes.put(e.getName(), in.readAllBytes());
                        }
                    }
                }
            }
        }
        classes.keySet().removeIf(n -> n.endsWith("module-info.class"));
        return classes;
    }
}
