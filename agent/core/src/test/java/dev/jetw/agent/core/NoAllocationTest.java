package dev.jetw.agent.core;

import dev.jetw.etw.EnableListener;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.ProviderBackend;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Hot;
import testapp.Quick;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** After warm-up the event path allocates nothing: measured with the JVM's per-thread allocation counter. */
class NoAllocationTest {

    @TempDir
    Path dir;

    @AfterEach
    void detach() {
        AgentHarness.detachQuietly();
    }

    /** A backend whose writes succeed and keep nothing, so only the agent's own allocations count. */
    static final class CountingBackend implements EtwBackend {
        volatile EnableListener listener;
        long writes;
        int ids;

        public String name() { return "counting"; }
        public SessionStats startSession(SessionConfig c) { return null; }
        public SessionStats querySession(String n) { return null; }
        public SessionStats flushSession(String n) { return null; }
        public SessionStats updateSession(SessionConfig c) { return null; }
        public SessionStats stopSession(String n) { return null; }
        public List<String> listSessions() { return Collections.emptyList(); }
        public void enableProvider(String s, UUID g, int level, int flags) { listener.onEnable(level, flags, 1); }
        public void disableProvider(String s, UUID g) { listener.onDisable(); }

        public ProviderBackend registerProvider(UUID g, List<UUID> classes, EnableListener l) {
            listener = l;
            return new ProviderBackend() {
                public EventScratch newScratch() { return new EventScratch(ByteBuffer.allocate(4096)) { }; }
                public int newInstanceId(EventScratch s, int c) { synchronized (CountingBackend.this) { return ++ids; } }
                public int write(EventScratch s, int type, int level, int version, int c, int id, int pc, int pid) {
                    synchronized (CountingBackend.this) { writes++; }
                    return 0;
                }
                public int maxPayloadBytes() { return 4000; }
                public void unregister() { }
            };
        }
    }

    @Test
    void tracedCallsAndCheckpointsAllocateNothingAfterWarmUp() {
        CountingBackend backend = new CountingBackend();
        // adaptive=false: Hot's methods are hot and short, and would otherwise stop emitting after their first calls.
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Hot,adaptive=false", AgentHarness.inst(), backend);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        Hot hot = new Hot();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        int sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += hot.outer(i);
        }
        long writesBefore = backend.writes;
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 20_000; i++) {
            sink += hot.outer(i);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        long writes = backend.writes - writesBefore;
        AgentHarness.detach();
        assertEquals(20_000L * 8, writes, "3 START + 3 END + 2 CHECKPOINT per iteration were written");
        // 160,000 events; a single allocation per event would be >= 16 bytes each. Allow the counter's own noise.
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes for " + writes + " events (sink " + sink + ")");
    }

    @Test
    void callsUnderTheThresholdAllocateAndWriteNothing() {
        CountingBackend backend = new CountingBackend();
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Quick@1s,adaptive=false",
                AgentHarness.inst(), backend);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        Quick quick = new Quick();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        long sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += quick.outer(i);
        }
        long writesBefore = backend.writes;
        int idsBefore = backend.ids;
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 20_000; i++) {
            sink += quick.outer(i);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        long writes = backend.writes - writesBefore;
        int ids = backend.ids - idsBefore;
        AgentHarness.detach();
        assertEquals(0L, writes, "60,000 calls under the 1 s threshold wrote nothing");
        assertEquals(0, ids, "and took no instance id");
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes for 60,000 thresholded calls (sink " + sink + ")");
    }
}
