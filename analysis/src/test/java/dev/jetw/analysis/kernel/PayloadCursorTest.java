package dev.jetw.analysis.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * ANSI strings (a Process record's ImageFileName): Windows ANSI as Latin-1, but valid UTF-8 beyond ASCII as UTF-8,
 * the portable backend's Linux comm ("日本語" stays whole, as Thread/SetName's UTF-16 keeps it).
 */
class PayloadCursorTest {

    private static String ansiz(byte[] bytes) throws Exception {
        byte[] data = new byte[bytes.length + 2];
        System.arraycopy(bytes, 0, data, 0, bytes.length);
        data[bytes.length + 1] = 'x'; // after the NUL
        PayloadCursor c = new PayloadCursor(data, 8);
        String s = c.ansiz("imageFileName");
        assertEquals(bytes.length + 1, c.position(), "past the NUL");
        return s;
    }

    @Test
    void utf8BeyondAsciiIsUtf8AndEverythingElseLatin1() throws Exception {
        assertEquals("java.exe", ansiz("java.exe".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("日本語-é", ansiz("日本語-é".getBytes(StandardCharsets.UTF_8)));
        assertEquals("café.exe", ansiz("café.exe".getBytes(StandardCharsets.ISO_8859_1)), "cp1252 é (0xE9): not UTF-8");
        assertEquals("Ã", ansiz(new byte[] {(byte) 0xC3}), "a cut UTF-8 sequence: Latin-1");
    }
}
