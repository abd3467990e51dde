package dev.jetw.etw;

import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClassicProvider#writeReserved} over a backend without reserved space (the Windows case:
 * the interface's default is a plain write): ERROR_NOT_ENOUGH_MEMORY is retried within the
 * patience, any other refusal is final, and only the final outcome is counted.
 */
class ClassicProviderReservedWriteTest {

    /** Refuses the first {@code refusals} writes with {@code code}, then accepts. */
    private static final class RefusingBackend implements ProviderBackend {
        int refusals;
        int code = Win32Error.NOT_ENOUGH_MEMORY;
        int calls;

        @Override
        public EventScratch newScratch() {
            return new EventScratch(ByteBuffer.allocate(EventScratch.INITIAL_PAYLOAD)) { };
        }

        @Override
        public int newInstanceId(EventScratch scratch, int classIndex) {
            return 1;
        }

        @Override
        public int write(EventScratch scratch, int type, int level, int version, int classIndex, int instanceId,
                         int parentClassIndex, int parentInstanceId) {
            calls++;
            return calls <= refusals ? code : Win32Error.SUCCESS;
        }

        @Override
        public int maxPayloadBytes() {
            return 4096;
        }

        @Override
        public void unregister() {
        }
    }

    private final RefusingBackend backend = new RefusingBackend();
    private ClassicProvider provider;
    private EventScratch scratch;

    @BeforeEach
    void register() throws EtwException {
        RecordingBackend etw = new RecordingBackend();
        etw.provider = backend;
        provider = ClassicProvider.register(etw, UUID.randomUUID(), List.of(UUID.randomUUID()));
        provider.onEnable(TraceLevel.VERBOSE, 0, 1);
        scratch = provider.newScratch();
    }

    private boolean writeName(long patienceNanos) {
        scratch.payload(4).putInt(42);
        return provider.writeReserved(scratch, EventType.DC_START, 0, 0, 0, -1, 0, patienceNanos);
    }

    @Test
    void noFreeBufferIsRetriedUntilOneIsFreeAndCountedOnce() {
        backend.refusals = 3;
        assertTrue(writeName(60_000_000_000L));
        assertEquals(4, backend.calls);
        assertEquals(1, provider.eventsWritten());
        assertEquals(0, provider.eventsDropped(), "the refused attempts are not drops");
    }

    @Test
    void noMemoryToGrowThePoolIsRetriedToo() {
        backend.refusals = 2;
        backend.code = Win32Error.OUTOFMEMORY;
        assertTrue(writeName(60_000_000_000L));
        assertEquals(3, backend.calls);
        assertEquals(0, provider.eventsDropped());
    }

    @Test
    void withoutPatienceTheFirstRefusalIsADrop() {
        backend.refusals = 1;
        assertFalse(writeName(0));
        assertEquals(1, backend.calls);
        assertEquals(1, provider.eventsDropped());
        assertEquals(0, provider.eventsWritten());
    }

    @Test
    void otherRefusalsAreNotRetried() {
        backend.refusals = 5;
        backend.code = Win32Error.INVALID_HANDLE;
        assertFalse(writeName(60_000_000_000L));
        assertEquals(1, backend.calls);
        assertEquals(1, provider.eventsDropped());
    }

    @Test
    void aDisabledProviderStopsWaiting() {
        backend.refusals = Integer.MAX_VALUE;
        provider.onDisable();
        assertFalse(writeName(60_000_000_000L));
        assertEquals(1, backend.calls);
    }
}
