package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The window between TraceFiles' checks of a path and what it then does to that path: the test hook
 * swaps the path there for a hard link to, or a symbolic link at, someone else's file, as a local
 * attacker racing jetw would. The other file must come out untouched every time.
 */
class TraceFileRaceTest {

    private static final byte[] PRECIOUS = "someone else's data\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] REPLY = "ok\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    @AfterEach
    void noHook() {
        TraceFiles.afterCheck = p -> { };
    }

    private Path victim() throws IOException {
        return Files.write(dir.resolve("victim.txt"), PRECIOUS);
    }

    private static void swapAfterCheck(Consumer<Path> swap) {
        TraceFiles.afterCheck = path -> {
            swap.accept(path);
            TraceFiles.afterCheck = p -> { }; // once: the reply's own temporary file is not swapped
        };
    }

    private static void replaceWithHardLink(Path path, Path target) {
        try {
            Files.deleteIfExists(path);
            Files.createLink(path, target);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void replaceWithSymbolicLink(Path path, Path target) {
        try {
            Files.deleteIfExists(path);
            Files.createSymbolicLink(path, target);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int links(Path p) throws IOException {
        return ((Number) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    @Test
    void aHardLinkSwappedInForTheToolsEmptyReplyFileIsNotWrittenThrough() throws Exception {
        Path victim = victim();
        Path reply = Files.createFile(dir.resolve("reply.txt"));
        swapAfterCheck(p -> replaceWithHardLink(p, victim));
        new TraceFiles(false, TraceFiles.OWNER_ONLY).writeReply(reply, REPLY);
        assertArrayEquals(PRECIOUS, Files.readAllBytes(victim), "the victim's data");
        assertEquals(1, links(victim), "the swapped-in name was replaced, not written into");
        assertArrayEquals(REPLY, Files.readAllBytes(reply));
        try (var names = Files.list(dir)) {
            assertEquals(2, names.count(), "no temporary file left");
        }
    }

    @Test
    void aSymbolicLinkSwappedInForTheToolsEmptyReplyFileIsNotFollowed() throws Exception {
        Path victim = victim();
        Path reply = Files.createFile(dir.resolve("reply.txt"));
        swapAfterCheck(p -> replaceWithSymbolicLink(p, victim));
        new TraceFiles(false, TraceFiles.OWNER_ONLY).writeReply(reply, REPLY);
        assertArrayEquals(PRECIOUS, Files.readAllBytes(victim));
        assertFalse(Files.isSymbolicLink(reply));
        assertArrayEquals(REPLY, Files.readAllBytes(reply));
    }

    @Test
    void aReplyFileWithASecondHardLinkIsRefused() throws Exception {
        Path victim = victim();
        Path reply = Files.createLink(dir.resolve("reply.txt"), victim);
        assertThrows(TraceFiles.RefusedException.class, () -> new TraceFiles(false, TraceFiles.OWNER_ONLY).writeReply(reply, REPLY));
        assertArrayEquals(PRECIOUS, Files.readAllBytes(victim));
    }

    @Test
    void aHardLinkSwappedInForATraceFileBeingReplacedIsUnlinkedNotTruncated() throws Exception {
        Path victim = victim();
        Path trace = Files.write(dir.resolve("trace.etl"), "old trace".getBytes(StandardCharsets.UTF_8));
        swapAfterCheck(p -> replaceWithHardLink(p, victim));
        try (FileChannel c = new TraceFiles(true, TraceFiles.OWNER_ONLY).createNew(trace)) {
            assertEquals(0, c.size(), "a new file");
        }
        assertArrayEquals(PRECIOUS, Files.readAllBytes(victim));
        assertEquals(1, links(victim));
    }

    @Test
    void aSymbolicLinkCreatedInTheWindowBeforeCreationIsRefused() throws Exception {
        Path victim = victim();
        Path dangling = dir.resolve("not-there.txt");
        for (Path target : new Path[] {victim, dangling}) {
            Path trace = dir.resolve("trace-" + target.getFileName() + ".etl");
            swapAfterCheck(p -> replaceWithSymbolicLink(p, target));
            TraceFiles.RefusedException e = assertThrows(TraceFiles.RefusedException.class,
                    () -> new TraceFiles(true, TraceFiles.OWNER_ONLY).createNew(trace).close());
            assertTrue(e.getMessage().contains("created by someone else"), e.getMessage());
        }
        assertArrayEquals(PRECIOUS, Files.readAllBytes(victim));
        assertFalse(Files.exists(dangling, LinkOption.NOFOLLOW_LINKS), "a dangling link's target is not created");
    }
}
