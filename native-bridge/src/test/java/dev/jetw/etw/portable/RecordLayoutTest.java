package dev.jetw.etw.portable;

import dev.jetw.etl.EncodedGuid;
import dev.jetw.etl.EtlBufferWriter;
import dev.jetw.etl.EtlLogfileHeader;
import dev.jetw.etl.EtlRecordWriter;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Byte-exact checks of the writer primitives against the fact sheet's worked examples. */
class RecordLayoutTest {

    private static byte[] hex(String s) {
        String[] parts = s.trim().split("\\s+");
        byte[] b = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            b[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return b;
    }

    /** The file bytes of a word buffer, as the logger thread makes them. */
    private static ByteBuffer bytesOf(long[] words) {
        ByteBuffer buf = ByteBuffer.allocate(words.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        EtlRecordWriter.copyWords(words, 0, words.length * 8, buf);
        return buf;
    }

    /** An instance record with its payload from a buffer, as the session writes one: header, then payload. */
    private static int instance(long[] words, int pos, int type, int level, int version, int threadId, int processId,
                                long timeStamp, EncodedGuid classGuid, int instanceId, int parentInstanceId,
                                EncodedGuid parentGuid, ByteBuffer payload, int length) {
        int at = EtlRecordWriter.putInstanceHeader(words, pos, type, level, version, threadId, processId, timeStamp,
                classGuid, instanceId, parentInstanceId, parentGuid, length);
        return EtlRecordWriter.putPayload(words, at, payload, length);
    }

    @Test
    void instanceRecordMatchesWorkedExampleOfEtlFormat5() {
        ByteBuffer payload = ByteBuffer.wrap("com.example.Foo.bar()\0".getBytes(StandardCharsets.UTF_16LE));
        long[] words = new long[32];
        java.util.Arrays.fill(words, 0xEEEEEEEEEEEEEEEEL); // stale bytes: the pad must be zeroed
        int next = instance(words, 0, 1, 4, 0, 0x1093, 0x1092, 0x3B9ACDE8L,
                EncodedGuid.of(UUID.fromString("3b9c9951-3480-4220-9377-9c8e5184f5cd")), 1, 0, EncodedGuid.ZERO,
                payload, 44);
        assertEquals(120, next);
        ByteBuffer buf = bytesOf(words);
        byte[] expected = hex(
                "74 00 15 c0 01 04 00 00  93 10 00 00 92 10 00 00"
                + " e8 cd 9a 3b 00 00 00 00  51 99 9c 3b 80 34 20 42"
                + " 93 77 9c 8e 51 84 f5 cd  00 00 00 00 00 00 00 00"
                + " 01 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00"
                + " 00 00 00 00 00 00 00 00  63 00 6f 00 6d 00 2e 00"
                + " 65 00 78 00 61 00 6d 00  70 00 6c 00 65 00 2e 00"
                + " 46 00 6f 00 6f 00 2e 00  62 00 61 00 72 00 28 00"
                + " 29 00 00 00 00 00 00 00");
        byte[] actual = new byte[expected.length];
        buf.get(actual);
        assertArrayEquals(expected, actual);
        assertEquals((byte) 0xEE, buf.get(120));
    }

    /**
     * Every payload length around the word boundaries, little- and big-endian payload buffers, and
     * payload buffers that end right after the payload (no room to read a whole last word): the
     * payload lands byte for byte after the header, the pad is zero, the next record is 8-aligned.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 15, 16, 17, 24, 31})
    void payloadOfEveryLengthIsCopiedAndPaddedWithZeros(int length) {
        java.util.Random random = new java.util.Random(length);
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        ByteBuffer[] payloads = {
                ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN).put(bytes),
                ByteBuffer.allocate(64).order(ByteOrder.BIG_ENDIAN).put(bytes),
                ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN).put(bytes)};
        for (ByteBuffer payload : payloads) {
            long[] words = new long[24];
            java.util.Arrays.fill(words, -1L);
            int next = instance(words, 8, 2, 5, 0, 1, 2, 3L, EncodedGuid.ZERO, 7, 0,
                    EncodedGuid.ZERO, payload, length);
            int end = 8 + 0x48 + length;
            assertEquals((end + 7) & ~7, next, payload.toString());
            ByteBuffer buf = bytesOf(words);
            assertEquals(0x48 + length, buf.getShort(8) & 0xFFFF);
            for (int i = 0; i < length; i++) {
                assertEquals(bytes[i], buf.get(8 + 0x48 + i), "payload byte " + i + " of " + payload);
            }
            for (int i = end; i < next; i++) {
                assertEquals(0, buf.get(i), "pad byte " + i + " of " + payload);
            }
            assertEquals(-1L, buf.getLong(next), "the word after the record is untouched");
            assertEquals(-1L, buf.getLong(0), "the word before the record is untouched");
        }
    }

    /**
     * A payload passed as a word (the small-event path) gives the same record, byte for byte, as
     * the same bytes passed in a buffer, for every length 0-8; bytes of the word beyond the length
     * do not reach the file.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8})
    void aPayloadWordGivesTheSameRecordAsThoseBytesInABuffer(int length) {
        long word = 0x8877665544332211L; // every byte set, so a missing mask shows
        ByteBuffer payload = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, word);
        long[] fromBuffer = new long[20];
        long[] fromWord = new long[20];
        java.util.Arrays.fill(fromBuffer, -1L);
        java.util.Arrays.fill(fromWord, -1L);
        EncodedGuid cls = EncodedGuid.of(UUID.randomUUID());
        EncodedGuid parent = EncodedGuid.of(UUID.randomUUID());
        int expectedEnd = instance(fromBuffer, 8, 2, 4, 0, 11, 12, 99L, cls, 5, 6, parent, payload, length);
        int at = EtlRecordWriter.putInstanceHeader(fromWord, 8, 2, 4, 0, 11, 12, 99L, cls, 5, 6, parent, length);
        assertEquals(8 + 0x48, at, "the payload follows the 0x48-byte header");
        assertEquals(expectedEnd, EtlRecordWriter.putPayloadWord(fromWord, at, word, length));
        assertArrayEquals(fromBuffer, fromWord);
        ByteBuffer bytes = bytesOf(fromWord);
        for (int i = length; i < (length == 0 ? 0 : 8); i++) {
            assertEquals(0, bytes.get(at + i), "pad byte " + i);
        }
    }

    @Test
    void fullHeaderRecordHasMarker0xC014AndGuidAt0x18() {
        ByteBuffer payload = ByteBuffer.allocate(44);
        long[] words = new long[16];
        UUID g = UUID.fromString("9b79ee91-b5fd-41c0-a243-4248e266e9d0");
        int next = EtlRecordWriter.putPayload(words,
                EtlRecordWriter.putFullHeader(words, 0, 0x21, 3, 2, 7, 9, 42L, EncodedGuid.of(g), 44), payload, 44);
        ByteBuffer buf = bytesOf(words);
        assertEquals(0xC014005C, buf.getInt(0));
        assertEquals(0x21, buf.get(4));
        assertEquals(3, buf.get(5));
        assertEquals(2, buf.getShort(6));
        assertEquals(7, buf.getInt(8));
        assertEquals(9, buf.getInt(12));
        assertEquals(42L, buf.getLong(16));
        assertEquals(g, dev.jetw.etl.Guids.get(buf, 0x18));
        assertEquals(0x30 + 44 + 4, next);
    }

    @Test
    void headerBufferFollowsTheWriterChecklist() {
        EtlLogfileHeader h = new EtlLogfileHeader();
        h.bufferSize = 8192;
        h.loggerName = "lxcore_kernel";
        h.logFileName = "C:\\Prog\\lxcore_kernel.etl";
        h.startTime = 132392018711387363L;
        h.endTime = 132392018832816874L;
        h.systemTime = 110988826450L;
        h.timeZoneBias = -480;
        h.buffersWritten = 3;
        ByteBuffer b = h.encodeHeaderBuffer();
        // Same record size as the Windows-written lxcore_kernel.etl with these names (etl-format.md §12.2).
        assertEquals(392, b.getShort(0x4C));
        assertEquals(0xC0020002, b.getInt(0x48));
        assertEquals(0, b.getShort(0x4E));
        assertArrayEquals(new byte[] {10, 0, 1, 5}, new byte[] {b.get(0x6C), b.get(0x6D), b.get(0x6E), b.get(0x6F)});
        assertEquals(8192, b.getInt(0x68));
        assertEquals(132392018832816874L, b.getLong(EtlLogfileHeader.FILE_OFF_END_TIME));
        assertEquals(3, b.getInt(EtlLogfileHeader.FILE_OFF_BUFFERS_WRITTEN));
        assertEquals(1, b.getInt(0x90));
        assertEquals(8, b.getInt(0x94));
        assertEquals(-480, b.getInt(0xB0));
        assertEquals(0, b.getInt(0x15C));
        assertEquals(10_000_000L, b.getLong(0x168));
        assertEquals(132392018711387363L, b.getLong(0x170));
        assertEquals(1, b.getInt(0x178));
        assertEquals(110988826450L, b.getLong(0x58));
        assertEquals('l', b.getChar(0x180));
        assertEquals(4, b.getShort(0x36));
        assertEquals(0x21, b.getShort(0x34));
        assertEquals(3, b.getInt(0x2C));
        int used = 0x48 + 392;
        assertEquals(used, b.getInt(0x04));
        assertEquals(used, b.getInt(0x30));
        assertEquals(used, b.getInt(0x08));
        for (int i = used; i < 8192; i++) {
            assertEquals((byte) 0xFF, b.get(i), "tail at " + i);
        }
        // What the engine writes: the same header record, then the WRITER notice in the same buffer.
        h.writer = SessionEnvironment.WRITER;
        ByteBuffer withWriter = h.encodeHeaderBuffer();
        int noticeSpace = dev.jetw.etl.EtlRecordWriter.fullRecordSpace(
                dev.jetw.etl.SessionNotice.encode(dev.jetw.etl.SessionNotice.WRITER, SessionEnvironment.WRITER).length);
        assertEquals(used + noticeSpace, withWriter.getInt(0x04), "the notice follows the header record");
        for (int i = 0x48; i < used; i++) {
            assertEquals(b.get(i), withWriter.get(i), "header record byte " + i + " unchanged by the notice");
        }
        withWriter.putInt(EtlLogfileHeader.FILE_OFF_BUFFERS_WRITTEN, 1); // as a file holding just this buffer
        assertEquals(SessionEnvironment.WRITER, EtlLayoutCheck.check(withWriter, "header-only file").writer);
    }

    /** A header that leaves no room for the writer notice is written without it: the file stays valid, it names no writer. */
    @Test
    void aHeaderBufferWithoutRoomForTheWriterNoticeLeavesItOut() {
        EtlLogfileHeader h = new EtlLogfileHeader();
        h.bufferSize = 1024;
        h.loggerName = "small";
        h.writer = SessionEnvironment.WRITER;
        int noticeSpace = dev.jetw.etl.EtlRecordWriter.fullRecordSpace(
                dev.jetw.etl.SessionNotice.encode(dev.jetw.etl.SessionNotice.WRITER, SessionEnvironment.WRITER).length);
        int fixed = 0x48 + 0x20 + 0x118 + 2 * ("small".length() + 1) + 2;
        // A path whose header record leaves less than the notice's space (but fits itself).
        int pathChars = (1024 - fixed - noticeSpace) / 2 + 4;
        h.logFileName = "/" + "p".repeat(pathChars - 1);
        ByteBuffer b = h.encodeHeaderBuffer();
        int headerEnd = 0x48 + dev.jetw.etl.EtlFormat.align8(b.getShort(0x4C) & 0xFFFF);
        assertTrue(headerEnd + noticeSpace > 1024 && headerEnd <= 1024, "the case: header fits, notice does not");
        assertEquals(headerEnd, b.getInt(0x04), "the header record alone");
        assertEquals(null, EtlLayoutCheck.check(b, "no-room file").writer);
    }

    @Test
    void sealRefusesAnUnalignedLength() {
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> EtlBufferWriter.sealData(b, 0x4C, 0, 1, 1));
    }
}
