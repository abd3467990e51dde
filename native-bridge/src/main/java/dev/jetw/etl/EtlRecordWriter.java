package dev.jetw.etl;

import dev.jetw.etw.Guids;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * Encodes the two classic event records into a buffer, as ETW lays them out in a 64-bit .etl file
 * (docs/etl-format.md §5 and §6): EVENT_INSTANCE_GUID_HEADER (0x15) for TraceEventInstance and
 * EVENT_TRACE_HEADER (0x14) for TraceEvent. Allocation-free: it runs on every event.
 */
public final class EtlRecordWriter {

    /** Zero GUID: the ParentGuid of an instance event without a parent. */
    public static final UUID NO_GUID = new UUID(0L, 0L);

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
     * Writes an EVENT_INSTANCE_GUID_HEADER record at {@code pos}; returns the 8-aligned offset
     * after it (pad bytes zeroed, because buffers are reused and ETW pads with zeros).
     */
    public static int putInstance(ByteBuffer buf, int pos, int type, int level, int version, int threadId,
                                  int processId, long timeStamp, UUID classGuid, int instanceId,
                                  int parentInstanceId, UUID parentGuid, ByteBuffer payload, int payloadLength) {
        int size = EtlFormat.INSTANCE_HEADER_SIZE + payloadLength;
        putCommon(buf, pos, size, EtlFormat.HT_INSTANCE64, type, level, version, threadId, processId, timeStamp, classGuid);
        buf.putInt(pos + 0x30, instanceId);
        buf.putInt(pos + 0x34, parentInstanceId);
        Guids.put(buf, pos + 0x38, parentGuid == null ? NO_GUID : parentGuid);
        return putPayloadAndPad(buf, pos + EtlFormat.INSTANCE_HEADER_SIZE, payload, payloadLength, pos + size);
    }

    /** Writes an EVENT_TRACE_HEADER record at {@code pos}; returns the 8-aligned offset after it. */
    public static int putFull(ByteBuffer buf, int pos, int type, int level, int version, int threadId,
                              int processId, long timeStamp, UUID classGuid, ByteBuffer payload, int payloadLength) {
        int size = EtlFormat.FULL_HEADER_SIZE + payloadLength;
        putCommon(buf, pos, size, EtlFormat.HT_FULL_HEADER64, type, level, version, threadId, processId, timeStamp, classGuid);
        return putPayloadAndPad(buf, pos + EtlFormat.FULL_HEADER_SIZE, payload, payloadLength, pos + size);
    }

    private static void putCommon(ByteBuffer buf, int pos, int size, int headerType, int type, int level, int version,
                                  int threadId, int processId, long timeStamp, UUID classGuid) {
        // Marker dword: Size (u16), HeaderType, MarkerFlags 0xC0.
        buf.putInt(pos, (size & 0xFFFF) | headerType << 16 | EtlFormat.MARKER_FLAGS << 24);
        buf.put(pos + 4, (byte) type);
        buf.put(pos + 5, (byte) level);
        buf.putShort(pos + 6, (short) version);
        buf.putInt(pos + 8, threadId);
        buf.putInt(pos + 0x0C, processId);
        buf.putLong(pos + 0x10, timeStamp);
        Guids.put(buf, pos + 0x18, classGuid);
        buf.putLong(pos + 0x28, 0L); // KernelTime/UserTime: not measured in-process.
    }

    private static int putPayloadAndPad(ByteBuffer buf, int at, ByteBuffer payload, int length, int end) {
        if (length > 0) {
            if (buf.hasArray() && payload.hasArray()) {
                System.arraycopy(payload.array(), payload.arrayOffset(), buf.array(), buf.arrayOffset() + at, length);
            } else {
                for (int i = 0; i < length; i++) {
                    buf.put(at + i, payload.get(i));
                }
            }
        }
        int next = EtlFormat.align8(end);
        for (int i = end; i < next; i++) {
            buf.put(i, (byte) 0);
        }
        return next;
    }
}
