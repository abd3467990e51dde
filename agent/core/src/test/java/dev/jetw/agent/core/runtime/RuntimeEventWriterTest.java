package dev.jetw.agent.core.runtime;

import dev.jetw.agent.core.RecordingBackend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionController;
import dev.jetw.etl.TraceLevel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every runtime event the writer has, through the portable backend into a real .etl: each payload
 * decodes with its JvmEventSchema layout to the values given, and each record carries the time given
 * (caller-set time stamps), so a START written together with its END still lies before it.
 */
class RuntimeEventWriterTest {

    @TempDir
    Path dir;

    @Test
    void everyEventDecodesWithItsLayoutAndCarriesTheGivenTimes() throws Exception {
        Path etl = dir.resolve("rt.etl");
        EtwBackend etw = EtwBackends.create("portable");
        long t0 = System.nanoTime() - 50_000_000L; // 50 ms ago: earlier than the writes
        long ms = 1_000_000L;
        try (SessionController session = SessionController.start(etw, SessionConfig.parse("name=rt-test,file=" + etl))) {
            ClassicProvider provider = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
            etw.enableProvider("rt-test", JetwSchema.CONTROL_GUID, TraceLevel.VERBOSE, 0);
            RuntimeEventWriter w = new RuntimeEventWriter(provider, new LinkedHashSet<>(JvmEventSchema.FAMILIES));
            // Subjects' Java ids far above any real thread's: a real one could be a jetw thread of this JVM (JetwThreads).
            w.gcHeap(t0, 7, false, 1000);
            w.gc(t0, t0 + 10 * ms, 7, "G1 Young", "System.gc()", 3 * ms, 4 * ms);
            w.gcPause(t0 + ms, t0 + 4 * ms, 7, "Pause Young");
            w.safepoint(t0 + ms, t0 + 5 * ms, 11, 9_000_021, 99, 2000, "G1CollectFull");
            w.contention(t0 + 2 * ms, t0 + 6 * ms, 12, 9_000_022, 0, 13, 9_000_023, "java.lang.Object");
            w.park(t0 + 3 * ms, t0 + 7 * ms, 12, 9_000_022, -1, "java.util.concurrent.locks.ReentrantLock$NonfairSync");
            w.compilation(t0 + 4 * ms, t0 + 8 * ms, 14, 9_000_024, 300, 4, true, "a.B.c()V", true, 512, 64);
            w.deoptimization(t0 + 5 * ms, 14, 9_000_024, 300, "a.B.c()V", "unstable_if");
            w.classLoad(t0 + 5 * ms, t0 + 6 * ms, 12, 9_000_022, "a.B", "app");
            w.classUnload(t0 + 6 * ms, 0, 0, "a.B", "app");
            w.exception(t0 + 7 * ms, 12, 9_000_022, "java.lang.IllegalStateException", "a.B.c()V", null);
            w.thread(t0 + 8 * ms, true, 15, 9_000_025, true, "worker");
            w.thread(t0 + 9 * ms, false, 15, 9_000_025, true, "worker");
            w.io(t0 + 9 * ms, t0 + 10 * ms, 12, 9_000_022, 3, "example.org:443", 4096);
            w.close();
            w.gc(t0, t0, 8, "after close", "", 0, 0); // nothing after close
            provider.close();
        }
        List<Object[]> got = new ArrayList<>();
        List<String> kinds = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        try (EtlReader r = EtlReader.open(etl)) {
            for (EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                JvmEventSchema.EventClass c = rec.guid() == null ? null : JvmEventSchema.byGuid(rec.guid());
                if (c != null) {
                    assertEquals(c.level, rec.level(), c.name);
                    got.add(c.layout(rec.type()).decode(rec.userData()));
                    kinds.add(c.name + " " + EventType.name(rec.type()));
                    times.add(r.timestamps().hundredNanosSinceStart(rec.rawTimestamp()));
                }
            }
        }
        assertEquals(List.of("JvmGc INFO", "JvmGc START", "JvmGc END", "JvmGcPause START", "JvmGcPause END", "JvmSafepoint START",
                "JvmSafepoint END", "JvmContention START", "JvmContention END", "JvmPark START", "JvmPark END", "JvmJit START", "JvmJit END",
                "JvmJit INFO", "JvmClassLoad START", "JvmClassLoad END", "JvmClassLoad INFO", "JvmException INFO", "JvmThread START",
                "JvmThread END", "JvmIo START", "JvmIo END"), kinds);
        assertArrayEquals(new Object[] {0L, 0L, 7L, "G1 Young", "System.gc()"}, got.get(1));
        assertArrayEquals(new Object[] {0L, 0L, 7L, 3_000_000L, 4_000_000L}, got.get(2));
        assertArrayEquals(new Object[] {11L, 9_000_021L, 99L, 2000L, "G1CollectFull"}, got.get(5));
        assertArrayEquals(new Object[] {12L, 9_000_022L, 0L, 13L, 9_000_023L, "java.lang.Object"}, got.get(7));
        assertArrayEquals(new Object[] {12L, 9_000_022L, -1L, "java.util.concurrent.locks.ReentrantLock$NonfairSync"}, got.get(9));
        assertArrayEquals(new Object[] {14L, 9_000_024L, 300L, 4L, 1L, "a.B.c()V"}, got.get(11));
        assertArrayEquals(new Object[] {14L, 9_000_024L, 300L, 1L, 512L, 64L}, got.get(12));
        assertArrayEquals(new Object[] {12L, 9_000_022L, "java.lang.IllegalStateException", "a.B.c()V", ""}, got.get(17));
        assertArrayEquals(new Object[] {15L, 9_000_025L, 1L, "worker"}, got.get(18));
        assertArrayEquals(new Object[] {12L, 9_000_022L, 3L, 4096L}, got.get(21));
        // Caller-set times: the GC's END lies 10 ms after its START, though both were written back to back.
        assertEquals(100_000L, times.get(2) - times.get(1), 20, "GC END - START in 100 ns units");
        assertTrue(times.get(3) > times.get(1) && times.get(4) < times.get(2), "the pause lies inside the collection");
    }

    @Test
    void onlySelectedFamiliesAreWritten() {
        RecordingBackend b = new RecordingBackend();
        try {
            b.startSession(SessionConfig.parse("name=sel,mode=real-time,realTimeWithoutConsumer=true"));
            ClassicProvider provider = ClassicProvider.register(b, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
            b.listener.onEnable(TraceLevel.VERBOSE, 0, 1);
            Set<String> gcOnly = new LinkedHashSet<>(List.of("gc"));
            RuntimeEventWriter w = new RuntimeEventWriter(provider, gcOnly);
            w.park(0, 1, 1, 1, -1, "x");
            w.exception(0, 1, 1, "x", "y", "z");
            w.gcPause(0, 1, 1, "p");
            assertEquals(List.of(JetwSchema.JVM_GC_PAUSE_INDEX, JetwSchema.JVM_GC_PAUSE_INDEX),
                    b.events.stream().map(e -> e.classIndex).toList());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Events whose subject is one of jetw's own threads (registered in JetwThreads) are left out and counted, by
     * identity: an application thread named like jetw's is written; a safepoint a jetw thread asked for is written
     * (every thread stops); a contention in which only the owner is jetw's is written (the waiter is the application's).
     */
    @Test
    void eventsOfJetwsOwnThreadsAreLeftOutAndCounted() throws Exception {
        Thread jetw = dev.jetw.etw.JetwThreads.register(new Thread(() -> { }, "logger"));
        Thread app = new Thread(() -> { }, "jetw-contender");
        long own = jetw.getId();
        long other = app.getId();
        RecordingBackend b = new RecordingBackend();
        b.startSession(SessionConfig.parse("name=own,mode=real-time,realTimeWithoutConsumer=true"));
        ClassicProvider provider = ClassicProvider.register(b, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        b.listener.onEnable(TraceLevel.VERBOSE, 0, 1);
        RuntimeEventWriter w = new RuntimeEventWriter(provider, new LinkedHashSet<>(JvmEventSchema.FAMILIES));
        w.park(0, 1, 7, own, 1_000_000_000L, "x");
        w.io(0, 1, 7, own, 1, "/tmp/trace.etl", 65536);
        w.thread(0, true, 7, own, false, "logger");
        w.exception(0, 7, own, "x", "y", "z");
        w.contention(0, 1, 7, own, 1, 8, other, "java.lang.Object");
        assertEquals(List.of(), b.events.stream().map(e -> e.classIndex).toList(), "nothing of jetw's thread");
        assertEquals(5, w.ownThreadEvents());

        w.park(0, 1, 8, other, -1, "x");
        w.contention(0, 1, 8, other, 0, 7, own, "java.lang.Object");
        w.safepoint(0, 1, 7, own, 1, 0, "RedefineClasses");
        assertEquals(List.of(JetwSchema.JVM_PARK_INDEX, JetwSchema.JVM_PARK_INDEX, JetwSchema.JVM_CONTENTION_INDEX,
                JetwSchema.JVM_CONTENTION_INDEX, JetwSchema.JVM_SAFEPOINT_INDEX, JetwSchema.JVM_SAFEPOINT_INDEX),
                b.events.stream().map(e -> e.classIndex).toList());
        assertEquals(5, w.ownThreadEvents(), "the application's events are not counted");
    }
}
