package dev.jetw.agent.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ProcessOwnerTest {

    @Test
    void theEffectiveUidIsTheSecondFieldOfTheUidLine() {
        assertEquals("65534", ProcessOwner.uidOf(List.of("Name:\tjava", "Uid:\t1000\t65534\t65534\t65534", "Gid:\t0\t0\t0\t0")));
        assertNull(ProcessOwner.uidOf(List.of("Name:\tjava")));
    }

    @Test
    void ownProcessNeedsNoNote() {
        String self = Long.toString(ProcessHandle.current().pid());
        assertNull(ProcessOwner.differenceNote(self));
        assertTrue(ProcessOwner.uid(java.nio.file.Paths.get("/proc/self/status")) == null
                || ProcessOwner.uid(java.nio.file.Paths.get("/proc/self/status")).matches("[0-9]+"));
    }

    @AfterEach
    void noLauncher() {
        System.clearProperty(JetwCli.LAUNCHER_PROPERTY);
    }

    @Test
    void anotherUsersJvmIsExplainedInTheUsersNames() {
        // The condition simulated: a JVM of nobody (65534), the tool run by alice (1000), not root, through ./jetw.
        System.setProperty(JetwCli.LAUNCHER_PROPERTY, "./jetw");
        assertEquals("the JVM runs as user nobody (uid 65534), this tool as user alice (uid 1000); only the JVM's own user"
                + " and root may attach to it: run ./jetw status 4242 as nobody (sudo -u nobody ./jetw status 4242) or as root",
                ProcessOwner.otherUserReason("status", "4242", "65534", "nobody", "1000", "alice"));
        assertEquals("the JVM runs as user uid 2001, this tool as user alice (uid 1000); only the JVM's own user and root may"
                + " attach to it: run ./jetw detach 7 as uid 2001 (sudo -u #2001 ./jetw detach 7) or as root",
                ProcessOwner.otherUserReason("detach", "7", "2001", null, "1000", "alice"));
    }

    @Test
    void theCommandToRunAgainIsTheOneTheUserTyped() {
        // java -jar jetw-agent.jar, no launcher: the hint must not speak of a ./jetw the user may not have.
        assertEquals("the JVM runs as user nobody (uid 65534), this tool as user alice (uid 1000); only the JVM's own user"
                + " and root may attach to it: run java -jar jetw-agent.jar attach 4242 as nobody"
                + " (sudo -u nobody java -jar jetw-agent.jar attach 4242) or as root",
                ProcessOwner.otherUserReason("attach", "4242", "65534", "nobody", "1000", "alice"));
        System.setProperty(JetwCli.LAUNCHER_PROPERTY, "/opt/jetw/jetw");
        assertTrue(ProcessOwner.otherUserReason("dump", "9", "2001", null, "1000", "alice")
                .endsWith(": run /opt/jetw/jetw dump 9 as uid 2001 (sudo -u #2001 /opt/jetw/jetw dump 9) or as root"));
    }

    @Test
    void userNamesComeFromThePasswdFile() {
        List<String> passwd = List.of("root:x:0:0:root:/root:/bin/bash", "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin");
        assertEquals("nobody", ProcessOwner.userNameOf(passwd, "65534"));
        assertEquals("root", ProcessOwner.userNameOf(passwd, "0"));
        assertNull(ProcessOwner.userNameOf(passwd, "1000"));
    }

    @Test
    void ownJvmAndRootNeedNoReason() {
        assertNull(ProcessOwner.otherUserReason("status", Long.toString(ProcessHandle.current().pid())));
    }
}
