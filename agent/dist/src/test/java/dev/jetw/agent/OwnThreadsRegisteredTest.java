package dev.jetw.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every thread jetw starts inside a traced JVM is registered in {@code dev.jetw.etw.JetwThreads}, so that the JVM
 * runtime events leave it out (docs/jvm-events.md). A thread created without it shows up as the application's
 * (the attach ramp's did). Checked on the sources of the modules that load into the target JVM: per file, as many
 * {@code JetwThreads.register(} as {@code new Thread(}.
 */
class OwnThreadsRegisteredTest {

    private static final String[] IN_TARGET = {"agent/core/src/main/java", "agent/jfr/src/main/java", "native-bridge/src/main/java"};

    @Test
    void everyThreadJetwCreatesInTheTargetIsRegistered() throws IOException {
        Path repo = Paths.get(System.getProperty("jetw.repo.dir", "../.."));
        List<String> unregistered = new ArrayList<>();
        int files = 0;
        for (String module : IN_TARGET) {
            try (Stream<Path> sources = Files.walk(repo.resolve(module))) {
                for (Path p : (Iterable<Path>) sources.filter(f -> f.toString().endsWith(".java"))::iterator) {
                    String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
                    int created = count(text, "new Thread(");
                    if (created > 0) {
                        files++;
                    }
                    if (created > count(text, "JetwThreads.register(")) {
                        unregistered.add(repo.relativize(p) + ": " + created + " new Thread(, fewer JetwThreads.register(");
                    }
                }
            }
        }
        assertTrue(files >= 5, "the scan found the files that create threads (" + files + ")");
        assertEquals(List.of(), unregistered);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
