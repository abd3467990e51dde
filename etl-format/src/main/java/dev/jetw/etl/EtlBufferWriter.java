package dev.jetw.etl;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Seals a buffer for the file: fills its WMI_BUFFER_HEADER (docs/etl-format.md §2, §10 items 3-5)
 * and the 0xFF tail. The records from 0x48 to {@code used} are already in place.
 */
public final class EtlBufferWriter {

    private EtlBufferWriter() {
    }

    /**
     * @param buf       the whole buffer (its capacity is the BufferSize), little-endian, heap-backed or not
     * @param used      end of the last record, 8-aligned: SavedOffset = Offset = CurrentOffset
     * @param timeStamp raw clock of the buffer's last event (0 for the header buffer)
     */
    public static void seal(ByteBuffer buf, int used, long timeStamp, long sequenceNumber, int loggerId,
                            int bufferType, int bufferFlag) {
        seal(buf, used, timeStamp, sequenceNumber, loggerId, 0, bufferType, bufferFlag);
    }

    /**
     * As {@link #seal(ByteBuffer, int, long, long, int, int, int)} for the stream of CPU
     * {@code processorIndex} (ClientContext.ProcessorIndex, below the header's NumberOfProcessors):
     * a kernel record's processor is the one of its buffer (a CSwitch happened on that CPU).
     */
    public static void seal(ByteBuffer buf, int used, long timeStamp, long sequenceNumber, int loggerId,
                            int processorIndex, int bufferType, int bufferFlag) {
        int size = buf.capacity();
        if (used < EtlFormat.BUFFER_HEADER_SIZE || used > size || (used & 7) != 0) {
            throw new IllegalArgumentException("buffer used length " + used + " must be 8-aligned in [0x48, " + size + "]");
        }
        buf.putInt(EtlFormat.BH_BUFFER_SIZE, size);
        buf.putInt(EtlFormat.BH_SAVED_OFFSET, used);
        buf.putInt(EtlFormat.BH_CURRENT_OFFSET, used);
        buf.putInt(EtlFormat.BH_REFERENCE_COUNT, 0);
        buf.putLong(EtlFormat.BH_TIMESTAMP, timeStamp);
        buf.putLong(EtlFormat.BH_SEQUENCE_NUMBER, sequenceNumber);
        buf.putLong(EtlFormat.BH_CLOCK_OR_NEXT, 0L);
        buf.putShort(EtlFormat.BH_PROCESSOR_INDEX, (short) processorIndex);
        buf.putShort(EtlFormat.BH_LOGGER_ID, (short) loggerId);
        buf.putInt(EtlFormat.BH_STATE, EtlFormat.BUFFER_STATE_FLUSH);
        buf.putInt(EtlFormat.BH_OFFSET, used);
        buf.putShort(EtlFormat.BH_BUFFER_FLAG, (short) bufferFlag);
        buf.putShort(EtlFormat.BH_BUFFER_TYPE, (short) bufferType);
        buf.putLong(0x38, 0L);
        buf.putLong(0x40, 0L);
        if (buf.hasArray()) {
            Arrays.fill(buf.array(), buf.arrayOffset() + used, buf.arrayOffset() + size, (byte) 0xFF);
        } else {
            for (int i = used; i < size; i++) {
                buf.put(i, (byte) 0xFF);
            }
        }
    }

    /** Seals a data buffer: BufferType 0 (GENERIC), BufferFlag 0x20 (PROC_INDEX). */
    public static void sealData(ByteBuffer buf, int used, long timeStamp, long sequenceNumber, int loggerId) {
        sealData(buf, used, timeStamp, sequenceNumber, loggerId, 0);
    }

    /** Seals a data buffer of CPU {@code processorIndex}'s stream. */
    public static void sealData(ByteBuffer buf, int used, long timeStamp, long sequenceNumber, int loggerId,
                                int processorIndex) {
        seal(buf, used, timeStamp, sequenceNumber, loggerId, processorIndex, EtlFormat.BUFFER_TYPE_GENERIC,
                EtlFormat.BUFFER_FLAG_PROC_INDEX);
    }
}
