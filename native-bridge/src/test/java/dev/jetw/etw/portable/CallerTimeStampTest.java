package dev.jetw.etw.portable;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.ClockType;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** writeAt / writeSmallAt: the record carries the given time in the session's clock, not the time of the call. */
class CallerTimeStampTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = ClockType.class, names = {"QPC", "SYSTEM"})
    void pastTimesAreWrittenInTheSessionClock(ClockType clock) throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = TestSupport.uniqueName("ts-" + clock);
        Path file = dir.resolve("ts.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).clock(clock).flushTimerSeconds(0)
                .build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();

        long entry = System.nanoTime();
        Thread.sleep(20);
        int id = p.newInstanceId(s, 0);
        assertTrue(p.writeSmall(s, EventType.END, TraceLevel.INFORMATION, 0, id, -1, 0, 7, 4));
        long exit = System.nanoTime();
        assertTrue(p.writeSmallAt(s, entry, EventType.START, TraceLevel.INFORMATION, 0, id, -1, 0, 7, 4));
        s.payload(2).putShort((short) 9);
        assertTrue(p.writeAt(s, exit, EventType.CHECKPOINT, TraceLevel.INFORMATION, 0, id, -1, 0));
        assertEquals(3, p.eventsWritten());
        etw.stopSession(name);

        List<EtlRecord> records = new ArrayList<>();
        try (EtlReader r = EtlReader.open(file)) {
            for (EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.instanceId() == id) {
                    records.add(rec);
                }
            }
        }
        assertEquals(3, records.size());
        EtlRecord end = records.get(0);
        EtlRecord start = records.get(1);
        EtlRecord checkpoint = records.get(2);
        assertEquals(EventType.START, start.type());
        long startTicks = start.rawTimestamp();
        long checkpointTicks = checkpoint.rawTimestamp();
        // The START written after the END carries the entry time: 20 ms (200,000 ticks of 100 ns) before it.
        assertTrue(end.rawTimestamp() - startTicks >= 200_000, "START " + startTicks + " END " + end.rawTimestamp());
        assertEquals((exit - entry) / 100, checkpointTicks - startTicks, 1);
        if (clock == ClockType.QPC) {
            assertEquals(entry / 100, startTicks);
            assertEquals(exit / 100, checkpointTicks);
        }
    }
}
