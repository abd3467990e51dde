package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dump on demand: what a running session holds, to a new .etl, while tracing goes on. */
class SessionDumpTest {

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    private static List<Integer> sequence(Path file) throws Exception {
        return EtlLayoutCheck.read(file).events().stream().map(e -> e.payloadInt(4)).collect(Collectors.toList());
    }

    private static List<Integer> range(int from, int to) {
        return java.util.stream.IntStream.range(from, to).boxed().collect(Collectors.toList());
    }

    /** Starts session {@code name} (no flush timer) with a provider enabled in it, and writes events 0..{@code events}-1. */
    private ClassicProvider tracing(SessionConfig.Builder config, String name, int events) throws Exception {
        etw.startSession(config.sessionName(name).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        emit(p, 0, events);
        return p;
    }

    /** Events {@code from}..{@code to}-1 of stream 1, each carrying its number. */
    private static void emit(ClassicProvider p, int from, int to) {
        EventScratch s = p.newScratch();
        for (int i = from; i < to; i++) {
            TestSupport.emit(p, s, 1, i, 20);
        }
    }

    private void dumpWhileTracing(SessionConfig.Builder config, Path file) throws Exception {
        String name = TestSupport.uniqueName("dump");
        ClassicProvider p = tracing(config, name, 300);
        Path dump = dir.resolve("dump.etl");
        etw.dumpSession(name, dump);
        emit(p, 300, 600);
        etw.stopSession(name);
        p.close();
        assertEquals(600, p.eventsWritten());
        assertEquals(range(0, 300), sequence(dump), "the dump holds every event before it, the partly filled buffer too");
        assertEquals(name, EtlLayoutCheck.read(dump).loggerName);
        TestSupport.assertPermissionsWherePosix("rw-------", dump);
        if (file != null) {
            assertEquals(range(0, 600), sequence(file), "tracing went on: events before and after the dump in the final file");
        }
    }

    @Test
    void aSequentialSessionIsFlushedAndCopied() throws Exception {
        Path file = dir.resolve("seq.etl");
        dumpWhileTracing(SessionConfig.builder().logFile(file).bufferSizeKb(4), file);
    }

    @Test
    void aBufferingSessionWritesItsRingAndKeepsIt() throws Exception {
        Path file = dir.resolve("ring.etl");
        dumpWhileTracing(SessionConfig.builder().logFile(file).modes(LogFileMode.BUFFERING).bufferSizeKb(4)
                .minimumBuffers(64).maximumBuffers(64), file);
    }

    @Test
    void aBufferingSessionWithoutAFileCanBeDumped() throws Exception {
        dumpWhileTracing(SessionConfig.builder().modes(LogFileMode.BUFFERING).bufferSizeKb(4)
                .minimumBuffers(64).maximumBuffers(64), null);
    }

    @Test
    void aDumpFollowsTheFileRules() throws Exception {
        String name = TestSupport.uniqueName("dumprules");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(dir.resolve("a.etl")).build());
        try {
            Path existing = Files.write(dir.resolve("existing.etl"), new byte[] {1});
            EtwException e = assertThrows(EtwException.class, () -> etw.dumpSession(name, existing));
            assertEquals(Win32Error.FILE_EXISTS, e.code(), e.getMessage());
            assertEquals(1, Files.size(existing));
            Path link = Files.createSymbolicLink(dir.resolve("link.etl"), dir.resolve("nowhere.etl"));
            e = assertThrows(EtwException.class, () -> etw.dumpSession(name, link));
            assertEquals(Win32Error.CANT_ACCESS_FILE, e.code(), e.getMessage());
            assertTrue(etw.querySession(name).lastWriteError() == null, "a failed dump is not a failure of the log");
        } finally {
            etw.stopSession(name);
        }
    }

    /** The SequenceNumbers of a file's data buffers, in the reader's order (oldest first). */
    private static List<Long> bufferSequences(Path file) throws Exception {
        try (dev.jetw.etl.EtlReader r = dev.jetw.etl.EtlReader.open(file)) {
            return r.buffers().stream().skip(1).map(dev.jetw.etl.EtlBufferInfo::sequenceNumber).collect(Collectors.toList());
        }
    }

    /** The records of the oldest data buffer (a full one in a wrapped ring). */
    private static long eventsInOldestBuffer(Path file) throws Exception {
        try (dev.jetw.etl.EtlReader r = dev.jetw.etl.EtlReader.open(file)) {
            int oldest = r.buffers().get(1).fileIndex();
            long n = 0;
            for (dev.jetw.etl.EtlRecord e = r.next(); e != null; e = r.next()) {
                n += e.bufferIndex() == oldest && !e.isLogfileHeader() ? 1 : 0;
            }
            return n;
        }
    }

    /**
     * A ring that wrapped: its dump and its file at stop number their buffers from the oldest kept's arrival, so the
     * gap before the first says how many buffers the ring overwrote (they were numbered 1..n: a reader could not tell a
     * ring's missing past from a loss, and summary called the ENDs of calls begun in it "START lost").
     */
    @Test
    void aWrappedRingsBuffersLeaveAGapForWhatItOverwrote() throws Exception {
        String name = TestSupport.uniqueName("ringgap");
        Path file = dir.resolve("wrapped.etl");
        ClassicProvider p = tracing(SessionConfig.builder().logFile(file).modes(LogFileMode.BUFFERING).bufferSizeKb(4)
                .minimumBuffers(8).maximumBuffers(8), name, 3000);
        Path dump = dir.resolve("dump.etl");
        etw.dumpSession(name, dump);
        etw.stopSession(name);
        p.close();
        for (Path f : List.of(dump, file)) {
            List<Long> seqs = bufferSequences(f);
            int firstEvent = sequence(f).get(0);
            assertTrue(firstEvent > 0, f + ": the ring wrapped: its first events were overwritten");
            assertTrue(seqs.get(0) > 1, f + ": a gap before the oldest kept buffer: " + seqs);
            for (int i = 1; i < seqs.size(); i++) {
                assertEquals(seqs.get(0) + i, (long) seqs.get(i), f + ": consecutive after the gap: " + seqs);
            }
            // Every full buffer holds the same number of these events: the gap times that is the first event kept.
            assertEquals((seqs.get(0) - 1) * eventsInOldestBuffer(f), firstEvent,
                    f + ": the gap is the buffers overwritten before the first event kept: " + seqs);
        }
    }
}
