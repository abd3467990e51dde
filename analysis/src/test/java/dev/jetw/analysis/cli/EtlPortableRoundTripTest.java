package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.analysis.cli.EtlTool;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.EventScratch;
import dev.jetw.etl.EventType;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Files written by the portable backend (the project's .etl writer), read back by EtlReader and the
 * etl CLI: every event's header fields and payload, per thread in order, across buffer boundaries.
 */
class EtlPortableRoundTripTest {

    @TempDir
    Path tmp;

    /** What a thread wrote, in order. */
    private record Written(int type, int level, UUID classGuid, int instanceId, int parentInstanceId, byte[] payload) {
    }

    private static byte[] utf16z(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_16LE);
        return Arrays.copyOf(b, b.length + 2);
    }

    private static final class ThreadWriter {
        final ClassicProvider p;
        final EventScratch scratch;
        final List<Written> written = new ArrayList<>();

        ThreadWriter(ClassicProvider p) {
            this.p = p;
            this.scratch = p.newScratch();
        }

        /** Payloads of at most 8 bytes alternate between write and writeSmall, so the file holds both kinds. */
        boolean nextSmallAsWord;

        void write(int type, int level, int classIndex, int inst, int parentInst, byte[] payload) {
            boolean accepted;
            if (payload.length <= 8 && (nextSmallAsWord = !nextSmallAsWord)) {
                long word = ByteBuffer.wrap(Arrays.copyOf(payload, 8)).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
                word |= payload.length == 8 ? 0 : -1L << (8 * payload.length); // bytes past the length must not leak
                accepted = p.writeSmall(scratch, type, level, classIndex, inst, parentInst == 0 ? -1 : 0, parentInst,
                        word, payload.length);
            } else {
                ByteBuffer b = scratch.payload(payload.length);
                b.put(payload);
                accepted = p.write(scratch, type, level, classIndex, inst, parentInst == 0 ? -1 : 0, parentInst);
            }
            assertTrue(accepted, "write accepted");
            written.add(new Written(type, level, JetwSchema.EVENT_CLASSES.get(classIndex), inst, parentInst, payload));
        }
    }

    @Test
    void everyEventComesBackWithItsFieldsAndTheCliBuildsTheTree() throws Exception {
        EtwBackend etw = EtwBackends.create("portable");
        Path file = tmp.resolve("roundtrip.etl");
        String session = "jetw-reader-rt-" + System.nanoTime();
        etw.startSession(SessionConfig.builder().sessionName(session).logFile(file).bufferSizeKb(4)
                .minimumBuffers(4).maximumBuffers(256).build());
        ClassicProvider p = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        Map<Long, ThreadWriter> byThread = Collections.synchronizedMap(new HashMap<>());
        int max;
        try {
            etw.enableProvider(session, JetwSchema.CONTROL_GUID, 5, 0);
            max = p.maxPayloadBytes();
            ThreadWriter main = new ThreadWriter(p);
            byThread.put(Thread.currentThread().getId(), main);
            main.write(EventType.DC_START, 0, JetwSchema.METHOD_INDEX, 0, 0, concat(le32(1),
                    utf16z("com.example.Shop"), utf16z("handle"), utf16z("()V")));
            main.write(EventType.DC_START, 0, JetwSchema.METHOD_INDEX, 0, 0, concat(le32(2),
                    utf16z("com.example.Db"), utf16z("query"), utf16z("()I")));
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                int seed = t;
                Thread th = new Thread(() -> {
                    ThreadWriter w = new ThreadWriter(p);
                    byThread.put(Thread.currentThread().getId(), w);
                    w.write(EventType.DC_START, 0, JetwSchema.THREAD_INDEX, 0, 0,
                            concat(le64(Thread.currentThread().getId()), utf16z(Thread.currentThread().getName())));
                    int a = p.newInstanceId(w.scratch, 0);
                    int b = p.newInstanceId(w.scratch, 0);
                    w.write(EventType.START, 4, 0, a, 0, le32(1));
                    w.write(EventType.START, 4, 0, b, a, le32(2));
                    w.write(EventType.CHECKPOINT, 4, 0, b, a, concat(le32(2), utf16z("cp")));
                    w.write(EventType.END, 4, 0, b, a, concat(le32(2), utf16z("java.io.IOException")));
                    w.write(EventType.END, 4, 0, a, 0, concat(le32(1), utf16z("")));
                    Random rnd = new Random(seed);
                    for (int i = 0; i < 300; i++) {
                        int size = i == 0 ? max : i == 1 ? 0 : rnd.nextInt(Math.min(max, 600) + 1);
                        byte[] payload = new byte[size];
                        rnd.nextBytes(payload);
                        int type = new int[]{0, 5, 6, 7}[rnd.nextInt(4)];
                        w.write(type, 1 + rnd.nextInt(5), JetwSchema.METHOD_INDEX, 0, 0, payload);
                    }
                }, "rt-worker-" + t);
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join(TimeUnit.MINUTES.toMillis(2));
                assertFalse(th.isAlive());
            }
        } finally {
            SessionStats stats = etw.stopSession(session);
            p.close();
            assertEquals(0, stats.eventsLost());
        }

        Map<Integer, List<EtlRecord>> read = new HashMap<>();
        try (EtlReader r = EtlReader.open(file)) {
            assertEquals(session, r.header().loggerName());
            assertEquals(4096, r.header().bufferSize());
            assertTrue(r.buffers().size() > 10, "crosses many buffers: " + r.buffers().size());
            assertEquals(r.header().buffersWritten(), r.buffers().size());
            long pid = ProcessHandle.current().pid();
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (e.isLogfileHeader() || !JetwSchema.EVENT_CLASSES.contains(e.guid())) {
                    continue;
                }
                assertEquals(pid, e.processId());
                read.computeIfAbsent(e.threadId(), k -> new ArrayList<>()).add(e);
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
            assertEquals(0, r.unknownRecords());
        }
        assertEquals(byThread.size(), read.size());
        for (Map.Entry<Long, ThreadWriter> t : byThread.entrySet()) {
            List<EtlRecord> got = read.get((int) (long) t.getKey());
            List<Written> want = t.getValue().written;
            assertEquals(want.size(), got.size(), "thread " + t.getKey());
            for (int i = 0; i < want.size(); i++) {
                Written w = want.get(i);
                EtlRecord e = got.get(i);
                String m = "thread " + t.getKey() + " event " + i;
                assertEquals(w.instanceId() != 0 ? 0x15 : 0x14, e.headerType(), m);
                assertEquals(w.type(), e.type(), m);
                assertEquals(w.level(), e.level(), m);
                assertEquals(w.classGuid(), e.guid(), m);
                assertEquals(w.instanceId(), e.instanceId(), m);
                assertEquals(w.parentInstanceId(), e.parentInstanceId(), m);
                if (w.instanceId() != 0) {
                    assertEquals(w.parentInstanceId() != 0 ? JetwSchema.METHOD_CALL_CLASS : null, e.parentGuid(), m);
                }
                assertArrayEquals(w.payload(), e.userData(), m);
                if (i > 0) {
                    assertTrue(e.rawTimestamp() >= got.get(i - 1).rawTimestamp(), m + ": a thread's events in time order");
                }
            }
        }

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[]{"tree", file.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String tree = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        for (int t = 0; t < 3; t++) {
            assertTrue(tree.matches("(?s).*thread \\d+ \"rt-worker-" + t + "\" \\(pid \\d+\\)\n"
                    + "  \\d+\\.\\d{3} ms  com\\.example\\.Shop\\.handle\\(\\)V  @\\+\\d+\\.\\d{3} ms\n"
                    + "    \\d+\\.\\d{3} ms  com\\.example\\.Db\\.query\\(\\)I  threw java\\.io\\.IOException  @\\+\\d+\\.\\d{3} ms\n"
                    + "      \\* \"cp\"  @\\+\\d+\\.\\d{3} ms\n.*"), tree);
        }
    }

    private static byte[] le32(int v) {
        return ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    private static byte[] le64(long v) {
        return ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(v).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        for (byte[] b : parts) {
            o.writeBytes(b);
        }
        return o.toByteArray();
    }

    /** A wrapped circular file comes out oldest buffer first: the surviving events are in write order, ending with the last. */
    @Test
    void wrappedCircularFileComesOutInWriteOrder() throws Exception {
        EtwBackend etw = EtwBackends.create("portable");
        Path file = tmp.resolve("circular.etl");
        String session = "jetw-reader-circ-" + System.nanoTime();
        etw.startSession(SessionConfig.builder().sessionName(session).logFile(file).bufferSizeKb(4)
                .minimumBuffers(8).maximumBuffers(1024).maximumFileSizeMb(1)
                .modes(dev.jetw.etw.LogFileMode.CIRCULAR).build());
        ClassicProvider p = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        int n = 8000;
        try {
            etw.enableProvider(session, JetwSchema.CONTROL_GUID, 5, 0);
            EventScratch scratch = p.newScratch();
            for (int i = 0; i < n; i++) {
                ByteBuffer b = scratch.payload(404);
                b.putInt(i);
                b.put(new byte[400]);
                p.write(scratch, EventType.INFO, 4, JetwSchema.METHOD_INDEX, 0, -1, 0);
            }
        } finally {
            etw.stopSession(session);
            p.close();
        }
        assertTrue(Files.size(file) <= 1024 * 1024 + 4096, "wrapped at 1 MB: " + Files.size(file));
        List<Integer> seen = new ArrayList<>();
        try (EtlReader r = EtlReader.open(file)) {
            assertEquals(0x2, r.header().logFileMode() & 0x2);
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (JetwSchema.METHOD_CLASS.equals(e.guid())) {
                    seen.add(ByteBuffer.wrap(e.userData()).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt());
                }
            }
            assertTrue(r.problems().isEmpty(), r.problems().toString());
        }
        assertTrue(seen.size() > 1000 && seen.size() < n, "the file wrapped: " + seen.size() + " of " + n + " survive");
        assertEquals(n - 1, seen.get(seen.size() - 1));
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.get(i) > seen.get(i - 1), "write order at " + i + ": " + seen.get(i - 1) + " then " + seen.get(i));
        }
    }
}
