package dev.jetw.etl;

import static dev.jetw.etl.EtlFixtureBuilder.full;
import static dev.jetw.etl.EtlFixtureBuilder.u32;
import static dev.jetw.etl.EtlSamples.readAll;
import static dev.jetw.etl.EtlSamples.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link EtlRecord#processor()}: the ProcessorIndex of the record's buffer, in files built byte by byte and in
 * the Windows-written samples (a kernel logger's buffers of 2 CPUs; a relogged merge of 8).
 */
class EtlRecordProcessorTest {

    @TempDir
    Path tmp;

    private static byte[] event(EtlFixtureBuilder b, int tid, int ms) {
        return full(true, EventType.INFO, 0, 0, tid, 7, b.anchor + ms * 10_000L, JetwSchema.METHOD_CALL_CLASS, u32(ms));
    }

    /** Buffers of CPUs 3, 1 and 3 again (and 0, the fixture's default), interleaved in time. */
    private Path threeCpus() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.processors = 4;
        b.newBuffer(3).record(event(b, 30, 10)).record(event(b, 30, 40));
        b.newBuffer(1).record(event(b, 10, 20)).record(event(b, 10, 30));
        b.newBuffer(3).record(event(b, 31, 50));
        b.newBuffer().record(event(b, 0, 60));
        Path f = tmp.resolve("cpus.etl");
        Files.write(f, b.build());
        return f;
    }

    @Test
    void eachRecordNamesItsBuffersProcessorAndTheHeaderBufferIsZero() throws IOException {
        List<EtlRecord> all = readAll(EtlReader.open(threeCpus()));
        Map<Integer, Integer> cpuByTid = new HashMap<>();
        for (EtlRecord r : all) {
            if (r.isLogfileHeader()) {
                assertEquals(0, r.processor(), "the header buffer's ProcessorIndex");
            } else {
                cpuByTid.put(r.threadId(), r.processor());
            }
        }
        assertEquals(Map.of(30, 3, 10, 1, 31, 3, 0, 0), cpuByTid);
    }

    @Test
    void timeOrderKeepsEachRecordsProcessor() throws IOException {
        try (EtlReader reader = EtlReader.open(threeCpus())) {
            TimeOrderedRecords ordered = new TimeOrderedRecords(reader);
            List<String> seen = new ArrayList<>();
            for (EtlRecord r = ordered.next(); r != null; r = ordered.next()) {
                if (!r.isLogfileHeader()) {
                    seen.add(r.threadId() + "@cpu" + r.processor());
                }
            }
            assertEquals(List.of("30@cpu3", "10@cpu1", "10@cpu1", "30@cpu3", "31@cpu3", "0@cpu0"), seen);
        }
    }

    @Test
    void aSessionWithoutPerProcessorBuffersSaysSo() throws IOException {
        EtlFixtureBuilder b = new EtlFixtureBuilder();
        b.logFileMode = 0x10000001; // NO_PER_PROCESSOR_BUFFERING | SEQUENTIAL
        b.newBuffer().record(event(b, 1, 1));
        Path shared = tmp.resolve("shared.etl");
        Files.write(shared, b.build());
        try (EtlReader r = EtlReader.open(shared)) {
            assertFalse(r.header().buffersPerProcessor());
        }
        try (EtlReader r = EtlReader.open(threeCpus())) {
            assertTrue(r.header().buffersPerProcessor(), "LogFileMode 1: per-processor buffers");
        }
    }

    /**
     * The Windows kernel logger's file (2 CPUs, LogFileMode 0x02000080: not NO_PER_PROCESSOR_BUFFERING): its
     * 17,078 records lie in buffers of both CPUs, 9,721 in CPU 0's (the header buffer's 2 records among them)
     * and 7,357 in CPU 1's; each record's processor is its buffer's.
     */
    @Test
    void theKernelLoggersRecordsNameBothCpus() throws IOException {
        try (EtlReader r = EtlReader.open(sample("ShutdownPerfDiagLogger.etl"))) {
            assertTrue(r.header().buffersPerProcessor());
            assertEquals(2, r.header().numberOfProcessors());
            Map<Integer, Integer> bufferCpu = new HashMap<>();
            for (EtlBufferInfo b : r.buffers()) {
                bufferCpu.put(b.fileIndex(), b.processorIndex());
            }
            Map<Integer, Integer> perCpu = new TreeMap<>();
            for (EtlRecord e : readAll(r)) {
                assertEquals(bufferCpu.get(e.bufferIndex()), e.processor(), "record at 0x" + Long.toHexString(e.fileOffset()));
                perCpu.merge(e.processor(), 1, Integer::sum);
            }
            assertEquals(Map.of(0, 9_721, 1, 7_357), perCpu);
        }
    }

    /** PerfView's relogged merge (8 CPUs): the relogger keeps each event's processor; all 8 appear, none beyond. */
    @Test
    void aRelogMergeKeepsEveryCpu() throws IOException {
        try (EtlReader r = EtlReader.open(sample("net.4.5.2.x64.etl"))) {
            int cpus = r.header().numberOfProcessors();
            assertEquals(8, cpus);
            Map<Integer, Integer> perCpu = new TreeMap<>();
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                perCpu.merge(e.processor(), 1, Integer::sum);
            }
            assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), new ArrayList<>(perCpu.keySet()), perCpu.toString());
        }
    }
}
