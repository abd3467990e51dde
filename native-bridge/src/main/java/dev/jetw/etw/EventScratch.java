package dev.jetw.etw;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One thread's reusable event memory. Backends subclass it to keep their native or heap scratch
 * next to the payload buffer, so that a write needs no lookup and no allocation.
 */
public class EventScratch {

    private final ByteBuffer payload;

    protected EventScratch(ByteBuffer payload) {
        this.payload = payload.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Little-endian payload buffer; the caller clears it, fills it, and its position is the length. */
    public final ByteBuffer payload() {
        return payload;
    }
}
