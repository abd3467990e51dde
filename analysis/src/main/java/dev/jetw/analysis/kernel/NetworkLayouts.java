package dev.jetw.analysis.kernel;

/**
 * TcpIp and UdpIp payloads (version 2), per Microsoft's MOF classes TcpIp_SendIPV4, TcpIp_TypeGroup1-4,
 * TcpIp_SendIPV6, TcpIp_Fail, UdpIp_TypeGroup1-2 and UdpIp_Fail: the process, the packet size, the two
 * addresses (IPv4 dotted, IPv6 in RFC 5952 form), the ports (network order on the wire), then what the
 * class adds. docs/kernel-events.md lists the layouts.
 */
final class NetworkLayouts {

    private NetworkLayouts() {
    }

    static String tcpIp(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        boolean v6;
        switch (type) {
            case 10: case 11: case 12: case 13: case 14: case 15: case 16: case 18:
                v6 = false;
                break;
            case 26: case 27: case 28: case 29: case 30: case 31: case 32: case 34:
                v6 = true;
                break;
            case 17:
                return failure(version, f, "TcpIp_Fail");
            default:
                return null;
        }
        if (version != 2) {
            return "TcpIp version " + version + " is not decoded (the documented layouts are version 2)";
        }
        endpoints(v6, f);
        if (type == 10 || type == 26) { // TcpIp_SendIPV4 / TcpIp_SendIPV6
            f.u32("startime");
            f.u32("endtime");
        } else if (type == 12 || type == 15 || type == 28 || type == 31) { // TcpIp_TypeGroup2 / TypeGroup4
            f.u16("mss");
            f.u16("sackopt");
            f.u16("tsopt");
            f.u16("wsopt");
            f.u32("rcvwin");
            f.s16("rcvwinscale");
            f.s16("sndwinscale");
        }
        f.u32("seqnum");
        f.pointer("connid");
        return null;
    }

    static String udpIp(int type, int version, DecodedFields f) throws PayloadCursor.PayloadEnded {
        if (type == 17) {
            return failure(version, f, "UdpIp_Fail");
        }
        if (type != 10 && type != 11 && type != 26 && type != 27) {
            return null;
        }
        if (version != 2) {
            return "UdpIp version " + version + " is not decoded (the documented layouts are version 2)";
        }
        endpoints(type >= 26, f); // UdpIp_TypeGroup1 (IPv4) / UdpIp_TypeGroup2 (IPv6)
        f.u32("seqnum");
        f.pointer("connid");
        return null;
    }

    /** PID, size, daddr, saddr, dport, sport: the head every TcpIp/UdpIp send/receive/connect class shares. */
    private static void endpoints(boolean v6, DecodedFields f) throws PayloadCursor.PayloadEnded {
        f.u32("pid");
        f.u32("size");
        if (v6) {
            f.ipv6("daddr");
            f.ipv6("saddr");
        } else {
            f.ipv4("daddr");
            f.ipv4("saddr");
        }
        f.port("dport");
        f.port("sport");
    }

    private static String failure(int version, DecodedFields f, String mofClass) throws PayloadCursor.PayloadEnded {
        f.u16("proto");
        f.u16("failureCode");
        return version == 2 ? null : mofClass + " version " + version + " decoded with the version 2 layout";
    }
}
