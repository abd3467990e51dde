package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.SessionNotice;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.SessionConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static dev.jetw.analysis.cli.EtlToolTest.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which OS wrote a trace (docs/portable-backend.md): a portable file names its writer and host, and its
 * header's version is the Windows layout it follows; a file ETW wrote is summarized as before, its header's
 * version being the host's OS.
 */
class WriterSummaryTest {

    @TempDir
    Path tmp;

    /** What the portable backend says it is, from the same system properties, so the test holds on any host. */
    private static String expectedWriter() {
        return "jetw portable backend, Java " + System.getProperty("java.version") + ", " + System.getProperty("os.name")
                + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
    }

    @Test
    void aPortableFileNamesItsWriterAndHostAndCallsTheHeaderVersionALayout() throws Exception {
        Path file = tmp.resolve("portable.etl");
        EtwBackend etw = EtwBackends.create("portable");
        String session = "jetw-writer-" + System.nanoTime();
        etw.startSession(SessionConfig.builder().sessionName(session).logFile(file).bufferSizeKb(4).build());
        ClassicProvider p = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        try {
            etw.enableProvider(session, JetwSchema.CONTROL_GUID, 5, 0);
            p.writeSmall(p.newScratch(), EventType.CHECKPOINT, 4, JetwSchema.METHOD_INDEX, 0, -1, 0, 0L, 0);
        } finally {
            etw.stopSession(session);
            p.close();
        }
        String writer = expectedWriter();
        try (EtlReader r = EtlReader.open(file)) {
            assertTrue(r.next().isLogfileHeader());
            EtlRecord second = r.next();
            SessionNotice n = SessionNotice.decode(second);
            assertTrue(n != null && n.isWriter(), "the writer notice follows the logfile header, in buffer 0");
            assertEquals(writer, n.text());
            assertEquals(2, r.buffers().size(), "the header buffer and the one event's data buffer: the writer notice"
                    + " takes no buffer of its own");
        }

        EtlToolTest.Run text = run("summary", file.toString());
        assertEquals(EtlTool.OK, text.status(), text.err());
        assertTrue(text.out().contains("\nwritten by:  " + writer + "\n"), text.out());
        assertTrue(text.out().contains("; header declares the Windows 10.0 build 19041 layout\n"), text.out());
        assertFalse(text.out().contains("OS 10.0"), text.out());
        assertFalse(text.out().contains("session notes:"), "the writer is not a note: " + text.out());
        assertTrue(text.out().contains("\nevents:      1 (not counting the logfile header and the writer notice)\n"),
                "the one event written, as the session counted it: " + text.out());

        EtlToolTest.Run json = run("summary", "--json", file.toString());
        assertEquals(EtlTool.OK, json.status(), json.err());
        Map<String, Object> j = MiniJson.object(json.out());
        assertEquals(writer, j.get("writtenBy"));
        assertEquals("10.0.19041", j.get("headerVersion"));
        assertEquals(1L, ((Number) j.get("events")).longValue());

        EtlToolTest.Run dump = run("dump", file.toString());
        assertEquals(EtlTool.OK, dump.status(), dump.err());
        assertTrue(dump.out().split("\n")[0].endsWith("jetw session notice INFO level 4  written by: " + writer),
                "dump's first line is the notice, as text: " + dump.out());
        EtlToolTest.Run dumpJson = run("dump", "--json", file.toString());
        Map<String, Object> first = MiniJson.object(dumpJson.out().split("\n")[0]);
        assertEquals(Map.of("kind", "writer", "text", writer), first.get("notice"), dumpJson.out());
    }

    @Test
    void aFileEtwWroteKeepsItsOsLineAndHasNoWriter() {
        EtlToolTest.Run text = run("summary", sample("lxcore_kernel.etl"));
        assertEquals(EtlTool.OK, text.status(), text.err());
        assertTrue(text.out().contains("; OS 10.0 build 19041\n"), text.out());
        assertFalse(text.out().contains("written by"), text.out());
        assertFalse(text.out().contains("header declares"), text.out());

        EtlToolTest.Run json = run("summary", "--json", sample("lxcore_kernel.etl"));
        Map<String, Object> j = MiniJson.object(json.out());
        assertTrue(j.containsKey("writtenBy"), "the field is there, null: " + json.out());
        assertNull(j.get("writtenBy"));
        assertEquals("10.0.19041", j.get("headerVersion"));
    }
}
