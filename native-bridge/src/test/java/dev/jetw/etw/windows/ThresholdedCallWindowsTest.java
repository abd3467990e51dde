package dev.jetw.etw.windows;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call under the agent's duration threshold, as TraceWriter writes it on Windows: the entry time
 * is read, a slow child is written (START at the child's exit with the child's entry time, END),
 * then the parent's START with the parent's entry time and its END. Each START carries
 * WNODE_FLAG_USE_TIMESTAMP and its own entry time in QPC ticks, whatever the order of the calls;
 * the ENDs leave the time to ETW. (The agent side, that TraceWriter hands the entry time to
 * writeSmallAt, is ThresholdAndExclusionTest in agent/core.)
 */
class ThresholdedCallWindowsTest {

    private static final int USE_TIMESTAMP = CallerTimeStampWindowsTest.USE_TIMESTAMP;

    private RecordingNativeEtw rec;

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    @Test
    void startsWrittenAtExitCarryTheirEntryTimesAndTheFlag() throws EtwException {
        rec = new RecordingNativeEtw(EtwLayout.X64);
        rec.qpcCounter = 1_000_000L;
        rec.qpcFrequency = 10_000_000L; // 100 ns ticks
        ClassicProvider p = rec.enabledProvider(CallerTimeStampWindowsTest.CONTROL, List.of(CallerTimeStampWindowsTest.CLASS));
        EventScratch s = p.newScratch();

        long parentEntry = System.nanoTime();
        long childEntry = parentEntry + 5_000_000L; // 5 ms later
        int parent = p.newInstanceId(s, 0); // taken when the child is written, before the parent's START
        int child = p.newInstanceId(s, 0);
        assertTrue(p.writeSmallAt(s, childEntry, EventType.START, TraceLevel.INFORMATION, 0, child, 0, parent, 7, 4));
        assertTrue(p.writeSmall(s, EventType.END, TraceLevel.INFORMATION, 0, child, 0, parent, 7, 6));
        assertTrue(p.writeSmallAt(s, parentEntry, EventType.START, TraceLevel.INFORMATION, 0, parent, -1, 0, 3, 4));
        assertTrue(p.writeSmall(s, EventType.END, TraceLevel.INFORMATION, 0, parent, -1, 0, 3, 6));

        List<RecordingNativeEtw.Call> calls = rec.calls("TraceEventInstance");
        assertEquals(4, calls.size());
        ByteBuffer childStart = calls.get(0).headerBytes();
        ByteBuffer childEnd = calls.get(1).headerBytes();
        ByteBuffer parentStart = calls.get(2).headerBytes();
        ByteBuffer parentEnd = calls.get(3).headerBytes();
        assertEquals(USE_TIMESTAMP, childStart.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP);
        assertEquals(USE_TIMESTAMP, parentStart.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP);
        assertEquals(0, childEnd.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP, "an END is stamped by ETW");
        assertEquals(0, parentEnd.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP);
        long childTicks = childStart.getLong(EtwLayout.EH_TIMESTAMP);
        long parentTicks = parentStart.getLong(EtwLayout.EH_TIMESTAMP);
        assertEquals(50_000L, childTicks - parentTicks, 1.0, "5 ms = 50,000 ticks of 100 ns, the parent's START first in time");
        assertTrue(parentTicks > 0, "a QPC value, not zero");
    }
}
