package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.jetw.etw.ffm.FfmDowncalls;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which per-event crossing the Windows backend's binding picks, and the fallback to JNA. */
class EventCrossingsTest {

    private final List<String> lines = new ArrayList<>();
    private final EventCrossing ffm = new Named(EventCrossing.FFM);
    private final EventCrossing jna = new Named(EventCrossing.JNA_DIRECT);
    private int ffmAttempts;

    private EventCrossing choose(int javaFeature, int pointerSize, boolean ffmFails) {
        return EventCrossings.choose(javaFeature, pointerSize, false, () -> {
            ffmAttempts++;
            if (ffmFails) {
                throw new UnsatisfiedLinkError("Error looking up function 'TraceEventInstance'");
            }
            return ffm;
        }, () -> jna, lines::add);
    }

    @Test
    void ffmFromJava24OnSixtyFourBit() {
        assertSame(ffm, choose(24, 8, false));
        assertSame(ffm, choose(25, 8, false));
        assertEquals(List.of(), lines);
    }

    @Test
    void onJava22And23FfmOnlyWhenNativeAccessIsAlreadyEnabled() {
        // There FFM would print the JDK's restricted-method warning into the application's stderr; JNA does not.
        assertSame(jna, EventCrossings.choose(22, 8, false, () -> ffm, () -> jna, lines::add));
        assertSame(jna, EventCrossings.choose(23, 8, false, () -> ffm, () -> jna, lines::add));
        assertSame(ffm, EventCrossings.choose(22, 8, true, () -> ffm, () -> jna, lines::add));
        assertSame(ffm, EventCrossings.choose(23, 8, true, () -> ffm, () -> jna, lines::add));
        assertEquals(List.of(), lines);
    }

    @Test
    void jnaBelowJava22AndOnThirtyTwoBitWithoutTryingFfm() {
        assertSame(jna, choose(8, 8, false));
        assertSame(jna, choose(21, 8, false));
        assertSame(jna, choose(25, 4, false));
        assertEquals(0, ffmAttempts, "FFM is not even tried");
        assertEquals(List.of(), lines);
    }

    @Test
    void aFailingFfmSetupFallsBackToJnaWithOneLine() {
        assertSame(jna, choose(25, 8, true));
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("jetw: FFM downcalls unavailable (java.lang.UnsatisfiedLinkError: Error"
                + " looking up function 'TraceEventInstance'); the per-event ETW calls use JNA direct mapping"), lines.get(0));
    }

    @Test
    void aFailingJnaBindingIsNotSwallowed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EventCrossings.choose(17, 8, false,
                () -> ffm, () -> {
                    throw new IllegalStateException("already bound");
                }, lines::add));
        assertEquals("already bound", e.getMessage());
    }

    @Test
    void readsTheFeatureVersionOfTheRunningJvm() {
        assertEquals(Runtime.version().feature(), EventCrossings.javaFeatureVersion());
    }

    /** The production entry point (what WindowsBackend's loadAdvapi32 runs), bound to the stub in this JVM. */
    @Test
    void theBackendsBindingUsesFfmFromJava22AndJnaBelow() throws IOException {
        assumeTrue(Native.POINTER_SIZE == 8, "the stub pins the x64 layouts; this host is not 64-bit");
        JnaNativeEtw etw = (JnaNativeEtw) JnaNativeEtw.load(StubLibrary.build().toString());
        int feature = Runtime.version().feature();
        boolean ffmExpected = feature >= 24 || (feature >= 22 && EventCrossings.nativeAccessEnabled());
        assertEquals(ffmExpected ? EventCrossing.FFM : EventCrossing.JNA_DIRECT,
                etw.perEventCrossing());
    }

    @Test
    void ffmSetupFailsCleanlyWhereTheApiIsMissingOrForAMissingExport() throws IOException {
        if (Runtime.version().feature() < 22) {
            assertThrows(ReflectiveOperationException.class, FfmDowncalls::open, "no final java.lang.foreign here");
            return;
        }
        assumeTrue(Native.POINTER_SIZE == 8, "64-bit only");
        // libc exports none of the ETW names: the lookup fails before any handle is built, so the
        // FFM crossing stays bindable (the stub tests bind it afterwards in this JVM).
        com.sun.jna.NativeLibrary libc = com.sun.jna.NativeLibrary.getInstance("c");
        Throwable t = assertThrows(Throwable.class, () -> FfmCrossing.bind(libc));
        assertTrue(t instanceof UnsatisfiedLinkError || t instanceof IllegalStateException, t.toString());
        assertEquals(EventCrossing.FFM, ((JnaNativeEtw) StubLibrary.etw(EventCrossing.FFM)).perEventCrossing());
    }

    private static final class Named implements EventCrossing {
        private final String name;

        Named(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int traceEventInstance(long traceHandle, Pointer eventTrace, Pointer instInfo, Pointer parentInstInfo) {
            return 0;
        }

        @Override
        public int traceEvent(long traceHandle, Pointer eventTrace) {
            return 0;
        }

        @Override
        public int createTraceInstanceId(Pointer regHandle, Pointer instInfo) {
            return 0;
        }
    }
}
