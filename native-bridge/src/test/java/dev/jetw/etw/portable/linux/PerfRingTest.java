package dev.jetw.etw.portable.linux;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The perf ring reader on synthetic bytes laid out as the kernel writes them (perf_event_mmap_page, then the data):
 * records in order, one that wraps round the end of the data area read whole, data_tail given back, the fences in
 * the documented order, LOST records, a malformed header, a first page without the data layout.
 */
class PerfRingTest {

    static final int PAGE = 4096;
    /** A small data area so that records wrap: 256 bytes. */
    static final int DATA = 256;

    /** A mapping: the metadata page, then {@link #DATA} bytes; data_offset and data_size set as Linux 4.1+ does. */
    static ByteBuffer mapping() {
        ByteBuffer b = ByteBuffer.allocate(PAGE + DATA).order(ByteOrder.nativeOrder());
        b.putLong(PerfRing.DATA_OFFSET, PAGE);
        b.putLong(PerfRing.DATA_SIZE, DATA);
        return b;
    }

    /** Writes a record of {@code type} with {@code body} at position {@code pos} (wrapping as the kernel does); its end. */
    static long put(ByteBuffer m, long pos, int type, long... body) {
        int size = 8 + 8 * body.length;
        ByteBuffer r = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        r.putInt(0, type).putShort(4, (short) 0).putShort(6, (short) size);
        for (int i = 0; i < body.length; i++) {
            r.putLong(8 + 8 * i, body[i]);
        }
        for (int i = 0; i < size; i++) {
            m.put(PAGE + (int) ((pos + i) % DATA), r.get(i));
        }
        return pos + size;
    }

    static final class Seen implements PerfRing.Records {
        final List<long[]> records = new ArrayList<>();

        @Override
        public void record(int type, ByteBuffer b, int offset, int size) {
            long[] r = new long[size / 8];
            r[0] = type;
            for (int i = 1; i < r.length; i++) {
                r[i] = b.getLong(offset + 8 * i);
            }
            records.add(r);
        }
    }

    static final class CountingFences implements PerfRing.Fences {
        final StringBuilder order = new StringBuilder();

        @Override
        public void acquire() {
            order.append('a');
        }

        @Override
        public void full() {
            order.append('f');
        }
    }

    @Test
    void recordsComeInOrderAndTheirSpaceIsGivenBack() {
        ByteBuffer m = mapping();
        long end = put(m, 0, 9, 1, 2, 3);
        end = put(m, end, 9, 4, 5, 6);
        m.putLong(PerfRing.DATA_HEAD, end);
        CountingFences fences = new CountingFences();
        PerfRing ring = new PerfRing(m, fences);
        assertEquals(64, ring.unread());
        Seen seen = new Seen();
        assertEquals(2, ring.drain(seen));
        assertArrayEquals(new long[] {9, 1, 2, 3}, seen.records.get(0));
        assertArrayEquals(new long[] {9, 4, 5, 6}, seen.records.get(1));
        assertEquals(end, m.getLong(PerfRing.DATA_TAIL), "data_tail: everything read");
        assertEquals("af", fences.order.toString(), "read barrier after data_head, full barrier before data_tail");
        assertEquals(0, ring.drain(seen), "nothing new");
        assertEquals(0, ring.unread());
    }

    @Test
    void aRecordThatWrapsRoundTheEndIsReadWhole() {
        ByteBuffer m = mapping();
        long start = DATA - 16; // a 40-byte record: 16 bytes before the end, 24 after the wrap
        m.putLong(PerfRing.DATA_TAIL, start);
        long end = put(m, start, 9, 0x1111, 0x2222, 0x3333, 0x4444);
        end = put(m, end, 2, 7, 12345, 99); // then a LOST record, wholly after the wrap
        m.putLong(PerfRing.DATA_HEAD, end);
        Seen seen = new Seen();
        PerfRing ring = new PerfRing(m, new CountingFences());
        assertEquals(2, ring.drain(seen));
        assertArrayEquals(new long[] {9, 0x1111, 0x2222, 0x3333, 0x4444}, seen.records.get(0));
        assertArrayEquals(new long[] {2, 7, 12345, 99}, seen.records.get(1));
        assertEquals(end, m.getLong(PerfRing.DATA_TAIL));
        assertEquals(end - start, ring.bytes);
    }

    @Test
    void positionsKeepGrowingPastManyWraps() {
        ByteBuffer m = mapping();
        PerfRing ring = new PerfRing(m, new CountingFences());
        long pos = 0;
        Seen seen = new Seen();
        for (int round = 0; round < 100; round++) {
            long end = put(m, pos, 9, round, round + 1L); // 24 bytes: not a divisor of 256, so records wrap in turn
            m.putLong(PerfRing.DATA_HEAD, end);
            assertEquals(1, ring.drain(seen));
            assertArrayEquals(new long[] {9, round, round + 1L}, seen.records.get(round));
            pos = end;
        }
        assertEquals(2400, m.getLong(PerfRing.DATA_TAIL));
    }

    @Test
    void aMalformedHeaderGivesTheSpaceBackRatherThanStallTheRing() {
        ByteBuffer m = mapping();
        long end = put(m, 0, 9, 1);
        m.putInt(PAGE + (int) end, 9); // a header with size 0
        m.putLong(PerfRing.DATA_HEAD, end + 32);
        Seen seen = new Seen();
        PerfRing ring = new PerfRing(m, new CountingFences());
        assertEquals(1, ring.drain(seen));
        assertEquals(1, ring.malformed);
        assertEquals(end + 32, m.getLong(PerfRing.DATA_TAIL));
    }

    @Test
    void aFirstPageWithoutTheDataLayoutIsRefusedNotGuessed() {
        // data_offset and data_size are 0 only before Linux 4.1, which refuses use_clockid: such a ring never opens.
        ByteBuffer m = ByteBuffer.allocate(PAGE + DATA).order(ByteOrder.nativeOrder());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new PerfRing(m, new CountingFences()));
        assertTrue(e.getMessage().contains("data_offset 0 and data_size 0"), e.getMessage());
    }
}
