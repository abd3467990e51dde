package dev.jetw.agent;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.SecureClassLoader;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Loads the agent's launcher, core, Byte Buddy, JNA and the rest straight out of jetw-agent.jar, where
 * the build put their classes and resources under {@value #CLASSES} (class files renamed
 * {@code .class} to {@value #CLASS_DATA}, so that no other class loader and no class-path scanner
 * takes them for classes). Nothing is extracted: the only file it reads is the agent jar, opened once
 * and kept open for the loader's life.
 *
 * <p>Its parent is the platform class loader (JDK 9+) or the extension class loader (JDK 8), never the
 * application class loader: the application's own Byte Buddy or JNA, in whatever version, can neither
 * shadow ours nor see ours. JNA cannot be relocated (its native library binds {@code com.sun.jna}
 * names), so this isolation, not shading, is what keeps two JNAs apart.
 *
 * <p>Multi-release: Byte Buddy's jar is one, and the build keeps its {@code META-INF/versions/N/}
 * entries under the prefix and lists the N in {@value #VERSIONS}; for a class or resource the loader
 * takes the entry of the highest N not above the running Java version, else the base entry, as a
 * multi-release {@code JarFile} would.
 *
 * <p>This class sits at the root of the agent jar next to {@link AgentEntry}. Once the jar is appended
 * to the bootstrap class loader's search, every class at its root could be found by the boot loader
 * too; so it names no class of the agent but {@link AgentEntry} (it has no nested, anonymous or
 * lambda classes), and both are loaded before the append.
 */
final class IsolatedClassLoader extends SecureClassLoader implements Closeable {

    /** Where the build put the isolated classes and resources inside the agent jar. */
    static final String CLASSES = "META-INF/jetw/classes/";
    /** What a class file's {@code .class} becomes under {@link #CLASSES}. */
    static final String CLASS_DATA = ".classdata";
    /** The Java versions that have a {@code META-INF/versions/N/} part under {@link #CLASSES}, one a line. */
    static final String VERSIONS = "META-INF/jetw/versions";
    /** The package of the bootstrap classes, at the jar's root (they go on the boot class path). */
    static final String BOOTSTRAP_PACKAGE = "dev/jetw/bootstrap/";

    static {
        registerAsParallelCapable();
    }

    private final JarFile jar;
    private final String urlPrefix;
    private final CodeSource codeSource;
    /** Multi-release prefixes to try first, highest version first. */
    private final String[] versionPrefixes;
    /** The command-line tool has no Instrumentation: then the bootstrap classes come from here too. */
    private final boolean withBootstrap;

    private IsolatedClassLoader(File agentJar, JarFile jar, boolean withBootstrap, ClassLoader parent) throws IOException {
        super(parent);
        this.jar = jar;
        URL location = agentJar.toURI().toURL();
        this.urlPrefix = "jar:" + location + "!/";
        this.codeSource = new CodeSource(location, (Certificate[]) null);
        this.withBootstrap = withBootstrap;
        this.versionPrefixes = versionPrefixes(jar, javaVersion());
    }

    /**
     * The loader of a target JVM: the bootstrap classes are not its own, the boot class loader has
     * them once the launcher appended the agent jar to its search.
     */
    static IsolatedClassLoader forAgent(File agentJar) throws IOException {
        return open(agentJar, false);
    }

    /** The loader of the command-line tool, which serves the bootstrap classes itself. */
    static IsolatedClassLoader forTool(File agentJar) throws IOException {
        return open(agentJar, true);
    }

    private static IsolatedClassLoader open(File agentJar, boolean withBootstrap) throws IOException {
        JarFile jar = new JarFile(agentJar, false);
        try {
            // getSystemClassLoader().getParent() is the platform loader on 9+ and the extension loader on 8.
            return new IsolatedClassLoader(agentJar, jar, withBootstrap, ClassLoader.getSystemClassLoader().getParent());
        } catch (IOException | RuntimeException e) {
            jar.close();
            throw e;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        JarEntry entry = entryFor(name.replace('.', '/') + ".class");
        if (entry == null) {
            throw new ClassNotFoundException(name);
        }
        byte[] bytes;
        try {
            bytes = read(jar, entry);
        } catch (IOException e) {
            throw new ClassNotFoundException(name + " (reading " + entry.getName() + " of " + jar.getName() + ")", e);
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            definePackageOnce(name.substring(0, dot));
        }
        return defineClass(name, bytes, 0, bytes.length, codeSource);
    }

    /** JDK 8 defines no Package for a class by itself, and code may ask for it. */
    private void definePackageOnce(String packageName) {
        if (getPackage(packageName) == null) {
            try {
                definePackage(packageName, null, null, null, null, null, null, null);
            } catch (IllegalArgumentException definedMeanwhile) {
                // Another thread defined it first: the same package.
            }
        }
    }

    @Override
    protected URL findResource(String name) {
        JarEntry entry = entryFor(name);
        if (entry == null) {
            return null;
        }
        try {
            return new URL(urlPrefix + entry.getName());
        } catch (MalformedURLException e) {
            return null;
        }
    }

    /**
     * As {@link ClassLoader#getResourceAsStream} (parent first), but an entry of the agent jar is read
     * from the jar this loader holds open rather than through a {@code jar:} URL connection, which would
     * open and index the jar a second time (Byte Buddy reads the advice classes' files this way).
     */
    @Override
    public InputStream getResourceAsStream(String name) {
        URL url = getResource(name);
        if (url == null) {
            return null;
        }
        try {
            String spec = url.toString();
            JarEntry entry = spec.startsWith(urlPrefix) ? jar.getJarEntry(spec.substring(urlPrefix.length())) : null;
            return entry != null ? jar.getInputStream(entry) : url.openStream();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.<URL>emptyEnumeration() : Collections.enumeration(Collections.singletonList(url));
    }

    /** The entry of the jar that holds {@code name} (a resource name; class files end in .class), or null. */
    JarEntry entryFor(String name) {
        if (name.startsWith(BOOTSTRAP_PACKAGE)) {
            return withBootstrap ? jar.getJarEntry(name) : null;
        }
        if (name.endsWith(CLASS_DATA)) {
            return null; // a stored class file is reached by its class file name only, one name for one entry
        }
        String stored = name.endsWith(".class") ? name.substring(0, name.length() - ".class".length()) + CLASS_DATA : name;
        for (String prefix : versionPrefixes) {
            JarEntry entry = jar.getJarEntry(prefix + stored);
            if (entry != null) {
                return entry;
            }
        }
        return jar.getJarEntry(CLASSES + stored);
    }

    private static byte[] read(JarFile jar, JarEntry entry) throws IOException {
        long size = entry.getSize();
        ByteArrayOutputStream out = new ByteArrayOutputStream(size > 0 && size < Integer.MAX_VALUE ? (int) size : 8192);
        try (InputStream in = jar.getInputStream(entry)) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        }
        return out.toByteArray();
    }

    /** {@code CLASSES + "META-INF/versions/N/"} for each listed N from {@code current} down to 9. */
    private static String[] versionPrefixes(JarFile jar, int current) throws IOException {
        JarEntry list = jar.getJarEntry(VERSIONS);
        if (list == null || current < 9) {
            return new String[0];
        }
        List<Integer> versions = new ArrayList<>();
        for (String line : new String(read(jar, list), StandardCharsets.UTF_8).split("\n")) {
            line = line.trim();
            if (!line.isEmpty() && !line.startsWith("#")) {
                int version = Integer.parseInt(line);
                if (version >= 9 && version <= current) {
                    versions.add(version);
                }
            }
        }
        Collections.sort(versions, Collections.reverseOrder());
        String[] prefixes = new String[versions.size()];
        for (int i = 0; i < prefixes.length; i++) {
            prefixes[i] = CLASSES + "META-INF/versions/" + versions.get(i) + "/";
        }
        return prefixes;
    }

    /**
     * The running Java feature version: 8 for "1.8", else the number itself. The core's
     * {@code RuntimeEvents.javaFeatureVersion} reads it the same way; not shared, since this class may name
     * no other class of the agent (see the class comment).
     */
    static int javaVersion() {
        String spec = System.getProperty("java.specification.version", "1.8");
        try {
            return spec.startsWith("1.") ? Integer.parseInt(spec.substring(2)) : Integer.parseInt(spec);
        } catch (NumberFormatException e) {
            return 8;
        }
    }

    /** Closes the agent jar; for tests (a JVM's loader lives as long as the JVM). */
    @Override
    public void close() throws IOException {
        jar.close();
    }

    @Override
    public String toString() {
        return "jetw isolated class loader";
    }
}
