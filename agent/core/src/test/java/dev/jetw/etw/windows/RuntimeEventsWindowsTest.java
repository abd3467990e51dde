package dev.jetw.etw.windows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.agent.core.RuntimeEventWriter;
import dev.jetw.agent.core.RuntimeEventWriters;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventType;
import java.nio.ByteBuffer;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The runtime event classes on the Windows path, through the recorder for both layouts: each START and
 * END goes out as TraceEventInstance of its JvmEventSchema class with WNODE_FLAG_USE_TIMESTAMP and the
 * JVM's time converted to the QPC clock (the END 10 ms after the START although written back to back),
 * an INFO as TraceEvent, and the MOF payload decodes with the class's layout.
 */
class RuntimeEventsWindowsTest {

    static final long LOGGER = 0x0000_0000_0042_0007L;
    static final int USE_TIMESTAMP = 0x200;

    RecordingNativeEtw rec;

    static List<EtwLayout> layouts() {
        return List.of(EtwLayout.X64, EtwLayout.X86);
    }

    @AfterEach
    void rulesHeld() {
        rec.assertNoViolations();
    }

    @ParameterizedTest
    @MethodSource("layouts")
    void aContendedMonitorAndAHeapSummaryGoOutWithTheJvmsTimes(EtwLayout layout) throws Exception {
        rec = new RecordingNativeEtw(layout);
        rec.qpcCounter = 7_000_000_000L;
        rec.qpcFrequency = 10_000_000L; // 100 ns ticks
        ClassicProvider p = ClassicProvider.register(new WindowsBackend(rec, layout, WindowsVersion.parse("10.0")),
                JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        rec.enable(LOGGER, 5, 0);
        RuntimeEventWriter w = RuntimeEventWriters.create(p, new LinkedHashSet<>(JvmEventSchema.FAMILIES));
        long start = System.nanoTime() - 50_000_000L;
        w.contention(start, start + 10_000_000L, 4242, 17, 0, 4343, 1, "java.lang.Object");

        RecordingNativeEtw.Call end = rec.last("TraceEventInstance");
        RecordingNativeEtw.Call begin = rec.calls.get(rec.calls.indexOf(end) - 1);
        assertEquals("TraceEventInstance", begin.function);
        for (RecordingNativeEtw.Call c : List.of(begin, end)) {
            ByteBuffer h = c.headerBytes();
            assertEquals(USE_TIMESTAMP, h.getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP, "caller-set time stamp flag");
            assertEquals(4, h.get(EtwLayout.EH_CLASS_LEVEL) & 0xFF, "level information");
        }
        assertEquals(EventType.START, begin.headerBytes().get(EtwLayout.EH_CLASS_TYPE) & 0xFF);
        assertEquals(EventType.END, end.headerBytes().get(EtwLayout.EH_CLASS_TYPE) & 0xFF);
        assertEquals(100_000L, end.headerBytes().getLong(EtwLayout.EH_TIMESTAMP) - begin.headerBytes().getLong(EtwLayout.EH_TIMESTAMP), 1,
                "10 ms apart in 100 ns QPC ticks");
        assertArrayEquals(new Object[] {4242L, 17L, 0L, 4343L, 1L, "java.lang.Object"},
                JvmEventSchema.CONTENTION.layout(EventType.START).decode(begin.payload));
        assertArrayEquals(new Object[] {4242L, 17L, 0L}, JvmEventSchema.CONTENTION.layout(EventType.END).decode(end.payload));

        w.gcHeap(start, 3, true, 123_456_789L);
        RecordingNativeEtw.Call info = rec.last("TraceEvent");
        assertTrue(info.payload.length == 32, "16 subject + 4 + 4 + 8 bytes");
        assertEquals(USE_TIMESTAMP, info.headerBytes().getInt(EtwLayout.EH_FLAGS) & USE_TIMESTAMP);
        assertArrayEquals(new Object[] {0L, 0L, 3L, 1L, 123_456_789L}, JvmEventSchema.GC.layout(EventType.INFO).decode(info.payload));
    }
}
