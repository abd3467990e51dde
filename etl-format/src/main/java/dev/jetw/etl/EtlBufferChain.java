package dev.jetw.etl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The index of a file's buffers, found by walking the chain as it is on disk (etl-format.md §13):
 * each buffer starts where the previous one ends, BufferSize bytes on; there is no fixed stride.
 * Reports the truncations and broken links it meets.
 */
final class EtlBufferChain {

    private static final int LOGFILE_MODE_CIRCULAR = 0x2;

    /** Reads {@code dst.remaining()} bytes at {@code position} of the file. */
    interface PositionalRead {
        void read(ByteBuffer dst, long position) throws IOException;
    }

    private EtlBufferChain() {
    }

    /**
     * Walks the buffer chain by each buffer's own BufferSize and reads every buffer header; data
     * buffers are sorted by SequenceNumber after buffer 0. A header whose BufferSize cannot be right
     * breaks the chain: in a file whose buffers so far all had the capacity as their size (every
     * uncompressed writer), the walk steps over it by the capacity; otherwise the rest of the file
     * cannot be located and is reported skipped.
     */
    static List<EtlBufferInfo> walk(PositionalRead file, long fileSize, int capacity, EtlLogfileInfo header,
                                    EtlProblemLog problems) throws IOException {
        List<EtlBufferInfo> data = new ArrayList<>();
        ByteBuffer h = ByteBuffer.allocate(EtlFormat.BUFFER_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        EtlBufferInfo zero = null;
        boolean uniform = true;
        long off = 0;
        int index = 0;
        for (; off < fileSize; index++) {
            if (fileSize - off < EtlFormat.BUFFER_HEADER_SIZE) {
                problems.truncated(off, String.format("truncated: the file ends %d bytes into buffer #%d"
                        + " at offset 0x%x, inside its header; that buffer's events are lost", fileSize - off, index, off));
                break;
            }
            h.clear();
            file.read(h, off);
            EtlBufferInfo b = new EtlBufferInfo(index, off, h);
            int size = b.bufferSize();
            String bad = null;
            if (size < EtlFormat.BUFFER_HEADER_SIZE || size > EtlReader.MAX_BUFFER_SIZE) {
                bad = "BufferSize " + size + " is outside [0x48, " + EtlReader.MAX_BUFFER_SIZE + "]";
            } else if (uniform && index > 0 && size != capacity && !b.isCompressed()) {
                bad = "BufferSize " + size + " differs from the " + capacity + " of every buffer before it";
            }
            if (bad != null) {
                if (uniform && index > 0 && fileSize - off >= capacity) {
                    problems.corrupt(off, String.format("corrupt buffer #%d at offset 0x%x: %s;"
                            + " its records are skipped, the next buffer is assumed %d bytes on", index, off, bad, capacity));
                    off += capacity;
                    continue;
                }
                problems.corrupt(off, String.format("corrupt buffer #%d at offset 0x%x: %s;"
                        + " the next buffer cannot be located, the last %d bytes of the file are skipped",
                        index, off, bad, fileSize - off));
                break;
            }
            if (size > fileSize - off) {
                problems.truncated(off, String.format("truncated: the file ends %d bytes into buffer #%d"
                        + " at offset 0x%x (BufferSize %d); that buffer's events are lost", fileSize - off, index, off, size));
                break;
            }
            uniform &= size == capacity;
            if (index == 0) {
                zero = b;
            } else {
                data.add(b);
            }
            off += size;
        }
        data.sort(Comparator.comparingLong(EtlBufferInfo::sequenceNumber));
        data.add(0, zero);
        boolean circular = (header.logFileMode() & LOGFILE_MODE_CIRCULAR) != 0;
        if (off == fileSize && header.buffersWritten() > index && !circular) {
            problems.truncated(fileSize, String.format(
                    "truncated: the header says %d buffers were written, the file holds %d (ends at offset 0x%x)",
                    header.buffersWritten(), index, fileSize));
        } else if (off == fileSize && header.buffersWritten() > 0 && header.buffersWritten() < index && !circular) {
            // Windows and jetw both count every buffer they write (jetw rewrites the count after each one).
            problems.inconsistent(0, String.format("inconsistent logfile header: it says %d buffers were written,"
                    + " the file holds %d whole buffers", header.buffersWritten(), index));
        }
        return data;
    }

}
