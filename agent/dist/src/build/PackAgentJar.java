import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Lays out the content of jetw-agent.jar (agent/dist, phase prepare-package; run as a single-file
 * program by the JDK that runs Maven). Nothing is nested: the agent reads every class from the jar
 * itself (docs/agent-dist.md, "Layout").
 *
 * <pre>
 * java PackAgentJar.java CLASSES ROOT_PACKAGE LIBRARIES BOOTSTRAP OUT
 *   CLASSES       agent/dist's compiled classes
 *   ROOT_PACKAGE  the package whose classes (direct children only) stay at the jar's root: the entry class
 *                 and the isolated class loader, loaded by the application class loader
 *   LIBRARIES     jars (a class path, as dependency:build-classpath writes it): the isolated class loader's
 *                 classes and resources
 *   BOOTSTRAP     the bootstrap jar (the same form): its classes go to the jar's root, for the boot class path
 *   OUT           the folder maven-jar-plugin packs (emptied first)
 * </pre>
 *
 * Everything of the isolated loader goes under {@code META-INF/jetw/classes/}, class files renamed to
 * {@code .classdata}. From the library jars: manifests, signature files and {@code module-info.class}
 * are dropped (the isolated loader is one unnamed module); {@code META-INF/versions/N/} of a
 * multi-release jar is kept under the prefix and N listed in {@code META-INF/jetw/versions}; service
 * files of the same name are joined; the other {@code META-INF} files (licences, notices) go to
 * {@code META-INF/jetw/licenses/<jar name>/}. Two libraries holding the same path with different bytes
 * fail the build. {@code META-INF/jetw/libraries} lists the embedded jars with their SHA-256.
 */
public final class PackAgentJar {

    static final String CLASSES = "META-INF/jetw/classes/";
    static final String CLASS_DATA = ".classdata";
    static final String BOOTSTRAP_PACKAGE = "dev/jetw/bootstrap/";

    private final Path out;
    /** Stored name → where it came from, and its bytes (to tell identical duplicates from conflicts). */
    private final Map<String, String> origin = new HashMap<>();
    private final Map<String, byte[]> content = new HashMap<>();
    private final Map<String, ByteArrayOutputStream> services = new LinkedHashMap<>();
    private final TreeSet<Integer> versions = new TreeSet<>();
    private final List<String> conflicts = new ArrayList<>();

    private PackAgentJar(Path out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: java PackAgentJar.java CLASSES ROOT_PACKAGE LIBRARIES BOOTSTRAP OUT");
            System.exit(2);
        }
        Path classes = Paths.get(args[0]);
        String rootPackage = args[1].endsWith("/") ? args[1] : args[1] + "/";
        List<Path> libraries = jars(args[2]);
        List<Path> bootstrap = jars(args[3]);
        Path out = Paths.get(args[4]);
        deleteTree(out);
        Files.createDirectories(out);
        PackAgentJar pack = new PackAgentJar(out);
        int root = pack.entryClasses(classes, rootPackage);
        int boot = 0;
        for (Path jar : bootstrap) {
            boot += pack.bootstrapClasses(jar);
        }
        StringBuilder listing = new StringBuilder("# The libraries whose classes are under " + CLASSES + ", with the SHA-256 of each jar\n");
        for (Path jar : libraries) {
            pack.library(jar);
            listing.append(jar.getFileName()).append(' ').append(sha256(jar)).append('\n');
        }
        pack.finish(listing.toString());
        if (!pack.conflicts.isEmpty()) {
            System.err.println("PackAgentJar: the same path with different content in two libraries (the isolated loader can serve one):");
            pack.conflicts.forEach(c -> System.err.println("  " + c));
            System.exit(1);
        }
        System.out.println("PackAgentJar: " + root + " entry classes and " + boot + " bootstrap classes at the root, "
                + pack.content.size() + " entries under " + CLASSES + ", multi-release versions " + pack.versions);
    }

    /** The root package's own classes at the root; every other class of agent/dist under the prefix. */
    private int entryClasses(Path classes, String rootPackage) throws IOException {
        int root = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path file : files) {
            String name = classes.relativize(file).toString().replace('\\', '/');
            boolean atRoot = name.startsWith(rootPackage) && name.indexOf('/', rootPackage.length()) < 0;
            if (name.endsWith(".jar")) {
                throw new IllegalStateException(file + ": a jar among agent/dist's classes (left by an older build that nested"
                        + " jars? run mvn clean); nothing in jetw-agent.jar is a nested jar");
            }
            if (!atRoot) {
                hide(name, Files.readAllBytes(file), "agent/dist");
            } else if (name.contains("$")) {
                throw new IllegalStateException(name + ": a class at the jar's root must have no nested classes (after the bootstrap"
                        + " append the boot loader could define them), see dev.jetw.agent.AgentEntry");
            } else {
                write(name, Files.readAllBytes(file));
                root++;
            }
        }
        return root;
    }

    private int bootstrapClasses(Path jarPath) throws IOException {
        int count = 0;
        try (JarFile jar = new JarFile(jarPath.toFile(), false)) {
            for (JarEntry entry : entries(jar)) {
                if (entry.isDirectory() || entry.getName().startsWith("META-INF/")) {
                    continue;
                }
                if (!entry.getName().startsWith(BOOTSTRAP_PACKAGE)) {
                    throw new IllegalStateException(jarPath + ": " + entry.getName() + " is outside " + BOOTSTRAP_PACKAGE
                            + ", the one package of the jar's root that the tool's isolated loader serves");
                }
                write(entry.getName(), read(jar, entry));
                count++;
            }
        }
        return count;
    }

    private void library(Path jarPath) throws IOException {
        String source = jarPath.getFileName().toString();
        String licences = "META-INF/jetw/licenses/" + source.substring(0, source.length() - ".jar".length()) + "/";
        try (JarFile jar = new JarFile(jarPath.toFile(), false)) {
            Manifest manifest = jar.getManifest();
            boolean multiRelease = manifest != null && "true".equalsIgnoreCase(manifest.getMainAttributes().getValue(new Attributes.Name("Multi-Release")));
            for (JarEntry entry : entries(jar)) {
                String name = entry.getName();
                if (entry.isDirectory() || dropped(name)) {
                    continue;
                }
                if (name.startsWith("META-INF/versions/")) {
                    if (multiRelease) {
                        String[] parts = name.split("/", 4);
                        versions.add(Integer.parseInt(parts[2]));
                        hide(name, read(jar, entry), source);
                    }
                } else if (name.startsWith("META-INF/services/")) {
                    ByteArrayOutputStream joined = services.computeIfAbsent(name, n -> new ByteArrayOutputStream());
                    byte[] bytes = read(jar, entry);
                    joined.write(bytes);
                    if (bytes.length > 0 && bytes[bytes.length - 1] != '\n') {
                        joined.write('\n');
                    }
                } else if (name.startsWith("META-INF/maven/")) {
                    hide(name, read(jar, entry), source);
                } else if (name.startsWith("META-INF/")) {
                    write(licences + name.substring("META-INF/".length()), read(jar, entry));
                } else {
                    hide(name, read(jar, entry), source);
                }
            }
        }
    }

    /** What the isolated class loader never serves: manifests, signatures, jar indexes, module descriptors. */
    private static boolean dropped(String name) {
        String simple = name.substring(name.lastIndexOf('/') + 1);
        if (simple.equals("module-info.class")) {
            return true;
        }
        if (!name.startsWith("META-INF/") || name.indexOf('/', "META-INF/".length()) >= 0) {
            return false;
        }
        return simple.equals("MANIFEST.MF") || simple.equals("INDEX.LIST") || simple.startsWith("SIG-")
                || simple.endsWith(".SF") || simple.endsWith(".RSA") || simple.endsWith(".DSA") || simple.endsWith(".EC");
    }

    private void hide(String name, byte[] bytes, String source) throws IOException {
        if (name.endsWith(CLASS_DATA)) {
            conflicts.add(name + " of " + source + ": a resource named like a stored class file, which the isolated loader never serves");
            return;
        }
        String stored = CLASSES + (name.endsWith(".class") ? name.substring(0, name.length() - ".class".length()) + CLASS_DATA : name);
        byte[] earlier = content.get(stored);
        if (earlier != null) {
            if (!Arrays.equals(earlier, bytes)) {
                conflicts.add(name + ": " + origin.get(stored) + " and " + source);
            }
            return;
        }
        content.put(stored, bytes);
        origin.put(stored, source);
        write(stored, bytes);
    }

    private void finish(String listing) throws IOException {
        for (Map.Entry<String, ByteArrayOutputStream> service : services.entrySet()) {
            hide(service.getKey(), service.getValue().toByteArray(), "services");
        }
        StringBuilder list = new StringBuilder("# Java versions with a META-INF/versions/N/ part under " + CLASSES + "\n");
        versions.forEach(v -> list.append(v).append('\n'));
        write("META-INF/jetw/versions", list.toString().getBytes(StandardCharsets.UTF_8));
        write("META-INF/jetw/libraries", listing.getBytes(StandardCharsets.UTF_8));
    }

    private void write(String name, byte[] bytes) throws IOException {
        Path target = out.resolve(name);
        if (!target.normalize().startsWith(out)) {
            throw new IOException("entry outside the jar's folder: " + name);
        }
        Files.createDirectories(target.getParent());
        Files.write(target, bytes);
    }

    private static List<JarEntry> entries(JarFile jar) {
        List<JarEntry> all = new ArrayList<>();
        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            all.add(e.nextElement());
        }
        all.sort(Comparator.comparing(JarEntry::getName));
        return all;
    }

    private static byte[] read(JarFile jar, JarEntry entry) throws IOException {
        try (InputStream in = jar.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    /** The jars of a class path, by file name (the order must not depend on Maven's). */
    private static List<Path> jars(String classPath) {
        List<Path> jars = new ArrayList<>();
        for (String element : classPath.split(java.io.File.pathSeparator)) {
            if (element.isEmpty()) {
                continue;
            }
            Path jar = Paths.get(element);
            if (!Files.isRegularFile(jar) || !element.endsWith(".jar")) {
                throw new IllegalStateException(element + " is not a jar: build the modules it comes from to 'package' in the same reactor");
            }
            jars.add(jar);
        }
        jars.sort(Comparator.comparing(p -> p.getFileName().toString()));
        return jars;
    }

    private static String sha256(Path file) throws Exception {
        StringBuilder hex = new StringBuilder();
        for (byte b : MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))) {
            hex.append(String.format("%02x", b & 0xff));
        }
        return hex.toString();
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
