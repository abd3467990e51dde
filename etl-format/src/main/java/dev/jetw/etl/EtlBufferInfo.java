package dev.jetw.etl;

import java.nio.ByteBuffer;

/** The WMI_BUFFER_HEADER of one buffer, and where the buffer is in the file. */
public final class EtlBufferInfo {

    private final int fileIndex;
    private final long fileOffset;
    private final int bufferSize;
    private final int savedOffset;
    private final long timeStamp;
    private final long sequenceNumber;
    private final int processorIndex;
    private final int loggerId;
    private final int state;
    private final int offset;
    private final int bufferFlag;
    private final int bufferType;

    EtlBufferInfo(int fileIndex, long fileOffset, ByteBuffer header) {
        this.fileIndex = fileIndex;
        this.fileOffset = fileOffset;
        bufferSize = header.getInt(EtlFormat.BH_BUFFER_SIZE);
        savedOffset = header.getInt(EtlFormat.BH_SAVED_OFFSET);
        timeStamp = header.getLong(EtlFormat.BH_TIMESTAMP);
        sequenceNumber = header.getLong(EtlFormat.BH_SEQUENCE_NUMBER);
        processorIndex = header.getShort(EtlFormat.BH_PROCESSOR_INDEX) & 0xFFFF;
        loggerId = header.getShort(EtlFormat.BH_LOGGER_ID) & 0xFFFF;
        state = header.getInt(EtlFormat.BH_STATE);
        offset = header.getInt(EtlFormat.BH_OFFSET);
        bufferFlag = header.getShort(EtlFormat.BH_BUFFER_FLAG) & 0xFFFF;
        bufferType = header.getShort(EtlFormat.BH_BUFFER_TYPE) & 0xFFFF;
    }

    /** Position of the buffer in the file: 0 for the header buffer, then 1, 2, ... */
    public int fileIndex() {
        return fileIndex;
    }

    public long fileOffset() {
        return fileOffset;
    }

    /** BufferSize (0x00): the bytes this buffer occupies in the file, header included (less than the capacity when compressed). */
    public int bufferSize() {
        return bufferSize;
    }

    /** SavedOffset (0x04): usually equal to {@link #offset()}, not always (relogged files); records end at Offset. */
    public int savedOffset() {
        return savedOffset;
    }

    public long timeStamp() {
        return timeStamp;
    }

    public long sequenceNumber() {
        return sequenceNumber;
    }

    /** ClientContext.ProcessorIndex: the CPU whose stream the buffer belongs to. */
    public int processorIndex() {
        return processorIndex;
    }

    public int loggerId() {
        return loggerId;
    }

    public int state() {
        return state;
    }

    /** Offset (0x30): the bytes used in the (decompressed) buffer, header included; the records end here. */
    public int offset() {
        return offset;
    }

    public int bufferFlag() {
        return bufferFlag;
    }

    public int bufferType() {
        return bufferType;
    }

    public boolean isCompressed() {
        return (bufferFlag & EtlFormat.BUFFER_FLAG_COMPRESSED) != 0;
    }

    @Override
    public String toString() {
        return "buffer #" + fileIndex + " @0x" + Long.toHexString(fileOffset) + " seq " + sequenceNumber
                + " cpu " + processorIndex + " flag 0x" + Integer.toHexString(bufferFlag) + " type " + bufferType
                + " saved " + savedOffset;
    }
}
