package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.Win32Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loss accounting, the flush timer and every log-file mode. */
class LogFileModesTest {

    private static final int MB = 1024 * 1024;

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    /** Event ids (payload int at 4) in reading order. */
    private static List<Integer> ids(List<EtlLayoutCheck.Event> events) {
        List<Integer> l = new ArrayList<>();
        for (EtlLayoutCheck.Event e : events) {
            l.add(e.payloadInt(4));
        }
        return l;
    }

    private static void assertContiguous(List<Integer> ids, int last) {
        assertFalse(ids.isEmpty());
        int first = ids.get(0);
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(first + i, (int) ids.get(i), "event " + i);
        }
        assertEquals(last, (int) ids.get(ids.size() - 1));
    }

    @Test
    void overflowWrittenPlusLostEqualsEmittedExactly() throws Exception {
        String name = TestSupport.uniqueName("overflow");
        Path file = dir.resolve("o.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(4).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        PortableSession session = PortableBackend.session(name);
        session.logger.pause(); // a stalled disk: no buffer comes back while we write
        int emitted = 3000;
        int accepted = 0;
        for (int i = 0; i < emitted; i++) {
            if (TestSupport.emit(p, s, 1, i, 40)) {
                accepted++;
            }
        }
        SessionStats mid = etw.querySession(name);
        assertEquals(4, mid.numberOfBuffers()); // grew from 2 to the maximum, no further
        assertEquals(0, mid.freeBuffers());
        assertTrue(mid.eventsLost() > 0, "events were dropped");
        session.logger.resume();
        SessionStats st = etw.stopSession(name);
        int inFile = EtlLayoutCheck.read(file).events().size();
        assertEquals(emitted, inFile + st.eventsLost());
        assertEquals(inFile, ReaderCheck.events(file).size());
        assertEquals(accepted, inFile);
        assertEquals(p.eventsDropped(), st.eventsLost());
        assertEquals(st.eventsLost(), EtlLayoutCheck.read(file).eventsLost);
        // After the stall, buffers flow again: the events kept are the first ones of each buffer run.
        assertTrue(inFile >= 3 * (4096 - 0x48) / 128, "at least the pool's worth of events: " + inFile);
    }

    @Test
    void overflowIsExactWithConcurrentWritersAndALoggerThatResumesMidway() throws Exception {
        String name = TestSupport.uniqueName("overflow4");
        Path file = dir.resolve("o4.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(6).flushTimerSeconds(1).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        PortableBackend.session(name).logger.pause();
        int threads = 4;
        int perThread = 5000;
        java.util.concurrent.CountDownLatch half = new java.util.concurrent.CountDownLatch(threads);
        List<Thread> ws = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int stream = t;
            Thread w = new Thread(() -> {
                EventScratch s = p.newScratch();
                for (int i = 0; i < perThread; i++) {
                    if (i == perThread / 2) {
                        half.countDown();
                    }
                    TestSupport.emit(p, s, stream, i, 40);
                }
            });
            w.start();
            ws.add(w);
        }
        half.await();
        PortableBackend.session(name).logger.resume();
        for (Thread w : ws) {
            w.join();
        }
        SessionStats st = etw.stopSession(name);
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(threads * perThread, f.events().size() + st.eventsLost());
        assertEquals(p.eventsDropped(), st.eventsLost());
        assertTrue(st.eventsLost() > 0);
        // Per-thread order holds among the events kept.
        int[] last = new int[threads];
        java.util.Arrays.fill(last, -1);
        for (EtlLayoutCheck.Buffer b : f.buffers) {
            for (EtlLayoutCheck.Event e : b.events) {
                int stream = e.payloadInt(0);
                assertTrue(e.payloadInt(4) > last[stream]);
                last[stream] = e.payloadInt(4);
            }
        }
    }

    @Test
    void moreWritingThreadsThanBuffersRecoverWithoutAFlushTimer() throws Exception {
        String name = TestSupport.uniqueName("manythreads");
        Path file = dir.resolve("many.etl");
        int max = 8;
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(max).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        int threads = 5 * max;
        java.util.concurrent.atomic.AtomicInteger emitted = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch allWrote = new java.util.concurrent.CountDownLatch(threads);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<Thread> ws = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int stream = t;
            Thread w = new Thread(() -> {
                EventScratch s = p.newScratch();
                try {
                    // Each thread keeps trying until one of its events is accepted, then idles holding
                    // its buffer. With per-thread buffers and no flush timer, only the logger taking
                    // idle threads' buffers back lets the later threads write at all.
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    int seq = 0;
                    while (true) {
                        emitted.incrementAndGet();
                        if (TestSupport.emit(p, s, stream, seq++, 0)) {
                            break;
                        }
                        if (System.nanoTime() > deadline) {
                            throw new AssertionError("thread " + stream + " never got a buffer");
                        }
                        Thread.sleep(1);
                    }
                    allWrote.countDown();
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            w.start();
            ws.add(w);
        }
        assertTrue(allWrote.await(120, java.util.concurrent.TimeUnit.SECONDS), "every thread wrote an event");
        SessionStats st = etw.stopSession(name);
        release.countDown();
        for (Thread w : ws) {
            w.join();
        }
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(emitted.get(), f.events().size() + st.eventsLost());
        java.util.Set<Integer> streams = new java.util.HashSet<>();
        for (EtlLayoutCheck.Event e : f.events()) {
            streams.add(e.payloadInt(0));
        }
        assertEquals(threads, streams.size());
        assertTrue(st.numberOfBuffers() <= max);
    }

    @Test
    void sixteenConcurrentWritersKeepCountsAndPerThreadOrder() throws Exception {
        String name = TestSupport.uniqueName("threads");
        Path file = dir.resolve("t.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(64)
                .minimumBuffers(8).maximumBuffers(256).flushTimerSeconds(1).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        int threads = 16;
        int perThread = 5000;
        List<Thread> workers = new ArrayList<>();
        List<Long> tids = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int stream = t;
            Thread w = new Thread(() -> {
                EventScratch s = p.newScratch();
                tids.add(Thread.currentThread().getId());
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    if (!TestSupport.emit(p, s, stream, i, i % 32)) {
                        throw new AssertionError("dropped " + stream + "/" + i);
                    }
                }
            });
            w.start();
            workers.add(w);
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        SessionStats st = etw.stopSession(name);
        assertEquals(0, st.eventsLost());
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        int[] next = new int[threads];
        java.util.Map<Integer, Integer> streamOfTid = new java.util.HashMap<>();
        // File order = logger order: per-thread order must hold in file order.
        for (EtlLayoutCheck.Buffer b : f.buffers) {
            for (EtlLayoutCheck.Event e : b.events) {
                int stream = e.payloadInt(0);
                int seq = e.payloadInt(4);
                assertEquals(next[stream], seq, "thread " + stream + " order");
                next[stream]++;
                Integer prev = streamOfTid.put(e.threadId, stream);
                assertTrue(prev == null || prev == stream, "one thread id per writer");
            }
        }
        for (int t = 0; t < threads; t++) {
            assertEquals(perThread, next[t]);
        }
        assertEquals(threads, streamOfTid.size());
        for (long tid : tids) {
            assertTrue(streamOfTid.containsKey((int) tid), "thread id = Java thread id");
        }
    }

    // The mode tests below allow more buffers than their events need, so that a slow disk cannot
    // drop events (that is the overflow test's subject) and the ids stay contiguous.

    @Test
    void sequentialWithMaximumFileSizeStopsAtTheLimitAndCountsLoss() throws Exception {
        String name = TestSupport.uniqueName("seqmax");
        Path file = dir.resolve("m.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(8)
                .minimumBuffers(4).maximumBuffers(512).maximumFileSizeMb(1).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int emitted = 0;
        // 2 MB of events into a 1 MB file.
        for (int i = 0; i < 2 * MB / 256; i++) {
            emitted++;
            TestSupport.emit(p, s, 0, i, 256 - 0x48 - 8);
        }
        etw.flushSession(name); // the logger has met the limit by now
        emitted++;
        boolean full = !TestSupport.emit(p, s, 0, emitted - 1, 0);
        SessionStats st = etw.stopSession(name);
        assertTrue(full, "writes failed once the log was full");
        assertEquals(MB, Files.size(file));
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertTrue(st.logBuffersLost() > 0);
        assertEquals(emitted, f.events().size() + st.eventsLost());
        assertEquals(st.logBuffersLost(), f.buffersLost);
        assertEquals(st.eventsLost(), f.eventsLost);
        assertContiguous(ids(f.events()), f.events().size() - 1);
    }

    @Test
    void circularWrapsKeepingTheHeaderAndTheNewestEvents() throws Exception {
        String name = TestSupport.uniqueName("circ");
        Path file = dir.resolve("c.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .maximumBuffers(1024).modes(LogFileMode.CIRCULAR).maximumFileSizeMb(1).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int n = 3 * MB / 128;
        for (int i = 0; i < n; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 128 - 0x48 - 8));
        }
        SessionStats st = etw.stopSession(name);
        assertEquals(MB, Files.size(file));
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(256, f.buffersWritten);
        assertEquals(name, f.loggerName);
        assertEquals(LogFileMode.CIRCULAR.bits(), f.logFileMode);
        assertTrue(st.buffersWritten() > 255, "wrapped: " + st.buffersWritten());
        List<Integer> viaReader = ids(ReaderCheck.events(file)); // oldest buffer first, by SequenceNumber
        assertContiguous(viaReader, n - 1);
        List<EtlLayoutCheck.Buffer> bySeq = f.buffersBySequence();
        assertEquals(st.buffersWritten(), bySeq.get(bySeq.size() - 1).sequence);
        assertEquals(st.buffersWritten() - 254, bySeq.get(0).sequence);
        assertContiguous(ids(f.events()), n - 1);
        assertEquals(0, st.eventsLost());
    }

    @Test
    void newfileRollsToNumberedFilesEachAComplete() throws Exception {
        String name = TestSupport.uniqueName("newfile");
        Path pattern = dir.resolve("roll_%d.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(pattern).bufferSizeKb(8)
                .maximumBuffers(512).modes(LogFileMode.NEWFILE).maximumFileSizeMb(1).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int n = (int) (3.5 * MB / 128);
        for (int i = 0; i < n; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 128 - 0x48 - 8));
        }
        etw.stopSession(name);
        List<Integer> all = new ArrayList<>();
        int files = 0;
        for (int k = 1; Files.exists(dir.resolve("roll_" + k + ".etl")); k++) {
            Path fk = dir.resolve("roll_" + k + ".etl");
            assertTrue(Files.size(fk) <= MB);
            EtlLayoutCheck.File f = EtlLayoutCheck.read(fk);
            assertEquals(fk.toAbsolutePath().toString(), f.logFileName);
            for (int i = 0; i < f.buffers.size(); i++) {
                assertEquals(i + 1, f.buffers.get(i).sequence);
            }
            all.addAll(ids(f.events()));
            assertEquals(ids(f.events()), ids(ReaderCheck.events(fk)));
            files++;
        }
        assertEquals(4, files);
        assertEquals(n, all.size());
        assertContiguous(all, n - 1);
    }

    @Test
    void bufferingKeepsARingInMemoryUntilFlush() throws Exception {
        String name = TestSupport.uniqueName("ring");
        Path file = dir.resolve("r.etl");
        int min = 4;
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .modes(LogFileMode.BUFFERING).minimumBuffers(min).maximumBuffers(8).flushTimerSeconds(1).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 24));
        }
        assertFalse(Files.exists(file), "nothing on disk before the flush");
        etw.flushSession(name);
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        // The ring: the last MinimumBuffers buffers, the writing thread's partial one being the newest.
        assertEquals(min, f.buffers.size());
        List<Integer> ids = ids(f.events());
        assertContiguous(ids, n - 1);
        assertTrue(ids.size() < n / 2, "older events were overwritten: " + ids.size());
        int perBuffer = (4096 - 0x48) / (0x48 + 8 + 24);
        assertTrue(ids.size() > (min - 1) * perBuffer, "MinimumBuffers worth: " + ids.size());
        for (int i = n; i < n + 10; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 24));
        }
        etw.stopSession(name);
        List<Integer> after = ids(EtlLayoutCheck.read(file).events());
        assertEquals(after, ids(ReaderCheck.events(file)));
        assertContiguous(after, n + 9); // the stop appended the rest
        assertEquals(n - 1, (int) after.get(ids.size() - 1));
    }

    @Test
    void flushTimerWritesAPartiallyFilledBuffer() throws Exception {
        String name = TestSupport.uniqueName("timer");
        Path file = dir.resolve("f.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).flushTimerSeconds(1).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 3; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 0));
        }
        TestSupport.await(() -> TestSupport.headerBuffersWritten(file) == 2, 60, "the flush timer");
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertEquals(3, f.events().size());
        assertTrue(f.endTime > f.startTime);
        etw.stopSession(name);
        assertEquals(2, EtlLayoutCheck.read(file).buffersWritten); // no empty buffer at stop
    }

    @Test
    void realTimeWithoutConsumerFailsWithLogFileFullThenDeliversTheBacklog() throws Exception {
        String name = TestSupport.uniqueName("rt");
        etw.startSession(SessionConfig.builder().sessionName(name).modes(LogFileMode.REAL_TIME).realTimeWithoutConsumer(true).bufferSizeKb(4)
                .minimumBuffers(2).maximumBuffers(4).flushTimerSeconds(0).build());
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        int emitted = 0;
        int failedCode = 0;
        for (int i = 0; i < 2000; i++) {
            emitted++;
            s.payload().clear();
            s.payload().putInt(0).putInt(i);
            int id = p.newInstanceId(s, 0);
            if (!p.write(s, 1, 4, 0, id, -1, 0)) {
                failedCode = Win32Error.LOG_FILE_FULL;
            }
        }
        assertEquals(Win32Error.LOG_FILE_FULL, failedCode);
        long lostBefore = etw.querySession(name).eventsLost();
        assertTrue(lostBefore > 0);
        assertEquals(lostBefore, p.eventsDropped());
        List<Integer> delivered = new CopyOnWriteArrayList<>();
        AutoCloseable c = etw.openRealTimeConsumer(name, (ByteBuffer b) -> {
            for (EtlLayoutCheck.Event e : EtlLayoutCheck.dataBuffer(b, 4096)) {
                delivered.add(e.payloadInt(4));
            }
        });
        // The backlog arrived on attach; now writes succeed again.
        assertTrue(TestSupport.emit(p, s, 0, 1000, 0));
        emitted++;
        SessionStats st = etw.stopSession(name);
        c.close();
        assertEquals(emitted, delivered.size() + st.eventsLost());
        assertEquals(1000, (int) delivered.get(delivered.size() - 1));
        assertEquals(0, st.realTimeBuffersLost());
        assertEquals(Win32Error.WMI_INSTANCE_NOT_FOUND, assertThrows(EtwException.class,
                () -> etw.openRealTimeConsumer(name, b -> { })).code());
    }

    @Test
    void realTimeWithALogFileWritesTheFileAndFeedsTheConsumer() throws Exception {
        String name = TestSupport.uniqueName("rtfile");
        Path file = dir.resolve("rtf.etl");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file)
                .modes(LogFileMode.REAL_TIME, LogFileMode.SEQUENTIAL).realTimeWithoutConsumer(true).bufferSizeKb(4).flushTimerSeconds(0).build());
        List<Integer> delivered = new CopyOnWriteArrayList<>();
        AutoCloseable c = etw.openRealTimeConsumer(name, b -> {
            for (EtlLayoutCheck.Event e : EtlLayoutCheck.dataBuffer(b, 4096)) {
                delivered.add(e.payloadInt(4));
            }
        });
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        EventScratch s = p.newScratch();
        for (int i = 0; i < 500; i++) {
            assertTrue(TestSupport.emit(p, s, 0, i, 8));
        }
        etw.stopSession(name);
        c.close();
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file);
        assertContiguous(ids(f.events()), 499);
        assertEquals(500, f.events().size());
        assertContiguous(delivered, 499);
        assertEquals(LogFileMode.SEQUENTIAL.bits(), f.logFileMode); // REAL_TIME cleared in the header
    }

    @Test
    void bufferingRemovesAStaleFileOfAnEarlierRunAtStartWhenOverwriteAllowsIt() throws Exception {
        Path file = dir.resolve("stale.etl");
        Files.write(file, new byte[] {1, 2, 3});
        String name = TestSupport.uniqueName("stale");
        etw.startSession(SessionConfig.builder().sessionName(name).logFile(file).modes(LogFileMode.BUFFERING).overwrite(true).build());
        assertFalse(Files.exists(file)); // created new at the first flush
        etw.stopSession(name);
        EtlLayoutCheck.File f = EtlLayoutCheck.read(file); // the stop wrote a header-only .etl
        assertEquals(1, f.buffersWritten);
        assertEquals(name, f.loggerName);
    }
}
