package dev.jetw.analysis.kernel;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The fields of one kernel payload as the layouts read them: values in payload order (integers as
 * {@link Long}, strings, a stack as {@code long[]}), and which of them are addresses (shown in hex).
 * Shared by the decoders of each class group ({@link KernelDecoder}, {@link NetworkLayouts},
 * {@link ConfigLayouts}).
 */
final class DecodedFields {
    final PayloadCursor in;
    final Map<String, Object> values = new LinkedHashMap<>();
    final Set<String> addresses = new HashSet<>();

    DecodedFields(byte[] payload, int pointerSize) {
        in = new PayloadCursor(payload, pointerSize);
    }

    void u8(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, (long) in.u8(name));
    }

    void s8(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, (long) in.s8(name));
    }

    void u16(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, (long) in.u16(name));
    }

    void s16(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, (long) (short) in.u16(name));
    }

    void u32(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.u32(name));
    }

    void s32(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, (long) in.s32(name));
    }

    void u64(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.u64(name));
    }

    void pointer(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.pointer(name));
        addresses.add(name);
    }

    /** A pointer-sized slot holding a thread id (FileIo's TTID). */
    void pointerSizedId(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.pointer(name) & 0xFFFFFFFFL);
    }

    void ansi(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.ansiz(name));
    }

    void utf16(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.utf16z(name));
    }

    /** A fixed array of {@code chars} UTF-16 code units (MOF {@code char16 X[N]}), up to its first NUL. */
    void utf16Fixed(int chars, String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.utf16Fixed(chars, name));
    }

    void sid(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, in.sid(name));
    }

    /** MOF Extension("IPAddrV4"): 4 bytes in network order, shown dotted ("10.128.0.55"). */
    void ipv4(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, IpAddressText.v4(in.bytes(4, name)));
    }

    /** MOF Extension("IPAddrV6"): 16 bytes in network order, shown in RFC 5952 form ("fe80::950:d6de:fa84:4cc0"). */
    void ipv6(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, IpAddressText.v6(in.bytes(16, name)));
    }

    /** A GUID in Windows byte order (Data1-3 little-endian), shown in the standard form. */
    void guid(String name) throws PayloadCursor.PayloadEnded {
        values.put(name, dev.jetw.etl.Guids.get(java.nio.ByteBuffer.wrap(in.bytes(16, name)), 0).toString());
    }

    /** MOF Extension("Port"): a 16-bit port in network (big-endian) order. */
    void port(String name) throws PayloadCursor.PayloadEnded {
        int le = in.u16(name);
        values.put(name, (long) ((le & 0xFF) << 8 | le >>> 8));
    }

    void reserved(int bytes, String name) throws PayloadCursor.PayloadEnded {
        in.skip(bytes, name);
    }
}
