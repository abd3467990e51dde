package dev.jetw.agent.core.writing;

import java.nio.ByteBuffer;

/** Payload helpers that allocate nothing: JetwSchema's strings are UTF-16LE, NUL-terminated. */
public final class Payloads {

    private Payloads() {
    }

    /** Bytes {@code s} takes as UTF-16Z (null as the empty string). */
    public static int utf16zBytes(String s) {
        return 2 * ((s == null ? 0 : s.length()) + 1);
    }

    /**
     * Writes {@code s} as UTF-16Z. A string too long for the buffer is cut so that the terminator
     * always fits; the provider's own size limit then applies on top.
     */
    public static void putUtf16z(ByteBuffer b, String s) {
        if (s != null) {
            int n = s.length();
            for (int i = 0; i < n && b.remaining() >= 4; i++) {
                b.putChar(s.charAt(i));
            }
        }
        if (b.remaining() >= 2) {
            b.putChar('\0');
        }
    }
}
