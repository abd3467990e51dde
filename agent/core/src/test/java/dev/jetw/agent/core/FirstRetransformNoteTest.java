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
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, Arrays.asList("-Xmx1g", "-javaagent:/opt/apm/agent.jar=x"), false),
                "any Java agent loaded at start-up");
        assertNull(FirstRetransformNote.note(17, HOTSPOT, false, NO_ARGUMENTS, true), "a session ran before in this JVM");
        assertNull(FirstRetransformNote.note(11, "Eclipse OpenJ9 VM", false, NO_ARGUMENTS, false), "not HotSpot");
        assertNull(FirstRetransformNote.note(0, HOTSPOT, false, NO_ARGUMENTS, false), "unknown version");
    }

    @Test
    void featureVersions() {
        assertEquals(8, FirstRetransformNote.featureVersion("1.8"));
        assertEquals(17, FirstRetransformNote.featureVersion("17"));
        assertEquals(25, FirstRetransformNote.featureVersion("25"));
        assertEquals(0, FirstRetransformNote.featureVersion(""));
        assertEquals(0, FirstRetransformNote.featureVersion("seventeen"));
    }

    /** This test JVM itself: the note follows its version and its start-up agents (surefire starts it without -javaagent). */
    @Test
    void thisJvm() {
        int feature = FirstRetransformNote.featureVersion(System.getProperty("java.specification.version"));
        String note = FirstRetransformNote.forThisJvm(false);
        boolean agentAtStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .anyMatch(a -> a.startsWith("-javaagent:"));
        assertEquals(feature <= 17 && !agentAtStart, note != null, String.valueOf(note));
        assertNull(FirstRetransformNote.forThisJvm(true));
    }
}
