package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * GUIDs in Windows byte order: Data1 (u32), Data2 and Data3 (u16) little-endian, Data4 as is.
 * {@code java.util.UUID} holds the standard rendering, so the first three fields are swapped here.
 */
public final class Guids {

    private Guids() {
    }

    /** Writes {@code guid} at {@code offset} of {@code buf} (absolute; the buffer's order does not matter). */
    public static void put(ByteBuffer buf, int offset, UUID guid) {
        long msb = guid.getMostSignificantBits();
        long lsb = guid.getLeastSignificantBits();
        int data1 = (int) (msb >>> 32);
        int data2 = (int) (msb >>> 16) & 0xFFFF;
        int data3 = (int) msb & 0xFFFF;
        buf.put(offset, (byte) data1);
        buf.put(offset + 1, (byte) (data1 >>> 8));
        buf.put(offset + 2, (byte) (data1 >>> 16));
        buf.put(offset + 3, (byte) (data1 >>> 24));
        buf.put(offset + 4, (byte) data2);
        buf.put(offset + 5, (byte) (data2 >>> 8));
        buf.put(offset + 6, (byte) data3);
        buf.put(offset + 7, (byte) (data3 >>> 8));
        for (int i = 0; i < 8; i++) {
            buf.put(offset + 8 + i, (byte) (lsb >>> (56 - 8 * i)));
        }
    }

    /** Reads a Windows-order GUID at {@code offset} of {@code buf}. */
    public static UUID get(ByteBuffer buf, int offset) {
        long data1 = (buf.get(offset) & 0xFFL) | (buf.get(offset + 1) & 0xFFL) << 8
                | (buf.get(offset + 2) & 0xFFL) << 16 | (buf.get(offset + 3) & 0xFFL) << 24;
        long data2 = (buf.get(offset + 4) & 0xFFL) | (buf.get(offset + 5) & 0xFFL) << 8;
        long data3 = (buf.get(offset + 6) & 0xFFL) | (buf.get(offset + 7) & 0xFFL) << 8;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            lsb = (lsb << 8) | (buf.get(offset + 8 + i) & 0xFFL);
        }
        return new UUID(data1 << 32 | data2 << 16 | data3, lsb);
    }

    /** The 16 bytes of {@code guid} in Windows order. */
    public static byte[] toBytes(UUID guid) {
        ByteBuffer b = ByteBuffer.allocate(16);
        put(b, 0, guid);
        return b.array();
    }
}
