package dev.jetw.etl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class GuidsTest {

    @Test
    void writesWindowsByteOrderAsTheFactSheetShows() {
        // etw-api.md §9.1: {9e814aad-3204-11d2-9a82-006008a86939} -> ad4a819e 0432 d211 9a82006008a86939
        byte[] expected = {(byte) 0xad, 0x4a, (byte) 0x81, (byte) 0x9e, 0x04, 0x32, (byte) 0xd2, 0x11,
            (byte) 0x9a, (byte) 0x82, 0x00, 0x60, 0x08, (byte) 0xa8, 0x69, 0x39};
        assertArrayEquals(expected, Guids.toBytes(UUID.fromString("9e814aad-3204-11d2-9a82-006008a86939")));
    }

    @Test
    void readsBackWhatItWrites() {
        UUID u = UUID.randomUUID();
        ByteBuffer b = ByteBuffer.allocate(20);
        Guids.put(b, 3, u);
        assertEquals(u, Guids.get(b, 3));
    }
}
