package dev.jetw.etw.portable.linux;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads one perf event's mmap'd ring (linux/perf_event.h, {@code struct perf_event_mmap_page}): the first page
 * holds data_head (the kernel's write position) at 1024 and data_tail (ours) at 1032, then data_offset and
 * data_size (Linux 4.1+; no older kernel gets here: it refuses use_clockid, also 4.1, with EINVAL). Positions grow
 * without bound; a record is at {@code position % data_size} and may wrap round the end of the data area, so it is
 * then copied whole into a scratch buffer. Records are 8-byte aligned, so an 8-byte header never wraps.
 *
 * <p>Memory ordering, as the header prescribes: load data_head, then a read barrier, then the records; a full
 * barrier, then store data_tail. The mapping is writable, so the kernel never overwrites unread records: when the
 * ring is full it drops new ones and, once there is room, writes a PERF_RECORD_LOST with their exact count.
 */
final class PerfRing {

    /** Memory barriers around the ring's two positions (no-ops for rings in ordinary Java memory, in tests). */
    interface Fences {
        void acquire();

        void full();
    }

    /** One record: {@code type} and {@code misc} from its header, its {@code size} bytes at {@code offset} of {@code b}. */
    interface Records {
        void record(int type, ByteBuffer b, int offset, int size);
    }

    static final int DATA_HEAD = 1024;
    static final int DATA_TAIL = 1032;
    static final int DATA_OFFSET = 1040;
    static final int DATA_SIZE = 1048;

    private final ByteBuffer ring;
    private final Fences fences;
    private final int dataOffset;
    private final long dataSize;
    private final ByteBuffer scratch = ByteBuffer.allocate(1 << 16).order(ByteOrder.nativeOrder());
    /** Bytes consumed so far. */
    long bytes;
    /** Records whose header was malformed (size 0 or beyond the data): the rest of that pass was skipped. */
    long malformed;

    /** {@code ring}: the whole mapping, metadata page first. */
    PerfRing(ByteBuffer ring, Fences fences) {
        this.ring = ring.duplicate().order(ByteOrder.nativeOrder());
        this.fences = fences;
        long off = this.ring.getLong(DATA_OFFSET);
        long size = this.ring.getLong(DATA_SIZE);
        if (off <= 0 || size <= 0 || off + size > ring.capacity()) {
            throw new IllegalStateException("a perf ring's first page gives data_offset " + off + " and data_size "
                    + size + " for a mapping of " + ring.capacity() + " bytes");
        }
        this.dataOffset = (int) off;
        this.dataSize = size;
    }

    /** The unread bytes as the kernel's data_head shows them now. */
    long unread() {
        return ring.getLong(DATA_HEAD) - ring.getLong(DATA_TAIL);
    }

    long dataSize() {
        return dataSize;
    }

    /** Hands every record written so far to {@code to} in order, then gives their space back; returns their number. */
    int drain(Records to) {
        long head = ring.getLong(DATA_HEAD);
        fences.acquire();
        long tail = ring.getLong(DATA_TAIL);
        int n = 0;
        while (head - tail >= 8) {
            int at = (int) (tail % dataSize);
            int type = ring.getInt(dataOffset + at);
            int size = ring.getShort(dataOffset + at + 6) & 0xFFFF;
            if (size < 8 || size > head - tail) {
                malformed++;
                tail = head; // cannot find the next record: give the space back rather than stall the ring
                break;
            }
            if (at + size <= dataSize) {
                to.record(type, ring, dataOffset + at, size);
            } else {
                int first = (int) (dataSize - at);
                scratch.clear();
                for (int i = 0; i < first; i++) {
                    scratch.put(i, ring.get(dataOffset + at + i));
                }
                for (int i = first; i < size; i++) {
                    scratch.put(i, ring.get(dataOffset + i - first));
                }
                to.record(type, scratch, 0, size);
            }
            tail += size;
            n++;
        }
        fences.full();
        bytes += tail - ring.getLong(DATA_TAIL);
        ring.putLong(DATA_TAIL, tail);
        return n;
    }
}
