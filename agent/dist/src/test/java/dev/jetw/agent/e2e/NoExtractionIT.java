package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.AttachTargetApp;
import com.acme.app.CallTreeApp;
import com.acme.app.LoaderProbeApp;
import dev.jetw.etl.EventType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, item 1: another local user must not be able to make a JVM that uses the agent run code of
 * theirs. The agent's only trust root is its own jar: it loads every class from it and writes nothing
 * under {@code java.io.tmpdir} (docs/agent-dist.md, "Threat model").
 *
 * <p>The attack is the one reproduced against the jar-extracting agent: in a world-writable sticky folder
 * serving as {@code java.io.tmpdir} (and {@code jetw.lib.dir}), another user links the extraction
 * directory the victim would use to that folder, and plants there, under the names the victim would
 * reuse, jars forged to the same size and CRC-32 as the real ones. Where the tests run as root with
 * {@code setpriv}, the attacker is uid 65534 (nobody); otherwise it is this user, which the old code
 * trusted the same way. What is planted is derived from the jar under test: a jar with nothing nested
 * in it gives the attacker no names to forge, and the assertions (where each class came from, nothing
 * new in the folder) are the same.
 */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "POSIX permissions, symbolic links, sticky folders")
class NoExtractionIT {

    @TempDir
    Path temp;

    @Test
    void jarsPlantedByAnotherUserInTheTempFolderAreNeverLoaded() throws Exception {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path shared = Files.createDirectory(temp.resolve("shared"));
        run(List.of("chmod", "1777", shared.toString()));
        Path staging = Files.createDirectory(temp.resolve("staging"));
        Attacker attacker = Attacker.find();
        Set<String> planted = plantWhereAnExtractingAgentLooks(ChildJvm.agentJar(), shared, staging, attacker);

        Path out = Files.createDirectory(temp.resolve("out"));
        Path etl = out.resolve("probe.etl");
        String options = "include=" + LoaderProbeApp.class.getName() + ",backend=portable,jvm=none,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-Djava.io.tmpdir=" + shared, "-Djetw.lib.dir=" + shared,
                "-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(), LoaderProbeApp.class);
        assertEquals(0, child.waitForExit(), child.toString());

        String what = "planted by uid " + attacker.uid + ": " + planted + "\n" + child;
        List<String> lines = child.stdout().lines().toList();
        assertTrue(lines.contains("traced 42"), what);
        assertTrue(lines.stream().noneMatch(l -> l.equals("agent-loader none")), "the agent's loader is found: " + what);
        List<String> classes = lines.stream().filter(l -> l.startsWith("class ")).toList();
        assertEquals(4, classes.size(), what);
        Path jar = ChildJvm.agentJar().toRealPath();
        for (String line : classes) {
            String location = line.substring(line.lastIndexOf(' ') + 1);
            assertEquals(jar, Paths.get(new URL(location).toURI()).toRealPath(), "the agent's classes come from its own jar only: " + line + "\n" + what);
        }
        assertTrue(lines.contains("boot-defined true"), what);
        assertTrue(lines.contains("planted-resource null"), what);
        assertTrue(lines.contains("planted-class-in-agent-loader false"), what);
        assertTrue(lines.contains("planted-class-in-boot-loader false"), what);
        List<Path> openJars = lines.stream().filter(l -> l.startsWith("open-jar ")).map(l -> Paths.get(l.substring(9))).toList();
        if (Files.isDirectory(Paths.get("/proc/self/fd"))) {
            assertTrue(openJars.contains(jar), "the JVM reads the agent jar: " + what);
            assertTrue(openJars.stream().noneMatch(p -> p.startsWith(temp)), "the JVM holds no jar of the shared folder open: " + what);
        }

        TraceFile trace = TraceFile.read(etl);
        assertEquals(1, trace.count(EventType.START, trace.methodId(LoaderProbeApp.class.getName(), "traced")), what);
        assertEquals(planted, namesIn(shared), "the agent created nothing in the shared folder: " + what);
        for (String name : planted) {
            assertEquals(attacker.uid, Files.getAttribute(shared.resolve(name), "unix:uid", LinkOption.NOFOLLOW_LINKS),
                    "the agent replaced nothing in the shared folder: " + name);
        }
    }

    /*
     * jvm=none in the next two: with JVM events on (JDK 17+), JFR keeps its repository under java.io.tmpdir
     * while the session runs (the JDK's, deleted at exit; docs/agent-dist.md, "Threat model").
     */

    @Test
    void premainWritesNothingUnderTheTempFolder() throws Exception {
        Path tmp = Files.createDirectory(temp.resolve("tmp"));
        Path etl = temp.resolve("premain.etl");
        ChildJvm child = ChildJvm.start(List.of("-Djava.io.tmpdir=" + tmp, "-Djetw.lib.dir=" + tmp,
                "-javaagent:" + ChildJvm.agentJar() + "=include=com.acme.**,jvm=none,file=" + etl), ChildJvm.appClassPath(), CallTreeApp.class);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stderrLines().stream().anyMatch(l -> l.startsWith("jetw: ") && l.contains(" events written")), child.toString());
        assertTrue(Files.size(etl) > 0, child.toString());
        assertEquals(Set.of(), namesIn(tmp), child.toString());
    }

    @Test
    void theToolAndAnAttachWriteNothingUnderTheTempFolder() throws Exception {
        Path tmp = Files.createDirectory(temp.resolve("tmp"));
        List<String> tmpOptions = List.of("-Djava.io.tmpdir=" + tmp, "-Djetw.lib.dir=" + tmp);

        ChildJvm.Result mof = tool(tmpOptions, "mof");
        assertEquals(0, mof.exit(), mof.toString());
        Path sample = Paths.get(System.getProperty("jetw.samples.dir"), "primitive-types.etl");
        ChildJvm.Result summary = tool(tmpOptions, "etl", "summary", sample.toString());
        assertEquals(0, summary.exit(), summary.toString());
        assertEquals(Set.of(), namesIn(tmp), "the tool (mof, etl summary)");

        List<String> targetOptions = new ArrayList<>(tmpOptions);
        targetOptions.add("-XX:+EnableDynamicAgentLoading");
        try (ChildJvm target = ChildJvm.start(targetOptions, ChildJvm.appClassPath(), AttachTargetApp.class)) {
            target.awaitStdout(l -> l.startsWith("ready"), "ready");
            String pid = Long.toString(target.pid());
            Path etl = temp.resolve("attached.etl");
            ChildJvm.Result attached = tool(tmpOptions, "attach", pid, "include=com.acme.**,backend=portable,jvm=none,file=" + etl);
            assertEquals(0, attached.exit(), attached.toString());
            ChildJvm.awaitRampDone(pid); // the attach replies after the ramp's first tier; the loaded classes follow
            int from = target.stdoutLineCount();
            target.send("work");
            target.awaitStdout(from, AttachIT.EXPECTED_RESULT::equals, AttachIT.EXPECTED_RESULT);
            ChildJvm.Result status = tool(tmpOptions, "status", pid);
            assertEquals(0, status.exit(), status.toString());
            ChildJvm.Result detached = tool(tmpOptions, "detach", pid);
            assertEquals(0, detached.exit(), detached.toString());
            assertTrue(Files.size(etl) > 0, target.toString());
            assertEquals(Set.of(), namesIn(tmp), "attach, status, detach\n" + target);
            target.send("exit");
            assertEquals(0, target.waitForExit(), target.toString());
        }
        assertEquals(Set.of(), namesIn(tmp), "after the target's exit");
    }

    @Test
    void theForgeryMatchesSizeAndCrcOfAnyJar() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream out = new ZipOutputStream(bytes)) {
            out.putNextEntry(new ZipEntry("META-INF/maven/x/pom.xml"));
            byte[] incompressible = new byte[3000];
            new java.util.Random(1).nextBytes(incompressible);
            out.write(incompressible);
            out.putNextEntry(new ZipEntry("a/B.class"));
            out.write("not really a class".getBytes(StandardCharsets.UTF_8));
        }
        byte[] original = bytes.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(original);
        byte[] forged = forge(original, crc.getValue(), 1, new byte[] {(byte) 0xCA, (byte) 0xFE});
        assertNotNull(forged);
        assertEquals(original.length, forged.length);
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(forged))) {
            List<String> names = new ArrayList<>();
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                names.add(e.getName());
            }
            assertEquals(List.of("a/B.class", LoaderProbeApp.MARKER, "planted/ByAnotherUser.class", "PADDING"), names);
        }
    }

    private static ChildJvm.Result tool(List<String> jvmOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ChildJvm.java().toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(ChildJvm.agentJar().toString());
        command.addAll(List.of(args));
        return ChildJvm.run(command);
    }

    /** Every name under {@code dir} (relative, links not followed). */
    private static Set<String> namesIn(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> !p.equals(dir)).map(p -> dir.relativize(p).toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /**
     * What a user who can write to the victim's {@code java.io.tmpdir} plants for an agent that extracts
     * its nested jars there and reuses a jar whose size and CRC-32 match (the code before issue 27): a
     * link from the victim's extraction directory to the shared folder (root-owned, so an owner check
     * that follows links passes), and a forged copy of every nested jar. Returns the names planted.
     */
    private static Set<String> plantWhereAnExtractingAgentLooks(Path agentJar, Path shared, Path staging, Attacker attacker) throws Exception {
        Set<String> planted = new TreeSet<>();
        try (JarFile jar = new JarFile(agentJar.toFile())) {
            List<JarEntry> nested = jar.stream()
                    .filter(e -> e.getName().endsWith(".jar") && e.getName().matches("META-INF/jetw/(lib|boot)/[^/]+"))
                    .sorted(Comparator.comparing(JarEntry::getName)).toList();
            String version = jar.getManifest().getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
            String directory = "jetw-" + safe(version == null ? "unversioned" : version) + "-" + fingerprint(nested) + "-"
                    + safe(System.getProperty("user.name", "user"));
            byte[] markerClass = compileMarkerClass(staging.resolveSibling("marker"));
            attacker.run("ln", "-s", shared.toString(), shared.resolve(directory).toString());
            planted.add(directory);
            for (JarEntry entry : nested) {
                byte[] original;
                try (InputStream in = jar.getInputStream(entry)) {
                    original = in.readAllBytes();
                }
                byte[] forged = forge(original, entry.getCrc(), attacker.uid, markerClass);
                if (forged == null) {
                    continue;
                }
                String name = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
                Path staged = staging.resolve(name);
                Files.write(staged, forged);
                attacker.run("cp", staged.toString(), shared.resolve(name).toString());
                planted.add(name);
            }
            // The bootstrap jar goes into the boot loader: forging it is the attack that was reproduced.
            assertTrue(nested.isEmpty() || planted.stream().anyMatch(n -> n.startsWith("jetw-bootstrap")), planted.toString());
        }
        return planted;
    }

    /**
     * A jar with the original's classes (less its Maven metadata, to make room), the marker resource,
     * a stored filler entry bringing it to the original's exact size, and a 4-byte zip comment chosen
     * so that its CRC-32 is the original's. Null when the original is too small to make room.
     */
    static byte[] forge(byte[] original, long crc, int uid, byte[] markerClass) throws IOException {
        byte[] base = rezip(original, 0, uid, markerClass);
        int filler = original.length - base.length;
        if (filler < 0) {
            return null;
        }
        byte[] forged = rezip(original, filler, uid, markerClass);
        assertEquals(original.length, forged.length);
        setLastFourBytesForCrc(forged, crc);
        CRC32 check = new CRC32();
        check.update(forged);
        assertEquals(crc, check.getValue());
        return forged;
    }

    private static byte[] rezip(byte[] original, int filler, int uid, byte[] markerClass) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipInputStream in = new ZipInputStream(new java.io.ByteArrayInputStream(original));
             ZipOutputStream out = new ZipOutputStream(bytes)) {
            out.setLevel(9);
            out.setComment("CRC!"); // 4 bytes, overwritten to make the CRC-32 match
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().startsWith("META-INF/maven/")) {
                    continue;
                }
                ZipEntry copy = new ZipEntry(e.getName());
                copy.setTime(0);
                out.putNextEntry(copy);
                in.transferTo(out);
                out.closeEntry();
            }
            ZipEntry marker = new ZipEntry(LoaderProbeApp.MARKER);
            marker.setTime(0);
            out.putNextEntry(marker);
            out.write(("planted by uid " + uid + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
            ZipEntry markerClassEntry = new ZipEntry(LoaderProbeApp.MARKER_CLASS.replace('.', '/') + ".class");
            markerClassEntry.setTime(0);
            out.putNextEntry(markerClassEntry);
            out.write(markerClass);
            out.closeEntry();
            ZipEntry pad = new ZipEntry("PADDING");
            pad.setTime(0);
            pad.setMethod(ZipEntry.STORED);
            pad.setSize(filler);
            pad.setCompressedSize(filler);
            CRC32 zeros = new CRC32();
            zeros.update(new byte[filler]);
            pad.setCrc(zeros.getValue());
            out.putNextEntry(pad);
            out.write(new byte[filler]);
            out.closeEntry();
        }
        return bytes.toByteArray();
    }

    private static final int[] CRC_TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
            }
            CRC_TABLE[i] = c;
        }
    }

    private static int crcRegister(int register, byte[] data, int from, int to) {
        for (int i = from; i < to; i++) {
            register = CRC_TABLE[(register ^ data[i]) & 0xff] ^ (register >>> 8);
        }
        return register;
    }

    /**
     * CRC-32 is affine in the data over GF(2): the register after the last four bytes is that of four
     * zero bytes XOR a linear function of those bytes. The 32 columns of that function, and Gaussian
     * elimination, give the four bytes that produce any wanted CRC.
     */
    static void setLastFourBytesForCrc(byte[] data, long wanted) {
        int n = data.length;
        int prefix = crcRegister(0xFFFFFFFF, data, 0, n - 4);
        int zero = crcRegister(prefix, new byte[4], 0, 4);
        int[] basis = new int[32];
        int[] combination = new int[32];
        for (int k = 0; k < 32; k++) {
            byte[] unit = new byte[4];
            unit[k / 8] = (byte) (1 << (k % 8));
            int column = crcRegister(prefix, unit, 0, 4) ^ zero;
            int bits = 1 << k;
            for (int b = 31; b >= 0 && column != 0; b--) {
                if ((column >>> b & 1) == 0) {
                    continue;
                }
                if (basis[b] == 0) {
                    basis[b] = column;
                    combination[b] = bits;
                    break;
                }
                column ^= basis[b];
                bits ^= combination[b];
            }
        }
        int target = ~(int) wanted ^ zero;
        int x = 0;
        for (int b = 31; b >= 0; b--) {
            if ((target >>> b & 1) != 0) {
                assertTrue(basis[b] != 0, "CRC-32 over four free bytes is a bijection");
                target ^= basis[b];
                x ^= combination[b];
            }
        }
        for (int i = 0; i < 4; i++) {
            data[n - 4 + i] = (byte) (x >>> (8 * i));
        }
    }

    /** The class file of {@link LoaderProbeApp#MARKER_CLASS}, compiled into {@code dir}. */
    private static byte[] compileMarkerClass(Path dir) throws IOException {
        Path source = dir.resolve("src/planted/ByAnotherUser.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package planted;\npublic final class ByAnotherUser {\n}\n");
        Path classes = dir.resolve("classes");
        int rc = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "8", "-nowarn", "-d", classes.toString(), source.toString());
        assertEquals(0, rc, "compiling the marker class");
        return Files.readAllBytes(classes.resolve("planted/ByAnotherUser.class"));
    }

    /** The directory fingerprint of the extracting agent: names, sizes and CRC-32s of the nested jars. */
    private static String fingerprint(List<JarEntry> entries) throws Exception {
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
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static void run(List<String> command) throws Exception {
        ChildJvm.Result r = ChildJvm.run(command);
        assertEquals(0, r.exit(), command + "\n" + r);
    }

    /** Who plants: nobody (uid 65534) through setpriv when the tests run as root, else this user. */
    record Attacker(List<String> prefix, int uid) {

        static Attacker find() throws Exception {
            int self = currentUid();
            Path setpriv = Stream.of("/usr/bin/setpriv", "/bin/setpriv").map(Paths::get).filter(Files::isExecutable).findFirst().orElse(null);
            if (self == 0 && setpriv != null) {
                return new Attacker(List.of(setpriv.toString(), "--reuid=65534", "--regid=65534", "--clear-groups", "--"), 65534);
            }
            return new Attacker(List.of(), self);
        }

        private static int currentUid() throws Exception {
            ChildJvm.Result id = ChildJvm.run(List.of("id", "-u"));
            assertEquals(0, id.exit(), id.toString());
            return Integer.parseInt(id.stdout().trim());
        }

        void run(String... command) throws Exception {
            List<String> all = new ArrayList<>(prefix);
            all.addAll(List.of(command));
            NoExtractionIT.run(all);
        }
    }
}
