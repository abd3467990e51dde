package dev.jetw.etw;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.FileSystemException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each row of the table of file errors in both platforms' words: Linux and macOS get the errno name, the
 * OS's words and the row's advice, never a Win32 code or Windows advice; Windows gets ETW's code and advice.
 * (What a user reads for each condition is FileErrorTableTest's, against docs/portable-backend.md.)
 */
class FileErrorTest {

    @ParameterizedTest
    @EnumSource(FileError.class)
    void theOsWordsFindTheirRow(FileError row) {
        assertEquals(row, FileError.of(new FileSystemException("/x/a.etl", null, row.text())));
        assertEquals(row, FileError.of(new IOException(row.text())), "a write's plain IOException");
        assertEquals(row.win32(), TraceFiles.win32Code(new IOException(row.text())));
    }

    @ParameterizedTest
    @EnumSource(FileError.class)
    void linuxAndMacOsWordsCarryNoWindowsCodeOrAdvice(FileError row) {
        String m = EtwException.file("StartTraceW", "log file /x/a.etl", new FileSystemException("/x/a.etl", null, row.text()), false)
                .getMessage();
        assertEquals("StartTraceW failed: " + row.describe() + ": log file /x/a.etl. " + row.advice(), m);
        assertFalse(m.contains("ERROR_") || m.contains("Windows") || m.contains("Administrator") || m.contains("logman"), m);
        assertEquals(row.text() + " (" + row.name() + ")", FileError.inWords(new IOException(row.text()), false));
    }

    @ParameterizedTest
    @EnumSource(FileError.class)
    void windowsWordsAreEtwsCodeAndAdvice(FileError row) {
        EtwException e = EtwException.file("StartTraceW", "log file C:\\x\\a.etl", new IOException(row.text()), true);
        String advice = Win32Error.advice("StartTraceW", row.win32());
        assertEquals("StartTraceW failed: " + Win32Error.name(row.win32()) + " (" + row.win32() + "): log file C:\\x\\a.etl: "
                + row.text() + (advice == null ? "" : ". " + advice), e.getMessage());
        assertEquals(row.win32(), e.code());
        assertFalse(e.getMessage().contains(row.name() + " ("), "no errno name on Windows: " + e.getMessage());
        assertTrue(FileError.inWords(new IOException(row.text()), true).endsWith("(" + Win32Error.name(row.win32()) + " " + row.win32() + ")"));
    }
}
