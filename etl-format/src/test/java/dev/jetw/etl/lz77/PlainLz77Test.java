package dev.jetw.etl.lz77;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** [MS-XCA] Plain LZ77: the worked examples of §3.1, the length forms of §2.4, and malformed streams. */
class PlainLz77Test {

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    private static byte[] decode(byte[] in, int limit) throws Lz77Exception {
        byte[] out = new byte[limit];
        int n = PlainLz77.decompress(in, 0, in.length, out, 0, limit);
        return Arrays.copyOf(out, n);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void specExampleAlphabetIsAllLiterals() throws Lz77Exception {
        // §3.1: 26 literals; flag word 0x0000003f (26 zero bits, then 1s where the input ends).
        byte[] alphabet = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
        byte[] in = concat(bytes(0x3f, 0x00, 0x00, 0x00), alphabet);
        assertArrayEquals(alphabet, decode(in, 100));
    }

    @Test
    void specExampleAbcTimes100IsThreeLiteralsAndOneLongMatch() throws Lz77Exception {
        // §3.1: "abc" x 100 = ff ff ff 1f 61 62 63 17 00 0f ff 26 01: one match of distance 3, length
        // 297 through the nibble (15), the byte (255) and the u16 (0x0126 = 294) forms.
        byte[] in = bytes(0xff, 0xff, 0xff, 0x1f, 0x61, 0x62, 0x63, 0x17, 0x00, 0x0f, 0xff, 0x26, 0x01);
        byte[] expected = "abc".repeat(100).getBytes(StandardCharsets.US_ASCII);
        assertArrayEquals(expected, decode(in, 300));
    }

    @Test
    void twoLengthSevenMatchesShareOneNibbleByte() throws Lz77Exception {
        // "a", then match d=1 code 7 -> low nibble 2 => length 2+7+3 = 12; match d=1 code 7 -> high nibble 5 => 15.
        // flags: 0 (literal), 1, 1, then 1s: 0x7fffffff.
        byte[] in = bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00, 0x52, 0x07, 0x00);
        byte[] out = decode(in, 64);
        assertEquals(1 + 12 + 15, out.length);
        for (byte b : out) {
            assertEquals('a', b);
        }
    }

    @Test
    void theU32LengthForm() throws Lz77Exception {
        // length code 7, nibble 15, byte 255, u16 0, u32 1000 => 1000 - 22 + 15 + 7 + 3 = 1003 bytes.
        byte[] in = bytes(0xff, 0xff, 0xff, 0x7f, 'z', 0x07, 0x00, 0x0f, 0xff, 0x00, 0x00, 0xe8, 0x03, 0x00, 0x00);
        assertEquals(1004, decode(in, 2000).length);
    }

    @Test
    void aMatchBeforeTheStartIsAnError() {
        byte[] in = bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x08, 0x00); // distance 2 with 1 byte written
        Lz77Exception e = assertThrows(Lz77Exception.class, () -> decode(in, 100));
        assertTrue(e.getMessage().contains("before the start"), e.getMessage());
        assertEquals(5, e.inputPosition());
    }

    @Test
    void moreOutputThanTheLimitIsAnErrorNotAnAllocation() {
        byte[] in = bytes(0xff, 0xff, 0xff, 0x7f, 'z', 0x07, 0x00, 0x0f, 0xff, 0x00, 0x00, 0xff, 0xff, 0xff, 0x7f);
        Lz77Exception e = assertThrows(Lz77Exception.class, () -> decode(in, 4096));
        assertTrue(e.getMessage().contains("runs past the expected 4096"), e.getMessage());
        byte[] literals = concat(bytes(0, 0, 0, 0), "abcdef".getBytes(StandardCharsets.US_ASCII));
        assertThrows(Lz77Exception.class, () -> decode(literals, 5));
    }

    @Test
    void aStreamCutInsideAnItemIsAnError() {
        byte[][] cuts = {
            bytes(0xff, 0xff),                                    // inside the flag word
            bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x07),             // inside a match token
            bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00),       // before the length nibble
            bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00, 0x0f), // before the length byte
        };
        for (byte[] in : cuts) {
            Lz77Exception e = assertThrows(Lz77Exception.class, () -> decode(in, 100), Arrays.toString(in));
            assertTrue(e.getMessage().contains("stream ends inside"), e.getMessage());
        }
    }

    @Test
    void aLongFormBelowItsMinimumIsAnError() {
        byte[] in = bytes(0xff, 0xff, 0xff, 0x7f, 'a', 0x07, 0x00, 0x0f, 0xff, 0x05, 0x00);
        Lz77Exception e = assertThrows(Lz77Exception.class, () -> decode(in, 100));
        assertTrue(e.getMessage().contains("below the minimum"), e.getMessage());
    }
}
