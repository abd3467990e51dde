package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process id without ProcessHandle's first-use cost in premain: /proc/self's target on Linux, else ProcessHandle. */
class ProcessIdTest {

    @TempDir
    Path dir;

    @Test
    void theProcessIdIsTheJvmsOwn() {
        assertEquals(ProcessHandle.current().pid(), ProcessId.current());
    }

    @Test
    void procSelfIsReadWhereItExists() {
        assumeTrue(new File("/proc/self").exists(), "no /proc here: ProcessHandle gives it");
        assertEquals(ProcessHandle.current().pid(), ProcessId.ofProcSelf(Path.of("/proc/self")));
    }

    @Test
    void theLinksTargetNameIsThePidAndAnythingElseIsNone() throws IOException {
        Path self = Files.createSymbolicLink(dir.resolve("self"), Path.of("4242")); // as /proc/self: a relative target
        assertEquals(4242, ProcessId.ofProcSelf(self));
        assertEquals(0, ProcessId.ofProcSelf(dir.resolve("missing")), "no such link");
        Files.createDirectory(dir.resolve("not-a-link"));
        assertEquals(0, ProcessId.ofProcSelf(dir.resolve("not-a-link")), "a directory, not a link");
        assertEquals(0, ProcessId.ofProcSelf(Files.createSymbolicLink(dir.resolve("other"), Path.of("not-a-pid"))));
    }
}
