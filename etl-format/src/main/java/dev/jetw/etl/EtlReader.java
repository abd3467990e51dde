package dev.jetw.etl;

import dev.jetw.etl.lz77.Lz77Exception;
import dev.jetw.etl.lz77.PlainLz77;

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
import java.util.List;

/**
 * Streaming reader of .etl files, 64-bit and 32-bit, written by Windows (also relogged and compressed
 * files) or by jetw.
 *
 * <p><b>Buffers as on disk</b> (etl-format.md §13): buffers follow each other with no gap, each as long
 * as its own BufferSize; the logfile header's BufferSize is only the capacity (an upper bound on a
 * buffer's used bytes). A buffer's records end at its Offset (0x30), not at SavedOffset. A buffer
 * flagged ETW_BUFFER_FLAG_COMPRESSED holds its 0x48-byte header as is, then an [MS-XCA] Plain LZ77
 * stream that decodes to Offset − 0x48 bytes ({@link PlainLz77}).
 *
 * <p><b>Memory:</b> one buffer of capacity bytes (plus, for compressed files, one array for a
 * buffer's compressed bytes) and the records decoded from it, plus a small index of the buffer
 * headers (one {@link EtlBufferInfo} per buffer). The file is never read whole.
 *
 * <p><b>Order:</b> {@link #next()} returns the records of buffer 0 (the header buffer) first, then the
 * other buffers in ascending SequenceNumber (ties in file order), and the records of one buffer in
 * their order in the buffer. ETW writes buffers per CPU, so on a multi-CPU Windows trace this order
 * is not global time order (each CPU's stream is in time order); consumers that need time order
 * sort by {@link EtlRecord#rawTimestamp()}. For circular files, SequenceNumber order is the order
 * of writing, so the wrapped file comes out oldest buffer first.
 *
 * <p><b>Damage:</b> a file that cannot be an .etl file (missing, too short, first record not the
 * logfile header) fails {@link #open} with an {@link EtlFileException}. A file that ends inside a
 * buffer, or holds fewer buffers than its header says, yields every intact buffer and reports a
 * {@link EtlProblem.Kind#TRUNCATED} problem. A buffer whose header is inconsistent, or whose
 * compressed stream does not decode, is skipped whole; a damaged record ends its buffer, the records
 * before it are kept; both are {@link EtlProblem.Kind#CORRUPT_BUFFER} problems, and reading goes on
 * with the next buffer. Fields that contradict each other (the header's times, its buffer count and
 * the file, records time-stamped outside the session or after their buffer's TimeStamp) are
 * {@link EtlProblem.Kind#INCONSISTENT} problems ({@link EtlConsistency}); those records are delivered. Records of an undecoded type are counted ({@link #unknownRecords()}) and
 * skipped. At most {@link #MAX_PROBLEMS} problems are listed; the rest are counted in one last line.
 */
public final class EtlReader implements Closeable {

    /** Upper bound on BufferSize accepted (MAX_ETW_BUFFER_SIZE is 16 MiB on Windows 8+). */
    static final int MAX_BUFFER_SIZE = 16 * 1024 * 1024;
    /** Problems listed one by one; a damaged file of thousands of buffers gets one more line counting the rest. */
    public static final int MAX_PROBLEMS = EtlProblemLog.MAX_LISTED;

    private final Path file;
    private final FileChannel channel;
    private final EtlLogfileInfo header;
    private final TimestampConverter time;
    private final List<EtlBufferInfo> buffers;
    private final long fileSize;
    /** Capacity of a buffer in memory: the logfile header's BufferSize. */
    private final int capacity;
    private final byte[] data;
    private final ByteBuffer buffer;
    private byte[] compressed = new byte[0];
    private final EtlRecordParser parser;
    private final EtlProblemLog problems = new EtlProblemLog();
    private final EtlConsistency consistency;
    private final ArrayDeque<EtlRecord> pending = new ArrayDeque<>();
    private int nextBuffer;
    private int compressedBuffers;

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
            throw new EtlFileException(file, 0, "not an .etl file: the header buffer is flagged compressed"
                    + " (BufferFlag 0x" + Integer.toHexString(firstBuffer.bufferFlag()) + "); Windows never compresses it");
        }
        int onDisk = firstBuffer.bufferSize();
        int used = firstBuffer.offset();
        int recordSize = first.getShort(markerOffset + 4) & 0xFFFF;
        int lfhSize = is64 ? EtlFormat.LOGFILE_HEADER64_SIZE : EtlFormat.LOGFILE_HEADER32_SIZE;
        if (recordSize < EtlFormat.SYSTEM_HEADER_SIZE + lfhSize) {
            throw new EtlFileException(file, markerOffset, "not an .etl file: logfile-header record size " + recordSize
                    + " is below the " + (EtlFormat.SYSTEM_HEADER_SIZE + lfhSize) + " of its fixed part");
        }
        if (used < markerOffset + recordSize || used > onDisk || onDisk > MAX_BUFFER_SIZE) {
            throw new EtlFileException(file, 0, "not an .etl file: the header buffer's Offset " + used
                    + " and BufferSize " + onDisk + " do not hold its " + recordSize + "-byte logfile header (Offset must be"
                    + " in [" + (markerOffset + recordSize) + ", BufferSize], BufferSize at most " + MAX_BUFFER_SIZE + ")");
        }
        if (fileSize < onDisk) {
            throw new EtlFileException(file, fileSize, "truncated inside the header buffer: the file has "
                    + fileSize + " bytes, the first buffer alone needs " + onDisk);
        }
        ByteBuffer zero = ByteBuffer.allocate(used).order(ByteOrder.LITTLE_ENDIAN);
        readFully(zero, 0);
        this.header = new EtlLogfileInfo(zero, markerOffset, markerOffset + recordSize, is64);
        int declared = header.bufferSize();
        if (declared < used || declared > MAX_BUFFER_SIZE || declared % 8 != 0) {
            throw new EtlFileException(file, markerOffset + EtlFormat.SYSTEM_HEADER_SIZE, "not an .etl file: logfile"
                    + " header BufferSize " + declared + " is not a multiple of 8 between the header buffer's Offset "
                    + used + " and " + MAX_BUFFER_SIZE);
        }
        this.capacity = declared;
        this.data = new byte[capacity];
        this.buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        this.time = TimestampConverter.of(header);
        this.parser = new EtlRecordParser(time);
        this.consistency = new EtlConsistency(header, time, problems);
        this.buffers = Collections.unmodifiableList(
                EtlBufferChain.walk(this::readFully, fileSize, capacity, header, problems));
    }

    /**
     * Opens {@code file} and reads its header buffer and the header of every buffer.
     *
     * @throws EtlFileException if the file is missing, unreadable or not an .etl file
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

    /** Headers of the buffers found whole in the file, in reading order: buffer 0, then by SequenceNumber. */
    public List<EtlBufferInfo> buffers() {
        return buffers;
    }

    /** How many of {@link #buffers()} have been read so far (for progress: buffersRead / buffers().size()). */
    public int buffersRead() {
        return nextBuffer;
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
        int used = info.offset();
        String bad = null;
        if (used < EtlFormat.BUFFER_HEADER_SIZE || used > capacity || used % 8 != 0) {
            bad = String.format("Offset 0x%x is not a multiple of 8 within [0x48, 0x%x] (the capacity)", used, capacity);
        } else if (info.isCompressed()) {
            bad = decompress(info);
        } else if (used > info.bufferSize()) {
            bad = String.format("Offset 0x%x is past the buffer's BufferSize 0x%x", used, info.bufferSize());
        } else {
            ByteBuffer dst = ByteBuffer.wrap(data, 0, used);
            readFully(dst, info.fileOffset());
        }
        if (bad == null) {
            List<EtlRecord> out = new ArrayList<>();
            String damage = parser.parseBuffer(buffer, used, info.fileOffset(), info.fileIndex(), info.processorIndex(), out);
            consistency.checkRecords(info, out);
            pending.addAll(out);
            if (damage == null) {
                return;
            }
            problems.corrupt(info.fileOffset(), String.format(
                    "damaged record in buffer #%d at offset 0x%x (sequence %d): %s", info.fileIndex(), info.fileOffset(),
                    info.sequenceNumber(), damage));
            return;
        }
        problems.corrupt(info.fileOffset(), String.format(
                "corrupt buffer #%d at offset 0x%x (sequence %d): %s; its records are skipped",
                info.fileIndex(), info.fileOffset(), info.sequenceNumber(), bad));
    }

    /** Decodes a compressed buffer into {@link #data}; returns what is wrong with it, or null. */
    private String decompress(EtlBufferInfo info) throws IOException {
        compressedBuffers++;
        int size = info.bufferSize();
        if (compressed.length < size) {
            compressed = new byte[size];
        }
        readFully(ByteBuffer.wrap(compressed, 0, size), info.fileOffset());
        System.arraycopy(compressed, 0, data, 0, EtlFormat.BUFFER_HEADER_SIZE);
        int expected = info.offset() - EtlFormat.BUFFER_HEADER_SIZE;
        try {
            int n = PlainLz77.decompress(compressed, EtlFormat.BUFFER_HEADER_SIZE, size - EtlFormat.BUFFER_HEADER_SIZE,
                    data, EtlFormat.BUFFER_HEADER_SIZE, expected);
            if (n != expected) {
                return "compressed data decodes to " + n + " bytes, Offset 0x" + Integer.toHexString(info.offset())
                        + " says " + expected;
            }
            return null;
        } catch (Lz77Exception e) {
            return "compressed data (Plain LZ77) does not decode: " + e.getMessage();
        }
    }

    /**
     * Damage found so far (truncation and broken buffer chain at open; corrupt buffers and damaged
     * records as they are reached). At most {@link #MAX_PROBLEMS} are listed one by one; if there were
     * more, one last entry counts them.
     */
    public List<EtlProblem> problems() {
        return problems.list();
    }

    public boolean isTruncated() {
        return problems.isTruncated();
    }

    /** Buffers skipped or cut short by damage (each also a problem, listed or counted). */
    public int corruptBuffers() {
        return problems.corruptBuffers();
    }

    /** Compressed buffers met so far (decoded or not). */
    public int compressedBuffers() {
        return compressedBuffers;
    }

    /** The logfile header's BufferSize: the most bytes a buffer holds once decoded. */
    public int bufferCapacity() {
        return capacity;
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
