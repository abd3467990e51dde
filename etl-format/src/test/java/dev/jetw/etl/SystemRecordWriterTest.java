package dev.jetw.etl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's kernel records (SYSTEM64, COMPACT64) against the test fixture's independent encoding
 * (KernelRecords / EtlFixtureBuilder.systemLike), byte for byte; and a file of them with per-CPU
 * buffers read back by EtlReader: group, type, version, ids, time, payload and each buffer's
 * ProcessorIndex. Session notices round-trip.
 */
class SystemRecordWriterTest {

    @TempDir
    Path temp;

    @Test
    void systemAndCompactHeadersMatchTheFixtureByteForByte() {
        byte[] payload = new byte[24];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7 + 1);
        }
        for (int ht : new int[] {EtlFormat.HT_SYSTEM64, EtlFormat.HT_COMPACT64}) {
            byte[] expected = EtlFixtureBuilder.systemLike(ht, 2, 0x05, 36, 1234, 4321, 987654321L, payload);
            boolean compact = ht == EtlFormat.HT_COMPACT64;
            int space = EtlRecordWriter.systemRecordSpace(payload.length, compact);
            assertEquals(EtlFormat.align8(expected.length), space);
            long[] words = new long[space / 8];
            int at = EtlRecordWriter.putSystemHeader(words, 0, ht, 2, 0x05, 36, 1234, 4321, 987654321L, payload.length);
            assertEquals(expected.length - payload.length, at);
            int end = EtlRecordWriter.putPayload(words, at, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN),
                    payload.length);
            assertEquals(space, end);
            ByteBuffer bytes = ByteBuffer.allocate(space).order(ByteOrder.LITTLE_ENDIAN);
            EtlRecordWriter.copyWords(words, 0, space, bytes);
            byte[] got = new byte[expected.length];
            bytes.get(got);
            assertArrayEquals(expected, got, "header type " + ht);
        }
        assertThrows(IllegalArgumentException.class,
                () -> EtlRecordWriter.putSystemHeader(new long[8], 0, EtlFormat.HT_FULL_HEADER64, 2, 5, 36, 0, 0, 0, 0));
    }

    /** PERFINFO64 (FileIo's header on Windows): Version, type, flags, Size, HookId, SystemTime; no thread or process. */
    @Test
    void perfInfoHeaderMatchesTheFixtureByteForByteAndReadsBack() {
        byte[] payload = new byte[20];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 3 + 5);
        }
        byte[] expected = EtlFixtureBuilder.systemLike(EtlFormat.HT_PERFINFO64, 2, 0x04, 76, 0, 0, 987654321L, payload);
        int space = EtlRecordWriter.kernelRecordSpace(payload.length, EtlFormat.HT_PERFINFO64);
        assertEquals(EtlFormat.align8(0x10 + payload.length), space);
        long[] words = new long[space / 8];
        int at = EtlRecordWriter.putSystemHeader(words, 0, EtlFormat.HT_PERFINFO64, 2, 0x04, 76, 1234, 4321, 987654321L,
                payload.length);
        assertEquals(0x10, at, "a PERFINFO64 header is 16 bytes");
        EtlRecordWriter.putPayload(words, at, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN), payload.length);
        ByteBuffer bytes = ByteBuffer.allocate(space).order(ByteOrder.LITTLE_ENDIAN);
        EtlRecordWriter.copyWords(words, 0, space, bytes);
        byte[] got = new byte[expected.length];
        bytes.get(got);
        assertArrayEquals(expected, got, "the thread and process given are not written: PERFINFO has no room for them");
    }

    @Test
    void kernelRecordsInPerCpuBuffersReadBack() throws IOException {
        int bufferSize = 4096;
        Path file = temp.resolve("kernel.etl");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                StandardOpenOption.READ)) {
            EtlFileWriter w = new EtlFileWriter(ch, bufferSize);
            EtlLogfileHeader h = new EtlLogfileHeader();
            h.bufferSize = bufferSize;
            h.numberOfProcessors = 2;
            h.startTime = 133000000000000000L;
            h.systemTime = 1_000_000L;
            h.endTime = h.startTime + 10_000_000L;
            h.loggerName = "kernel-test";
            h.logFileName = file.toString();
            h.processId = 77;
            w.writeHeaderBuffer(h);
            for (int cpu = 0; cpu < 2; cpu++) {
                long[] words = new long[bufferSize / 8];
                int pos = EtlFormat.BUFFER_HEADER_SIZE;
                byte[] cswitch = new byte[24];
                ByteBuffer.wrap(cswitch).order(ByteOrder.LITTLE_ENDIAN).putInt(100 + cpu).putInt(200 + cpu);
                int at = EtlRecordWriter.putSystemHeader(words, pos, EtlFormat.HT_COMPACT64, 2, 0x05, 36, 100 + cpu, 77,
                        1_000_100L + cpu, cswitch.length);
                pos = EtlRecordWriter.putPayload(words, at, ByteBuffer.wrap(cswitch).order(ByteOrder.LITTLE_ENDIAN), 24);
                byte[] ready = {(byte) (100 + cpu), 0, 0, 0, 0, 0, 1, 0};
                at = EtlRecordWriter.putSystemHeader(words, pos, EtlFormat.HT_SYSTEM64, 2, 0x05, 50, 300, 77,
                        1_000_200L + cpu, ready.length);
                pos = EtlRecordWriter.putPayload(words, at, ByteBuffer.wrap(ready).order(ByteOrder.LITTLE_ENDIAN), 8);
                ByteBuffer image = ByteBuffer.allocate(bufferSize).order(ByteOrder.LITTLE_ENDIAN);
                EtlRecordWriter.copyWords(words, EtlFormat.BUFFER_HEADER_SIZE, pos, image);
                EtlBufferWriter.sealData(image, pos, 1_000_200L + cpu, cpu + 1, 1, cpu);
                w.writeBuffer(image, cpu + 1);
            }
            w.updateHeader(3, h.endTime, 0, 0);
        }
        try (EtlReader r = EtlReader.open(file)) {
            assertEquals(0, r.buffers().get(1).processorIndex());
            assertEquals(1, r.buffers().get(2).processorIndex());
            List<EtlRecord> records = new ArrayList<>();
            for (EtlRecord rec = r.next(); rec != null; rec = r.next()) {
                if (!rec.isLogfileHeader()) {
                    records.add(rec);
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
            assertEquals(4, records.size());
            EtlRecord cs = records.get(2);
            assertEquals(EtlFormat.HT_COMPACT64, cs.headerType());
            assertEquals(0x05, cs.group());
            assertEquals(36, cs.type());
            assertEquals(2, cs.version());
            assertEquals(101, cs.threadId());
            assertEquals(77, cs.processId());
            assertEquals(1_000_101L, cs.rawTimestamp());
            assertEquals(101, ByteBuffer.wrap(cs.userData()).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
            assertEquals(24, cs.userData().length);
            EtlRecord rt = records.get(3);
            assertEquals(EtlFormat.HT_SYSTEM64, rt.headerType());
            assertEquals(50, rt.type());
            assertEquals(300, rt.threadId());
            assertEquals(8, rt.userData().length);
            assertNull(SessionNotice.decode(rt));
        }
    }

    @Test
    void sessionNoticeRoundTrip() {
        byte[] p = SessionNotice.encode(SessionNotice.PROBLEM, "kernel=cswitch: no kernel events");
        EtlRecord r = new EtlRecord();
        r.headerType = EtlFormat.HT_FULL_HEADER64;
        r.guid = SessionNotice.CLASS;
        r.type = EventType.INFO;
        r.userData = p;
        SessionNotice n = SessionNotice.decode(r);
        assertTrue(n.isProblem());
        assertEquals("kernel=cswitch: no kernel events", n.text());
        r.userData = new byte[] {1, 0, 0};
        assertNull(SessionNotice.decode(r), "malformed");
        r.userData = p;
        r.guid = JetwSchema.THREAD_CLASS;
        assertNull(SessionNotice.decode(r), "another class");
    }
}
