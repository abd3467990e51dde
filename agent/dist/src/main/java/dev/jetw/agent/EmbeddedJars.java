package dev.jetw.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.CRC32;

/**
 * The jars nested in jetw-agent.jar, extracted once to a directory per jar content and user, so that a
 * URLClassLoader (and appendToBootstrapClassLoaderSearch) can use them.
 *
 * <p>Many JVMs may start at once with the same agent, so extraction is race-free: each file is written
 * under a unique temporary name and atomically renamed into place; a file already there is used only
 * when its size and CRC-32 match the entry in our own jar (the zip directory gives both for free).
 * The directory name carries a fingerprint of the embedded entries, so a rebuilt SNAPSHOT never reuses
 * stale jars. On POSIX systems the directory is private to the user and must be owned by them, since
 * another user able to plant jars there could run code in our JVM.
 */
final class EmbeddedJars {

    /** Jars for the isolated class loader (core and its runtime closure). */
    static final String LIB_PREFIX = "META-INF/jetw/lib/";
    /** The bootstrap jar: advice calls into it, so it goes on the bootstrap class path. */
    static final String BOOT_PREFIX = "META-INF/jetw/boot/";
    /** Overrides the parent of the extraction directory (default: java.io.tmpdir). */
    static final String LIB_DIR_PROPERTY = "jetw.lib.dir";

    private final File bootstrapJar;
    private final List<File> libraries;
    private final File directory;

    private EmbeddedJars(File bootstrapJar, List<File> libraries, File directory) {
        this.bootstrapJar = bootstrapJar;
        this.libraries = Collections.unmodifiableList(libraries);
        this.directory = directory;
    }

    File bootstrapJar() {
        return bootstrapJar;
    }

    List<File> libraries() {
        return libraries;
    }

    File directory() {
        return directory;
    }

    /** The jar this class was loaded from: jetw-agent.jar itself. */
    static File agentJar() throws JetwFailure {
        java.net.URL location = null;
        try {
            location = EmbeddedJars.class.getProtectionDomain().getCodeSource().getLocation();
            File jar = new File(location.toURI());
            if (jar.isFile()) {
                return jar;
            }
        } catch (Exception e) {
            // Falls through to the failure below, which names what we found.
        }
        throw new JetwFailure("agent jar", "cannot locate the jar the agent was loaded from (" + location
                + "); run it as -javaagent:/path/to/jetw-agent.jar or java -jar jetw-agent.jar");
    }

    static EmbeddedJars extractFrom(File agentJar) throws JetwFailure {
        try (JarFile jar = new JarFile(agentJar)) {
            List<JarEntry> entries = nestedJars(jar);
            File directory = directoryFor(jar, entries);
            File bootstrap = null;
            List<File> libraries = new ArrayList<>();
            for (JarEntry entry : entries) {
                File target = extract(jar, entry, directory);
                if (entry.getName().startsWith(BOOT_PREFIX)) {
                    if (bootstrap != null) {
                        throw new JetwFailure("agent jar " + agentJar, "more than one jar under " + BOOT_PREFIX);
                    }
                    bootstrap = target;
                } else {
                    libraries.add(target);
                }
            }
            if (bootstrap == null || libraries.isEmpty()) {
                throw new JetwFailure("agent jar " + agentJar, "no embedded jars under " + BOOT_PREFIX + " and "
                        + LIB_PREFIX + "; the jar is damaged or not built by agent/dist");
            }
            return new EmbeddedJars(bootstrap, libraries, directory);
        } catch (IOException e) {
            throw new JetwFailure("agent jar " + agentJar, JetwFailure.describe(e), e);
        }
    }

    private static List<JarEntry> nestedJars(JarFile jar) {
        List<JarEntry> found = new ArrayList<>();
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            JarEntry entry = e.nextElement();
            String name = entry.getName();
            if (name.endsWith(".jar") && (isDirectlyIn(name, LIB_PREFIX) || isDirectlyIn(name, BOOT_PREFIX))) {
                found.add(entry);
            }
        }
        // Class path order must not depend on the zip's entry order.
        Collections.sort(found, (a, b) -> a.getName().compareTo(b.getName()));
        return found;
    }

    private static boolean isDirectlyIn(String name, String folder) {
        return name.startsWith(folder) && name.lastIndexOf('/') == folder.length() - 1;
    }

    private static File directoryFor(JarFile jar, List<JarEntry> entries) throws IOException, JetwFailure {
        String parent = System.getProperty(LIB_DIR_PROPERTY, System.getProperty("java.io.tmpdir"));
        String name = "jetw-" + safe(version(jar)) + "-" + fingerprint(entries) + "-" + safe(System.getProperty("user.name", "user"));
        Path dir = new File(parent, name).toPath();
        Files.createDirectories(dir.getParent());
        try {
            if (Files.getFileStore(new File(parent).toPath()).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            // Another JVM (or an earlier run) made it; ownership is checked below.
        }
        checkOwnedByUs(dir);
        return dir.toFile();
    }

    private static void checkOwnedByUs(Path dir) throws IOException, JetwFailure {
        if (!Files.isDirectory(dir)) {
            throw new JetwFailure("library directory " + dir, "exists but is not a directory; set -D" + LIB_DIR_PROPERTY + "=<dir>");
        }
        if (!Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class)) {
            return;
        }
        UserPrincipal owner = Files.getOwner(dir);
        String me = System.getProperty("user.name");
        if (me != null && !owner.getName().equals(me)) {
            throw new JetwFailure("library directory " + dir, "owned by " + owner.getName() + ", not by " + me
                    + "; set -D" + LIB_DIR_PROPERTY + "=<a directory of yours>");
        }
    }

    private static File extract(JarFile jar, JarEntry entry, File directory) throws IOException, JetwFailure {
        String simpleName = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
        Path target = new File(directory, simpleName).toPath();
        if (matches(target, entry)) {
            return target.toFile();
        }
        Path temporary = Files.createTempFile(directory.toPath(), simpleName, ".part");
        try {
            try (InputStream in = jar.getInputStream(entry); OutputStream out = Files.newOutputStream(temporary)) {
                byte[] buffer = new byte[64 * 1024];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    out.write(buffer, 0, n);
                }
            }
            if (!matches(temporary, entry)) {
                throw new JetwFailure("embedded " + entry.getName(), "extracted size or CRC-32 differs from the jar's directory; the agent jar is damaged");
            }
            try {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new JetwFailure("library directory " + directory, "cannot rename files atomically there; set -D" + LIB_DIR_PROPERTY + "=<dir>", e);
            } catch (IOException e) {
                // On Windows the target may be open in another JVM that won the race: fine if it is right.
                if (!matches(target, entry)) {
                    throw e;
                }
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
        return target.toFile();
    }

    /** True when {@code file} has exactly the entry's size and CRC-32. */
    static boolean matches(Path file, JarEntry entry) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) != entry.getSize()) {
            return false;
        }
        CRC32 crc = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                crc.update(buffer, 0, n);
            }
        }
        return crc.getValue() == entry.getCrc();
    }

    private static String version(JarFile jar) throws IOException {
        Manifest manifest = jar.getManifest();
        String version = manifest == null ? null : manifest.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
        return version == null ? "unversioned" : version;
    }

    private static String fingerprint(List<JarEntry> entries) throws JetwFailure {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (JarEntry entry : entries) {
                digest.update((entry.getName() + ' ' + entry.getSize() + ' ' + entry.getCrc() + '\n').getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder hex = new StringBuilder();
            byte[] hash = digest.digest();
            for (int i = 0; i < 6; i++) {
                hex.append(String.format("%02x", hash[i] & 0xff));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new JetwFailure("fingerprint", "SHA-256 is not available in this JVM", e);
        }
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
