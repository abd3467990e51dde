package dev.jetw.agent.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AttachApiTest {

    @Test
    void quitCaughtOrIgnoredIsSafeToSignal() {
        assertTrue(AttachApi.quitIsHandled(List.of("Name:\tjava", "SigIgn:\t0000000000000000", "SigCgt:\t0000000101005ccc")));
        assertTrue(AttachApi.quitIsHandled(List.of("SigIgn:\t0000000000000006", "SigCgt:\t0000000101001cc8")));
    }

    @Test
    void quitWithTheDefaultActionWouldKill() {
        // A JVM run with -Xrs from a shell that does not ignore SIGQUIT, or a JVM before its handlers exist.
        assertFalse(AttachApi.quitIsHandled(List.of("SigIgn:\t0000000000000000", "SigCgt:\t0000000101001cc8")));
        assertFalse(AttachApi.quitIsHandled(List.of("SigIgn:\t0000000000000000", "SigCgt:\t0000000000000000")));
    }

    @Test
    void noMasksMeansNothingToCheck() {
        assertTrue(AttachApi.quitIsHandled(List.of("Name:\tx")));
    }
}
