package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dump on demand: what a running session holds, to a new .etl, while tracing goes on. */
class SessionDumpTest {

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    private static List<Integer> sequence(Path file) throws Exception {
        return EtlLayoutCheck.read(file).events().stream().map(e -> e.payloadInt(4)).collect(Collectors.toList());
    }

    private static List<Integer> range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).boxed().collect(Collectors.toList());
    }

    private void dumpWhileTracing(SessionConfig.Builder config, Path file) throws Exception {
        String name = TestSupport.uniqueName("dump");
        etw.startSession(config.sessionName(name).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 300; i++) {
            TestSupport.emit(p, s, 1, i, 20);
        }
        Path dump = dir.resolve("dump.etl");
        etw.dumpSession(name, dump);
        for (int i = 300; i < 600; i++) {
            TestSupport.emit(p, s, 1, i, 20);
        }
        etw.stopSession(name);
        p.close();
        assertEquals(600, p.eventsWritten());
        assertEquals(range(0, 300), sequence(dump), "the dump holds every event before it, the partly filled buffer too");
        assertEquals(name, EtlLayoutCheck.read(dump).loggerName);
        TestSupport.assertPermissionsWherePosix("rw-------", dump);
        if (file != null) {
            assertEquals(range(0, 600), sequence(file), "tracing went on: events before and after the dump in the final file");
        }
    }

    @Test
    void aSequentialSessionIsFlushedAndCopied() throws Exception {
        Path file = dir.resolve("seq.etl");
        dumpWhileTracing(SessionConfig.builder().logFile(file).bufferSizeKb(4), file);
    }

    @Test
    void aBufferingSessionWritesItsRingAndKeepsIt() throws Exception {
        Path file = dir.resolve("ring.etl");
        dumpWhileTracing(SessionConfig.builder().logFile(file).modes(LogFileMode.BUFFERING).bufferSizeKb(4)
                .minimumBuffers(64).maximumBuffers(64), file);
    }

    @Test
    void aBufferingSessionWithoutAFileCanBeDumped() throws Exception {
        dumpWhileTracing(SessionConfig.builder().modes(LogFileMode.BUFFERING).bufferSizeKb(4)
                .minimumBuffers(64).maximumBuffers(64), null);
    }

    @Test
    void aDumpFollowsTheFileRules() throws Exception {
        String name = TestSupport.uniqueName("dumprules");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(dir.resolve("a.etl")).build());
        try {
            Path existing = Files.write(dir.resolve("existing.etl"), new byte[] {1});
            EtwException e = assertThrows(EtwException.class, () -> etw.dumpSession(name, existing));
            assertEquals(Win32Error.FILE_EXISTS, e.code(), e.getMessage());
            assertEquals(1, Files.size(existing));
            Path link = Files.createSymbolicLink(dir.resolve("link.etl"), dir.resolve("nowhere.etl"));
            e = assertThrows(EtwException.class, () -> etw.dumpSession(name, link));
            assertEquals(Win32Error.CANT_ACCESS_FILE, e.code(), e.getMessage());
            assertTrue(etw.querySession(name).lastWriteError() == null, "a failed dump is not a failure of the log");
        } finally {
            etw.stopSession(name);
        }
    }
}
