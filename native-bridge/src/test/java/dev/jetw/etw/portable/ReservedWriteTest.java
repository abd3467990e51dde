package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reserved path (ClassicProvider.writeReserved): name records reach the file whatever the event
 * stream does to the pool — exhausted in sequential mode, overwritten in the buffering ring.
 */
class ReservedWriteTest {

    /** Stream number in the payload of the reserved records; the events use stream 0. */
    private static final int NAMES = 7;

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    private static boolean reserved(ClassicProvider p, EventScratch s, int seq) {
        s.payload(8).putInt(NAMES).putInt(seq);
        return p.writeReserved(s, EventType.DC_START, 0, 1, 0, -1, 0, 0);
    }

    private static List<Integer> seqOfStream(List<EtlLayoutCheck.Event> events, int stream) {
        List<Integer> l = new ArrayList<>();
        for (EtlLayoutCheck.Event e : events) {
            if (e.payloadInt(0) == stream) {
                l.add(e.payloadInt(4));
            }
        }
        return l;
    }

    private static List<Integer> range(int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(i);
        }
        return l;
    }

    @Test
    void sequentialKeepsEveryReservedRecordWhileTheEventsFindNoBuffer() throws Exception {
        String name = TestSupport.uniqueName("reserved-seq");
        Path file = dir.resolve("s.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(2).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        PortableSession session = PortableBackend.session(name);
        session.logger.pause(); // no buffer comes back: the pool stays exhausted
        int names = 500;
        int accepted = 0;
        for (int i = 0; i < 3000; i++) {
            if (TestSupport.emit(p, s, 0, i, 40)) {
                accepted++;
            }
            if (i % 6 == 0) {
                assertTrue(reserved(p, s, i / 6), "reserved record " + i / 6);
            }
        }
        assertTrue(accepted < 3000, "the events did run out of buffers: " + accepted);
        assertEquals(2, etw.querySession(name).numberOfBuffers(), "reserved buffers are not the pool's");
        session.logger.resume();
        SessionStats st = etw.stopSession(name);
        List<EtlLayoutCheck.Event> events = EtlLayoutCheck.read(file).events();
        assertEquals(range(names), seqOfStream(events, NAMES));
        assertEquals(accepted, seqOfStream(events, 0).size());
        assertEquals(3000 - accepted, st.eventsLost(), "only events are lost");
        assertEquals(p.eventsDropped(), st.eventsLost());
        assertEquals(accepted + names, p.eventsWritten());
        assertEquals(events.size(), ReaderCheck.events(file).size());
    }

    @Test
    void bufferingWritesReservedRecordsAfterTheRingWhereNothingOverwritesThem() throws Exception {
        String name = TestSupport.uniqueName("reserved-ring");
        Path file = dir.resolve("r.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .modes(LogFileMode.BUFFERING).minimumBuffers(3).maximumBuffers(4).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int names = 300;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 24));
            if (i % 50 == 0 && i / 50 < names) {
                assertTrue(reserved(p, s, i / 50));
            }
        }
        dev.jetw.etw.SessionStats stats = etw.stopSession(name);
        // Every record reached the ring or the reserved buffers after it: written, nothing left "in buffers".
        assertEquals(p.eventsWritten(), stats.eventsWritten(), "the session's written count equals what the provider emitted");
        List<EtlLayoutCheck.Event> events = EtlLayoutCheck.read(file).events();
        List<Integer> kept = seqOfStream(events, 0);
        assertTrue(kept.size() < n / 10, "the ring overwrote most events: " + kept.size());
        assertEquals(n - 1, (int) kept.get(kept.size() - 1), "the newest events are kept");
        assertFalse(kept.contains(0), "the oldest event was overwritten");
        assertEquals(range(names), seqOfStream(events, NAMES), "every reserved record, though written with the oldest events");
        // In file order the reserved records come after the ring.
        int lastEvent = -1;
        int firstName = -1;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).payloadInt(0) == NAMES && firstName < 0) {
                firstName = i;
            } else if (events.get(i).payloadInt(0) == 0) {
                lastEvent = i;
            }
        }
        assertTrue(firstName > lastEvent, "names after the ring: first name at " + firstName + ", last event at " + lastEvent);
        assertEquals(events.size(), ReaderCheck.events(file).size());
    }

    @Test
    void aReservedWriteAfterStopIsRefusedAndCounted() throws Exception {
        String name = TestSupport.uniqueName("reserved-stop");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(dir.resolve("x.etl")).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        assertTrue(reserved(p, s, 0));
        etw.stopSession(name);
        assertFalse(reserved(p, s, 1));
        assertEquals(1, p.eventsDropped());
        assertEquals(1, p.eventsWritten());
    }
}
