package dev.jetw.etl;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

import static dev.jetw.etl.EtlFixtureBuilder.concat;
import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.instance;
import static dev.jetw.etl.EtlFixtureBuilder.systemLike;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlFixtureBuilder.utf16z;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reader on hand-built files: classic records 0x14/0x15, 32-bit files, other header types, unknown records. */
class EtlReaderFixtureTest {

    private static final UUID CLASS = UUID.fromString("3b9c9951-3480-4220-9377-9c8e5184f5cd");
    private static final UUID OTHER = UUID.fromString("234dd2f8-bb58-4d18-9b42-a9b3b8b0fe19");

    @TempDir
    Path tmp;

    /** The fixture builder reproduces the worked example of etl-format.md §5 byte for byte. */
    @Test
    void builderMatchesTheFactSheetWorkedExample() {
        byte[] rec = instance(true, 1, 4, 0, 0x1093, 0x1092, 0x3B9ACDE8L, CLASS, 1, 0, null,
                utf16z("com.example.Foo.bar()"));
        String expected = "740015c0 01040000 93100000 92100000 e8cd9a3b00000000 51999c3b80342042"
                + " 93779c8e5184f5cd 0000000000000000 0100000000000000 0000000000000000"
                + " 0000000000000000 63006f006d002e00 6500780061006d00 70006c0065002e00"
                + " 46006f006f002e00 6200610072002800 29000000";
        assertEquals(expected.replace(" ", ""), HexFormat.of().formatHex(rec));
    }

    private Path write(EtlFixtureBuilder b, String name) throws IOException {
        Path f = tmp.resolve(name);
        Files.write(f, b.build());
        return f;
    }


    @Test
    void classicRecords64And32Bit() throws IOException {
        for (boolean is64 : new boolean[]{true, false}) {
            EtlFixtureBuilder b = new EtlFixtureBuilder();
            b.is64 = is64;
            byte[] payload = concat(u32(7), utf16z("java.lang.IllegalStateException"));
            b.record(instance(is64, 1, 4, 0, 11, 4242, b.anchor + 1_000, CLASS, 5, 0, null, u32(7)));
            b.record(instance(is64, 2, 4, 0, 11, 4242, b.anchor + 25_000, CLASS, 5, 3, OTHER, payload));
            b.record(full(is64, 3, 5, 2, 12, 4242, b.anchor + 30_000, OTHER, utf16z("x")));
            Path f = write(b, "classic" + is64 + ".etl");
            try (EtlReader r = EtlReader.open(f)) {
                EtlLogfileInfo h = r.header();
                assertEquals(is64, h.is64Bit());
                assertEquals(is64 ? 8 : 4, h.pointerSize());
                assertEquals("jetw-test", h.loggerName());
                assertEquals("C:\\jetw\\test.etl", h.logFileName());
                assertEquals(b.startFileTime, h.startTime());
                assertEquals(b.startFileTime + 10_000_000L, h.endTime());
                assertEquals(10_000_000L, h.perfFreq());
                assertEquals(2, h.buffersWritten());
                assertEquals(-60, h.timeZoneBias());
                List<EtlRecord> all = EtlSamples.readAll(r);
                assertEquals(4, all.size());
                assertTrue(all.get(0).isLogfileHeader());
                assertEquals(is64 ? 0x02 : 0x01, all.get(0).headerType());
                EtlRecord start = all.get(1);
                assertEquals(is64 ? 0x15 : 0x0B, start.headerType());
                assertTrue(start.isInstanceEvent());
                assertEquals(1, start.type());
                assertEquals(4, start.level());
                assertEquals(11, start.threadId());
                assertEquals(4242, start.processId());
                assertEquals(CLASS, start.guid());
                assertEquals(5, start.instanceId());
                assertEquals(0, start.parentInstanceId());
                assertNull(start.parentGuid());
                assertArrayEquals(u32(7), start.userData());
                assertEquals(b.startFileTime + 1_000, start.fileTime());
                EtlRecord end = all.get(2);
                assertEquals(2, end.type());
                assertEquals(3, end.parentInstanceId());
                assertEquals(OTHER, end.parentGuid());
                assertArrayEquals(payload, end.userData());
                assertEquals(0x48 + payload.length, end.size());
                EtlRecord plain = all.get(3);
                assertEquals(is64 ? 0x14 : 0x0A, plain.headerType());
                assertEquals(3, plain.type());
                assertEquals(5, plain.level());
                assertEquals(2, plain.version());
                assertEquals(OTHER, plain.guid());
                assertEquals(0, plain.instanceId());
                assertArrayEquals(utf16z("x"), plain.userData());
                assertEquals(2.5, r.timestamps().millisSinceStart(end.rawTimestamp()), 1e-9);
            }
        }
    }

    @Test
    void buffersAreReadInSequenceOrderNotFileOrder() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        for (int i = 0; i < 3; i++) {
            b.newBuffer().record(full(true, 0, 4, 0, 1, 2, b.anchor + i, OTHER, u32(i)));
        }
        b.sequence(0, 3).sequence(1, 1).sequence(2, 2); // file order: seq 3, 1, 2
        try (EtlReader r = EtlReader.open(write(b, "seq.etl"))) {
            List<EtlRecord> all = EtlSamples.readAll(r);
            assertEquals(List.of(0, 2, 3, 1), all.stream().map(EtlRecord::bufferIndex).toList());
            assertArrayEquals(u32(1), all.get(1).userData());
            assertArrayEquals(u32(2), all.get(2).userData());
            assertArrayEquals(u32(0), all.get(3).userData());
        }
    }

    @Test
    void systemCompactAndPerfinfoRecords() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.record(systemLike(0x02, 0x03, 0x01, 21, 22, b.anchor + 100, u32(0xAA)));
        b.record(systemLike(0x04, 0x05, 0x24, 31, 32, b.anchor + 200, u32(0xBB)));
        b.record(systemLike(0x11, 0x0F, 0x2E, 0, 0, b.anchor + 300, u32(0xCC)));
        b.record(systemLike(0x10, 0x0F, 0x2F, 0, 0, b.anchor + 400, new byte[0]));
        try (EtlReader r = EtlReader.open(write(b, "sys.etl"))) {
            List<EtlRecord> all = EtlSamples.readAll(r);
            assertEquals(5, all.size());
            EtlRecord sys = all.get(1);
            assertEquals(0x03, sys.group());
            assertEquals(0x01, sys.type());
            assertEquals(21, sys.threadId());
            assertEquals(22, sys.processId());
            assertEquals(b.startFileTime + 100, sys.fileTime());
            assertArrayEquals(u32(0xAA), sys.userData());
            assertNull(sys.guid());
            EtlRecord compact = all.get(2);
            assertEquals(0x04, compact.headerType());
            assertEquals(0x05, compact.group());
            assertEquals(0x24, compact.type());
            assertEquals(31, compact.threadId());
            assertArrayEquals(u32(0xBB), compact.userData());
            EtlRecord perf = all.get(3);
            assertEquals(0x11, perf.headerType());
            assertEquals(0x0F, perf.group());
            assertEquals(0x2E, perf.type());
            assertEquals(-1, perf.threadId());
            assertEquals(b.startFileTime + 300, perf.fileTime());
            assertArrayEquals(u32(0xCC), perf.userData());
            assertEquals(0x10, all.get(4).headerType());
            assertEquals(0, all.get(4).userData().length);
        }
    }

    @Test
    void unknownRecordsAreCountedAndSkipped() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        byte[] message = new byte[20]; // a sized record of a type the reader does not decode (0x0F, MESSAGE)
        message[0] = 20;
        message[2] = 0x0F;
        message[3] = (byte) 0xC0;
        b.record(full(true, 1, 4, 0, 1, 2, b.anchor, OTHER, u32(1)));
        b.record(message);
        b.record(full(true, 2, 4, 0, 1, 2, b.anchor, OTHER, u32(2)));
        b.newBuffer();
        b.record(full(true, 3, 4, 0, 1, 2, b.anchor, OTHER, u32(3)));
        b.record(new byte[]{1, 2, 3, 4, 5, 6, 7, 8}); // no trace-header flag: damage, the rest of the buffer is skipped
        b.record(full(true, 4, 4, 0, 1, 2, b.anchor, OTHER, u32(4)));
        b.newBuffer().record(full(true, 5, 4, 0, 1, 2, b.anchor, OTHER, u32(5)));
        try (EtlReader r = EtlReader.open(write(b, "unknown.etl"))) {
            List<EtlRecord> all = EtlSamples.readAll(r);
            assertEquals(List.of(0, 1, 2, 3, 5), all.stream().map(EtlRecord::type).toList());
            assertEquals(1, r.unknownRecords(), "the MESSAGE record; the flagless dword is damage, not a record");
            // Until turn 2 the flagless dword was counted as an unknown record and reported nowhere.
            assertEquals(1, r.problems().size(), r.problems().toString());
            assertTrue(r.problems().get(0).message().contains("dword 0x04030201 at buffer offset 0x80 is not a record header"),
                    r.problems().toString());
            assertEquals(1, r.corruptBuffers());
        }
    }

    @Test
    void timestampConversionForEveryClockType() {
        long start = 133000000000000000L;
        // QPC at 3 MHz: 3,000,000 ticks = 1 s = 10^7 FILETIME units; 1 tick = 3.33 units (floored).
        TimestampConverter qpc = new TimestampConverter(1, 3_000_000L, 2000, start, 1000);
        assertEquals(start + 10_000_000L, qpc.toFileTime(1000 + 3_000_000L));
        assertEquals(start + 3, qpc.toFileTime(1001));
        assertEquals(start - 4, qpc.toFileTime(999), "before the anchor: floored");
        // System time: raw units are already 100 ns.
        TimestampConverter sys = new TimestampConverter(2, 0, 2000, start, 500);
        assertEquals(start + 1234, sys.toFileTime(500 + 1234));
        // CPU cycles at 2000 MHz: 2000 cycles = 1 µs = 10 units.
        TimestampConverter cyc = new TimestampConverter(3, 10_000_000L, 2000, start, 0);
        assertEquals(start + 10, cyc.toFileTime(2000));
        assertEquals(start + 10_000_000L, cyc.toFileTime(2_000_000_000L));
        // Unknown clock type: QPC when PerfFreq is set, else system time.
        assertEquals(start + 20, new TimestampConverter(0, 5_000_000L, 0, start, 0).toFileTime(10));
        assertEquals(start + 10, new TimestampConverter(0, 0, 0, start, 0).toFileTime(10));
        // A long span does not overflow: 30 days of QPC at 10 GHz.
        long ticks = 30L * 86400 * 10_000_000_000L;
        assertEquals(start + 30L * 86400 * 10_000_000L, new TimestampConverter(1, 10_000_000_000L, 0, start, 0).toFileTime(ticks));
        assertEquals(java.time.Instant.parse("1970-01-01T00:00:00Z"),
                TimestampConverter.fileTimeToInstant(EtlFormat.FILETIME_UNIX_EPOCH));
    }

    @Test
    void eventHeader32WithExtendedItems() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.is64 = false;
        UUID provider = UUID.fromString("d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615");
        UUID activity = UUID.fromString("01234567-89ab-cdef-0123-456789abcdef");
        byte[] traits = concat(new byte[]{9, 0}, "MyProv\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] schema = concat(new byte[]{20, 0, (byte) 0x80, 0x00}, "Ev\0".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        byte[] related = new byte[16];
        related[0] = 7;
        b.record(EtlFixtureBuilder.eventHeader(false, 5, 6, b.anchor + 70, provider, 144, 2, 11, 3, 9, 77, 0x8000000000000001L,
                activity, new byte[][]{related, traits, schema},
                new int[]{EtlExtendedItem.RELATED_ACTIVITYID, EtlExtendedItem.PROV_TRAITS, EtlExtendedItem.EVENT_SCHEMA_TL},
                new byte[]{(byte) 0xAB, (byte) 0xCD, (byte) 0xEF}));
        b.record(EtlFixtureBuilder.eventHeader(false, 5, 6, b.anchor + 80, provider, 1, 0, 0, 4, 0, 0, 0, activity,
                new byte[0][], new int[0], u32(42)));
        try (EtlReader r = EtlReader.open(write(b, "eh32.etl"))) {
            assertEquals(4, r.header().pointerSize());
            List<EtlRecord> all = EtlSamples.readAll(r);
            EtlRecord e = all.get(1);
            assertEquals(0x12, e.headerType());
            assertEquals(provider, e.guid());
            assertEquals(activity, e.activityId());
            assertEquals(144, e.eventId());
            assertEquals(2, e.version());
            assertEquals(11, e.channel());
            assertEquals(3, e.level());
            assertEquals(9, e.opcode());
            assertEquals(77, e.task());
            assertEquals(0x8000000000000001L, e.keyword());
            assertEquals(5, e.threadId());
            assertEquals(6, e.processId());
            assertEquals(b.startFileTime + 70, e.fileTime());
            assertEquals(3, e.extendedItems().size());
            assertEquals(EtlExtendedItem.RELATED_ACTIVITYID, e.extendedItems().get(0).extType());
            assertArrayEquals(related, e.extendedItems().get(0).data());
            assertEquals("MyProv", e.providerName());
            assertEquals("Ev", e.eventName());
            assertArrayEquals(new byte[]{(byte) 0xAB, (byte) 0xCD, (byte) 0xEF}, e.userData());
            EtlRecord plain = all.get(2);
            assertTrue(plain.extendedItems().isEmpty());
            assertArrayEquals(u32(42), plain.userData());
        }
    }

    @Test
    void circularFilesComeOutOldestBufferFirstAndAreNotTruncated() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.logFileMode = 0x2; // EVENT_TRACE_FILE_MODE_CIRCULAR: BuffersWritten counts buffers that were overwritten
        b.buffersWritten = 9;
        for (int i = 0; i < 4; i++) {
            b.newBuffer().record(full(true, 0, 4, 0, 1, 2, b.anchor + i, OTHER, u32(i)));
        }
        b.sequence(0, 7).sequence(1, 8).sequence(2, 5).sequence(3, 6); // wrapped: file slot 3 is the oldest
        try (EtlReader r = EtlReader.open(write(b, "circular.etl"))) {
            List<EtlRecord> all = EtlSamples.readAll(r);
            assertEquals(List.of(0, 3, 4, 1, 2), all.stream().map(EtlRecord::bufferIndex).toList());
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
        b.logFileMode = 0x1; // the same numbers in a sequential file: 4 buffers are missing
        try (EtlReader r = EtlReader.open(write(b, "sequential.etl"))) {
            EtlSamples.readAll(r);
            assertTrue(r.isTruncated());
        }
    }
}
