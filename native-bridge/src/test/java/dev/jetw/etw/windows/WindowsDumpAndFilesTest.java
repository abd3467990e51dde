package dev.jetw.etw.windows;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Windows backend's trace-file rules before ETW opens a file, and its dump, over the recorder. */
class WindowsDumpAndFilesTest {

    private final RecordingNativeEtw rec = new RecordingNativeEtw(EtwLayout.X64);
    private final WindowsBackend backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0"));

    @TempDir
    Path dir;

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    private SessionConfig.Builder config(Path file) {
        return SessionConfig.builder().sessionName("jetw").logFile(file);
    }

    @Test
    void aLinkOrAnExistingFileIsRefusedBeforeStartTrace() throws Exception {
        Path victim = Files.write(dir.resolve("victim.txt"), new byte[] {7});
        Path link = Files.createSymbolicLink(dir.resolve("link.etl"), victim);
        EtwException e = assertThrows(EtwException.class, () -> backend.startSession(config(link).build()));
        assertEquals(Win32Error.CANT_ACCESS_FILE, e.code(), e.getMessage());
        e = assertThrows(EtwException.class, () -> backend.startSession(config(victim).build()));
        assertEquals(Win32Error.FILE_EXISTS, e.code(), e.getMessage());
        assertTrue(rec.calls("StartTraceW").isEmpty(), "ETW never saw the path");
        assertArrayEquals(new byte[] {7}, Files.readAllBytes(victim));

        backend.startSession(config(victim).overwrite(true).build());
        assertEquals(1, rec.calls("StartTraceW").size());
        assertFalse(Files.exists(victim), "replaced on purpose: removed for ETW to create anew");
    }

    @Test
    void aBufferingSessionIsDumpedByAnUpdateNamingTheNewFileThenAFlush() throws Exception {
        backend.startSession(config(dir.resolve("ring.etl")).modes(LogFileMode.BUFFERING).build());
        Path target = dir.resolve("dump.etl");
        backend.dumpSession("jetw", target);
        List<RecordingNativeEtw.Call> control = rec.calls("ControlTraceW");
        RecordingNativeEtw.Call u = control.get(control.size() - 2);
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_UPDATE, u.controlCode);
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, rec.last("ControlTraceW").controlCode);
        ByteBuffer b = u.props();
        int off = b.getInt(EtwLayout.X64.etpLogFileNameOffset());
        assertEquals(target.toString(), RecordingNativeEtw.wideAt(b, off));
        assertEquals(0, b.getInt(EtwLayout.ETP_LOG_FILE_MODE), "the update changes nothing but the file");

        Path existing = Files.write(dir.resolve("existing.etl"), new byte[] {1});
        EtwException e = assertThrows(EtwException.class, () -> backend.dumpSession("jetw", existing));
        assertEquals(Win32Error.FILE_EXISTS, e.code());
    }

    @Test
    void aFileSessionIsFlushedThenCopied() throws Exception {
        Path log = dir.resolve("live.etl");
        backend.startSession(config(log).build());
        byte[] content = new byte[10_000];
        Arrays.fill(content, (byte) 5);
        Files.write(log, content); // what ETW wrote so far
        rec.answer("jetw").logFile = log.toString();
        Path target = dir.resolve("dump.etl");
        backend.dumpSession("jetw", target);
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, rec.last("ControlTraceW").controlCode);
        assertArrayEquals(content, Files.readAllBytes(target));
    }
}
