package dev.jetw.etw;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The payload buffer starts small and grows once per larger need, up to ETW's 64 KB. */
class EventScratchTest {

    private static EventScratch scratch() {
        return new EventScratch(ByteBuffer.allocate(EventScratch.INITIAL_PAYLOAD)) { };
    }

    @Test
    void aPayloadThatFitsKeepsTheBufferAndClearsIt() {
        EventScratch s = scratch();
        ByteBuffer first = s.payload();
        first.putLong(42L);
        ByteBuffer p = s.payload(EventScratch.INITIAL_PAYLOAD);
        assertSame(first, p);
        assertEquals(0, p.position(), "cleared");
        assertEquals(EventScratch.INITIAL_PAYLOAD, p.limit());
    }

    @Test
    void aLargerPayloadGrowsTheBufferOnceLittleEndian() {
        EventScratch s = scratch();
        ByteBuffer small = s.payload();
        ByteBuffer grown = s.payload(1000);
        assertNotSame(small, grown);
        assertEquals(1000, grown.capacity());
        assertEquals(ByteOrder.LITTLE_ENDIAN, grown.order());
        assertSame(grown, s.payload(), "the grown buffer is the payload from now on");
        assertSame(grown, s.payload(600), "a smaller need keeps it");
        assertEquals(2000, s.payload(1001).capacity(), "at least doubles, so growth happens a few times at most");
    }

    @Test
    void growthStopsAtEtwsEventLimit() {
        EventScratch s = scratch();
        assertEquals(EventScratch.MAX_PAYLOAD, s.payload(10 * EventScratch.MAX_PAYLOAD).capacity());
        assertSame(s.payload(), s.payload(EventScratch.MAX_PAYLOAD + 1), "never beyond 64 KB");
    }
}
