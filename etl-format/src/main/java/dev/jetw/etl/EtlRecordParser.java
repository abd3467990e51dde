package dev.jetw.etl;


import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Decodes the record chain of one buffer (etl-format.md §3, §5-§7). The chain must end exactly at the
 * buffer's Offset: a record that does not fit its buffer, a dword that is no record header, or the
 * 0xFF fill before Offset ends the chain: the records before it are kept and the damage is reported
 * to the caller. Records of a header type Windows writes and the reader does not decode are counted
 * and skipped by their Size; a marker no writer makes is damage.
 */
final class EtlRecordParser {

    private static final UUID ZERO_GUID = new UUID(0, 0);
    private static final int END_OF_DATA = 0xFFFFFFFF;
    private static final int EXTENDED_INFO = 0x0001;
    private static final int LINKAGE = 0x0001;

    /** A record's inner structure (its extended items) does not fit the record. */
    static final class CorruptBufferException extends Exception {
        private static final long serialVersionUID = 1L;

        CorruptBufferException(String message) {
            super(message);
        }
    }

    private final TimestampConverter time;
    private int unknownRecords;

    EtlRecordParser(TimestampConverter time) {
        this.time = time;
    }

    /** Records of a type the reader does not decode, counted so far. */
    int unknownRecords() {
        return unknownRecords;
    }

    /**
     * Parses the records in [{@link EtlFormat#BUFFER_HEADER_SIZE}, end) of {@code buf}, a buffer at file
     * offset {@code bufferOffset} whose ProcessorIndex is {@code processor}, adding each intact record to {@code out}. A damaged record ends the
     * buffer: the records before it are kept, and the damage is returned (null when there is none).
     */
    String parseBuffer(ByteBuffer buf, int end, long bufferOffset, int bufferIndex, int processor, List<EtlRecord> out) {
        int pos = EtlFormat.BUFFER_HEADER_SIZE;
        int kept = 0;
        while (pos < end) {
            String damage;
            if (end - pos < 4) {
                damage = String.format("%d stray bytes at buffer offset 0x%x before its end 0x%x", end - pos, pos, end);
                return damaged(damage, kept, end - pos);
            }
            int marker = buf.getInt(pos);
            if (marker == END_OF_DATA) {
                // The 0xFF fill starts at Offset in every file Windows and jetw write: met before it, the fill
                // overwrote records (or Offset is wrong), and what follows cannot be told from damage.
                return damaged(String.format("0xFF fill at buffer offset 0x%x, before the buffer's Offset 0x%x", pos, end),
                        kept, end - pos);
            }
            int flags = marker >>> 24;
            int headerType = (marker >>> 16) & 0xFF;
            int fixed = fixedHeaderSize(headerType);
            if ((flags & 0x80) == 0) {
                // Not a trace header: nothing tells where the next record starts.
                return damaged(String.format("dword 0x%08x at buffer offset 0x%x is not a record header", marker, pos),
                        kept, end - pos);
            }
            if (fixed < 0 || flags != EtlFormat.MARKER_FLAGS) {
                if (!isUndecodedKind(flags, headerType)) {
                    // No writer makes this marker: skipping it by its "size" would lose a record unseen.
                    return damaged(String.format("marker 0x%08x at buffer offset 0x%x is of no record type", marker, pos),
                            kept, end - pos);
                }
                int size = marker & 0xFFFF;
                if (size < 8 || pos + size > end) {
                    return damaged(String.format("record of unknown type 0x%08x at buffer offset 0x%x has size %d"
                            + " (needs 8..%d)", marker, pos, size, end - pos), kept, end - pos);
                }
                unknownRecords++;
                pos += EtlFormat.align8(size);
                continue;
            }
            boolean sizeAtPacket = isSystemLike(headerType);
            int size = (sizeAtPacket ? buf.getShort(pos + 4) : buf.getShort(pos)) & 0xFFFF;
            int header = fixed + (sizeAtPacket ? systemExtraBytes(marker & 0xFFFF) : 0);
            if (size < header || pos + size > end) {
                return damaged(String.format("%s record at buffer offset 0x%x has size %d (needs %d..%d)",
                        EtlHeaderTypes.name(headerType), pos, size, header, end - pos), kept, end - pos);
            }
            EtlRecord r = new EtlRecord();
            r.headerType = headerType;
            r.markerFlags = flags;
            r.size = size;
            r.fileOffset = bufferOffset + pos;
            r.bufferIndex = bufferIndex;
            r.processor = processor;
            try {
                decode(buf, pos, size, header, r);
            } catch (CorruptBufferException e) {
                return damaged(e.getMessage(), kept, end - pos);
            }
            out.add(r);
            kept++;
            pos += EtlFormat.align8(size);
        }
        return null;
    }

    private static String damaged(String what, int kept, int skipped) {
        return what + "; the " + kept + (kept == 1 ? " record" : " records") + " before it "
                + (kept == 1 ? "is" : "are") + " kept, the " + skipped + " bytes from there to Offset are skipped";
    }

    static int fixedHeaderSize(int headerType) {
        switch (headerType) {
            case EtlFormat.HT_SYSTEM32:
            case EtlFormat.HT_SYSTEM64:
                return EtlFormat.SYSTEM_HEADER_SIZE;
            case EtlFormat.HT_COMPACT32:
            case EtlFormat.HT_COMPACT64:
                return EtlFormat.COMPACT_HEADER_SIZE;
            case EtlFormat.HT_PERFINFO32:
            case EtlFormat.HT_PERFINFO64:
                return EtlFormat.PERFINFO_HEADER_SIZE;
            case EtlFormat.HT_FULL_HEADER32:
            case EtlFormat.HT_FULL_HEADER64:
                return EtlFormat.FULL_HEADER_SIZE;
            case EtlFormat.HT_INSTANCE32:
            case EtlFormat.HT_INSTANCE64:
                return EtlFormat.INSTANCE_HEADER_SIZE;
            case EtlFormat.HT_EVENT_HEADER32:
            case EtlFormat.HT_EVENT_HEADER64:
                return EtlFormat.EVENT_HEADER_SIZE;
            default:
                return -1;
        }
    }

    /**
     * Records Windows writes that this reader does not decode: WPP messages (marker flags 0x90) and the
     * sized header types TIMED, ERROR, WNODE and MESSAGE (0x0C-0x0F) under the usual 0xC0 flags.
     */
    static boolean isUndecodedKind(int flags, int headerType) {
        return flags == 0x90 || flags == EtlFormat.MARKER_FLAGS && headerType >= 0x0C && headerType <= 0x0F;
    }

    /** SYSTEM, COMPACT and PERFINFO headers keep a Version word in bytes 0-1 and the size at +4. */
    static boolean isSystemLike(int headerType) {
        return headerType <= EtlFormat.HT_COMPACT64 || headerType == EtlFormat.HT_PERFINFO32
                || headerType == EtlFormat.HT_PERFINFO64;
    }

    /** Extra 8-byte items announced by the Version word: 0x8000 adds one, 0x0700 adds up to seven. */
    static int systemExtraBytes(int version) {
        return ((version & 0x8000) != 0 ? 8 : 0) + 8 * ((version & 0x0700) >> 8);
    }

    private void decode(ByteBuffer buf, int pos, int size, int header, EtlRecord r) throws CorruptBufferException {
        int ht = r.headerType;
        int dataStart = pos + header;
        switch (ht) {
            case EtlFormat.HT_SYSTEM32:
            case EtlFormat.HT_SYSTEM64:
            case EtlFormat.HT_COMPACT32:
            case EtlFormat.HT_COMPACT64:
                r.version = buf.getShort(pos) & 0xFFFF;
                r.type = buf.get(pos + 6) & 0xFF;
                r.group = buf.get(pos + 7) & 0xFF;
                r.threadId = buf.getInt(pos + 8);
                r.processId = buf.getInt(pos + 12);
                r.rawTimestamp = buf.getLong(pos + 16);
                r.guid = r.group == 0 ? EtlFormat.EVENT_TRACE_GUID : null;
                break;
            case EtlFormat.HT_PERFINFO32:
            case EtlFormat.HT_PERFINFO64:
                r.version = buf.getShort(pos) & 0xFFFF;
                r.type = buf.get(pos + 6) & 0xFF;
                r.group = buf.get(pos + 7) & 0xFF;
                r.rawTimestamp = buf.getLong(pos + 8);
                r.guid = r.group == 0 ? EtlFormat.EVENT_TRACE_GUID : null;
                break;
            case EtlFormat.HT_FULL_HEADER32:
            case EtlFormat.HT_FULL_HEADER64:
            case EtlFormat.HT_INSTANCE32:
            case EtlFormat.HT_INSTANCE64:
                r.type = buf.get(pos + 4) & 0xFF;
                r.level = buf.get(pos + 5) & 0xFF;
                r.version = buf.getShort(pos + 6) & 0xFFFF;
                r.threadId = buf.getInt(pos + 8);
                r.processId = buf.getInt(pos + 12);
                r.rawTimestamp = buf.getLong(pos + 16);
                r.guid = Guids.get(buf, pos + 0x18);
                if (header == EtlFormat.INSTANCE_HEADER_SIZE) {
                    r.instanceId = buf.getInt(pos + 0x30);
                    r.parentInstanceId = buf.getInt(pos + 0x34);
                    UUID parent = Guids.get(buf, pos + 0x38);
                    r.parentGuid = ZERO_GUID.equals(parent) ? null : parent;
                }
                break;
            default: // EVENT_HEADER32/64
                r.flags = buf.getShort(pos + 4) & 0xFFFF;
                r.eventProperty = buf.getShort(pos + 6) & 0xFFFF;
                r.threadId = buf.getInt(pos + 8);
                r.processId = buf.getInt(pos + 12);
                r.rawTimestamp = buf.getLong(pos + 16);
                r.guid = Guids.get(buf, pos + 0x18);
                r.eventId = buf.getShort(pos + 0x28) & 0xFFFF;
                r.version = buf.get(pos + 0x2A) & 0xFF;
                r.channel = buf.get(pos + 0x2B) & 0xFF;
                r.level = buf.get(pos + 0x2C) & 0xFF;
                r.type = buf.get(pos + 0x2D) & 0xFF;
                r.task = buf.getShort(pos + 0x2E) & 0xFFFF;
                r.keyword = buf.getLong(pos + 0x30);
                r.activityId = Guids.get(buf, pos + 0x40);
                if ((r.flags & EXTENDED_INFO) != 0) {
                    dataStart = readExtendedItems(buf, dataStart, pos + size, r);
                }
                break;
        }
        r.fileTime = time.toFileTime(r.rawTimestamp);
        r.userData = copy(buf, dataStart, pos + size - dataStart);
    }

    /** Walks the extended items (linked by bit 0 of Linkage); returns where the user data starts. */
    private static int readExtendedItems(ByteBuffer buf, int p, int recordEnd, EtlRecord r) throws CorruptBufferException {
        List<EtlExtendedItem> items = new ArrayList<>();
        while (true) {
            if (p + 8 > recordEnd) {
                throw new CorruptBufferException(String.format("extended item at buffer offset 0x%x runs past its record", p));
            }
            int itemSize = buf.getShort(p) & 0xFFFF;
            int extType = buf.getShort(p + 2) & 0xFFFF;
            int linkage = buf.getShort(p + 4) & 0xFFFF;
            int dataSize = buf.getShort(p + 6) & 0xFFFF;
            int step = itemSize >= 8 + dataSize ? itemSize : EtlFormat.align8(8 + dataSize);
            if (p + 8 + dataSize > recordEnd || p + step > recordEnd) {
                throw new CorruptBufferException(String.format(
                        "extended item at buffer offset 0x%x (size %d, data %d) runs past its record", p, itemSize, dataSize));
            }
            items.add(new EtlExtendedItem(extType, copy(buf, p + 8, dataSize)));
            p += step;
            if ((linkage & LINKAGE) == 0) {
                break;
            }
        }
        r.extendedItems = java.util.Collections.unmodifiableList(items);
        return p;
    }

    /** Absolute bulk copy of {@code length} bytes at {@code from} (Java 8 has no absolute bulk get). */
    private static byte[] copy(ByteBuffer buf, int from, int length) {
        byte[] out = new byte[length];
        ByteBuffer view = buf.duplicate();
        view.position(from);
        view.get(out);
        return out;
    }
}
