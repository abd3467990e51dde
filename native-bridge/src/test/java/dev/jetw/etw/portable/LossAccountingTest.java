package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.FileError;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * emitted = written + dropped + lost, exactly, with a disk that fills up (an injected channel: a
 * small tmpfs is not available to tests), and file errors reported in the operating system's words.
 */
class LossAccountingTest {

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    @AfterEach
    void realFiles() {
        LogFileLock.creator = dev.jetw.etw.TraceFiles::createNew;
    }

    @Test
    void aFullDiskAddsUpAndIsReportedOnceInItsOwnWords() throws Exception {
        int bufferSize = 4096;
        // Room for the header buffer and three data buffers.
        LogFileLock.creator = (rules, path) -> new FailingFileSystem(rules.createNew(path), 4L * bufferSize);
        Path file = dir.resolve("full.etl");
        String name = TestSupport.uniqueName("full");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(4).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        SessionStats st;
        try {
            System.setErr(new PrintStream(captured, true, "UTF-8"));
            for (int i = 0; i < 20_000; i++) {
                TestSupport.emit(p, s, 1, i, 40);
            }
            st = etw.stopSession(name);
        } finally {
            System.setErr(err);
        }
        p.close();
        long emitted = p.eventsWritten() + p.eventsDropped();
        assertEquals(20_000, emitted);
        assertTrue(st.eventsInLostBuffers() > 0, st.toString());
        // Every event is in exactly one place; the refused ones are among the provider's dropped.
        assertEquals(p.eventsDropped(), st.eventsRefused());
        assertEquals(emitted, st.eventsWritten() + st.eventsRefused() + st.eventsInLostBuffers());
        assertEquals(st.eventsRefused() + st.eventsInLostBuffers(), st.eventsLost());

        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(st.eventsWritten(), f.events().size(), "written means: in the file");
        assertEquals(st.eventsLost(), f.eventsLost);
        assertEquals(st.logBuffersLost(), f.buffersLost);

        assertTrue(st.lastWriteError().startsWith(FileError.WINDOWS ? "No space left on device (ERROR_DISK_FULL 112)"
                : "No space left on device (ENOSPC)"), st.lastWriteError());
        String[] lines = captured.toString("UTF-8").trim().split("\n");
        assertEquals(1, lines.length, captured.toString("UTF-8"));
        assertTrue(lines[0].contains("No space left on device"), lines[0]);
    }

    @Test
    void aReadOnlyFileSystemIsWriteProtectNotAccessDenied() {
        LogFileLock.creator = (rules, path) -> {
            throw new FileSystemException(path.toString(), null, "Read-only file system");
        };
        Path file = dir.resolve("ro.etl");
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(SessionConfig.builder()
                .sessionName(TestSupport.uniqueName("ro")).logFile(file).build()));
        assertEquals(Win32Error.WRITE_PROTECT, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains(FileError.WINDOWS ? "log file " + file + ": Read-only file system"
                : "EROFS (Read-only file system): log file " + file), e.getMessage());
        assertFalse(e.getMessage().contains("Administrator"), e.getMessage());
    }

    @Test
    void aDiskFullAtStartIsDiskFull() {
        LogFileLock.creator = (rules, path) -> {
            throw new FileSystemException(path.toString(), null, "No space left on device");
        };
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(SessionConfig.builder()
                .sessionName(TestSupport.uniqueName("nospace")).logFile(dir.resolve("n.etl")).build()));
        assertEquals(Win32Error.DISK_FULL, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
        assertNotEquals(Win32Error.ACCESS_DENIED, e.code());
    }

    @Test
    void writtenIsWhatReachedTheFileAndEveryRefusalIsDroppedNotAlsoLost() throws Exception {
        Path file = dir.resolve("ok.etl");
        String name = TestSupport.uniqueName("ok");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(2).flushTimerSeconds(0).build());
        PortableBackend.session(name).logger.pause(); // a stalled disk: writers run out of buffers
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 2_000; i++) {
            TestSupport.emit(p, s, 1, i, 40);
        }
        PortableBackend.session(name).logger.resume();
        SessionStats st = etw.stopSession(name);
        p.close();
        assertTrue(p.eventsDropped() > 0);
        assertEquals(0, st.eventsInLostBuffers());
        assertEquals(p.eventsDropped(), st.eventsRefused());
        assertEquals(p.eventsWritten(), st.eventsWritten());
        assertEquals(p.eventsWritten(), EtlLayoutCheck.read(file).events().size());
        assertEquals(null, st.lastWriteError());
    }
}
