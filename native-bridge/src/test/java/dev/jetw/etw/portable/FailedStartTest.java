package dev.jetw.etw.portable;

import dev.jetw.etw.EtwException;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A start that fails removes what it created (issue 27, item 4): a full disk at start left a 0-byte file,
 * and the retry once space was freed failed with ERROR_FILE_EXISTS (80).
 */
class FailedStartTest {

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    @AfterEach
    void realFiles() {
        LogFileLock.creator = TraceFiles::createNew;
    }

    enum Mode {
        SEQUENTIAL, CIRCULAR, NEWFILE
    }

    private static SessionConfig config(Path file, Mode mode) {
        SessionConfig.Builder b = SessionConfig.builder().sessionName(TestSupport.uniqueName("failstart")).logFile(file);
        if (mode != Mode.SEQUENTIAL) {
            b.modes(mode == Mode.CIRCULAR ? LogFileMode.CIRCULAR : LogFileMode.NEWFILE).maximumFileSizeMb(1);
        }
        return b.build();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aFullDiskAtStartLeavesNoFileAndTheRetrySucceeds(Mode mode) throws Exception {
        LogFileLock.creator = (rules, path) -> new FailingFileSystem(rules.createNew(path), 0); // not even the header fits
        Path file = dir.resolve(mode == Mode.NEWFILE ? "full%d.etl" : "full.etl");
        Path created = mode == Mode.NEWFILE ? dir.resolve("full1.etl") : file;
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(config(file, mode)));
        assertEquals(Win32Error.DISK_FULL, e.code(), e.getMessage());
        assertFalse(Files.exists(created), "the failed start removed the file it created");

        LogFileLock.creator = TraceFiles::createNew; // space freed
        SessionConfig retry = config(file, mode);
        etw.startSession(retry);
        etw.stopSession(retry.sessionName());
        assertEquals(1, EtlLayoutCheck.read(created).buffersWritten);
    }

    @Test
    void aFullTmpfsAtStartLeavesNoFileAndTheRetrySucceeds() throws Exception {
        try (SmallTmpfs fs = SmallTmpfs.mount(dir.resolve("full"), false)) {
            Path file = fs.dir().resolve("trace.etl");
            EtwException e = assertThrows(EtwException.class, () -> etw.startSession(config(file, Mode.SEQUENTIAL)));
            assertEquals(Win32Error.DISK_FULL, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertFalse(Files.exists(file), "the failed start removed the file it created");

            fs.free();
            SessionConfig retry = config(file, Mode.SEQUENTIAL);
            etw.startSession(retry);
            etw.stopSession(retry.sessionName());
            assertEquals(1, EtlLayoutCheck.read(file).buffersWritten);
        }
    }
}
