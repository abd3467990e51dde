package dev.jetw.etw.portable;

import dev.jetw.etl.EtlFormat;
import dev.jetw.etl.EtlRecordWriter;
import dev.jetw.etl.EventType;
import dev.jetw.etl.Guids;
import dev.jetw.etl.SessionNotice;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Test-local byte checks of the files the engine writes (etl-format.md §1, §2, §4, §10): it
 * asserts the layout rules and lists the 0x14/0x15 records. Deliberately strict and small; it is
 * not the product's reader (dev.jetw.etl has that).
 */
final class EtlLayoutCheck {

    static final class Event {
        int headerType;
        int type;
        int level;
        int version;
        int threadId;
        int processId;
        long timeStamp;
        UUID classGuid;
        int instanceId;
        int parentInstanceId;
        UUID parentGuid;
        byte[] payload;
        long bufferSequence;

        int payloadInt(int at) {
            return ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
        }
    }

    static final class Buffer {
        long sequence;
        int slot;
        List<Event> events = new ArrayList<>();
    }

    static final class File {
        int bufferSize;
        int buffersWritten;
        int eventsLost;
        int buffersLost;
        long startTime;
        long endTime;
        long bootTime;
        long perfFreq;
        long systemTime;
        int clockType;
        int logFileMode;
        int maximumFileSizeMb;
        int timeZoneBias;
        String loggerName;
        String logFileName;
        byte[] versionBytes;
        int pointerSize;
        int providerVersion;
        int loggerId;
        int headerProcessId;
        /** What wrote the file and on which host: the WRITER notice after the header record in buffer 0. */
        String writer;
        /** Data buffers in file order. */
        List<Buffer> buffers = new ArrayList<>();

        List<Buffer> buffersBySequence() {
            List<Buffer> l = new ArrayList<>(buffers);
            l.sort((a, b) -> Long.compare(a.sequence, b.sequence));
            return l;
        }

        List<Event> events() {
            List<Event> all = new ArrayList<>();
            for (Buffer b : buffersBySequence()) {
                all.addAll(b.events);
            }
            return all;
        }
    }

    private EtlLayoutCheck() {
    }

    static File read(Path path) throws IOException {
        return check(ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN), path.toString());
    }

    static File check(ByteBuffer f, String what) {
        File r = new File();
        require(f.capacity() >= 0x180, what + ": shorter than a header");
        r.bufferSize = f.getInt(0);
        require(r.bufferSize % 1024 == 0 && r.bufferSize > 0, what + ": BufferSize " + r.bufferSize);
        require(f.capacity() % r.bufferSize == 0, what + ": length " + f.capacity() + " not a multiple of " + r.bufferSize);
        int count = f.capacity() / r.bufferSize;
        // Buffer 0: header buffer.
        checkBuffer(f, 0, r.bufferSize, what);
        require(f.getShort(EtlFormat.BH_BUFFER_TYPE) == 4, what + ": buffer 0 type");
        require(f.getShort(EtlFormat.BH_BUFFER_FLAG) == 0x21, what + ": buffer 0 flag");
        require(f.getLong(EtlFormat.BH_SEQUENCE_NUMBER) == 0, what + ": buffer 0 sequence");
        require(f.getLong(EtlFormat.BH_TIMESTAMP) == 0, what + ": buffer 0 timestamp");
        r.loggerId = f.getShort(EtlFormat.BH_LOGGER_ID);
        int rec = 0x48;
        require(f.getShort(rec) == 2 && (f.get(rec + 2) & 0xFF) == 0x02 && (f.get(rec + 3) & 0xFF) == 0xC0,
                what + ": header record marker");
        require(f.get(rec + 6) == 0 && f.get(rec + 7) == 0, what + ": header record HookId");
        int recSize = f.getShort(rec + 4) & 0xFFFF;
        r.headerProcessId = f.getInt(rec + 0x0C);
        r.systemTime = f.getLong(rec + 0x10);
        int h = 0x68;
        require(f.getInt(h) == r.bufferSize, what + ": header BufferSize");
        r.versionBytes = new byte[] {f.get(h + 4), f.get(h + 5), f.get(h + 6), f.get(h + 7)};
        r.providerVersion = f.getInt(h + 8);
        r.endTime = f.getLong(h + 0x10);
        r.maximumFileSizeMb = f.getInt(h + 0x1C);
        r.logFileMode = f.getInt(h + 0x20);
        r.buffersWritten = f.getInt(h + 0x24);
        r.pointerSize = f.getInt(h + 0x2C);
        r.eventsLost = f.getInt(h + 0x30);
        r.timeZoneBias = f.getInt(h + 0x48);
        r.bootTime = f.getLong(h + 0xF8);
        r.perfFreq = f.getLong(h + 0x100);
        r.startTime = f.getLong(h + 0x108);
        r.clockType = f.getInt(h + 0x110);
        r.buffersLost = f.getInt(h + 0x114);
        int s = h + 0x118;
        StringBuilder sb = new StringBuilder();
        while (f.getChar(s) != 0) {
            sb.append(f.getChar(s));
            s += 2;
        }
        r.loggerName = sb.toString();
        s += 2;
        sb.setLength(0);
        while (f.getChar(s) != 0) {
            sb.append(f.getChar(s));
            s += 2;
        }
        r.logFileName = sb.toString();
        require(recSize == 0x20 + 0x118 + 2 * (r.loggerName.length() + 1) + 2 * (r.logFileName.length() + 1),
                what + ": header record size");
        r.writer = writerNotice(f, 0x48 + EtlFormat.align8(recSize), r, what);
        require(r.buffersWritten == count, what + ": BuffersWritten " + r.buffersWritten + " but " + count + " buffers in file");
        require(r.pointerSize == 8 && r.perfFreq != 0, what + ": PointerSize/PerfFreq");
        for (int i = 1; i < count; i++) {
            int base = i * r.bufferSize;
            ByteBuffer b = slice(f, base, r.bufferSize);
            checkBuffer(b, i, r.bufferSize, what);
            require(b.getShort(EtlFormat.BH_BUFFER_TYPE) == 0 && b.getShort(EtlFormat.BH_BUFFER_FLAG) == 0x20,
                    what + ": buffer " + i + " type/flag");
            require(b.getShort(EtlFormat.BH_LOGGER_ID) == r.loggerId, what + ": buffer " + i + " LoggerId");
            Buffer buf = new Buffer();
            buf.slot = i;
            buf.sequence = b.getLong(EtlFormat.BH_SEQUENCE_NUMBER);
            require(buf.sequence > 0, what + ": buffer " + i + " sequence 0");
            buf.events = records(b, buf.sequence, 0x48, what + " buffer " + i);
            require(!buf.events.isEmpty(), what + ": empty data buffer " + i);
            r.buffers.add(buf);
        }
        long distinct = r.buffers.stream().mapToLong(x -> x.sequence).distinct().count();
        require(distinct == r.buffers.size(), what + ": duplicate sequence numbers");
        return r;
    }

    /**
     * The text of the WRITER notice that follows the header record in buffer 0: the only other record there but a
     * buffering ring's RING notice after it, of the notice class, header thread 0, the header's process and time. It may be missing only where it
     * would not fit the buffer.
     */
    private static String writerNotice(ByteBuffer f, int after, File r, String what) {
        int saved = f.getInt(EtlFormat.BH_SAVED_OFFSET);
        int expectedSpace = EtlRecordWriter.fullRecordSpace(SessionNotice.encode(SessionNotice.WRITER,
                SessionEnvironment.WRITER).length);
        if (saved == after) {
            require(after + expectedSpace > r.bufferSize, what + ": no writer notice though the header buffer has room for it");
            return null;
        }
        List<Event> notices = records(slice(f, 0, saved), 0, after, what + " header buffer");
        require(notices.size() == 1 || notices.size() == 2,
                what + ": header buffer holds the header record and one notice (two for a ring's), not " + notices.size());
        String text = null;
        for (int i = 0; i < notices.size(); i++) {
            Event e = notices.get(i);
            require(e.headerType == 0x14 && SessionNotice.CLASS.equals(e.classGuid) && e.type == EventType.INFO
                    && e.threadId == 0 && e.processId == r.headerProcessId && e.timeStamp == r.systemTime,
                    what + ": the header buffer's notice is a session notice of the session's process at its start");
            ByteBuffer p = ByteBuffer.wrap(e.payload).order(ByteOrder.LITTLE_ENDIAN);
            int kind = i == 0 ? SessionNotice.WRITER : SessionNotice.RING;
            require(p.getInt(0) == kind, what + ": the header buffer's notice " + i + " is of kind " + kind
                    + " (WRITER, then a buffering ring's RING)");
            require(p.getShort(e.payload.length - 2) == 0, what + ": notice text NUL-terminated");
            text = i == 0 ? new String(e.payload, 4, e.payload.length - 6, java.nio.charset.StandardCharsets.UTF_16LE) : text;
        }
        return text;
    }

    /** Checks a single data buffer as a real-time consumer receives it and returns its records. */
    static List<Event> dataBuffer(ByteBuffer b, int bufferSize) {
        ByteBuffer le = b.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        checkBuffer(le, 1, bufferSize, "real-time buffer");
        return records(le, le.getLong(EtlFormat.BH_SEQUENCE_NUMBER), 0x48, "real-time buffer");
    }

    private static ByteBuffer slice(ByteBuffer f, int base, int len) {
        ByteBuffer d = f.duplicate();
        d.position(base).limit(base + len);
        return d.slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void checkBuffer(ByteBuffer b, int index, int bufferSize, String what) {
        String w = what + ": buffer " + index;
        require(b.getInt(EtlFormat.BH_BUFFER_SIZE) == bufferSize, w + " BufferSize");
        int saved = b.getInt(EtlFormat.BH_SAVED_OFFSET);
        require(saved == b.getInt(EtlFormat.BH_OFFSET) && saved == b.getInt(EtlFormat.BH_CURRENT_OFFSET),
                w + " SavedOffset/Offset/CurrentOffset differ");
        require(saved % 8 == 0 && saved > 0x48 && saved <= bufferSize, w + " SavedOffset " + saved);
        require(b.getInt(EtlFormat.BH_STATE) == 3, w + " State");
        require(b.getShort(EtlFormat.BH_PROCESSOR_INDEX) == 0, w + " ProcessorIndex");
        for (int i = saved; i < bufferSize; i++) {
            require(b.get(i) == (byte) 0xFF, w + " tail byte " + i + " not 0xFF");
        }
    }

    private static List<Event> records(ByteBuffer b, long seq, int from, String what) {
        List<Event> l = new ArrayList<>();
        int end = b.getInt(EtlFormat.BH_SAVED_OFFSET);
        int p = from;
        while (p < end) {
            int size = b.getShort(p) & 0xFFFF;
            int ht = b.get(p + 2) & 0xFF;
            require((b.get(p + 3) & 0xFF) == 0xC0, what + ": marker flags at " + p);
            require(ht == 0x14 || ht == 0x15, what + ": header type " + ht + " at " + p);
            int hdr = ht == 0x15 ? 0x48 : 0x30;
            require(size >= hdr && p + size <= end, what + ": record size " + size + " at " + p);
            Event e = new Event();
            e.headerType = ht;
            e.type = b.get(p + 4) & 0xFF;
            e.level = b.get(p + 5) & 0xFF;
            e.version = b.getShort(p + 6) & 0xFFFF;
            e.threadId = b.getInt(p + 8);
            e.processId = b.getInt(p + 12);
            e.timeStamp = b.getLong(p + 16);
            e.classGuid = Guids.get(b, p + 0x18);
            require(b.getLong(p + 0x28) == 0, what + ": KernelTime/UserTime");
            if (ht == 0x15) {
                e.instanceId = b.getInt(p + 0x30);
                e.parentInstanceId = b.getInt(p + 0x34);
                e.parentGuid = Guids.get(b, p + 0x38);
            }
            e.payload = new byte[size - hdr];
            for (int i = 0; i < e.payload.length; i++) {
                e.payload[i] = b.get(p + hdr + i);
            }
            for (int i = p + size; i < EtlFormat.align8(p + size); i++) {
                require(b.get(i) == 0, what + ": padding not zero at " + i);
            }
            e.bufferSequence = seq;
            l.add(e);
            p = EtlFormat.align8(p + size);
        }
        require(p == end, what + ": records end at " + p + ", SavedOffset " + end);
        return l;
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }

    static String hex(byte[] b) {
        return Arrays.toString(b);
    }
}
