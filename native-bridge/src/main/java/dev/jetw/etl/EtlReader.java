package dev.jetw.etl;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Streaming reader of uncompressed .etl files, 64-bit and 32-bit, written by Windows or by jetw.
 *
 * <p><b>Memory:</b> one buffer (BufferSize bytes) and the records decoded from it, plus a small index
 * of the buffer headers (one {@link EtlBufferInfo} per buffer). The file is never read whole.
 *
 * <p><b>Order:</b> {@link #next()} returns the records of buffer 0 (the header buffer) first, then the
 * other buffers in ascending SequenceNumber (ties in file order), and the records of one buffer in
 * their order in the buffer. ETW writes buffers per CPU, so on a multi-CPU Windows trace this order
 * is not global time order (each CPU's stream is in time order); consumers that need time order
 * sort by {@link EtlRecord#rawTimestamp()}. For circular files, SequenceNumber order is the order
 * of writing, so the wrapped file comes out oldest buffer first.
 *
 * <p><b>Damage:</b> a file that cannot be an .etl file (missing, too short, first record not the
 * logfile header, compressed buffers) fails {@link #open} with an {@link EtlFileException}. A file
 * that ends inside a buffer, or holds fewer buffers than its header says, yields every intact
 * buffer and reports a {@link EtlProblem.Kind#TRUNCATED} problem. A buffer whose header or record
 * chain is inconsistent is skipped whole and reported as {@link EtlProblem.Kind#CORRUPT_BUFFER};
 * reading goes on with the next buffer. Records of an undecoded type are counted
 * ({@link #unknownRecords()}) and skipped.
 */
public final class EtlReader implements Closeable {

    /** Upper bound on BufferSize accepted (MAX_ETW_BUFFER_SIZE is 16 MiB on Windows 8+). */
    static final int MAX_BUFFER_SIZE = 16 * 1024 * 1024;
    private static final int LOGFILE_MODE_CIRCULAR = 0x2;

    private final Path file;
    private final FileChannel channel;
    private final EtlLogfileInfo header;
    private final TimestampConverter time;
    private final List<EtlBufferInfo> buffers;
    private final long fileSize;
    private final ByteBuffer buffer;
    private final EtlRecordParser parser;
    private final List<EtlProblem> problems = new ArrayList<>();
    private final ArrayDeque<EtlRecord> pending = new ArrayDeque<>();
    private int nextBuffer;
    private int corruptBuffers;

    private EtlReader(Path file, FileChannel channel) throws IOException {
        this.file = file;
        this.channel = channel;
        this.fileSize = channel.size();
        ByteBuffer first = ByteBuffer.allocate(EtlFormat.BUFFER_HEADER_SIZE + EtlFormat.SYSTEM_HEADER_SIZE)
                .order(ByteOrder.LITTLE_ENDIAN);
        int minimum = EtlFormat.BUFFER_HEADER_SIZE + EtlFormat.SYSTEM_HEADER_SIZE + EtlFormat.LOGFILE_HEADER32_SIZE;
        if (fileSize < minimum) {
            throw new EtlFileException(file, -1, "not an .etl file: only " + fileSize
                    + " bytes, less than the " + minimum + " of a buffer header and a logfile header");
        }
        readFully(first, 0);
        int markerOffset = EtlFormat.BUFFER_HEADER_SIZE;
        int marker = first.getInt(markerOffset);
        int ht = (marker >>> 16) & 0xFF;
        boolean is64 = ht == EtlFormat.HT_SYSTEM64;
        int hookId = first.getShort(markerOffset + 6) & 0xFFFF;
        if ((marker >>> 24) != EtlFormat.MARKER_FLAGS || (ht != EtlFormat.HT_SYSTEM64 && ht != EtlFormat.HT_SYSTEM32)
                || hookId != 0) {
            throw new EtlFileException(file, markerOffset, String.format(
                    "not an .etl file: the first record is not a logfile header (marker 0x%08x, hook 0x%04x;"
                            + " expected 0xc0020002 or 0xc0010002 and hook 0)", marker, hookId));
        }
        EtlBufferInfo firstBuffer = new EtlBufferInfo(0, 0, first);
        if (firstBuffer.isCompressed()) {
            throw compressed(file, 0);
        }
        int bufferSize = firstBuffer.bufferSize();
        int recordSize = first.getShort(markerOffset + 4) & 0xFFFF;
        int lfhSize = is64 ? EtlFormat.LOGFILE_HEADER64_SIZE : EtlFormat.LOGFILE_HEADER32_SIZE;
        if (recordSize < EtlFormat.SYSTEM_HEADER_SIZE + lfhSize) {
            throw new EtlFileException(file, markerOffset, "not an .etl file: logfile-header record size " + recordSize
                    + " is below the " + (EtlFormat.SYSTEM_HEADER_SIZE + lfhSize) + " of its fixed part");
        }
        if (bufferSize < markerOffset + recordSize || bufferSize > MAX_BUFFER_SIZE || bufferSize % 8 != 0) {
            throw new EtlFileException(file, 0, "not an .etl file: BufferSize " + bufferSize
                    + " of the first buffer is not a multiple of 8 between " + (markerOffset + recordSize)
                    + " and " + MAX_BUFFER_SIZE);
        }
        if (fileSize < bufferSize) {
            throw new EtlFileException(file, fileSize, "truncated inside the header buffer: the file has "
                    + fileSize + " bytes, the first buffer alone needs " + bufferSize);
        }
        this.buffer = ByteBuffer.allocate(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
        buffer.clear();
        readFully(buffer, 0);
        this.header = new EtlLogfileInfo(buffer, markerOffset, markerOffset + recordSize, is64);
        if (header.bufferSize() != bufferSize) {
            throw new EtlFileException(file, markerOffset + EtlFormat.SYSTEM_HEADER_SIZE,
                    "logfile header BufferSize " + header.bufferSize() + " differs from the first buffer's " + bufferSize);
        }
        this.time = TimestampConverter.of(header);
        this.parser = new EtlRecordParser(time);
        this.buffers = Collections.unmodifiableList(indexBuffers(bufferSize));
    }

    /**
     * Opens {@code file} and reads its header buffer and the header of every buffer.
     *
     * @throws EtlFileException if the file is missing, unreadable, not an .etl file or compressed
     */
    public static EtlReader open(Path file) throws EtlFileException {
        if (Files.isDirectory(file)) {
            throw new EtlFileException(file, -1, "is a directory, not an .etl file");
        }
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new EtlFileException(file, -1, "no such file");
        } catch (AccessDeniedException e) {
            throw new EtlFileException(file, -1, "permission denied");
        } catch (IOException e) {
            throw new EtlFileException(file, "cannot open: " + e.getMessage(), e);
        }
        try {
            return new EtlReader(file, ch);
        } catch (EtlFileException e) {
            closeQuietly(ch);
            throw e;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw new EtlFileException(file, "cannot read: " + e, e);
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already failing with a better message
        }
    }

    private static EtlFileException compressed(Path file, long offset) {
        return new EtlFileException(file, offset, "compressed buffer (BufferFlag 0x40, as the Relogger writes):"
                + " LZXPRESS-compressed .etl files are not supported by this reader;"
                + " relog without compression (e.g. tracerpt FILE -of EVTX, or xperf -merge) to read it");
    }

    /** Reads every buffer header; data buffers are sorted by SequenceNumber after buffer 0. */
    private List<EtlBufferInfo> indexBuffers(int bufferSize) throws IOException {
        long whole = fileSize / bufferSize;
        long rest = fileSize % bufferSize;
        if (whole > Integer.MAX_VALUE) {
            throw new EtlFileException(file, -1, "too many buffers: " + whole);
        }
        List<EtlBufferInfo> data = new ArrayList<>();
        ByteBuffer h = ByteBuffer.allocate(EtlFormat.BUFFER_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        EtlBufferInfo zero = null;
        for (int i = 0; i < whole; i++) {
            long off = (long) i * bufferSize;
            h.clear();
            readFully(h, off);
            EtlBufferInfo b = new EtlBufferInfo(i, off, h);
            if (b.isCompressed()) {
                throw compressed(file, off);
            }
            if (i == 0) {
                zero = b;
            } else {
                data.add(b);
            }
        }
        data.sort(Comparator.comparingLong(EtlBufferInfo::sequenceNumber));
        data.add(0, zero);
        if (rest != 0) {
            problems.add(new EtlProblem(EtlProblem.Kind.TRUNCATED, whole * bufferSize, String.format(
                    "truncated: the file ends %d bytes into buffer #%d at offset 0x%x (BufferSize %d); that buffer's"
                            + " events are lost", rest, whole, whole * bufferSize, bufferSize)));
        } else if (header.buffersWritten() > whole && (header.logFileMode() & LOGFILE_MODE_CIRCULAR) == 0) {
            problems.add(new EtlProblem(EtlProblem.Kind.TRUNCATED, fileSize, String.format(
                    "truncated: the header says %d buffers were written, the file holds %d (ends at offset 0x%x)",
                    header.buffersWritten(), whole, fileSize)));
        }
        return data;
    }

    private void readFully(ByteBuffer dst, long position) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = channel.read(dst, p);
            if (n < 0) {
                throw new EtlFileException(file, p, "unexpected end of file");
            }
            p += n;
        }
    }

    public Path file() {
        return file;
    }

    public EtlLogfileInfo header() {
        return header;
    }

    public TimestampConverter timestamps() {
        return time;
    }

    /** File size in bytes. */
    public long fileSize() {
        return fileSize;
    }

    /** Headers of the intact buffers, in reading order: buffer 0, then by SequenceNumber. */
    public List<EtlBufferInfo> buffers() {
        return buffers;
    }

    /**
     * The next record (the logfile header record first), or null when every buffer is read.
     *
     * @throws IOException if the file cannot be read any more (I/O error)
     */
    public EtlRecord next() throws IOException {
        while (pending.isEmpty()) {
            if (nextBuffer >= buffers.size()) {
                return null;
            }
            readBuffer(buffers.get(nextBuffer++));
        }
        return pending.poll();
    }

    private void readBuffer(EtlBufferInfo info) throws IOException {
        buffer.clear();
        readFully(buffer, info.fileOffset());
        int size = buffer.capacity();
        String bad = null;
        if (info.bufferSize() != size) {
            bad = "BufferSize " + info.bufferSize() + " differs from the file's " + size;
        } else if (info.savedOffset() < EtlFormat.BUFFER_HEADER_SIZE || info.savedOffset() > size
                || info.savedOffset() % 8 != 0) {
            bad = String.format("SavedOffset 0x%x is not a multiple of 8 within [0x48, 0x%x]", info.savedOffset(), size);
        } else if (info.offset() != info.savedOffset()) {
            bad = String.format("SavedOffset 0x%x differs from Offset 0x%x", info.savedOffset(), info.offset());
        }
        if (bad == null) {
            try {
                List<EtlRecord> out = new ArrayList<>();
                parser.parseBuffer(buffer, info.savedOffset(), info.fileOffset(), info.fileIndex(), out);
                pending.addAll(out);
                return;
            } catch (EtlRecordParser.CorruptBufferException e) {
                bad = e.getMessage();
            }
        }
        corruptBuffers++;
        problems.add(new EtlProblem(EtlProblem.Kind.CORRUPT_BUFFER, info.fileOffset(), String.format(
                "corrupt buffer #%d at offset 0x%x (sequence %d): %s; its records are skipped",
                info.fileIndex(), info.fileOffset(), info.sequenceNumber(), bad)));
    }

    /** Damage found so far (truncation at open; corrupt buffers as they are reached). */
    public List<EtlProblem> problems() {
        return Collections.unmodifiableList(problems);
    }

    public boolean isTruncated() {
        for (EtlProblem p : problems) {
            if (p.kind() == EtlProblem.Kind.TRUNCATED) {
                return true;
            }
        }
        return false;
    }

    public int corruptBuffers() {
        return corruptBuffers;
    }

    /** Records of a header type the reader does not decode, skipped so far. */
    public int unknownRecords() {
        return parser.unknownRecords();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
