package dev.jetw.etl;

import java.nio.ByteBuffer;

/**
 * How a writer marks an event it had to cut to the size limit, and how a reader recognises one: the
 * payload's last four bytes are {@link #CHARACTER} and a UTF-16 NUL, so the string it ends in stays
 * NUL-terminated and every decoder shows the cut ("com.acme.Fo…"). The event keeps its version, so
 * decoders that match on it still decode it. The mark assumes the payload's last field is a UTF-16
 * string at an even offset, as in {@link JetwSchema}.
 */
public final class TruncationMark {

    /** U+2026 HORIZONTAL ELLIPSIS: the last character of a cut event's payload, before its NUL. */
    public static final char CHARACTER = '\u2026';
    /** The mark and the NUL after it, in UTF-16LE. */
    public static final int BYTES = 4;

    private TruncationMark() {
    }

    /** Ends {@code payload} at {@code length} with the mark and a NUL (when there is room for them). */
    public static void cut(ByteBuffer payload, int length) {
        if (length >= BYTES) {
            payload.put(length - 4, (byte) (CHARACTER & 0xFF));
            payload.put(length - 3, (byte) (CHARACTER >>> 8));
            payload.put(length - 2, (byte) 0);
            payload.put(length - 1, (byte) 0);
        }
        payload.position(length);
    }

    /**
     * True when {@code payload} (an event's user data) ends with the mark and a NUL: the writer cut it.
     * A string that itself ended in U+2026 at the very end of a payload reads the same; class, method
     * and exception names never end so, a checkpoint label could.
     */
    public static boolean endsPayload(byte[] payload) {
        int n = payload.length;
        return n >= BYTES && payload[n - 4] == (byte) (CHARACTER & 0xFF)
                && payload[n - 3] == (byte) (CHARACTER >>> 8) && payload[n - 2] == 0 && payload[n - 1] == 0;
    }
}
