package dev.jetw.etl;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static dev.jetw.etl.EtlSamples.AMSI;
import static dev.jetw.etl.EtlSamples.CLR_RUNDOWN;
import static dev.jetw.etl.EtlSamples.LXCORE;
import static dev.jetw.etl.EtlSamples.PRIMITIVE;
import static dev.jetw.etl.EtlSamples.readAll;
import static dev.jetw.etl.EtlSamples.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every count and value of shared/etl-samples/README.md and etl-format.md §12, read back by EtlReader. */
class EtlReaderSamplesTest {

    private static final UUID EVENT_TRACE = UUID.fromString("68fdd900-4a3e-11d1-84f4-0000f80464e3");

    /** Expected header fields of one sample (README "Logfile header" tables). */
    private record Header(String file, long bytes, int bufferSize, int buffers, int eventHeaderRecords,
                          String logger, String logFileName, int providerVersion, int cpus, int mode, int eventsLost,
                          long start, String startIso, long end, String endIso, int recordSize, int tid, int pid,
                          long anchor, int mhz, int bias, int loggerId) {
    }

    private static final List<Header> HEADERS = List.of(
            new Header(LXCORE, 24_576, 8192, 3, 2, "lxcore_kernel", "C:\\Prog\\lxcore_kernel.etl", 19041, 6, 0, 0,
                    132392018711387363L, "2020-07-14T12:04:31.138736300Z", 132392018832816874L,
                    "2020-07-14T12:04:43.281687400Z", 392, 8064, 6112, 110988826450L, 3000, -480, 20),
            new Header(AMSI, 393_216, 65536, 6, 19, "AMSITraceSession", "c:\\work\\AMSITrace.etl", 18362, 8, 0x08000001, 3,
                    132264173104203138L, "2020-02-17T12:48:30.420313800Z", 132264174000260662L,
                    "2020-02-17T12:50:00.026066200Z", 390, 24116, 34264, 2745263251517L, 1992, -60, 40),
            new Header(PRIMITIVE, 16_384, 8192, 2, 5, "solar_system", "C:\\primitive-types_000004.etl", 19043, 8, 0, 0,
                    132756731728578510L, "2021-09-09T14:59:32.857851Z", 132756731820557985L,
                    "2021-09-09T14:59:42.055798500Z", 398, 29376, 39096, 2603587641205L, 2304, -120, 61),
            new Header(CLR_RUNDOWN, 131_072, 65536, 2, 110, "PerfViewSessionRundown",
                    "C:\\Dev\\runtime\\CoreLab\\PerfViewData.clrRundown.etl", 19045, 8, 0x08000001, 0,
                    133232284111926903L, "2023-03-14T00:46:51.192690300Z", 133232284137581457L,
                    "2023-03-14T00:46:53.758145700Z", 460, 179388, 179356, 5464966661986L, 3408, 480, 44));

    @Test
    void logfileHeadersMatchTheReadme() throws IOException {
        for (Header x : HEADERS) {
            Path f = sample(x.file());
            assertEquals(x.bytes(), Files.size(f), x.file());
            try (EtlReader r = EtlReader.open(f)) {
                EtlLogfileInfo h = r.header();
                String m = x.file();
                assertTrue(h.is64Bit(), m);
                assertEquals(x.bufferSize(), h.bufferSize(), m);
                assertEquals(x.buffers(), h.buffersWritten(), m);
                assertEquals(x.buffers(), r.buffers().size(), m);
                assertEquals(x.logger(), h.loggerName(), m);
                assertEquals(x.logFileName(), h.logFileName(), m);
                assertEquals(x.providerVersion(), h.providerVersion(), m);
                assertEquals(x.cpus(), h.numberOfProcessors(), m);
                assertEquals(x.mode(), h.logFileMode(), m);
                assertEquals(x.eventsLost(), h.eventsLost(), m);
                assertEquals(x.start(), h.startTime(), m);
                assertEquals(x.end(), h.endTime(), m);
                assertEquals(Instant.parse(x.startIso()), TimestampConverter.fileTimeToInstant(h.startTime()), m);
                assertEquals(Instant.parse(x.endIso()), TimestampConverter.fileTimeToInstant(h.endTime()), m);
                assertEquals(x.recordSize(), h.recordSize(), m);
                assertEquals(x.tid(), h.headerThreadId(), m);
                assertEquals(x.pid(), h.headerProcessId(), m);
                assertEquals(x.anchor(), h.anchorTimestamp(), m);
                assertEquals(x.mhz(), h.cpuSpeedInMHz(), m);
                assertEquals(x.bias(), h.timeZoneBias(), m);
                // Common to all four (README "Expected contents").
                assertEquals(10, h.majorVersion(), m);
                assertEquals(0, h.minorVersion(), m);
                assertEquals(1, h.subVersion(), m);
                assertEquals(5, h.subMinorVersion(), m);
                assertEquals(8, h.pointerSize(), m);
                assertEquals(10_000_000L, h.perfFreq(), m);
                assertEquals(1, h.clockType(), m);
                assertEquals(156250, h.timerResolution(), m);
                assertEquals(0, h.maximumFileSize(), m);
                assertEquals(1, h.startBuffers(), m);
                assertEquals(0, h.buffersLost(), m);
                for (EtlBufferInfo b : r.buffers()) {
                    assertEquals(x.loggerId(), b.loggerId(), m + " " + b);
                    assertEquals(b.savedOffset(), b.offset(), m + " " + b);
                    assertEquals(x.bufferSize(), b.bufferSize(), m + " " + b);
                    assertEquals(3, b.state(), m + " " + b);
                }
                List<EtlRecord> all = readAll(r);
                assertTrue(r.problems().isEmpty(), m + " " + r.problems());
                assertEquals(0, r.unknownRecords(), m);
                assertEquals(0, r.corruptBuffers(), m);
                assertFalse(r.isTruncated(), m);
                assertEquals(2 + x.eventHeaderRecords(), all.size(), m);
            }
        }
    }

    @Test
    void recordsByHeaderTypeAndProvider() throws IOException {
        Map<String, Map<String, Integer>> expected = Map.of(
                LXCORE, Map.of("type 0x02", 2, "type 0x13", 2, EVENT_TRACE.toString(), 2,
                        "0cd1c309-0878-4515-83db-749843b3f5c9", 2),
                AMSI, Map.of("type 0x02", 2, "type 0x13", 19, EVENT_TRACE.toString(), 2,
                        "8e805eb3-6a8f-4a1e-90fa-a831d94e54a1", 19),
                PRIMITIVE, Map.of("type 0x02", 2, "type 0x13", 5, EVENT_TRACE.toString(), 2,
                        "d3dd3dd4-aac2-4e2a-8dd4-a8fb61b77615", 5),
                CLR_RUNDOWN, Map.of("type 0x02", 2, "type 0x13", 110, EVENT_TRACE.toString(), 2,
                        "a669021c-c450-4609-a035-5af59af4df18", 110));
        for (Map.Entry<String, Map<String, Integer>> e : expected.entrySet()) {
            Map<String, Integer> counts = new TreeMap<>();
            for (EtlRecord rec : readAll(sample(e.getKey()))) {
                counts.merge(String.format("type 0x%02x", rec.headerType()), 1, Integer::sum);
                counts.merge(String.valueOf(rec.guid()), 1, Integer::sum);
            }
            assertEquals(new TreeMap<>(e.getValue()), counts, e.getKey());
        }
    }

    @Test
    void bufferZeroHoldsTheHeaderAndThe0x50Record() throws IOException {
        for (Header x : HEADERS) {
            List<EtlRecord> all = readAll(sample(x.file()));
            EtlRecord first = all.get(0);
            assertTrue(first.isLogfileHeader(), x.file());
            assertEquals(0x48, first.fileOffset());
            assertEquals(x.recordSize(), first.size());
            assertEquals(x.anchor(), first.rawTimestamp());
            assertEquals(x.start(), first.fileTime(), "the header record's own time is StartTime");
            EtlRecord second = all.get(1);
            assertEquals(EtlFormat.HT_SYSTEM64, second.headerType(), x.file());
            assertEquals(0, second.group());
            assertEquals(0x50, second.type());
            assertEquals(80, second.size());
            assertEquals(0x48 + EtlFormat.align8(x.recordSize()), second.fileOffset());
            assertEquals(48, second.userData().length);
            assertEquals(0, second.bufferIndex());
            assertFalse(second.isLogfileHeader());
            for (EtlRecord rec : all.subList(2, all.size())) {
                assertTrue(rec.bufferIndex() > 0, "no events in buffer 0");
            }
        }
    }

    /** Per-buffer details of etl-format.md §12.3: {fileIndex, seq, cpu, flag, savedOffset, events}, reading order. */
    @Test
    void buffersComeInSequenceOrderWithTheirDetails() throws IOException {
        Map<String, long[][]> expected = Map.of(
                LXCORE, new long[][]{{0, 0, 0, 0x21, 544, 0}, {2, 1, 5, 0x21, 448, 1}, {1, 2, 3, 0x20, 416, 1}},
                AMSI, new long[][]{{0, 0, 0, 0x21, 544, 0}, {3, 1, 5, -1, 608, 1}, {4, 2, 0, -1, 808, 2},
                        {5, 3, 2, 0x21, 12928, 4}, {1, 4, 7, -1, 30776, 11}, {2, 5, 3, -1, 608, 1}},
                PRIMITIVE, new long[][]{{0, 0, 0, 0x21, 552, 0}, {1, 1, 2, 0x21, 1952, 5}},
                CLR_RUNDOWN, new long[][]{{0, 0, 0, 0x21, 616, 0}, {1, 1, 0, 0x21, 34800, 110}});
        for (Map.Entry<String, long[][]> e : expected.entrySet()) {
            try (EtlReader r = EtlReader.open(sample(e.getKey()))) {
                List<EtlRecord> all = readAll(r);
                long[][] want = e.getValue();
                assertEquals(want.length, r.buffers().size(), e.getKey());
                for (int i = 0; i < want.length; i++) {
                    EtlBufferInfo b = r.buffers().get(i);
                    String m = e.getKey() + " " + b;
                    assertEquals(want[i][0], b.fileIndex(), m);
                    assertEquals(want[i][0] * r.header().bufferSize(), b.fileOffset(), m);
                    assertEquals(want[i][1], b.sequenceNumber(), m);
                    assertEquals(want[i][2], b.processorIndex(), m);
                    if (want[i][3] >= 0) {
                        assertEquals(want[i][3], b.bufferFlag(), m);
                    } else {
                        assertTrue(b.bufferFlag() == 0x20 || b.bufferFlag() == 0x21, m);
                    }
                    assertEquals(i == 0 ? 4 : 0, b.bufferType(), m);
                    assertEquals(want[i][4], b.savedOffset(), m);
                    int idx = b.fileIndex();
                    long events = all.stream().filter(x -> x.bufferIndex() == idx && x.headerType() == 0x13).count();
                    assertEquals(want[i][5], events, m);
                }
                // Records come out buffer by buffer in the order above.
                int last = 0;
                for (EtlRecord rec : all) {
                    int pos = indexOf(r.buffers(), rec.bufferIndex());
                    assertTrue(pos >= last, "reader order follows sequence numbers");
                    last = pos;
                }
            }
        }
    }

    private static int indexOf(List<EtlBufferInfo> buffers, int fileIndex) {
        for (int i = 0; i < buffers.size(); i++) {
            if (buffers.get(i).fileIndex() == fileIndex) {
                return i;
            }
        }
        throw new AssertionError("no buffer " + fileIndex);
    }

    @Test
    void traceLoggingEventDescriptorsAndExtendedItems() throws IOException {
        Object[][] expected = {
            // file, level, keyword, provider name, event name
            {LXCORE, 2, 0x0000400000000000L, "Microsoft.Windows.Subsystem.LxCore", "BreakPoint"},
            {AMSI, 5, 0L, null, "AmsiScript"},
            {PRIMITIVE, 5, 0L, "solar_system", "PrimitiveTypesTest"},
        };
        for (Object[] x : expected) {
            List<EtlRecord> events = eventsOf((String) x[0]);
            assertFalse(events.isEmpty());
            for (EtlRecord e : events) {
                String m = x[0] + " @" + e.fileOffset();
                assertEquals(0, e.eventId(), m);
                assertEquals(0, e.version(), m);
                assertEquals(0, e.opcode(), m);
                assertEquals(0, e.task(), m);
                assertEquals(11, e.channel(), m);
                assertEquals(x[1], e.level(), m);
                assertEquals(x[2], e.keyword(), m);
                assertEquals(0x0001, e.flags(), m);
                assertEquals(x[4], e.eventName(), m);
                if (x[3] != null) {
                    assertEquals(x[3], e.providerName(), m);
                }
                assertTrue(e.extendedItems().stream().anyMatch(i -> i.extType() == EtlExtendedItem.PROV_TRAITS), m);
                assertTrue(e.extendedItems().stream().anyMatch(i -> i.extType() == EtlExtendedItem.EVENT_SCHEMA_TL), m);
            }
        }
        // lxcore_kernel buffer 1: PROV_TRAITS (0x38 data bytes), EVENT_SCHEMA_TL (0x64), user data at record offset 0x100.
        EtlRecord lx = eventsOf(LXCORE).stream().filter(e -> e.bufferIndex() == 1).findFirst().orElseThrow();
        assertEquals(2, lx.extendedItems().size());
        assertEquals(0x38, lx.extendedItems().get(0).dataSize());
        assertEquals(0x64, lx.extendedItems().get(1).dataSize());
        assertEquals(lx.size() - 0x100, lx.userData().length);
        assertEquals(0xb34, lx.threadId());
        assertEquals(0x16f4, lx.processId());
    }

    private static List<EtlRecord> eventsOf(String file) throws IOException {
        return readAll(sample(file)).stream().filter(r -> r.headerType() == EtlFormat.HT_EVENT_HEADER64).toList();
    }

    @Test
    void clrRundownEventIdBreakdown() throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        for (EtlRecord e : eventsOf(CLR_RUNDOWN)) {
            counts.merge(e.eventId() + "v" + e.version(), 1, Integer::sum);
            assertEquals(0, e.flags());
            assertEquals(0, e.channel());
            assertEquals(4, e.level());
            assertTrue(e.extendedItems().isEmpty());
        }
        Map<String, Integer> expected = new TreeMap<>(Map.of(
                "10v0", 1, "144v1", 77, "144v2", 3, "146v1", 2, "148v1", 2, "152v1", 7, "154v2", 7,
                "156v1", 7, "158v1", 1, "187v0", 2));
        expected.put("280v0", 1);
        assertEquals(expected, counts);
    }

    @Test
    void primitiveTypesFirstEventIs2942_306msAfterStart() throws IOException {
        try (EtlReader r = EtlReader.open(sample(PRIMITIVE))) {
            List<EtlRecord> events = readAll(r).stream().filter(e -> e.headerType() == 0x13).toList();
            EtlRecord first = events.get(0);
            assertEquals(2603617064262L, first.rawTimestamp());
            assertEquals(29_423_057L, r.timestamps().hundredNanosSinceStart(first.rawTimestamp()));
            assertEquals("2942.306", String.format(java.util.Locale.ROOT, "%.3f",
                    r.timestamps().millisSinceStart(first.rawTimestamp())));
            assertEquals(132756731728578510L + 29_423_057L, first.fileTime());
            assertEquals(Instant.parse("2021-09-09T14:59:35.8001567Z"), first.instant());
            assertNull(first.parentGuid());
        }
    }
}
