package dev.jetw.analysis.kernel;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** IPv6 text per RFC 5952 (its §4 examples), IPv4 dotted. */
class IpAddressTextTest {

    private static byte[] v6(int... groups) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[2 * i] = (byte) (groups[i] >>> 8);
            b[2 * i + 1] = (byte) groups[i];
        }
        return b;
    }

    @Test
    void rfc5952Forms() {
        assertEquals("2001:db8::1", IpAddressText.v6(v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)), "longest zero run as ::, no leading zeros");
        assertEquals("2001:db8:0:1:1:1:1:1", IpAddressText.v6(v6(0x2001, 0xdb8, 0, 1, 1, 1, 1, 1)), "one zero group stays 0");
        assertEquals("2001:0:0:1::1", IpAddressText.v6(v6(0x2001, 0, 0, 1, 0, 0, 0, 1)), "the longest run, not the first");
        assertEquals("2001:db8::1:0:0:1", IpAddressText.v6(v6(0x2001, 0xdb8, 0, 0, 1, 0, 0, 1)), "the first of equal runs");
        assertEquals("::", IpAddressText.v6(new byte[16]));
        assertEquals("::1", IpAddressText.v6(v6(0, 0, 0, 0, 0, 0, 0, 1)));
        assertEquals("fe80::", IpAddressText.v6(v6(0xfe80, 0, 0, 0, 0, 0, 0, 0)));
        assertEquals("::ffff:192.0.2.1", IpAddressText.v6(v6(0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0201)), "IPv4-mapped ends dotted");
        assertEquals("10.128.0.255", IpAddressText.v4(new byte[]{10, (byte) 128, 0, (byte) 255}));
    }
}
