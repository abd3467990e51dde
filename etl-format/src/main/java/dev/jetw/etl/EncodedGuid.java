package dev.jetw.etl;


import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.UUID;

/**
 * A GUID encoded once in its Windows byte order and kept as the two little-endian 64-bit words
 * of those 16 bytes, so that the record writer, which runs on every event, stores it with two
 * long writes instead of re-encoding a {@link UUID} byte by byte.
 */
public final class EncodedGuid {

    /** The zero GUID: the ParentGuid of an instance event without a parent. */
    public static final EncodedGuid ZERO = new EncodedGuid(new UUID(0L, 0L));

    private final UUID guid;
    /** Bytes 0-7 (Data1, Data2, Data3) as a little-endian long. */
    final long low;
    /** Bytes 8-15 (Data4) as a little-endian long. */
    final long high;

    private EncodedGuid(UUID guid) {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        Guids.put(b, 0, guid);
        this.guid = guid;
        this.low = b.getLong(0);
        this.high = b.getLong(8);
    }

    public static EncodedGuid of(UUID guid) {
        return guid.getMostSignificantBits() == 0 && guid.getLeastSignificantBits() == 0 ? ZERO : new EncodedGuid(guid);
    }

    public UUID guid() {
        return guid;
    }

    @Override
    public String toString() {
        return guid.toString();
    }
}
