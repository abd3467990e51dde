package dev.jetw.etl.lz77;

/**
 * Decoder of [MS-XCA] "Plain LZ77" (Xpress without Huffman, §2.4 of the specification), the
 * compression the ETW Relogger applies to buffers flagged ETW_BUFFER_FLAG_COMPRESSED.
 *
 * <p>The stream is groups of a 32-bit little-endian flag word followed by up to 32 items; the flag
 * bits are read most significant first: 0 is one literal byte, 1 a 16-bit little-endian match token
 * (distance = (token &gt;&gt; 3) + 1, length code = token &amp; 7, where code 7 continues in a nibble
 * shared by two matches, nibble 15 in a byte, byte 255 in a u16 and a u16 of 0 in a u32). The stream
 * ends when the input is exhausted where a match token would be read.
 *
 * <p>Written for hostile input: every read is bounds-checked, the output never grows past the
 * caller's limit (a match claiming more is an error, not an allocation), a match reaching before
 * the start of the output is an error, and every step consumes input, so decoding ends after at
 * most one step per input byte. Errors are {@link Lz77Exception}s naming the input position.
 */
public final class PlainLz77 {

    private PlainLz77() {
    }

    /**
     * Decodes {@code in[inOffset, inOffset + inLength)} into {@code out} from {@code outOffset}, writing
     * at most {@code outLimit} bytes.
     *
     * @return the number of bytes written
     * @throws Lz77Exception if the stream is malformed, truncated, or decodes to more than {@code outLimit}
     */
    public static int decompress(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLimit)
            throws Lz77Exception {
        if (inOffset < 0 || inLength < 0 || inOffset + inLength > in.length || outOffset < 0 || outLimit < 0
                || outOffset + outLimit > out.length) {
            throw new IllegalArgumentException("ranges outside the arrays");
        }
        Input src = new Input(in, inOffset, inLength);
        int written = 0;
        int flags = 0;
        int flagsLeft = 0;
        int sharedNibbleAt = -1; // input position of the byte whose high nibble the next length-7 match uses
        while (true) {
            if (flagsLeft == 0) {
                if (src.remaining() == 0) {
                    return written; // ended on a group boundary
                }
                flags = src.u32("flag word");
                flagsLeft = 32;
            }
            flagsLeft--;
            if ((flags >>> flagsLeft & 1) == 0) {
                if (src.remaining() == 0) {
                    return written; // an encoder may leave the unused flag bits 0 as well as 1
                }
                if (written == outLimit) {
                    throw new Lz77Exception(src.position(), "literal past the expected " + outLimit + " bytes of output");
                }
                out[outOffset + written++] = (byte) src.u8("literal");
                continue;
            }
            if (src.remaining() == 0) {
                return written; // the normal end: input exhausted where a match would start
            }
            int tokenAt = src.position();
            int token = src.u16("match token");
            int distance = (token >>> 3) + 1;
            long length = token & 7;
            if (length == 7) {
                if (sharedNibbleAt < 0) {
                    sharedNibbleAt = src.position();
                    length = src.u8("length nibble") & 0xF;
                } else {
                    length = src.at(sharedNibbleAt) >>> 4;
                    sharedNibbleAt = -1;
                }
                if (length == 15) {
                    length = src.u8("length byte");
                    if (length == 255) {
                        length = src.u16("length u16");
                        if (length == 0) {
                            length = src.u32("length u32") & 0xFFFFFFFFL;
                        }
                        if (length < 15 + 7) {
                            throw new Lz77Exception(tokenAt, "match length " + length + " below the minimum 22 of its form");
                        }
                        length -= 15 + 7;
                    }
                    length += 15;
                }
                length += 7;
            }
            length += 3;
            if (distance > written) {
                throw new Lz77Exception(tokenAt, "match distance " + distance + " reaches before the start of the output ("
                        + written + " bytes written)");
            }
            if (length > outLimit - written) {
                throw new Lz77Exception(tokenAt, "match of " + length + " bytes runs past the expected " + outLimit
                        + " bytes of output (" + written + " written)");
            }
            // Byte by byte: source and destination overlap when length > distance (a run).
            int to = outOffset + written;
            for (int i = 0; i < length; i++, to++) {
                out[to] = out[to - distance];
            }
            written += (int) length;
        }
    }

    /** Bounds-checked little-endian reads of the compressed stream. */
    private static final class Input {
        private final byte[] bytes;
        private final int start;
        private final int end;
        private int pos;

        Input(byte[] bytes, int offset, int length) {
            this.bytes = bytes;
            this.start = offset;
            this.end = offset + length;
            this.pos = offset;
        }

        int remaining() {
            return end - pos;
        }

        /** Position relative to the start of the stream. */
        int position() {
            return pos - start;
        }

        int at(int position) {
            return bytes[start + position] & 0xFF;
        }

        private void need(int n, String what) throws Lz77Exception {
            if (end - pos < n) {
                throw new Lz77Exception(position(), "stream ends inside a " + what + " (" + (end - pos) + " of "
                        + n + " bytes left)");
            }
        }

        int u8(String what) throws Lz77Exception {
            need(1, what);
            return bytes[pos++] & 0xFF;
        }

        int u16(String what) throws Lz77Exception {
            need(2, what);
            int v = (bytes[pos] & 0xFF) | (bytes[pos + 1] & 0xFF) << 8;
            pos += 2;
            return v;
        }

        int u32(String what) throws Lz77Exception {
            need(4, what);
            int v = (bytes[pos] & 0xFF) | (bytes[pos + 1] & 0xFF) << 8 | (bytes[pos + 2] & 0xFF) << 16
                    | (bytes[pos + 3] & 0xFF) << 24;
            pos += 4;
            return v;
        }
    }
}
