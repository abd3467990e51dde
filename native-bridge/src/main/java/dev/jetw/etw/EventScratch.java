package dev.jetw.etw;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One thread's reusable event memory. Backends subclass it to keep their native or heap scratch
 * next to the payload buffer, so that a write needs no lookup and no allocation.
 */
public class EventScratch {

    private final ByteBuffer payload;
    /**
     * Events this scratch's thread wrote: counted by its one writer with a plain increment (a
     * shared atomic counter would cost a CAS per event) and summed by {@link ClassicProvider},
     * whose readers see a value at most a few events old. A separate small object, so that the
     * provider can keep counting a scratch's events without keeping the scratch itself.
     */
    final WrittenCount written = new WrittenCount();

    /** See {@link EventScratch#written}. */
    static final class WrittenCount {
        long value;
    }

    protected EventScratch(ByteBuffer payload) {
        this.payload = payload.order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Little-endian payload buffer; the caller clears it, fills it, and its position is the length. */
    public final ByteBuffer payload() {
        return payload;
    }
}
