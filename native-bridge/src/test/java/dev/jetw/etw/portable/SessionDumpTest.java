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

    /** The header's BuffersWritten of a file. */
    private static long buffersWritten(Path file) throws Exception {
        try (dev.jetw.etl.EtlReader r = dev.jetw.etl.EtlReader.open(file)) {
            return Integer.toUnsignedLong(r.header().buffersWritten());
        }
    }

    /**
     * A ring that wrapped: its dump and its file at stop number their data buffers 1..n in file order, so no
     * SequenceNumber exceeds BuffersWritten (strict readers reject one that does; an arrival number did). What marks
     * the ring's overwritten past for readers is the RING notice in buffer 0, checked here too.
     */
    @Test
    void aWrappedRingsBuffersAreNumberedInFileOrderWithinBuffersWritten() throws Exception {
        String name = TestSupport.uniqueName("ringseq");
        Path file = dir.resolve("wrapped.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).modes(LogFileMode.BUFFERING)
                .bufferSizeKb(4).minimumBuffers(8).maximumBuffers(8).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 3000; i++) {
            TestSupport.emit(p, s, 1, i, 20);
        }
        Path dump = dir.resolve("dump.etl");
        etw.dumpSession(name, dump);
        etw.stopSession(name);
        p.close();
        for (Path f : List.of(dump, file)) {
            List<Long> seqs = bufferSequences(f);
            assertTrue(sequence(f).get(0) > 0, f + ": the ring wrapped: its first events were overwritten");
            for (int i = 0; i < seqs.size(); i++) {
                assertEquals(i + 1L, (long) seqs.get(i), f + ": data buffers numbered 1..n in file order: " + seqs);
            }
            assertTrue(seqs.get(seqs.size() - 1) <= buffersWritten(f),
                    f + ": no SequenceNumber exceeds BuffersWritten " + buffersWritten(f) + ": " + seqs);
            assertTrue(ringNotice(f) != null, f + ": buffer 0 says the file is a buffering ring's");
        }
    }

    /** The RING notice of buffer 0, or null. */
    private static dev.jetw.etl.SessionNotice ringNotice(Path file) throws Exception {
        try (dev.jetw.etl.EtlReader r = dev.jetw.etl.EtlReader.open(file)) {
            for (dev.jetw.etl.EtlRecord e = r.next(); e != null; e = r.next()) {
                dev.jetw.etl.SessionNotice n = dev.jetw.etl.SessionNotice.decode(e);
                if (n != null && n.isRing() && e.bufferIndex() == 0) {
                    return n;
                }
            }
            return null;
        }
    }
}
