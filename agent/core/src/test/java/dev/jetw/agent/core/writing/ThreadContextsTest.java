package dev.jetw.agent.core.writing;

import dev.jetw.agent.core.RecordingBackend;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etl.EventType;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Thread churn: contexts of ended threads are dropped, their slots reused, their counts kept. */
class ThreadContextsTest {

    private static final String SESSION = "jetw-thread-contexts-test";
    private EtwBackend etw;
    private ClassicProvider provider;

    @BeforeEach
    void start() throws Exception {
        etw = EtwBackends.create("portable");
        etw.startSession(SessionConfig.builder().sessionName(SESSION).modes(LogFileMode.BUFFERING).build());
        provider = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        etw.enableProvider(SESSION, JetwSchema.CONTROL_GUID, TraceLevel.VERBOSE, 0);
    }

    @AfterEach
    void stop() throws Exception {
        provider.close();
        etw.stopSession(SESSION);
    }

    @Test
    void endedThreadsAreDroppedWithoutLosingTheirCounts() throws Exception {
        ThreadContexts contexts = new ThreadContexts(provider);
        int threads = 500;
        int eventsPerThread = 3;
        Set<Integer> slots = new HashSet<>();
        int maxHeld = 0;
        java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
        for (int i = 0; i < threads; i++) {
            AtomicReference<ThreadContext> made = new AtomicReference<>();
            Thread t = new Thread(() -> {
                ThreadContext c = contexts.current();
                contexts.pruneIfDue(); // as the trace writer does on a thread's first event
                made.set(c);
                for (int e = 0; e < eventsPerThread; e++) {
                    c.scratch.payload().clear();
                    c.scratch.payload().putInt(e);
                    if (!provider.write(c.scratch, EventType.INFO, TraceLevel.INFORMATION,
                            JetwSchema.METHOD_CALL_INDEX, 0, -1, 0)) {
                        refused.incrementAndGet();
                    }
                }
            });
            t.start();
            t.join();
            slots.add(made.get().slot);
            maxHeld = Math.max(maxHeld, contexts.size());
        }
        // Each thread took a session buffer; ended threads give theirs back when dropped, so the
        // session (8 buffers, in-memory ring) never ran short.
        assertEquals(0, refused.get(), "events refused");
        assertTrue(maxHeld <= 2 * 64 + 1, "contexts held at most about twice the prune threshold, was " + maxHeld);
        assertTrue(slots.size() < threads / 2, "slots of ended threads are reused: " + slots.size() + " distinct");
        assertEquals((long) threads * eventsPerThread, provider.eventsWritten(), "retired scratches keep their counts");
    }

    @Test
    void aSlotFindsOnlyTheCallingThreadsContext() throws Exception {
        ThreadContexts contexts = new ThreadContexts(provider);
        ThreadContext mine = contexts.current();
        assertSame(mine, contexts.bySlot(mine.slot));
        assertSame(mine, contexts.bySlot(0), "slot 0 falls back to the ThreadLocal");
        AtomicReference<ThreadContext> seenElsewhere = new AtomicReference<>();
        Thread other = new Thread(() -> {
            contexts.current();
            seenElsewhere.set(contexts.bySlot(mine.slot));
        });
        other.start();
        other.join();
        assertNull(seenElsewhere.get(), "another thread's slot is refused");
        assertNull(contexts.bySlot(ThreadContexts.MAX_SLOT), "an unused slot is refused");
        assertNotNull(contexts.bySlot(mine.slot));
    }

    @Test
    void aLookupFromInsideTheContextsOwnCreationGetsABusyStandIn() throws Exception {
        RecordingBackend backend = new RecordingBackend();
        ClassicProvider recorded = ClassicProvider.register(backend, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        ThreadContexts contexts = new ThreadContexts(recorded);
        java.util.List<ThreadContext> nested = new java.util.ArrayList<>();
        // As when bootstrap=true traces a JDK method that the backend's scratch allocation calls.
        backend.onNewScratch = () -> nested.add(contexts.current());
        AtomicReference<ThreadContext> outer = new AtomicReference<>();
        Thread t = new Thread(() -> outer.set(contexts.current()));
        t.start();
        t.join(10_000);
        assertEquals(1, nested.size(), "one nested lookup, no recursion");
        assertTrue(nested.get(0).busy, "the nested lookup gets a busy stand-in, which traces nothing");
        assertNotNull(outer.get().scratch);
        assertTrue(!outer.get().busy && outer.get().slot != 0, "the thread then has its real context");
        assertEquals(1, contexts.size());
    }
}
