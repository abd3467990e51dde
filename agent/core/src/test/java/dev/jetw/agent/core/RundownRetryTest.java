package dev.jetw.agent.core;

import dev.jetw.etl.JetwSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Calls;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rundown over a backend without reserved space (the Windows case, through the recorder, whose
 * writes refuse with ERROR_NOT_ENOUGH_MEMORY as TraceEvent does when no buffer is free): method
 * names are retried by the agent's thread until written; a thread whose name was refused on its
 * own thread, which never waits, is named by the rundown at stop, also after it has ended.
 */
class RundownRetryTest {

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    @Test
    void methodNamesRefusedForWantOfABufferAreRetriedUntilWritten() {
        RecordingBackend b = new RecordingBackend();
        AtomicInteger refusals = new AtomicInteger(20);
        b.noFreeBuffer = cls -> cls == JetwSchema.METHOD_INDEX && refusals.getAndDecrement() > 0;
        AgentHarness.attach(b, dir, "include=testapp.Calls");
        assertEquals(116, new Calls().run());
        String status = AgentMain.run("command=status", AgentHarness.inst(), null);
        AgentHarness.detach();
        assertTrue(refusals.get() < 0, "every refusal was used: " + refusals.get());
        TraceModel t = TraceModel.of(b);
        for (String m : new String[] {"run", "middle", "leaf", "safeFail", "fail"}) {
            assertTrue(t.methodStarts.containsValue("testapp.Calls." + m), m + " named by a DC_START: " + t.methodStarts);
        }
        assertTrue(status.contains("events dropped:      0 ("), status);
    }

    @Test
    void threadsWhoseNameWasRefusedAreNamedAtStopEvenWhenEnded() throws Exception {
        RecordingBackend b = new RecordingBackend();
        AgentHarness.attach(b, dir, "include=testapp.Calls");
        b.noFreeBuffer = cls -> cls == JetwSchema.THREAD_INDEX;
        // More threads than the first pruning point (64 contexts): the early ones are dropped as ended.
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            Thread w = new Thread(() -> new Calls().run(), "refused-" + i);
            w.start();
            w.join();
            threads.add(w);
        }
        b.noFreeBuffer = null;
        AgentHarness.detach();
        TraceModel t = TraceModel.of(b);
        TreeSet<String> unnamed = new TreeSet<>();
        for (Thread w : threads) {
            List<String> names = t.threadEnds.get(w.getId());
            if (names == null || !names.contains(w.getName())) {
                unnamed.add(w.getName());
            }
            assertTrue(t.threadStarts.get(w.getId()) == null, "its DC_START was refused");
        }
        assertEquals(new TreeSet<String>(), unnamed, "threads without a DC_END name");
    }
}
