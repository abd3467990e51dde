package dev.jetw.agent.core;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FirstRetransformNoteTest {

    private static final String HOTSPOT = "OpenJDK 64-Bit Server VM";
    private static final List<String> NO_ARGUMENTS = Collections.emptyList();

    @Test
    void aHotSpotUpTo17StartedWithoutAnAgentIsToldWhatHappensAndTheFlagThatAvoidsIt() {
        for (int feature : new int[] {8, 11, 17}) {
            String note = FirstRetransformNote.note(feature, HOTSPOT, false, Arrays.asList("-Xmx1g", "-Xlog:gc"), false);
            assertNotNull(note, "Java " + feature);
            assertTrue(note.startsWith("this JVM (Java " + feature + ") throws all its compiled code away at the first class"), note);
            assertTrue(note.contains("-javaagent:jetw-agent.jar=standby"), note);
            assertEquals(-1, note.indexOf('\n'), note);
        }
        assertNotNull(FirstRetransformNote.note(17, "Java HotSpot(TM) 64-Bit Server VM", false, NO_ARGUMENTS, false));
    }

    @Test
    void silentWhereTheFirstRetransformationKeepsTheCompiledCode() {
        assertNull(FirstRetransformNote.note(18, HOTSPOT, false, NO_ARGUMENTS, false), "JDK 18 records the dependencies always");
        assertNull(FirstRetransformNote.note(25, HOTSPOT, false, NO_ARGUMENTS, false));
        assertNull(FirstRetransformNote.note(17, HOTSPOT, true, NO_ARGUMENTS, false), "started with standby");
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-agentlib:jdwp=transport=dt_socket,server=y"), false),
                "the debugger's agent adds capabilities while it loads");
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-XX:StartFlightRecording=duration=30s"), false),
                "a recording at start-up paid the first redefinition then");
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, NO_ARGUMENTS, true), "a session ran before in this JVM");
        assertNull(FirstRetransformNote.note(11, "Eclipse OpenJ9 VM", false, NO_ARGUMENTS, false), "not HotSpot");
        assertNull(FirstRetransformNote.note(0, HOTSPOT, false, NO_ARGUMENTS, false), "unknown version");
    }

    /**
     * A Java agent adds capabilities at start-up only for its manifest's Can-* attributes (JPLIS): one that asks for
     * none leaves the JVM to throw its compiled code away (measured on JDK 17 with -Xlog:redefine+class+nmethod=debug:
     * "Marked all nmethods for deopt"); a jar that cannot be read, or a native agent, may or may not.
     */
    @Test
    void aJavaAgentCountsOnlyWhenItsManifestAsksForACapability(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path asks = jar(dir.resolve("asks.jar"), "Can-Retransform-Classes", "true");
        java.nio.file.Path prefix = jar(dir.resolve("prefix.jar"), "Can-Set-Native-Method-Prefix", "true");
        java.nio.file.Path silent = jar(dir.resolve("silent.jar"), "Can-Retransform-Classes", "false");
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-Xmx1g", "-javaagent:" + asks + "=x"), false));
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-javaagent:" + prefix), false));
        String none = FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-javaagent:" + silent + "=a=b"), false);
        assertNotNull(none, "an agent without Can-* attributes adds no capability");
        assertTrue(none.startsWith("this JVM (Java 17) throws all its compiled code away"), none);
        for (String unsure : new String[] {"-javaagent:" + dir.resolve("missing.jar"), "-agentpath:/opt/profiler/libagent.so", "-agentlib:hprof"}) {
            String may = FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList(unsure), false);
            assertNotNull(may, unsure);
            assertTrue(may.startsWith("this JVM (Java 17) may throw all its compiled code away"), may);
        }
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-agentpath:/x.so", "-javaagent:" + asks), false),
                "one agent asking is enough");
    }

    private static java.nio.file.Path jar(java.nio.file.Path path, String attribute, String value) throws java.io.IOException {
        java.util.jar.Manifest m = new java.util.jar.Manifest();
        m.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", "a.Agent");
        m.getMainAttributes().putValue(attribute, value);
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(java.nio.file.Files.newOutputStream(path), m)) {
            out.flush();
        }
        return path;
    }

    /**
     * This test JVM itself: the note follows its version and its start-up agents (agent/core's surefire starts it with
     * Byte Buddy's agent, whose manifest asks for retransformation, so on this JVM the note is null).
     */
    @Test
    void thisJvm() {
        int feature = Runtime.version().feature();
        String note = FirstRetransformNote.forThisJvm(false);
        boolean agentAtStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-javaagent:"));
        assertEquals(feature <= 17 && !agentAtStart, note != null, String.valueOf(note));
        assertNull(FirstRetransformNote.forThisJvm(true));
    }
}
