package dev.jetw.etw.portable;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scratch's owner flag never makes a thread wait for itself, and a flag that a writer never
 * gave back (a fatal error inside a write) cannot hang a flush or a stop.
 */
class ScratchOwnerTest {

    @TempDir
    Path dir;

    @Test
    void aWriteInsideTheSameThreadsFlushIsRefusedNotAwaited() throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = TestSupport.uniqueName("owner-nested");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(dir.resolve("n.etl")).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        ExecutorService one = Executors.newSingleThreadExecutor();
        try {
            Future<boolean[]> outcome = one.submit(() -> {
                PortableScratch s = (PortableScratch) p.newScratch();
                boolean first = TestSupport.emit(p, s, 1, 1, 0);
                assertTrue(s.acquireForFlusher());
                // As if traced code ran inside this thread's own hand-off and wrote an event.
                boolean nested = TestSupport.emit(p, s, 1, 2, 0);
                s.releaseFlusher();
                boolean after = TestSupport.emit(p, s, 1, 3, 0);
                return new boolean[] {first, nested, after};
            });
            boolean[] r = outcome.get(10, TimeUnit.SECONDS); // a spin on itself would time out here
            assertTrue(r[0], "first write");
            assertFalse(r[1], "the nested write is refused");
            assertTrue(r[2], "writes work again once the flag is back");
            assertEquals(1, p.eventsDropped(), "the refused write is counted");
        } finally {
            one.shutdownNow();
            p.close();
            etw.stopSession(name);
        }
    }

    @Test
    void aFlagNeverGivenBackCostsThatBufferNotTheStop() throws Exception {
        PortableBackend etw = new PortableBackend();
        String name = TestSupport.uniqueName("owner-stuck");
        Path file = dir.resolve("s.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch healthy = p.newScratch();
        PortableScratch stuck = (PortableScratch) p.newScratch();
        for (int i = 0; i < 5; i++) {
            assertTrue(TestSupport.emit(p, healthy, 1, i, 0));
            assertTrue(TestSupport.emit(p, stuck, 2, i, 0));
        }
        assertTrue(stuck.acquireForWriter(), "the flag taken and never given back");
        p.close();
        SessionStats stats = etw.stopSession(name); // waits about FLUSHER_PATIENCE_NANOS for the stuck flag
        assertEquals(5, stats.eventsLost(), "the stuck buffer's events count as lost");
        int fromHealthy = 0;
        int fromStuck = 0;
        try (EtlReader r = EtlReader.open(file)) {
            for (EtlRecord e; (e = r.next()) != null; ) {
                if (e.isLogfileHeader()) {
                    continue;
                }
                int stream = java.nio.ByteBuffer.wrap(e.userData()).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(0);
                fromHealthy += stream == 1 ? 1 : 0;
                fromStuck += stream == 2 ? 1 : 0;
            }
        }
        assertEquals(5, fromHealthy, "the other thread's events are all in the file");
        assertEquals(0, fromStuck);
    }
}
