package dev.jetw.etl;


import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * Test fixture: builds a small .etl file byte by byte, following shared/docs/etl-format.md exactly
 * (§1 buffers, §2 WMI_BUFFER_HEADER, §4 logfile header, §5 instance records 0x15/0x0B, §6 full-header
 * records 0x14/0x0A, §10 writer checklist). It is independent of the project's writer, so reader
 * tests do not depend on the writer being right. 32-bit files use SYSTEM32 + TRACE_LOGFILE_HEADER32
 * and 0x0B / 0x0A records.
 */
public final class EtlFixtureBuilder {

    public int bufferSize = 4096;
    public boolean is64 = true;
    public long startFileTime = 133000000000000000L; // 2022-06-18
    public long anchor = 5_000_000_000L;
    public long perfFreq = 10_000_000L;
    public int clockType = 1;
    public int cpuMHz = 3000;
    public int processors = 2;
    public int logFileMode = 1;
    public int eventsLost;
    public String loggerName = "jetw-test";
    /** BuffersWritten in the header; -1: the number of buffers in the file. */
    public int buffersWritten = -1;
    public String logFileName = "C:\\jetw\\test.etl";
    public int pid = 4242;

    private final List<List<byte[]>> buffers = new ArrayList<>();
    private final List<Long> sequences = new ArrayList<>();
    private final List<Integer> bufferCpus = new ArrayList<>();

    /** Starts a new data buffer; records go to the last one. */
    public EtlFixtureBuilder newBuffer() {
        buffers.add(new ArrayList<>());
        sequences.add((long) buffers.size());
        bufferCpus.add(0);
        return this;
    }

    /** Starts a new data buffer of CPU {@code processor}'s stream (its ProcessorIndex); records go to it. */
    public EtlFixtureBuilder newBuffer(int processor) {
        newBuffer();
        bufferCpus.set(bufferCpus.size() - 1, processor);
        return this;
    }

    /** Overrides the SequenceNumber of data buffer {@code i} (0-based among data buffers). */
    public EtlFixtureBuilder sequence(int i, long seq) {
        sequences.set(i, seq);
        return this;
    }

    public EtlFixtureBuilder record(byte[] record) {
        if (buffers.isEmpty()) {
            newBuffer();
        }
        List<byte[]> b = buffers.get(buffers.size() - 1);
        int used = EtlFormat.BUFFER_HEADER_SIZE;
        for (byte[] r : b) {
            used += EtlFormat.align8(r.length);
        }
        if (used + EtlFormat.align8(record.length) > bufferSize) {
            newBuffer(bufferCpus.get(bufferCpus.size() - 1)); // the same CPU's stream goes on
            b = buffers.get(buffers.size() - 1);
        }
        b.add(record);
        return this;
    }

    /** An EVENT_INSTANCE_GUID_HEADER record (§5). */
    public static byte[] instance(boolean is64, int type, int level, int version, int tid, int pid, long ts, UUID classGuid,
                           int instanceId, int parentInstanceId, UUID parentGuid, byte[] payload) {
        ByteBuffer b = le(EtlFormat.INSTANCE_HEADER_SIZE + payload.length);
        b.putShort(0, (short) (EtlFormat.INSTANCE_HEADER_SIZE + payload.length));
        b.put(2, (byte) (is64 ? EtlFormat.HT_INSTANCE64 : EtlFormat.HT_INSTANCE32));
        b.put(3, (byte) 0xC0);
        b.put(4, (byte) type);
        b.put(5, (byte) level);
        b.putShort(6, (short) version);
        b.putInt(8, tid);
        b.putInt(12, pid);
        b.putLong(16, ts);
        Guids.put(b, 0x18, classGuid);
        b.putInt(0x30, instanceId);
        b.putInt(0x34, parentInstanceId);
        Guids.put(b, 0x38, parentGuid == null ? new UUID(0, 0) : parentGuid);
        b.position(EtlFormat.INSTANCE_HEADER_SIZE);
        b.put(payload);
        return b.array();
    }

    /** An EVENT_TRACE_HEADER record (§6). */
    public static byte[] full(boolean is64, int type, int level, int version, int tid, int pid, long ts, UUID classGuid,
                       byte[] payload) {
        ByteBuffer b = le(EtlFormat.FULL_HEADER_SIZE + payload.length);
        b.putShort(0, (short) (EtlFormat.FULL_HEADER_SIZE + payload.length));
        b.put(2, (byte) (is64 ? EtlFormat.HT_FULL_HEADER64 : EtlFormat.HT_FULL_HEADER32));
        b.put(3, (byte) 0xC0);
        b.put(4, (byte) type);
        b.put(5, (byte) level);
        b.putShort(6, (short) version);
        b.putInt(8, tid);
        b.putInt(12, pid);
        b.putLong(16, ts);
        Guids.put(b, 0x18, classGuid);
        b.position(EtlFormat.FULL_HEADER_SIZE);
        b.put(payload);
        return b.array();
    }

    /**
     * An EVENT_HEADER record (§7) with extended items {type, data} linked by the Linkage bit (each item
     * padded to 8), then the user data.
     */
    public static byte[] eventHeader(boolean is64, int tid, int pid, long ts, UUID provider, int id, int version,
                                     int channel, int level, int opcode, int task, long keyword, UUID activity,
                                     byte[][] items, int[] itemTypes, byte[] userData) {
        ByteArrayOutputStream ext = new ByteArrayOutputStream();
        for (int i = 0; i < items.length; i++) {
            int itemSize = EtlFormat.align8(8 + items[i].length);
            ByteBuffer h = le(itemSize);
            h.putShort(0, (short) itemSize);
            h.putShort(2, (short) itemTypes[i]);
            h.putShort(4, (short) (i + 1 < items.length ? 1 : 0));
            h.putShort(6, (short) items[i].length);
            h.position(8);
            h.put(items[i]);
            ext.writeBytes(h.array());
        }
        byte[] x = ext.toByteArray();
        int size = EtlFormat.EVENT_HEADER_SIZE + x.length + userData.length;
        ByteBuffer b = le(size);
        b.putShort(0, (short) size);
        b.put(2, (byte) (is64 ? EtlFormat.HT_EVENT_HEADER64 : EtlFormat.HT_EVENT_HEADER32));
        b.put(3, (byte) 0xC0);
        b.putShort(4, (short) (items.length > 0 ? 1 : 0));
        b.putInt(8, tid);
        b.putInt(12, pid);
        b.putLong(16, ts);
        Guids.put(b, 0x18, provider);
        b.putShort(0x28, (short) id);
        b.put(0x2A, (byte) version);
        b.put(0x2B, (byte) channel);
        b.put(0x2C, (byte) level);
        b.put(0x2D, (byte) opcode);
        b.putShort(0x2E, (short) task);
        b.putLong(0x30, keyword);
        Guids.put(b, 0x40, activity);
        b.position(EtlFormat.EVENT_HEADER_SIZE);
        b.put(x);
        b.put(userData);
        return b.array();
    }

    /** A SYSTEM (0x20), COMPACT (0x18) or PERFINFO (0x10) record with the given payload, Version word 2. */
    public static byte[] systemLike(int headerType, int group, int type, int tid, int pid, long ts, byte[] payload) {
        return systemLike(headerType, 2, group, type, tid, pid, ts, payload);
    }

    /** As above with the given Version word (its low byte is the MOF class version of kernel events). */
    public static byte[] systemLike(int headerType, int version, int group, int type, int tid, int pid, long ts,
                                    byte[] payload) {
        int fixed = headerType <= 2 ? 0x20 : headerType <= 4 ? 0x18 : 0x10;
        ByteBuffer b = le(fixed + payload.length);
        b.putShort(0, (short) version);
        b.put(2, (byte) headerType);
        b.put(3, (byte) 0xC0);
        b.putShort(4, (short) (fixed + payload.length));
        b.put(6, (byte) type);
        b.put(7, (byte) group);
        if (fixed == 0x10) {
            b.putLong(8, ts);
        } else {
            b.putInt(8, tid);
            b.putInt(12, pid);
            b.putLong(16, ts);
        }
        b.position(fixed);
        b.put(payload);
        return b.array();
    }

    public static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    public static byte[] utf16z(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
        return Arrays.copyOf(b, b.length + 2);
    }

    public static byte[] u32(int v) {
        return le(4).putInt(0, v).array();
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            o.writeBytes(p);
        }
        return o.toByteArray();
    }

    /** The logfile-header record: SYSTEM header + TRACE_LOGFILE_HEADER32/64 + the two strings (§4). */
    public byte[] logfileHeaderRecord(int totalBuffers, long endFileTime) {
        int lfh = is64 ? EtlFormat.LOGFILE_HEADER64_SIZE : EtlFormat.LOGFILE_HEADER32_SIZE;
        byte[] names = concat(utf16z(loggerName), utf16z(logFileName));
        int size = 0x20 + lfh + names.length;
        ByteBuffer b = le(size);
        b.putShort(0, (short) 2);
        b.put(2, (byte) (is64 ? EtlFormat.HT_SYSTEM64 : EtlFormat.HT_SYSTEM32));
        b.put(3, (byte) 0xC0);
        b.putShort(4, (short) size);
        b.putInt(8, 77); // tid
        b.putInt(12, pid);
        b.putLong(16, anchor);
        int h = 0x20;
        b.putInt(h, bufferSize);
        b.put(h + 4, (byte) 10);
        b.put(h + 6, (byte) 1);
        b.put(h + 7, (byte) 5);
        b.putInt(h + 8, 19041);
        b.putInt(h + 0x0C, processors);
        b.putLong(h + 0x10, endFileTime);
        b.putInt(h + 0x18, 156250);
        b.putInt(h + 0x20, logFileMode);
        b.putInt(h + 0x24, buffersWritten >= 0 ? buffersWritten : totalBuffers);
        b.putInt(h + 0x28, 1);
        b.putInt(h + 0x2C, is64 ? 8 : 4);
        b.putInt(h + 0x30, eventsLost);
        b.putInt(h + 0x34, cpuMHz);
        int tz = h + (is64 ? 0x48 : 0x40);
        b.putInt(tz, -60);
        int after = tz + 0xAC + 4;
        b.putLong(after, startFileTime - 36_000_000_000L);
        b.putLong(after + 8, perfFreq);
        b.putLong(after + 0x10, startFileTime);
        b.putInt(after + 0x18, clockType);
        b.position(h + lfh);
        b.put(names);
        return b.array();
    }

    public byte[] build() {
        int total = 1 + buffers.size();
        ByteBuffer file = le(total * bufferSize);
        List<byte[]> zero = new ArrayList<>();
        zero.add(logfileHeaderRecord(total, startFileTime + 10_000_000L));
        writeBuffer(file, 0, zero, 0, 0, 4, 0x21);
        for (int i = 0; i < buffers.size(); i++) {
            writeBuffer(file, (i + 1) * bufferSize, buffers.get(i), sequences.get(i), bufferCpus.get(i), 0, 0x20);
        }
        return file.array();
    }

    private void writeBuffer(ByteBuffer file, int at, List<byte[]> records, long seq, int processor, int type, int flag) {
        int pos = EtlFormat.BUFFER_HEADER_SIZE;
        for (byte[] r : records) {
            file.position(at + pos);
            file.put(r);
            pos += EtlFormat.align8(r.length);
        }
        for (int p = pos; p < bufferSize; p++) {
            file.put(at + p, (byte) 0xFF);
        }
        file.putInt(at, bufferSize);
        file.putInt(at + 4, pos);
        file.putInt(at + 8, pos);
        file.putLong(at + 0x18, seq);
        file.putShort(at + 0x28, (short) processor);
        file.putShort(at + 0x2A, (short) 7);
        file.putInt(at + 0x2C, 3);
        file.putInt(at + 0x30, pos);
        file.putShort(at + 0x34, (short) flag);
        file.putShort(at + 0x36, (short) type);
    }
}
