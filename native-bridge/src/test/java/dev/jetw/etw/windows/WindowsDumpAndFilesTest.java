package dev.jetw.etw.windows;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.KernelFlag;
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
import java.util.EnumSet;
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

    /**
     * Issue 30 item 4: the in-memory ring starts without a file and is saved by one FLUSH whose
     * LogFileNameOffset names the new file, no UPDATE: PerfView's SetFileName for an in-memory circular
     * session, and FlushTrace's "write the data from the trace to a file" for buffering sessions.
     */
    @Test
    void aBufferingSessionStartsWithoutAFileAndIsDumpedByOneFlushNamingTheNewFile() throws Exception {
        backend.startSession(config(dir.resolve("ring.etl")).modes(LogFileMode.BUFFERING).build());
        assertEquals(0, rec.last("StartTraceW").props().getInt(EtwLayout.X64.etpLogFileNameOffset()),
                "no log file at the start of an in-memory ring");
        int before = rec.calls("ControlTraceW").size();
        Path target = dir.resolve("dump.etl");
        backend.dumpSession("jetw", target);
        List<RecordingNativeEtw.Call> control = rec.calls("ControlTraceW");
        assertEquals(before + 1, control.size(), "one call: " + control.subList(before, control.size()));
        RecordingNativeEtw.Call flush = rec.last("ControlTraceW");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, flush.controlCode);
        ByteBuffer b = flush.props();
        int off = b.getInt(EtwLayout.X64.etpLogFileNameOffset());
        assertEquals(target.toString(), RecordingNativeEtw.wideAt(b, off), "the FLUSH names the dump's file");

        Path existing = Files.write(dir.resolve("existing.etl"), new byte[] {1});
        EtwException e = assertThrows(EtwException.class, () -> backend.dumpSession("jetw", existing));
        assertEquals(Win32Error.FILE_EXISTS, e.code());
    }

    /** Issue 30 item 3: a dump of a buffering system logger leaves its kernel providers on (no UPDATE with EnableFlags 0). */
    @Test
    void aKernelBufferingSessionIsDumpedWithItsKernelProvidersLeftOn() throws Exception {
        backend.startSession(config(dir.resolve("ring.etl")).modes(LogFileMode.BUFFERING, LogFileMode.SYSTEM_LOGGER)
                .kernelFlags(EnumSet.of(KernelFlag.PROCESS, KernelFlag.THREAD, KernelFlag.CSWITCH)).build());
        int flags = rec.last("StartTraceW").props().getInt(EtwLayout.ETP_ENABLE_FLAGS);
        assertEquals(0x1 | 0x2 | 0x10, flags);
        rec.answer("jetw").enableFlags = flags; // what the running system logger reports
        backend.dumpSession("jetw", dir.resolve("dump.etl"));
        for (RecordingNativeEtw.Call c : rec.calls("ControlTraceW")) {
            assertTrue(c.controlCode != EtwConstants.EVENT_TRACE_CONTROL_UPDATE, "no UPDATE: it could end the kernel providers");
        }
        // and the recorder's rule (an UPDATE whose EnableFlags differ from the session's) held: rulesHeld()
    }

    /** dumpOnExit and the selftest's buffering step: a flush of a ring started with file= writes the ring there. */
    @Test
    void aRingsFlushWritesItToItsConfiguredFile() throws Exception {
        Path ring = dir.resolve("ring.etl");
        backend.startSession(config(ring).modes(LogFileMode.BUFFERING).build());
        assertEquals(ring.toString(), backend.flushSession("jetw").logFile());
        RecordingNativeEtw.Call flush = rec.last("ControlTraceW");
        assertEquals(EtwConstants.EVENT_TRACE_CONTROL_FLUSH, flush.controlCode);
        assertEquals(ring.toString(), RecordingNativeEtw.wideAt(flush.props(), flush.props().getInt(EtwLayout.X64.etpLogFileNameOffset())));

        backend.stopSession("jetw");
        backend.startSession(config(null).modes(LogFileMode.BUFFERING).build()); // dumpOnExit=false: no file
        backend.flushSession("jetw");
        assertEquals(0, rec.last("ControlTraceW").props().getInt(EtwLayout.X64.etpLogFileNameOffset()),
                "no file: no offset to an empty name");
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
