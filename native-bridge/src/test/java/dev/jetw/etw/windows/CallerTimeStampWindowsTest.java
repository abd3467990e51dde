package dev.jetw.etw.windows;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.ClockType;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.file.Paths;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Caller-set time stamps on the Windows path: WNODE_FLAG_USE_TIMESTAMP in Flags and the TimeStamp in
 * the session's clock (QPC from QueryPerformanceCounter, FILETIME for system time), for both layouts.
 */
class CallerTimeStampWindowsTest {

    static final UUID CONTROL = UUID.fromString("c0ffee00-0001-4a5b-8c9d-0123456789ab");
    static final UUID CLASS = UUID.fromString("c0ffee00-0002-4a5b-8c9d-0123456789ab");
    static final int USE_TIMESTAMP = 0x200;
    static final int FLAGS = 0x00020000 | 0x00100000;

    RecordingNativeEtw rec;

    static List<EtwLayout> layouts() {
        return List.of(EtwLayout.X64, EtwLayout.X86);
    }

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    private static int flags(ByteBuffer h) {
        return h.getInt(EtwLayout.EH_FLAGS);
    }

    private static long timeStamp(ByteBuffer h) {
        return h.getLong(EtwLayout.EH_TIMESTAMP);
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aPastTimeIsSentOnTheQpcClockWithTheFlag(EtwLayout layout) throws EtwException {
        rec = new RecordingNativeEtw(layout);
        rec.qpcCounter = 5_000_000_000L;
        rec.qpcFrequency = 3_000_000L; // not 10 MHz, so that a missing scale shows
        long before = System.nanoTime();
        ClassicProvider p = rec.enabledProvider(CONTROL, List.of(CLASS)); // anchored when enabled
        long after = System.nanoTime();
        EventScratch s = p.newScratch();
        int id = p.newInstanceId(s, 0);

        long t = System.nanoTime() + 2_000_000_000L; // any reading, here 2 s ahead of the anchor
        assertTrue(p.writeSmallAt(s, t, EventType.START, TraceLevel.INFORMATION, 0, id, -1, 0, 42, 4));
        ByteBuffer h = rec.last("TraceEventInstance").headerBytes();
        assertEquals(FLAGS | USE_TIMESTAMP, flags(h));
        long lowest = 5_000_000_000L + (t - after) * 3 / 1000;
        long highest = 5_000_000_000L + (t - before) * 3 / 1000;
        assertTrue(timeStamp(h) >= lowest - 1 && timeStamp(h) <= highest + 1,
                timeStamp(h) + " outside " + lowest + ".." + highest);

        s.payload(2).putShort((short) 1);
        assertTrue(p.writeAt(s, t, EventType.INFO, TraceLevel.INFORMATION, 0, 0, -1, 0));
        ByteBuffer plain = rec.last("TraceEvent").headerBytes();
        assertEquals(FLAGS | USE_TIMESTAMP, flags(plain));
        assertEquals(timeStamp(h), timeStamp(plain));

        assertTrue(p.writeSmall(s, EventType.END, TraceLevel.INFORMATION, 0, id, -1, 0, 42, 4));
        ByteBuffer now = rec.last("TraceEventInstance").headerBytes();
        assertEquals(FLAGS, flags(now), "an ordinary write lets ETW stamp it");
        assertEquals(0L, timeStamp(now));
    }

    private ClassicProvider enabledInSession(ClockType clock) throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        WindowsBackend backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("10.0"));
        backend.startSession(SessionConfig.builder().sessionName("jetw").logFile(Paths.get("C:\\t\\j.etl"))
                .clock(clock).build());
        ClassicProvider p = ClassicProvider.register(backend, CONTROL, List.of(CLASS));
        backend.enableProvider("jetw", CONTROL, 5, 0);
        return p;
    }

    /**
     * clock=system: the FILETIME is anchored on GetSystemTimePreciseAsFileTime read between two nanoTime
     * readings, so a caller-set time keeps its sub-millisecond part (issue 30 item 6: the anchor was
     * currentTimeMillis, in millisecond steps).
     */
    @Test
    void aSystemTimeSessionGetsFiletimesAnchoredOnThePreciseSystemTime() throws EtwException {
        long before = System.nanoTime();
        ClassicProvider p = enabledInSession(ClockType.SYSTEM);
        long after = System.nanoTime();
        long precise = rec.preciseFileTime; // sub-millisecond digits: 1,234,567 ticks of 100 ns
        EventScratch s = p.newScratch();
        long t = after + 1_000_000_000L + 12_345L; // a reading 1 s and 12.345 us after the enable
        assertTrue(p.writeSmallAt(s, t, EventType.START, 4, 0, p.newInstanceId(s, 0), -1, 0, 1, 4));
        ByteBuffer h = rec.last("TraceEventInstance").headerBytes();
        assertEquals(FLAGS | USE_TIMESTAMP, flags(h));
        long lowest = precise + (t - after) / 100;
        long highest = precise + (t - before) / 100;
        assertTrue(timeStamp(h) >= lowest - 1 && timeStamp(h) <= highest + 1,
                timeStamp(h) + " outside " + lowest + ".." + highest + " (the precise FILETIME advanced by nanoTime)");
        assertEquals(1, rec.calls("TraceEventInstance").size());
    }

    /** Windows 7 has no GetSystemTimePreciseAsFileTime: Instant.now() anchors, not currentTimeMillis. */
    @Test
    void withoutThePreciseCallInstantNowAnchorsTheSystemClock() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        rec.preciseFileTime = 0; // UnsatisfiedLinkError, as JNA reports a missing export
        WindowsBackend backend = new WindowsBackend(rec, EtwLayout.X64, WindowsVersion.parse("6.1"));
        java.time.Instant wallBefore = java.time.Instant.now();
        long[] anchor = backend.preciseSystemTime();
        java.time.Instant wallAfter = java.time.Instant.now();
        long lo = wallBefore.getEpochSecond() * 10_000_000L + wallBefore.getNano() / 100 + EtlFormat.FILETIME_UNIX_EPOCH;
        long hi = wallAfter.getEpochSecond() * 10_000_000L + wallAfter.getNano() / 100 + EtlFormat.FILETIME_UNIX_EPOCH;
        assertTrue(anchor[1] >= lo && anchor[1] <= hi, anchor[1] + " outside " + lo + ".." + hi);
    }

    @Test
    void aCycleClockSessionKeepsTheTimeOfTheCall() throws EtwException {
        ClassicProvider p = enabledInSession(ClockType.CYCLE);
        EventScratch s = p.newScratch();
        assertTrue(p.writeSmallAt(s, System.nanoTime() - 1_000_000L, EventType.START, 4, 0,
                p.newInstanceId(s, 0), -1, 0, 1, 4));
        ByteBuffer h = rec.last("TraceEventInstance").headerBytes();
        assertEquals(FLAGS, flags(h), "no relation of nanoTime to the cycle counter is known");
        assertEquals(0L, timeStamp(h));
    }
}
