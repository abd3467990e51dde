package dev.jetw.etw.portable.linux;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads tracefs and procfs text files. They report size 0, so the reads must not be sized by it; and some
 * tracefs files (events/header_page, header_event) answer only a read at offset 0 and return end-of-file to any
 * later one: Files.readAllBytes (a 0-byte read, then a 1-byte read, then more) gets their first byte only. So:
 * one big read first, then more until end of file.
 */
final class TextFiles {

    private TextFiles() {
    }

    static String read(File f) throws IOException {
        FileInputStream in = new FileInputStream(f);
        try {
            byte[] buf = new byte[65536];
            int len = 0;
            while (true) {
                int n = in.read(buf, len, buf.length - len);
                if (n < 0) {
                    break;
                }
                len += n;
                if (len == buf.length) {
                    buf = Arrays.copyOf(buf, buf.length * 2);
                }
            }
            return new String(buf, 0, len, StandardCharsets.UTF_8);
        } finally {
            in.close();
        }
    }
}
