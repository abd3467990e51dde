package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Routes raw tracepoint records to a handler by their common_type (the u16 at offset 0, an event's id in its format
 * file), and counts the records it knew and those of other events (skipped). One per decoder; not thread-safe.
 */
final class RecordHandlers {

    /** Decodes one record whose payload starts at {@code r} in {@code b}. */
    interface Handler {
        void handle(int cpu, long ts, ByteBuffer b, int r);
    }

    private final Map<Integer, Handler> handlers = new HashMap<Integer, Handler>();
    long unknown;
    long decoded;

    void put(int eventId, Handler h) {
        handlers.put(eventId, h);
    }

    /** Hands the record at {@code offset} of {@code page} to its event's handler, or counts it unknown. */
    void dispatch(int cpu, long ts, ByteBuffer page, int offset) {
        Handler h = handlers.get(page.getShort(offset) & 0xFFFF);
        if (h == null) {
            unknown++;
            return;
        }
        decoded++;
        h.handle(cpu, ts, page, offset);
    }
}
