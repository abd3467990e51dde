package dev.jetw.agent.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
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
}
