package dev.jetw.analysis.kernel;

import java.nio.charset.StandardCharsets;

/**
 * Reads a kernel event's payload field by field, little-endian, with the record's pointer size.
 * Every read is bounds-checked: reading past the end throws {@link PayloadEnded}, which the decoder turns
 * into "payload ends before field X" while keeping the fields read so far. Shared with the manifest
 * decoder ({@code dev.jetw.analysis.manifest}), whose events are read the same way.
 */
public final class PayloadCursor {

    /** The payload ends before the field being read. */
    public static final class PayloadEnded extends Exception {
        private static final long serialVersionUID = 1L;

        PayloadEnded(String message) {
            super(message, null, false, false);
        }
    }

    private final byte[] data;
    private final int pointerSize;
    private int pos;

    public PayloadCursor(byte[] data, int pointerSize) {
        this.data = data;
        this.pointerSize = pointerSize;
    }

    public int position() {
        return pos;
    }

    public int remaining() {
        return data.length - pos;
    }

    public int pointerSize() {
        return pointerSize;
    }

    private void need(int n, String field) throws PayloadEnded {
        if (data.length - pos < n) {
            throw new PayloadEnded("payload ends at byte " + data.length + ", inside or before field " + field);
        }
    }

    public int u8(String field) throws PayloadEnded {
        need(1, field);
        return data[pos++] & 0xFF;
    }

    public int s8(String field) throws PayloadEnded {
        need(1, field);
        return data[pos++];
    }

    public int u16(String field) throws PayloadEnded {
        need(2, field);
        int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8;
        pos += 2;
        return v;
    }

    public int s32(String field) throws PayloadEnded {
        need(4, field);
        int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8 | (data[pos + 2] & 0xFF) << 16 | data[pos + 3] << 24;
        pos += 4;
        return v;
    }

    /** An unsigned 32-bit value. */
    public long u32(String field) throws PayloadEnded {
        return s32(field) & 0xFFFFFFFFL;
    }

    public long u64(String field) throws PayloadEnded {
        long lo = u32(field);
        long hi = u32(field);
        return hi << 32 | lo;
    }

    /** A pointer-sized value (4 or 8 bytes by the record's header type), unsigned. */
    public long pointer(String field) throws PayloadEnded {
        return pointerSize == 8 ? u64(field) : u32(field);
    }

    public void skip(int n, String field) throws PayloadEnded {
        need(n, field);
        pos += n;
    }

    /** {@code n} raw bytes (an address in network order). */
    public byte[] bytes(int n, String field) throws PayloadEnded {
        need(n, field);
        byte[] b = java.util.Arrays.copyOfRange(data, pos, pos + n);
        pos += n;
        return b;
    }

    /** A fixed array of {@code chars} UTF-16LE code units; the text ends at the first NUL (the rest is padding). */
    public String utf16Fixed(int chars, String field) throws PayloadEnded {
        need(2 * chars, field);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < chars; i++) {
            char c = (char) ((data[pos + 2 * i] & 0xFF) | (data[pos + 2 * i + 1] & 0xFF) << 8);
            if (c == 0) {
                break;
            }
            s.append(c);
        }
        pos += 2 * chars;
        return s.toString();
    }

    /**
     * A NUL-terminated 8-bit string: Windows ANSI, decoded as Latin-1, unless its bytes are valid UTF-8 with some
     * beyond ASCII (the portable backend writes a Linux comm as UTF-8; Windows ANSI text beyond ASCII is almost
     * never valid UTF-8). A missing NUL ends at the payload end.
     */
    public String ansiz(String field) throws PayloadEnded {
        need(1, field);
        int start = pos;
        boolean ascii = true;
        while (pos < data.length && data[pos] != 0) {
            ascii &= data[pos] >= 0;
            pos++;
        }
        String s = ascii ? new String(data, start, pos - start, StandardCharsets.ISO_8859_1) : utf8OrLatin1(start, pos);
        if (pos < data.length) {
            pos++;
        }
        return s;
    }

    private String utf8OrLatin1(int from, int to) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(data, from, to - from)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return new String(data, from, to - from, StandardCharsets.ISO_8859_1);
        }
    }

    /** A NUL-terminated UTF-16LE string. A missing NUL ends at the payload end. */
    public String utf16z(String field) throws PayloadEnded {
        need(2, field);
        StringBuilder s = new StringBuilder();
        while (data.length - pos >= 2) {
            char c = (char) ((data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8);
            pos += 2;
            if (c == 0) {
                return s.toString();
            }
            s.append(c);
        }
        pos = data.length;
        return s.toString();
    }

    /**
     * A security identifier as kernel events log it: a 4-byte 0 when absent, else a TOKEN_USER
     * (2 pointers) followed by the SID (8 bytes + 4 per sub-authority). Returns the SID as "S-1-5-18".
     */
    public String sid(String field) throws PayloadEnded {
        need(4, field);
        if (data[pos] == 0 && data[pos + 1] == 0 && data[pos + 2] == 0 && data[pos + 3] == 0) {
            pos += 4;
            return null;
        }
        skip(2 * pointerSize, field);
        int revision = u8(field);
        int count = u8(field);
        need(6 + 4 * count, field);
        long authority = 0;
        for (int i = 0; i < 6; i++) {
            authority = authority << 8 | (data[pos++] & 0xFF);
        }
        StringBuilder s = new StringBuilder("S-").append(revision).append('-').append(authority);
        for (int i = 0; i < count; i++) {
            s.append('-').append(u32(field));
        }
        return s.toString();
    }
}
