package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.TraceFiles;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The portable backend creates its log files by the rules of TraceFiles (docs/agent-options.md "Trace files"). */
class TraceFileSafetyTest {

    private static final byte[] PRECIOUS = "someone else's data\n".getBytes(StandardCharsets.UTF_8);

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    private SessionConfig.Builder config(String name, Path file) {
        return SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(0);
    }

    private EtwException refusedStart(SessionConfig c) {
        EtwException e = assertThrows(EtwException.class, () -> etw.startSession(c));
        assertFalse(etw.listSessions().contains(c.sessionName()));
        return e;
    }

    @Test
    void aSymbolicLinkIsNeverFollowedNorItsTargetTouched() throws Exception {
        Path victim = Files.write(dir.resolve("victim.txt"), PRECIOUS);
        Path link = Files.createSymbolicLink(dir.resolve("trace.etl"), victim);
        for (LogFileMode mode : new LogFileMode[] {LogFileMode.SEQUENTIAL, LogFileMode.BUFFERING}) {
            EtwException e = refusedStart(config(TestSupport.uniqueName("link"), link).modes(mode).overwrite(true).build());
            assertEquals(Win32Error.CANT_ACCESS_FILE, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
            assertTrue(java.util.Arrays.equals(PRECIOUS, Files.readAllBytes(victim)));
            assertTrue(Files.isSymbolicLink(link));
        }
    }

    @Test
    void aDanglingSymbolicLinkDoesNotCreateItsTarget() throws Exception {
        Path target = dir.resolve("elsewhere.txt");
        Path link = Files.createSymbolicLink(dir.resolve("trace.etl"), target);
        EtwException e = refusedStart(config(TestSupport.uniqueName("dangling"), link).build());
        assertEquals(Win32Error.CANT_ACCESS_FILE, e.code());
        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aFileWithSeveralHardLinksIsRefusedEvenWithOverwrite() throws Exception {
        Path original = Files.write(dir.resolve("original.txt"), PRECIOUS);
        Path trace = Files.createLink(dir.resolve("trace.etl"), original);
        EtwException e = refusedStart(config(TestSupport.uniqueName("hard"), trace).overwrite(true).build());
        assertEquals(Win32Error.FILE_EXISTS, e.code());
        assertTrue(e.getMessage().contains("2 hard links"), e.getMessage());
        assertTrue(java.util.Arrays.equals(PRECIOUS, Files.readAllBytes(original)));
    }

    @Test
    void anExistingFileIsKeptUnlessOverwriteAndThenReplacedNotTruncated() throws Exception {
        Path trace = Files.write(dir.resolve("trace.etl"), PRECIOUS);
        EtwException e = refusedStart(config(TestSupport.uniqueName("exists"), trace).build());
        assertEquals(Win32Error.FILE_EXISTS, e.code());
        assertTrue(e.getMessage().contains("overwrite=true"), e.getMessage());
        assertTrue(java.util.Arrays.equals(PRECIOUS, Files.readAllBytes(trace)));

        try (java.nio.channels.FileChannel old = java.nio.channels.FileChannel.open(trace)) {
            String name = TestSupport.uniqueName("overwrite");
            etw.startSession(config(name, trace).overwrite(true).build());
            ClassicProvider p = TestSupport.enabledProvider(etw, name);
            TestSupport.emit(p, p.newScratch(), 1, 1, 0);
            etw.stopSession(name);
            p.close();
            assertEquals(1, EtlLayoutCheck.read(trace).events().size());
            // A new file, not the old one truncated: whoever still holds the old file keeps its data.
            java.nio.ByteBuffer kept = java.nio.ByteBuffer.allocate(PRECIOUS.length + 1);
            old.read(kept, 0);
            assertEquals(PRECIOUS.length, kept.position());
        }
    }

    @Test
    void aDirectoryIsNotAFileToWrite() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("trace.etl"));
        TraceFiles.RefusedException e = assertThrows(TraceFiles.RefusedException.class,
                () -> new TraceFiles(true, TraceFiles.OWNER_ONLY).createNew(sub));
        assertEquals(Win32Error.FILE_EXISTS, e.win32());
        assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
        assertTrue(Files.isDirectory(sub));
    }

    @Test
    void aNewFileIsOwnerOnlyUnlessWidenedOnPurpose() throws Exception {
        assumeTrue(TestSupport.posix(dir), "filePermissions= applies to POSIX file systems; " + dir
                + " has no POSIX permissions (NTFS: the new file inherits its folder's ACL)");
        Path a = dir.resolve("a.etl");
        String name = TestSupport.uniqueName("perm");
        etw.startSession(config(name, a).build());
        etw.stopSession(name);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(a)));

        Path b = dir.resolve("b.etl");
        name = TestSupport.uniqueName("perm");
        etw.startSession(config(name, b).filePermissions("640").build());
        etw.stopSession(name);
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(b)));
    }

    @Test
    void newfileModeNumbersFollowTheSameRules() throws Exception {
        Path victim = Files.write(dir.resolve("victim.txt"), PRECIOUS);
        Files.createSymbolicLink(dir.resolve("t-1.etl"), victim);
        EtwException e = refusedStart(config(TestSupport.uniqueName("newfile"), dir.resolve("t-%d.etl"))
                .modes(LogFileMode.NEWFILE).maximumFileSizeMb(1).build());
        assertEquals(Win32Error.CANT_ACCESS_FILE, e.code());
        assertTrue(java.util.Arrays.equals(PRECIOUS, Files.readAllBytes(victim)));
    }

    @Test
    void filePermissionsAllowsOnlyOwnerReadWriteWithoutExecuteOrWorldWrite() {
        for (String bad : new String[] {"777", "400", "602", "700", "rw", "6400"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> SessionConfig.parse("file=x.etl,filePermissions=" + bad));
            assertTrue(e.getMessage().startsWith("filePermissions=" + bad), e.getMessage());
        }
        assertEquals("644", SessionConfig.parse("file=x.etl,filePermissions=644").filePermissions());
    }

    @Test
    void aReplyGoesIntoTheToolsEmptyFileOrANewOneNeverThroughALinkOrOverData() throws Exception {
        TraceFiles rules = new TraceFiles(false, TraceFiles.OWNER_ONLY);
        byte[] reply = "ok\n".getBytes(StandardCharsets.UTF_8);
        Path empty = Files.createFile(dir.resolve("empty.txt"));
        rules.writeReply(empty, reply);
        assertEquals("ok\n", new String(Files.readAllBytes(empty), StandardCharsets.UTF_8));

        Path fresh = dir.resolve("fresh.txt");
        rules.writeReply(fresh, reply);
        TestSupport.assertPermissionsWherePosix("rw-------", fresh);

        Path victim = Files.write(dir.resolve("victim.txt"), PRECIOUS);
        assertThrows(TraceFiles.RefusedException.class, () -> rules.writeReply(victim, reply));
        Path link = Files.createSymbolicLink(dir.resolve("link.txt"), victim);
        assertThrows(TraceFiles.RefusedException.class, () -> rules.writeReply(link, reply));
        assertTrue(java.util.Arrays.equals(PRECIOUS, Files.readAllBytes(victim)));
    }
}
