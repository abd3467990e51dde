package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;

/**
 * Walks the records of one ring-buffer page read from per_cpu/cpuN/trace_pipe_raw.
 *
 * <p>Page: u64 time stamp, commit word (length of the data in its low 30 bits; bit 31 = events were lost before
 * this page, bit 30 = their count is stored as an unsigned long right after the data), data. Each record starts
 * with a u32: type_len in the low 5 bits, time_delta (ns since the previous record, the first one since the
 * page time stamp) in the high 27 bits. By type_len (events/header_event on 6.18: padding 29, time_extend 30,
 * time_stamp 31, data max type_len 28):
 * <ul>
 * <li>1..28: data, payload of type_len*4 bytes after the header;</li>
 * <li>0: data, next u32 = payload length + 4, payload after it (big or 8-byte-aligned records);</li>
 * <li>29 PADDING: delta 0 = the rest of the page is empty; else a discarded record of 4 + array[0] bytes
 * (its delta is not added: the kernel's own reader ignores it);</li>
 * <li>30 TIME_EXTEND: delta = array[0] &lt;&lt; 27 | time_delta, added to the time (8 bytes);</li>
 * <li>31 TIME_STAMP: absolute time = array[0] &lt;&lt; 27 | time_delta; its top 5 bits come from the page time
 * stamp when they were cut (8 bytes).</li>
 * </ul>
 * Record lengths are multiples of 4. Byte order is the machine's.
 */
final class PageDecoder {

    /** Receives each data record: payload at {@code offset} of {@code page} for {@code length} bytes. */
    public interface RecordVisitor {
        void record(int cpu, long timestamp, ByteBuffer page, int offset, int length);

        /** Events were lost before this page: {@code count} of them, or -1 when the page does not say how many. */
        void lost(int cpu, long pageTimestamp, long count);
    }

    public static final int TYPE_PADDING = 29;
    public static final int TYPE_TIME_EXTEND = 30;
    public static final int TYPE_TIME_STAMP = 31;
    public static final int TYPE_DATA_MAX = 28;
    static final long MISSED_EVENTS = 1L << 31;
    static final long MISSED_STORED = 1L << 30;
    static final long TS_MSB = 0xf8L << 56;

    private final HeaderPage header;

    /** Counters of what the pages held (to check the format on a new kernel). */
    public long pages;
    public long dataRecords;
    public long paddings;
    public long discarded;
    public long timeExtends;
    public long timeStamps;
    public long lossPages;

    public PageDecoder(HeaderPage header) {
        this.header = header;
    }

    /** Decodes one page; returns the number of data records. Throws on a malformed page. */
    public int decode(int cpu, ByteBuffer page, RecordVisitor v) {
        pages++;
        long ts = page.getLong(header.timestampOffset);
        long commit = header.commitSize == 8 ? page.getLong(header.commitOffset)
                : page.getInt(header.commitOffset) & 0xFFFFFFFFL;
        int length = (int) (commit & 0x3FFFFFFFL);
        int pos = header.dataOffset;
        int end = pos + length;
        if (end > page.limit()) {
            throw new IllegalStateException("cpu " + cpu + ": page commit " + length + " beyond the page");
        }
        if ((commit & MISSED_EVENTS) != 0) {
            lossPages++;
            long count = -1;
            if ((commit & MISSED_STORED) != 0 && end + 8 <= page.limit()) {
                count = page.getLong(end);
            }
            v.lost(cpu, ts, count);
        }
        int n = 0;
        walk:
        while (pos < end) {
            int hdr = page.getInt(pos);
            int typeLen = hdr & 0x1F;
            long delta = hdr >>> 5;
            switch (typeLen) {
                case TYPE_PADDING:
                    if (delta == 0) {
                        paddings++;
                        break walk; // the rest of the page is empty
                    }
                    discarded++;
                    pos += 4 + page.getInt(pos + 4);
                    break;
                case TYPE_TIME_EXTEND:
                    timeExtends++;
                    ts += ((page.getInt(pos + 4) & 0xFFFFFFFFL) << 27) | delta;
                    pos += 8;
                    break;
                case TYPE_TIME_STAMP:
                    timeStamps++;
                    long abs = ((page.getInt(pos + 4) & 0xFFFFFFFFL) << 27) | delta;
                    long pageTs = page.getLong(header.timestampOffset);
                    if ((pageTs & TS_MSB) != 0) {
                        abs |= pageTs & TS_MSB;
                        if (abs < pageTs) {
                            abs += 1L << 59;
                        }
                    }
                    ts = abs;
                    pos += 8;
                    break;
                case 0: {
                    ts += delta;
                    int len = page.getInt(pos + 4) - 4;
                    v.record(cpu, ts, page, pos + 8, len);
                    n++;
                    pos += 8 + ((len + 3) & ~3);
                    break;
                }
                default: {
                    ts += delta;
                    int len = typeLen * 4;
                    v.record(cpu, ts, page, pos + 4, len);
                    n++;
                    pos += 4 + len;
                    break;
                }
            }
        }
        dataRecords += n;
        return n;
    }

    public String counters() {
        return pages + " pages, " + dataRecords + " data records, " + timeExtends + " time extends, " + timeStamps
                + " absolute time stamps, " + discarded + " discarded, " + lossPages + " pages flagged with losses";
    }
}
