package dev.jetw.etl;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Windows-written samples ship with the repository: every .etl beside the README is one of its rows,
 * unchanged (its SHA-256 is the one the README records from the source repository), and each licence the
 * README names is there.
 */
class EtlSamplesIntegrityTest {

    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+\\.etl)` \\|.*`([0-9a-f]{64})` \\|$", Pattern.MULTILINE);

    @Test
    void everySampleIsAReadmeRowWithItsRecordedDigestAndLicence() throws Exception {
        Path dir = EtlSamples.dir();
        String readme = new String(Files.readAllBytes(dir.resolve("README.md")), "UTF-8");
        Map<String, String> recorded = new HashMap<>();
        for (Matcher m = ROW.matcher(readme); m.find(); ) {
            recorded.put(m.group(1), m.group(2));
        }
        int files = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : (Iterable<Path>) s.filter(p -> p.toString().endsWith(".etl"))::iterator) {
                String name = f.getFileName().toString();
                assertTrue(recorded.containsKey(name), name + " has no row (origin, licence, SHA-256) in the README");
                assertEquals(recorded.get(name), sha256(f), name + " differs from the file the README records");
                files++;
            }
        }
        assertEquals(recorded.size(), files, "README rows without their file");
        assertTrue(files >= 4, "only " + files + " samples");
        assertTrue(Files.isRegularFile(dir.resolve("LICENSE-Apache-2.0.txt")));
        assertTrue(Files.isRegularFile(dir.resolve("LICENSE-perfview-MIT.txt")));
    }

    private static String sha256(Path f) throws Exception {
        StringBuilder hex = new StringBuilder();
        for (byte b : MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f))) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }
}
