package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * Encodes the two classic event records as ETW lays them out in a 64-bit .etl file
 * (docs/etl-format.md §5 and §6): EVENT_INSTANCE_GUID_HEADER (0x15) for TraceEventInstance and
 * EVENT_TRACE_HEADER (0x14) for TraceEvent; and the kernel's SYSTEM_TRACE_HEADER records
 * (SYSTEM64 0x02 and its first 0x18 bytes, COMPACT64 0x04; §3, §4.1), whose HookId names the MOF
 * class group and event type instead of a GUID.
 *
 * <p>It runs on every event, so it writes into a buffer held as {@code long[]}: each element is
 * 8 bytes of the file, little-endian. Records start 8-aligned and every header field shares a word
 * with its neighbours, so a record is a handful of plain array stores (fields combined first,
 * GUIDs pre-encoded); a {@code ByteBuffer} costs about twice as much per store. The payload of
 * the common small events (at most 8 bytes: a START, a plain END) is one more word. The logger
 * thread turns the words into bytes once per buffer ({@link #copyWords}).
 */
public final class EtlRecordWriter {

    private EtlRecordWriter() {
    }

    /** Bytes an instance record occupies in a buffer, padding included. */
    public static int instanceRecordSpace(int payloadLength) {
        return EtlFormat.align8(EtlFormat.INSTANCE_HEADER_SIZE + payloadLength);
    }

    /** Bytes a full-header (plain) record occupies in a buffer, padding included. */
    public static int fullRecordSpace(int payloadLength) {
        return EtlFormat.align8(EtlFormat.FULL_HEADER_SIZE + payloadLength);
    }

    /**
     * Bytes a kernel record with a SYSTEM64 ({@code compact} false) or COMPACT64 header occupies in a
     * buffer, padding included.
     */
    public static int systemRecordSpace(int payloadLength, boolean compact) {
        return kernelRecordSpace(payloadLength, compact ? EtlFormat.HT_COMPACT64 : EtlFormat.HT_SYSTEM64);
    }

    /** Bytes a kernel record with header type {@code headerType} (SYSTEM64, COMPACT64, PERFINFO64) occupies, padding included. */
    public static int kernelRecordSpace(int payloadLength, int headerType) {
        return EtlFormat.align8(kernelHeaderSize(headerType) + payloadLength);
    }

    private static int kernelHeaderSize(int headerType) {
        switch (headerType) {
            case EtlFormat.HT_SYSTEM64:
                return EtlFormat.SYSTEM_HEADER_SIZE;
            case EtlFormat.HT_COMPACT64:
                return EtlFormat.COMPACT_HEADER_SIZE;
            case EtlFormat.HT_PERFINFO64:
                return EtlFormat.PERFINFO_HEADER_SIZE;
            default:
                throw new IllegalArgumentException("header type 0x" + Integer.toHexString(headerType)
                        + ": a kernel record is SYSTEM64 (0x02), COMPACT64 (0x04) or PERFINFO64 (0x11) here");
        }
    }

    /**
     * Writes the header of a kernel record at byte offset {@code pos} (8-aligned): SYSTEM_TRACE_HEADER
     * {Version, HeaderType, MarkerFlags 0xC0, Size, HookId = group &lt;&lt; 8 | type, ThreadId, ProcessId,
     * SystemTime, KernelTime 0, UserTime 0}, its first 0x18 bytes for COMPACT64, or PERFINFO_TRACE_HEADER
     * {Version, HeaderType, MarkerFlags, Size, HookId, SystemTime} for PERFINFO64 (no thread or process: Windows
     * writes FileIo and SampledProfile so, and the payload names the thread). Returns the byte offset of the
     * payload, which the caller writes with {@link #putPayload}.
     *
     * @param headerType {@link EtlFormat#HT_SYSTEM64}, {@link EtlFormat#HT_COMPACT64} or {@link EtlFormat#HT_PERFINFO64}
     * @param version    the MOF class version (the Version word's low byte; the extension bits stay 0)
     */
    public static int putSystemHeader(long[] words, int pos, int headerType, int version, int group, int type,
                                      int threadId, int processId, long timeStamp, int payloadLength) {
        int size = kernelHeaderSize(headerType) + payloadLength;
        int w = pos >>> 3;
        // 0x00: Version (u16), HeaderType, MarkerFlags 0xC0; 0x04: Size (u16), HookId (type, then group).
        words[w] = (version & 0xFFL) | (long) headerType << 16 | (long) EtlFormat.MARKER_FLAGS << 24
                | (size & 0xFFFFL) << 32 | (type & 0xFFL) << 48 | (group & 0xFFL) << 56;
        if (headerType == EtlFormat.HT_PERFINFO64) {
            words[w + 1] = timeStamp;
            return (w + 2) << 3;
        }
        words[w + 1] = (threadId & 0xFFFFFFFFL) | (long) processId << 32;
        words[w + 2] = timeStamp;
        if (headerType == EtlFormat.HT_COMPACT64) {
            return (w + 3) << 3;
        }
        words[w + 3] = 0L; // KernelTime/UserTime: the kernel's CPU ticks, which tracefs does not give
        return (w + 4) << 3;
    }

    /**
     * Writes the header of an EVENT_INSTANCE_GUID_HEADER record at byte offset {@code pos}
     * (8-aligned; the words must hold {@link #instanceRecordSpace} bytes there), for a payload of
     * {@code payloadLength} bytes that the caller writes next with {@link #putPayload} or
     * {@link #putPayloadWord}; returns the byte offset of the payload.
     *
     * @param parentGuid the parent's event class, {@link EncodedGuid#ZERO} for none
     */
    public static int putInstanceHeader(long[] words, int pos, int type, int level, int version, int threadId,
                                        int processId, long timeStamp, EncodedGuid classGuid, int instanceId,
                                        int parentInstanceId, EncodedGuid parentGuid, int payloadLength) {
        int w = pos >>> 3;
        putCommon(words, w, EtlFormat.INSTANCE_HEADER_SIZE + payloadLength, EtlFormat.HT_INSTANCE64, type, level,
                version, threadId, processId, timeStamp, classGuid);
        words[w + 6] = (instanceId & 0xFFFFFFFFL) | (long) parentInstanceId << 32;
        words[w + 7] = parentGuid.low;
        words[w + 8] = parentGuid.high;
        return (w + 9) << 3;
    }

    /** Writes the header of an EVENT_TRACE_HEADER record at byte offset {@code pos}; returns the byte offset of the payload. */
    public static int putFullHeader(long[] words, int pos, int type, int level, int version, int threadId,
                                    int processId, long timeStamp, EncodedGuid classGuid, int payloadLength) {
        int w = pos >>> 3;
        putCommon(words, w, EtlFormat.FULL_HEADER_SIZE + payloadLength, EtlFormat.HT_FULL_HEADER64, type, level,
                version, threadId, processId, timeStamp, classGuid);
        return (w + 6) << 3;
    }

    private static void putCommon(long[] words, int w, int size, int headerType, int type, int level, int version,
                                  int threadId, int processId, long timeStamp, EncodedGuid classGuid) {
        // 0x00: Size (u16), HeaderType, MarkerFlags 0xC0, Class.Type, Class.Level, Class.Version (u16).
        words[w] = (size & 0xFFFFL) | (long) headerType << 16 | (long) EtlFormat.MARKER_FLAGS << 24
                | (type & 0xFFL) << 32 | (level & 0xFFL) << 40 | (version & 0xFFFFL) << 48;
        words[w + 1] = (threadId & 0xFFFFFFFFL) | (long) processId << 32; // ThreadId, ProcessId
        words[w + 2] = timeStamp;
        words[w + 3] = classGuid.low;
        words[w + 4] = classGuid.high;
        words[w + 5] = 0L; // KernelTime/UserTime: not measured in-process.
    }

    /**
     * Copies the payload (little-endian or not: bytes 0 to {@code length}) into the words from byte
     * offset {@code pos} (8-aligned) on, the last word's pad zero, as ETW pads; returns the byte
     * offset after it.
     */
    public static int putPayload(long[] words, int pos, ByteBuffer payload, int length) {
        int w = pos >>> 3;
        boolean littleEndian = payload.order() == ByteOrder.LITTLE_ENDIAN;
        int at = 0;
        for (; length - at >= 8; at += 8) {
            words[w++] = littleEndian ? payload.getLong(at) : readWord(payload, at, 8);
        }
        int rest = length - at;
        if (rest > 0) {
            words[w++] = littleEndian && at + 8 <= payload.capacity()
                    ? payload.getLong(at) & ((1L << (rest << 3)) - 1)
                    : readWord(payload, at, rest);
        }
        return w << 3;
    }

    /**
     * Writes a payload of {@code length} bytes (0 to 8), the low bytes of {@code payload}, at byte
     * offset {@code pos} (8-aligned), the pad zero; returns the byte offset after it.
     */
    public static int putPayloadWord(long[] words, int pos, long payload, int length) {
        if (length == 0) {
            return pos;
        }
        words[pos >>> 3] = length >= 8 ? payload : payload & ((1L << (length << 3)) - 1);
        return pos + 8;
    }

    /** {@code n} (1-8) bytes of {@code payload} from {@code at} as the low bytes of a little-endian word. */
    private static long readWord(ByteBuffer payload, int at, int n) {
        long word = 0;
        for (int i = n - 1; i >= 0; i--) {
            word = word << 8 | (payload.get(at + i) & 0xFFL);
        }
        return word;
    }

    /**
     * Copies the bytes {@code [from, to)} (8-aligned) of a word buffer to the same offsets of
     * {@code out}, as little-endian bytes: how a buffer of records becomes file bytes.
     */
    public static void copyWords(long[] words, int from, int to, ByteBuffer out) {
        ByteBuffer whole = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        whole.clear();
        LongBuffer view = whole.asLongBuffer();
        view.position(from >>> 3);
        view.put(words, from >>> 3, (to - from) >>> 3);
    }
}
