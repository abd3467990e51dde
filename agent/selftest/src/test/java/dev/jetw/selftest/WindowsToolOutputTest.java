package dev.jetw.selftest;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the scenario reads the output of Windows tools (whoami, tracerpt), checked here on text. */
class WindowsToolOutputTest {

    @Test
    void elevationComesFromTheMandatoryLabel() {
        String elevated = "Mandatory Label\\High Mandatory Level   Label   S-1-16-12288\r\n";
        String medium = "Mandatory Label\\Medium Mandatory Level Label   S-1-16-8192\r\n";
        String system = "Mandatory Label\\System Mandatory Level Label   S-1-16-16384\r\n";
        assertEquals(Boolean.TRUE, Elevation.fromWhoamiGroups("BUILTIN\\Administrators Alias S-1-5-32-544\r\n" + elevated));
        assertEquals(Boolean.TRUE, Elevation.fromWhoamiGroups(system));
        assertEquals(Boolean.FALSE, Elevation.fromWhoamiGroups("BUILTIN\\Administrators Alias S-1-5-32-544 Group used for deny only\r\n" + medium));
        assertNull(Elevation.fromWhoamiGroups("no label here"));
    }

    /** On Linux the effective uid says it (a root run said "elevated: no"): root is what kernel= needs there. */
    @Test
    void linuxRootIsReadFromTheEffectiveUidOfProcSelfStatus() throws java.io.IOException {
        assertEquals(Boolean.TRUE, Elevation.rootFromProcStatus("Name:\tjava\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n"));
        assertEquals(Boolean.TRUE, Elevation.rootFromProcStatus("Uid:\t1000\t0\t0\t0\n"), "setuid root: effective 0");
        assertEquals(Boolean.FALSE, Elevation.rootFromProcStatus("Uid:\t0\t1000\t1000\t1000\n"), "effective 1000");
        assertNull(Elevation.rootFromProcStatus("Name:\tjava\n"));
        if (System.getProperty("os.name").equals("Linux")) {
            // The owner of a file this JVM creates is its effective uid: a uid-0 account of any name is root.
            java.nio.file.Path probe = java.nio.file.Files.createTempFile("jetw-uid", ".probe");
            try {
                Object uid = java.nio.file.Files.getAttribute(probe, "unix:uid");
                assertEquals(Boolean.valueOf(Integer.valueOf(0).equals(uid)), Elevation.current(false),
                        "this JVM's own effective uid " + uid);
            } finally {
                java.nio.file.Files.delete(probe);
            }
        }
    }

    @Test
    void tracerptOutputIsJudgedByTheMofPropertyNames() {
        String event = "<Event><EventData><Data Name=\"MethodId\">100000</Data></EventData></Event>";
        String end = "<Event><EventData><Data Name=\"MethodId\">100000</Data><Data Name=\"ExceptionClass\"></Data></EventData></Event>";
        List<String> facts = new ArrayList<>();
        assertEquals(Collections.emptyList(), TracerptCheck.judge(event + end + end, 3, 2, facts));
        assertEquals("tracerpt XML: 3 properties named MethodId, 2 named ExceptionClass", facts.get(0));
        // Without the MOF, tracerpt shows the payload as undecoded bytes: no property names.
        List<String> undecoded = TracerptCheck.judge("<Event><EventData><Data>0xA0860100</Data></EventData></Event>", 3, 2, facts);
        assertEquals(2, undecoded.size(), undecoded.toString());
        assertTrue(undecoded.get(0).startsWith("tracerpt decoded 0 MethodId properties, the trace holds 3 MethodCall events"));
    }

    @Test
    void tracerptXmlInUtf16IsRecognised() {
        byte[] utf16 = "\uFEFF<x/>".getBytes(StandardCharsets.UTF_16LE);
        assertEquals(StandardCharsets.UTF_16, TracerptCheck.xmlCharset(utf16));
        assertEquals(StandardCharsets.UTF_8, TracerptCheck.xmlCharset("<x/>".getBytes(StandardCharsets.UTF_8)));
    }
}
