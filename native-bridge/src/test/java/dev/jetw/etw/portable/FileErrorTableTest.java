package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The table of file errors in docs/portable-backend.md ("File errors"), row by row (issue 27, item 5): each
 * row's condition is created, for real where a test can (tmpfs mounts, /proc, links, a second JVM), with the
 * test double of {@link LogFileLock#creator} otherwise, and the message a user reads must be the row's.
 */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "the rows are the Linux and macOS messages; Windows keeps ETW's words")
class FileErrorTableTest {

    private static final PortableBackend ETW = new PortableBackend();

    /** What a condition produced: the message, its Win32 code (0 for an options error) and the placeholders' values. */
    static final class Outcome {
        final String message;
        final int code;
        final Path file;
        long pid;

        Outcome(String message, int code, Path file) {
            this.message = message;
            this.code = code;
            this.file = file;
        }
    }

    interface Condition {
        Outcome create(Path dir) throws Exception;
    }

    private static final Map<String, Condition> CONDITIONS = new LinkedHashMap<>();

    static {
        row("a full file system (a full 64 KB tmpfs)", dir -> {
            try (SmallTmpfs fs = SmallTmpfs.mount(dir.resolve("full"), false)) {
                return refusedStart(fs.dir().resolve("t.etl"));
            }
        });
        row("a read-only file system (a read-only tmpfs)", dir -> {
            try (SmallTmpfs fs = SmallTmpfs.mount(dir.resolve("ro"), true)) {
                return refusedStart(fs.dir().resolve("t.etl"));
            }
        });
        row("a file system that creates no files (file=/proc/self/x.etl)", dir -> {
            Assumptions.assumeTrue(Files.isDirectory(Paths.get("/proc/self")), "no /proc here");
            return refusedStart(Paths.get("/proc/self/x.etl"));
        });
        row("the folder does not exist (removed after the options were checked)", dir -> {
            Path file = Files.createDirectory(dir.resolve("gone")).resolve("t.etl");
            SessionConfig c = config(file, false);
            Files.delete(file.getParent());
            return refusedStart(c);
        });
        row("a file where the folder should be (made after the options were checked)", dir -> {
            Path file = Files.createDirectory(dir.resolve("plain")).resolve("t.etl");
            SessionConfig c = config(file, false);
            Files.delete(file.getParent());
            Files.createFile(file.getParent());
            return refusedStart(c);
        });
        row("the path is a folder (made after the options were checked)", dir -> {
            Path file = dir.resolve("t.etl");
            SessionConfig c = config(file, false);
            Files.createDirectory(file);
            return refusedStart(c);
        });
        row("the file exists (no overwrite=true)", dir -> refusedStart(Files.write(dir.resolve("t.etl"), new byte[] {1})));
        row("the file is a symbolic link", dir -> refusedStart(Files.createSymbolicLink(dir.resolve("t.etl"), dir.resolve("elsewhere"))));
        row("a file name of 300 characters", dir -> refusedStart(dir.resolve(new String(new char[300]).replace('\0', 'a') + ".etl")));
        row("another session of this JVM writes the file", dir -> {
            Path file = dir.resolve("t.etl");
            SessionConfig first = config(file, false);
            ETW.startSession(first);
            try {
                return refusedStart(file);
            } finally {
                ETW.stopSession(first.sessionName());
            }
        });
        row("another JVM's session writes the file (overwrite=true)", dir -> {
            Path file = dir.resolve("t.etl");
            Process child = OverwriteLockTest.startHolder(file, dir.resolve("holder-dump.etl"));
            try {
                OverwriteLockTest.awaitReady(child);
                Outcome o = refusedStart(config(file, true));
                o.pid = child.pid();
                return o;
            } finally {
                child.destroyForcibly().waitFor();
            }
        });
        row("the dump file exists", dir -> {
            SessionConfig c = config(dir.resolve("log.etl"), false);
            ETW.startSession(c);
            Path dump = Files.write(dir.resolve("dump.etl"), new byte[] {1});
            try {
                EtwException e = assertThrows(EtwException.class, () -> ETW.dumpSession(c.sessionName(), dump));
                return new Outcome(e.getMessage(), e.code(), dump);
            } finally {
                ETW.stopSession(c.sessionName());
            }
        });
        row("permission denied (test double: the JDK's AccessDeniedException)", dir -> refusedBy(dir, p -> new AccessDeniedException(p.toString())));
        row("operation not permitted (test double)", dir -> refusedBy(dir, p -> new FileSystemException(p.toString(), null, "Operation not permitted")));
        row("disk quota exceeded (test double)", dir -> refusedBy(dir, p -> new FileSystemException(p.toString(), null, "Disk quota exceeded")));
        row("file too large (test double)", dir -> refusedBy(dir, p -> new IOException("File too large")));
        row("input/output error (test double)", dir -> refusedBy(dir, p -> new IOException("Input/output error")));
        row("too many open files (test double)", dir -> refusedBy(dir, p -> new FileSystemException(p.toString(), null, "Too many open files")));
        row("too many open files in the system (test double)",
                dir -> refusedBy(dir, p -> new FileSystemException(p.toString(), null, "Too many open files in system")));
        row("an error the table does not know (test double: Stale file handle)",
                dir -> refusedBy(dir, p -> new FileSystemException(p.toString(), null, "Stale file handle")));
        row("the disk fills up while tracing (test double; status, stop line)", FileErrorTableTest::diskFillsUp);
        row("options: the folder does not exist", dir -> refusedOptions(dir.resolve("missing").resolve("t.etl")));
        row("options: a file where the folder should be", dir -> refusedOptions(Files.createFile(dir.resolve("plain")).resolve("t.etl")));
    }

    @TempDir
    Path dir;

    @AfterEach
    void realFiles() {
        LogFileLock.creator = TraceFiles::createNew;
    }

    static List<Arguments> rows() throws IOException {
        List<Arguments> rows = new ArrayList<>();
        for (String[] r : table()) {
            rows.add(Arguments.of(r[0], r[2], r[3]));
        }
        return rows;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachRowIsTheMessageTheUserReads(String condition, String win32, String message) throws Exception {
        Condition c = CONDITIONS.get(condition);
        assertNotNull(c, "docs/portable-backend.md lists a condition no test creates: " + condition);
        Outcome o = c.create(dir);
        String expected = message.replace("<file>", o.file.toString()).replace("<folder>", o.file.getParent().toString())
                .replace("<pid>", Long.toString(o.pid));
        assertEquals(expected, o.message, condition);
        assertEquals(win32, o.code == 0 ? "—" : Win32Error.name(o.code) + " " + o.code, condition);
    }

    @Test
    void everyConditionTheTestCreatesIsARowOfTheTable() throws IOException {
        List<String> documented = new ArrayList<>();
        for (String[] r : table()) {
            documented.add(r[0]);
        }
        assertEquals(new ArrayList<>(CONDITIONS.keySet()), documented);
    }

    /** The rows of the "File errors" table: condition, errno, Win32 code, message (without its backticks). */
    private static List<String[]> table() throws IOException {
        Path doc = Paths.get(System.getProperty("jetw.repo.dir", ".."), "docs", "portable-backend.md");
        List<String> lines = Files.readAllLines(doc, StandardCharsets.UTF_8);
        int at = lines.indexOf("## File errors");
        List<String[]> rows = new ArrayList<>();
        for (int i = at + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            String line = lines.get(i);
            if (!line.startsWith("| ") || line.startsWith("| Condition")) {
                continue;
            }
            String[] cells = line.substring(2, line.length() - 2).split(" \\| ");
            cells[3] = cells[3].substring(1, cells[3].length() - 1);
            rows.add(cells);
        }
        return rows;
    }

    private static void row(String condition, Condition c) {
        CONDITIONS.put(condition, c);
    }

    private static SessionConfig config(Path file, boolean overwrite) {
        return SessionConfig.builder().sessionName(TestSupport.uniqueName("fileerror")).logFile(file).overwrite(overwrite)
                .bufferSizeKb(64).build();
    }

    private static Outcome refusedStart(Path file) {
        return refusedStart(config(file, false));
    }

    private static Outcome refusedStart(SessionConfig c) {
        EtwException e = assertThrows(EtwException.class, () -> ETW.startSession(c));
        return new Outcome(e.getMessage(), e.code(), c.logFile());
    }

    /** The test double: creating the log file fails with {@code failure}, as the JDK reports that errno. */
    private static Outcome refusedBy(Path dir, UnaryOperatorPath failure) {
        LogFileLock.creator = (rules, path) -> {
            throw failure.apply(path);
        };
        return refusedStart(dir.resolve("t.etl"));
    }

    interface UnaryOperatorPath {
        IOException apply(Path p);
    }

    private static Outcome refusedOptions(Path file) {
        ConfigException e = assertThrows(ConfigException.class, () -> config(file, false));
        return new Outcome(e.getMessage(), 0, file);
    }

    /** Room for the header and two buffers: the first write error is what status and the stop line show. */
    private static Outcome diskFillsUp(Path dir) throws Exception {
        LogFileLock.creator = (rules, path) -> new FailingFileSystem(rules.createNew(path), 3L * 4096);
        Path file = dir.resolve("t.etl");
        SessionConfig c = SessionConfig.builder().sessionName(TestSupport.uniqueName("fills")).logFile(file).bufferSizeKb(4)
                .flushTimerSeconds(0).build();
        ETW.startSession(c);
        PortableSession session = PortableBackend.session(c.sessionName());
        ClassicProvider p = TestSupport.enabledProvider(ETW, c.sessionName());
        EventScratch s = p.newScratch();
        java.io.PrintStream err = System.err;
        String lastError;
        try {
            System.setErr(new java.io.PrintStream(new java.io.ByteArrayOutputStream(), true, "UTF-8")); // the one line it prints
            for (int i = 0; i < 2_000; i++) {
                TestSupport.emit(p, s, 1, i, 40);
            }
            lastError = ETW.stopSession(c.sessionName()).lastWriteError();
        } finally {
            System.setErr(err);
            p.close();
        }
        return new Outcome(lastError, TraceFiles.win32Code(session.logger.lastError), file);
    }
}
