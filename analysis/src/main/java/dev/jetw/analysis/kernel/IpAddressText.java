package dev.jetw.analysis.kernel;

/** IP addresses as people read them: IPv4 dotted, IPv6 in the RFC 5952 text form. */
final class IpAddressText {

    private IpAddressText() {
    }

    static String v4(byte[] a) {
        return (a[0] & 0xFF) + "." + (a[1] & 0xFF) + "." + (a[2] & 0xFF) + "." + (a[3] & 0xFF);
    }

    /**
     * RFC 5952 §4: lower-case hex groups without leading zeros; the longest run of two or more zero
     * groups (the first of equal runs) becomes "::"; an IPv4-mapped address (::ffff:a.b.c.d) ends dotted.
     */
    static String v6(byte[] a) {
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = (a[2 * i] & 0xFF) << 8 | (a[2 * i + 1] & 0xFF);
        }
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xFFFF) {
            return "::ffff:" + v4(new byte[]{a[12], a[13], a[14], a[15]});
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(g[i]));
        }
        return s.toString();
    }
}
