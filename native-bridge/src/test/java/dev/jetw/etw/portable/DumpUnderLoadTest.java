package dev.jetw.etw.portable;

import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EventScratch;
import dev.jetw.etw.LogFileMode;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import dev.jetw.etw.TraceFilesHook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dumps of a file session while several threads write (issue 27, item 2): a dump takes no buffer from the
 * writers, so nothing is dropped, and every dump is a consistent prefix of each thread's events.
 */
class DumpUnderLoadTest {

    private static final int THREADS = 4;
    private static final int DUMPS = 2;
    /** How long each dump's copy takes here: a large file on a slow disk, made deterministic by the hook. */
    private static final long SLOW_COPY_MS = 300;

    private final PortableBackend etw = new PortableBackend();

    @TempDir
    Path dir;

    @AfterEach
    void noHook() {
        TraceFilesHook.reset();
    }

    enum Mode {
        SEQUENTIAL, CIRCULAR, NEWFILE
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void dumpsOfALoadedFileSessionDropNothingAndAddUp(Mode mode) throws Exception {
        String name = TestSupport.uniqueName("dumpload");
        Path file = dir.resolve(mode == Mode.NEWFILE ? "load%d.etl" : "load.etl");
        // 2 MB of buffers: about 100 ms of the writers' rate below, ample for the logger, far less than a copy.
        SessionConfig.Builder config = SessionConfig.builder().sessionName(name).logFile(file).bufferSizeKb(4)
                .minimumBuffers(16).maximumBuffers(512).flushTimerSeconds(1);
        if (mode != Mode.SEQUENTIAL) { // 1 MB files: the circular one wraps, newfile rolls over, during every dump
            config.modes(mode == Mode.CIRCULAR ? LogFileMode.CIRCULAR : LogFileMode.NEWFILE).maximumFileSizeMb(1);
        }
        etw.startSession(config.build());
        TraceFilesHook.afterCheck(p -> {
            if (p.getFileName().toString().startsWith("dump")) {
                sleep(SLOW_COPY_MS);
            }
        });
        ClassicProvider p = TestSupport.enabledProvider(etw, name);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicIntegerArray emitted = new AtomicIntegerArray(THREADS);
        List<Thread> writers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int stream = t;
            Thread w = new Thread(() -> {
                EventScratch s = p.newScratch();
                while (!stop.get()) {
                    for (int i = 0; i < 50; i++) { // about 5 KB a millisecond per thread: 20 MB/s in all
                        TestSupport.emit(p, s, stream, emitted.get(stream), 40);
                        emitted.incrementAndGet(stream);
                    }
                    sleep(1);
                }
            }, "writer-" + t);
            w.start();
            writers.add(w);
        }
        List<Path> dumps = new ArrayList<>();
        List<int[]> before = new ArrayList<>();
        for (int d = 0; d < DUMPS; d++) {
            sleep(100);
            int[] seen = new int[THREADS];
            for (int t = 0; t < THREADS; t++) {
                seen[t] = emitted.get(t);
            }
            Path dump = dir.resolve("dump" + d + ".etl");
            etw.dumpSession(name, dump);
            dumps.add(dump);
            before.add(seen);
        }
        stop.set(true);
        for (Thread w : writers) {
            w.join();
        }
        SessionStats st = etw.stopSession(name);
        p.close();

        long total = 0;
        for (int t = 0; t < THREADS; t++) {
            total += emitted.get(t);
        }
        assertEquals(total, p.eventsWritten() + p.eventsDropped(), "every emitted event was accepted or dropped");
        assertEquals(0, p.eventsDropped(), "dropped: the dumps must not starve the writers (" + st + ")");
        assertEquals(total, st.eventsWritten() + st.eventsRefused() + st.eventsInLostBuffers(),
                "emitted = written + dropped + lost");
        assertEquals(0, st.eventsInLostBuffers());
        if (mode == Mode.SEQUENTIAL) {
            assertEquals(total, EtlLayoutCheck.read(file).events().size(), "written means: in the file");
        }
        for (int d = 0; d < DUMPS; d++) {
            Path dump = dumps.get(d);
            int[][] runs = runsPerThread(dump);
            for (int t = 0; t < THREADS; t++) {
                if (mode == Mode.SEQUENTIAL) {
                    assertEquals(0, runs[t][0], dump + ": a sequential file's dump starts at each thread's first event");
                }
                assertTrue(runs[t][1] >= before.get(d)[t], dump + " holds thread " + t + "'s events emitted before it ("
                        + before.get(d)[t] + "), up to " + runs[t][1]);
            }
            assertEquals(EtlLayoutCheck.read(dump).events().size(), ReaderCheck.events(dump).size());
        }
    }

    /**
     * Per thread, the first and one past the last of its events in {@code file}, checked to follow one another
     * without a gap (buffers in SequenceNumber order: a circular file keeps each thread's newest events).
     */
    private static int[][] runsPerThread(Path file) throws Exception {
        int[][] runs = new int[THREADS][];
        for (EtlLayoutCheck.Event e : EtlLayoutCheck.read(file).events()) {
            int stream = e.payloadInt(0);
            int seq = e.payloadInt(4);
            if (runs[stream] == null) {
                runs[stream] = new int[] {seq, seq};
            }
            assertEquals(runs[stream][1], seq, file + ": thread " + stream + "'s events in order, none missing");
            runs[stream][1] = seq + 1;
        }
        for (int t = 0; t < THREADS; t++) {
            assertTrue(runs[t] != null, file + " holds events of thread " + t);
        }
        return runs;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
