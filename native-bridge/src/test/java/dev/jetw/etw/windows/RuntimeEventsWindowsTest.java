package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JVM runtime event classes on the Windows path, through the recorder for both layouts, as the
 * agent's RuntimeEventWriter writes them (its encoding is checked against JvmEventSchema by the core's
 * RuntimeEventWriterTest): the provider registered with all JetwSchema classes, a START and END of
 * JvmContention as TraceEventInstance with WNODE_FLAG_USE_TIMESTAMP and the JVM's times in the QPC clock
 * (10 ms apart though written back to back), a JvmGc heap INFO as TraceEvent, each MOF payload decoding
 * with its layout.
 */
class RuntimeEventsWindowsTest {

    static final int USE_TIMESTAMP = 0x200;

    RecordingNativeEtw rec;

    static List<EtwLayout> layouts() {
        return List.of(EtwLayout.X64, EtwLayout.X86);
    }

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    private static void utf16z(ByteBuffer p, String s) {
        for (int i = 0; i < s.length(); i++) {
            p.putChar(s.charAt(i));
        }
        p.putChar('\0');
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void runtimeEventsGoOutWithTheJvmsTimesAndTheirLayouts(EtwLayout layout) throws Exception {
        rec = new RecordingNativeEtw(layout);
        rec.qpcCounter = 7_000_000_000L;
        rec.qpcFrequency = 10_000_000L; // 100 ns ticks
        ClassicProvider p = rec.enabledProvider(JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        EventScratch s = p.newScratch();
        int cls = JvmEventSchema.CONTENTION.index;
        int id = p.newInstanceId(s, cls);
        long start = System.nanoTime() - 50_000_000L;

        ByteBuffer b = s.payload(64);
        b.putLong(4242).putLong(17).putInt(0).putLong(4343).putLong(1);
        utf16z(b, "java.lang.Object");
        assertTrue(p.writeAt(s, start, EventType.START, 4, cls, id, -1, 0));
        RecordingNativeEtw.Call begin = rec.last("TraceEventInstance");
        s.payload(20).putLong(4242).putLong(17).putInt(0);
        assertTrue(p.writeAt(s, start + 10_000_000L, EventType.END, 4, cls, id, -1, 0));
        RecordingNativeEtw.Call end = rec.last("TraceEventInstance");

        for (RecordingNativeEtw.Call c : List.of(begin, end)) {
            ByteBuffer h = c.headerBytes();
            assertEquals(USE_TIMESTAMP, h.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP, "caller-set time stamp flag");
            assertEquals(4, h.get(EtwLayout.EH_CLASS_LEVEL) & 0xFF);
        }
        assertEquals(EventType.START, begin.headerBytes().get(EtwLayout.EH_CLASS_TYPE) & 0xFF);
        assertEquals(EventType.END, end.headerBytes().get(EtwLayout.EH_CLASS_TYPE) & 0xFF);
        assertEquals(100_000L, end.headerBytes().getLong(EtwLayout.EH_TIMESTAMP) - begin.headerBytes().getLong(EtwLayout.EH_TIMESTAMP), 1,
                "10 ms apart in 100 ns QPC ticks");
        assertArrayEquals(new Object[] {4242L, 17L, 0L, 4343L, 1L, "java.lang.Object"},
                JvmEventSchema.CONTENTION.layout(EventType.START).decode(begin.payload));
        assertArrayEquals(new Object[] {4242L, 17L, 0L}, JvmEventSchema.CONTENTION.layout(EventType.END).decode(end.payload));

        s.payload(32).putLong(0).putLong(0).putInt(3).putInt(1).putLong(123_456_789L);
        assertTrue(p.writeAt(s, start, EventType.INFO, 4, JvmEventSchema.GC.index, 0, -1, 0));
        RecordingNativeEtw.Call info = rec.last("TraceEvent");
        assertEquals(32, info.payload.length);
        assertEquals(USE_TIMESTAMP, info.headerBytes().getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP);
        assertEquals(begin.headerBytes().getLong(EtwLayout.EH_TIMESTAMP), info.headerBytes().getLong(EtwLayout.EH_TIMESTAMP));
        assertArrayEquals(new Object[] {0L, 0L, 3L, 1L, 123_456_789L}, JvmEventSchema.GC.layout(EventType.INFO).decode(info.payload));
    }
}
