package dev.jetw.analysis.kernel;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ShutdownPerfDiagLogger.etl (a Windows 10 18362 kernel logger file): classes per the samples README,
 * and decoded fields compared with values read by hand from the file's bytes (offsets below are of
 * the record's payload in the file).
 */
class KernelSamplesTest {

    private static final List<KernelEvent> EVENTS = new ArrayList<>();
    private static int records;

    @BeforeAll
    static void read() throws IOException {
        Path f = Paths.get(System.getProperty("jetw.samples.dir"), "ShutdownPerfDiagLogger.etl");
        try (EtlReader r = EtlReader.open(f)) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                records++;
                KernelEvent k = KernelDecoder.decode(e);
                assertTrue(k != null, "every record of this file is a kernel record: " + e.headerTypeName());
                EVENTS.add(k);
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
    }

    private static KernelEvent first(String fullName) {
        return EVENTS.stream().filter(e -> e.fullName().equals(fullName)).findFirst().orElseThrow();
    }

    @Test
    void recordsPerClassMatchTheReadme() {
        assertEquals(17_078, records, "17,077 events + the logfile header");
        Map<String, Integer> perClass = new TreeMap<>();
        for (KernelEvent e : EVENTS) {
            perClass.merge(e.kernelClass().displayName(), 1, Integer::sum);
        }
        assertEquals(Map.of("Image", 13_755, "Thread", 3_058, "Process", 256, "EventTrace", 9), perClass);
        assertEquals("3d6fa8d1-fe05-11d0-9dda-00c04fd7ba7c", KernelClass.THREAD.guid().toString());
        assertEquals(72, EVENTS.stream().filter(e -> e.record().group() == 3 && e.type() == 10
                && e.kernelClass() == KernelClass.IMAGE).count(), "Process-group type 10 is an Image load");
    }

    @Test
    void processEndOfSecurityHealthSystray() {
        // SYSTEM64 Process type 2 v4; payload: c093b68886caffff 7c1a0000 100f0000 01000000 04000140 ...
        KernelEvent e = first("Process/End");
        assertEquals(4, e.version());
        assertEquals(6780, e.processId());
        assertEquals(6780, e.record().processId(), "the header agrees");
        assertEquals(3856, e.number("parentId"));
        assertEquals(1, e.number("sessionId"));
        assertEquals(0x40010004L, e.number("exitStatus"));
        assertEquals(0xffffca8688b693c0L, e.number("uniqueProcessKey"));
        assertEquals("S-1-5-21-4151223144-1238771585-1724997581-1000", e.text("userSid"));
        assertEquals("SecurityHealthSystray.exe", e.text("imageFileName"));
        assertEquals("\"C:\\Windows\\System32\\SecurityHealthSystray.exe\" ", e.text("commandLine"));
        assertNull(e.decodeNote());
    }

    @Test
    void processRundownOfIdleAndTheUndocumentedVersion5() {
        KernelEvent idle = first("Process/DCStart"); // PERFINFO64: no tid/pid in the header
        assertEquals(-1, idle.record().processId());
        assertEquals(0, idle.processId());
        assertEquals("Idle", idle.text("imageFileName"));
        assertEquals("S-1-5-18", idle.text("userSid"));
        KernelEvent defunct = first("Process/Defunct");
        assertEquals(5, defunct.version());
        assertEquals(496, defunct.processId());
        assertEquals("svchost.exe", defunct.text("imageFileName"));
        assertTrue(defunct.decodeNote().contains("not documented"), defunct.decodeNote());
    }

    @Test
    void threadStartAndRundown() {
        // SYSTEM64 Thread type 1 v3: f8010000 c4130000 00b0cef680f5ffff ...
        KernelEvent e = first("Thread/Start");
        assertEquals(504, e.processId());
        assertEquals(5060, e.threadId(), "TThreadId of the new thread");
        assertEquals(6532, e.record().threadId(), "the creating thread");
        assertEquals(0xfffff580f6ceb000L, e.number("stackBase"));
        assertEquals(0x7ff993bb3d60L, e.number("win32StartAddr"));
        assertEquals(13, e.number("basePriority"));
        assertTrue(e.decodeNote().contains("2 bytes after"), e.decodeNote());
        assertEquals(3058, EVENTS.stream().filter(k -> k.kernelClass() == KernelClass.THREAD && k.threadId() >= 0).count());
    }

    @Test
    void imageUnloadAndLoad() {
        KernelEvent unload = first("Image/UnLoad");
        assertEquals(0x7ff620f80000L, unload.number("imageBase"));
        assertEquals(0x18000, unload.number("imageSize"));
        assertEquals(6780, unload.processId());
        assertEquals("\\Device\\HarddiskVolume3\\Windows\\System32\\SecurityHealthSystray.exe", unload.fileName());
        KernelEvent load = first("Image/Load");
        assertEquals(7064, load.processId());
        assertEquals(0x75610000L, load.number("imageBase"));
        assertEquals("\\Device\\HarddiskVolume3\\Windows\\SysWOW64\\coml2.dll", load.fileName());
        assertEquals(13_755 - 2, EVENTS.stream().filter(k -> k.kernelClass() == KernelClass.IMAGE && k.fileName() != null)
                .count(), "every Image event but KernelBase and HypercallPage has a file name");
    }

    @Test
    void imageVersion3SignatureFields() {
        // Image/DCStart v3 of SysWOW64 ntdll.dll; payload bytes 24-31: 00000000 0c 02 0000 (TimeDateStamp 0, level, type, reserved)
        KernelEvent ntdll = first("Image/DCStart");
        assertEquals(3, ntdll.version());
        assertEquals("\\Device\\HarddiskVolume3\\Windows\\SysWOW64\\ntdll.dll", ntdll.fileName());
        assertEquals(12, ntdll.number("signatureLevel"), "SE_SIGNING_LEVEL_WINDOWS");
        assertEquals(2, ntdll.number("signatureType"), "SE_IMAGE_SIGNATURE_CACHE");
        assertEquals(0x77620000L, ntdll.number("defaultBase"), "the fields after the signature stay where they were");
        KernelEvent unload = first("Image/UnLoad"); // bytes 28-31: 00000000
        assertEquals(0, unload.number("signatureLevel"));
        assertEquals(0, unload.number("signatureType"));
        assertEquals(13_755 - 2, EVENTS.stream().filter(k -> k.kernelClass() == KernelClass.IMAGE && k.version() == 3
                && k.fields().containsKey("signatureLevel") && k.decodeNote() == null).count());
    }
}
