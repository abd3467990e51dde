package dev.jetw.etw;

import dev.jetw.etl.EventType;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ClassicProvider#writeSmall}: the payload word's low bytes are the payload, a bad length
 * is refused and counted, a failing backend is counted and never throws; and a backend that
 * implements only {@code write} gets the same bytes through {@link ProviderBackend}'s default.
 */
class ClassicProviderSmallWriteTest {

    private static final long WORD = 0x8877665544332211L;

    /** Implements only write(): writeSmall reaches it through the interface's default method. */
    private static final class PayloadRecorder implements ProviderBackend {
        final List<byte[]> payloads = new ArrayList<>();
        RuntimeException failure;

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
            if (failure != null) {
                throw failure;
            }
            ByteBuffer p = scratch.payload();
            payloads.add(Arrays.copyOf(p.array(), p.position()));
            return Win32Error.SUCCESS;
        }

        @Override
        public int maxPayloadBytes() {
            return 4096;
        }

        @Override
        public void unregister() {
        }
    }

    private final PayloadRecorder recorder = new PayloadRecorder();
    private ClassicProvider provider;
    private EventScratch scratch;

    @BeforeEach
    void register() throws EtwException {
        RecordingBackend etw = new RecordingBackend();
        etw.provider = recorder;
        provider = ClassicProvider.register(etw, UUID.randomUUID(), List.of(UUID.randomUUID()));
        scratch = provider.newScratch();
    }

    private static byte[] lowBytes(long word, int length) {
        byte[] all = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(word).array();
        return Arrays.copyOf(all, length);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4, 6, 7, 8})
    void theDefaultWritesTheLowBytesOfTheWord(int length) {
        assertTrue(provider.writeSmall(scratch, EventType.START, TraceLevel.INFORMATION, 0, 1, -1, 0, WORD, length));
        assertEquals(1, recorder.payloads.size());
        assertArrayEquals(lowBytes(WORD, length), recorder.payloads.get(0));
        assertEquals(1, provider.eventsWritten());
        assertEquals(0, provider.eventsDropped());
    }

    @Test
    void aLengthOutsideZeroToEightIsRefusedAndCountedAsDropped() {
        assertFalse(provider.writeSmall(scratch, EventType.START, TraceLevel.INFORMATION, 0, 1, -1, 0, WORD, 9));
        assertFalse(provider.writeSmall(scratch, EventType.START, TraceLevel.INFORMATION, 0, 1, -1, 0, WORD, -1));
        assertEquals(0, recorder.payloads.size(), "nothing reached the backend");
        assertEquals(2, provider.eventsDropped());
        assertEquals(0, provider.eventsWritten());
    }

    /** The SPI is public: a backend called directly (not through ClassicProvider) refuses a length over 8 too. */
    @Test
    void thePortableBackendRefusesALengthOverEightOnItsOwn() throws EtwException {
        EtwBackend etw = EtwBackends.create("portable");
        ProviderBackend backend = etw.registerProvider(UUID.randomUUID(), List.of(UUID.randomUUID()), provider);
        try {
            EventScratch s = backend.newScratch();
            assertEquals(Win32Error.INVALID_PARAMETER, backend.writeSmall(s, EventType.START, 4, 0, 0, 1, -1, 0, WORD, 9));
            assertEquals(Win32Error.INVALID_PARAMETER, backend.writeSmall(s, EventType.START, 4, 0, 0, 1, -1, 0, WORD, -1));
        } finally {
            backend.unregister();
        }
    }

    @Test
    void aThrowingBackendIsCountedAsDroppedAndNothingEscapes() {
        recorder.failure = new IllegalStateException("backend bug");
        assertFalse(provider.writeSmall(scratch, EventType.END, TraceLevel.INFORMATION, 0, 1, -1, 0, WORD, 6));
        assertEquals(1, provider.eventsDropped());
        assertEquals(0, provider.eventsWritten());
    }

    @Test
    void smallAndStagedWritesCountTogether() {
        assertTrue(provider.writeSmall(scratch, EventType.START, TraceLevel.INFORMATION, 0, 1, -1, 0, 7L, 4));
        scratch.payload(4).putInt(7);
        assertTrue(provider.write(scratch, EventType.END, TraceLevel.INFORMATION, 0, 1, -1, 0));
        assertEquals(2, provider.eventsWritten());
        assertArrayEquals(recorder.payloads.get(0), recorder.payloads.get(1), "same bytes either way");
    }
}
