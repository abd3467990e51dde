package dev.jetw.etw;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * One thread's reusable event memory. Backends subclass it to keep their native or heap scratch
 * next to the payload buffer, so that a write needs no lookup and no allocation.
 *
 * <p>The payload buffer starts small ({@link #INITIAL_PAYLOAD} bytes: a method id, an exception
 * class name) and grows, by one allocation, the first time a thread writes a larger payload, up to
 * ETW's 64 KB event limit: an application with thousands of threads keeps a few hundred bytes per
 * traced thread, not 64 KB.
 */
public class EventScratch {

    /** The payload capacity a scratch starts with. */
    public static final int INITIAL_PAYLOAD = 256;
    /** The largest payload ETW can take (an event is at most 64 KB); no payload buffer grows beyond it. */
    public static final int MAX_PAYLOAD = 64 * 1024;

    private ByteBuffer payload;
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

    /**
     * Little-endian payload buffer; the caller clears it, fills it, and its position is the length.
     * It holds at least {@link #INITIAL_PAYLOAD} bytes; use {@link #payload(int)} for more.
     */
    public final ByteBuffer payload() {
        return payload;
    }

    /**
     * The payload buffer, cleared, with room for {@code bytes} (at most {@link #MAX_PAYLOAD}): a
     * larger buffer replaces the current one the first time a payload needs it.
     */
    public final ByteBuffer payload(int bytes) {
        ByteBuffer p = payload;
        if (bytes > p.capacity() && p.capacity() < MAX_PAYLOAD) {
            int capacity = Math.min(MAX_PAYLOAD, Math.max(bytes, 2 * p.capacity()));
            p = newPayload(capacity).order(ByteOrder.LITTLE_ENDIAN);
            payload = p;
        }
        p.clear();
        return p;
    }

    /**
     * A payload buffer of {@code capacity} bytes, for {@link #payload(int)}. Backends whose native
     * calls point at the payload override it to allocate native memory and note its address.
     */
    protected ByteBuffer newPayload(int capacity) {
        return ByteBuffer.allocate(capacity);
    }
}
