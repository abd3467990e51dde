package dev.jetw.etw.windows;

import com.sun.jna.Native;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 30 items 1 and 2 end to end through the real JNA binding and the gcc-built stub: the
 * WindowsBackend and WindowsProvider of one "JVM" next to sessions of others (a second backend over
 * the same stub stands for a killed JVM's leftover session, or for WPR). The stub keeps every enable
 * of a control GUID, calls a provider back for each when it registers, and counts the events each
 * session receives (BuffersWritten of a QUERY).
 */
class StubOwnSessionTest {

    private static final UUID CONTROL = UUID.fromString("4b7c2d1e-0f3a-4e5b-9c6d-7e8f9a0b1c2d");
    private static final UUID CLASS = UUID.fromString("5c8d3e2f-1a4b-4f6c-8d7e-9f0a1b2c3d4e");

    @TempDir
    Path dir;

    private NativeEtw etw;

    @BeforeEach
    void bind() throws IOException {
        assumeTrue(Native.POINTER_SIZE == 8, "the stub pins the x64 layouts; this host is not 64-bit");
        etw = StubLibrary.etw();
        StubLibrary.recorder().stub_reset();
    }

    private WindowsBackend backend() {
        return new WindowsBackend(etw, EtwLayout.X64, WindowsVersion.parse("10.0"));
    }

    private SessionConfig session(String name) {
        return SessionConfig.builder().sessionName(name).logFile(dir.resolve(name + ".etl")).build();
    }

    private static boolean writeOne(ClassicProvider provider) {
        EventScratch s = provider.newScratch();
        s.payload().clear();
        return provider.write(s, EventType.START, TraceLevel.INFORMATION, 0, provider.newInstanceId(s, 0), -1, 0);
    }

    @Test
    void aKilledJvmsSessionThatStillEnablesTheGuidGetsNoneOfTheNextJvmsEvents() throws EtwException {
        WindowsBackend dead = backend();
        dead.startSession(session("jetw-dead"));
        dead.enableProvider("jetw-dead", CONTROL, TraceLevel.VERBOSE, 0); // its provider is gone; the enable stays

        WindowsBackend jvm = backend();
        ClassicProvider provider = ClassicProvider.register(jvm, CONTROL, List.of(CLASS)); // called back for jetw-dead
        jvm.startSession(session("jetw-live"));
        jvm.enableProvider("jetw-live", CONTROL, TraceLevel.VERBOSE, 0);
        assertTrue(writeOne(provider));
        assertTrue(writeOne(provider));

        assertEquals(2, jvm.querySession("jetw-live").buffersWritten(), "both events in the JVM's own session");
        assertEquals(0, dead.querySession("jetw-dead").buffersWritten(), "none in the leftover's file");
        provider.close();
    }

    @Test
    void anotherSessionEnablingAndDisablingTheGuidNeitherTakesNorStopsTheEvents() throws EtwException {
        WindowsBackend jvm = backend();
        jvm.startSession(session("jetw-live"));
        ClassicProvider provider = ClassicProvider.register(jvm, CONTROL, List.of(CLASS));
        jvm.enableProvider("jetw-live", CONTROL, TraceLevel.VERBOSE, 0);

        WindowsBackend wpr = backend();
        wpr.startSession(session("other-tool"));
        wpr.enableProvider("other-tool", CONTROL, TraceLevel.VERBOSE, 0);
        assertTrue(writeOne(provider), "still enabled after a foreign enable");
        wpr.disableProvider("other-tool", CONTROL);
        assertTrue(provider.isEnabled(TraceLevel.INFORMATION), "a disable from another session is not jetw's");
        assertTrue(writeOne(provider), "still writing after a foreign disable");

        assertEquals(2, jvm.querySession("jetw-live").buffersWritten());
        assertEquals(0, wpr.querySession("other-tool").buffersWritten());

        jvm.disableProvider("jetw-live", CONTROL);
        assertFalse(provider.isEnabled(), "the own session's disable stops it");
        provider.close();
    }
}
