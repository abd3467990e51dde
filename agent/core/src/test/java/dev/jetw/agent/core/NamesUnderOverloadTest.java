package dev.jetw.agent.core;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.EventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import testapp.Wide;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names are never lost (issue 11, item 4): the agent over the portable backend with tiny buffers
 * and many threads, so that events are dropped (sequential) or overwritten (circular file,
 * buffering ring); every method id a START or END in the file references has a Method name
 * record, and every thread that wrote one has a Thread name record.
 */
class NamesUnderOverloadTest {

    private static final int THREADS = 8;
    private static final int ROUNDS = 300;
    /** Calls per round: four classes, each all() and its twenty methods. */
    private static final int CALLS_PER_ROUND = 4 * 21;

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "mode=sequential,bufferSize=4,minBuffers=2,maxBuffers=2",
        "mode=circular,maxFileSize=1,bufferSize=4,minBuffers=2,maxBuffers=4",
        "mode=buffering,bufferSize=4,minBuffers=2",
    })
    void everyReferencedMethodAndThreadIsNamed(String session) throws Exception {
        Path etl = dir.resolve("overload.etl");
        // adaptive=false, trivial=trace: every one of the 84 methods keeps writing to the end, so the session stays overloaded.
        String reply = AgentMain.run("backend=portable,file=" + etl + ",include=testapp.Wide*,adaptive=false,trivial=trace," + session,
                AgentHarness.inst(), null);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        AtomicInteger wrong = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int first = t;
            Thread w = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < ROUNDS; i++) {
                    if (Wide.round(first, i) != 4 * (20 * i + 190)) {
                        wrong.incrementAndGet();
                    }
                }
            }, "overload-" + t);
            w.start();
            threads.add(w);
        }
        go.countDown();
        for (Thread w : threads) {
            w.join();
        }
        AgentHarness.detach();
        assertEquals(0, wrong.get(), "the application's results");

        Set<Integer> referenced = new TreeSet<>();
        Set<Integer> named = new TreeSet<>();
        Set<Long> writingThreads = new TreeSet<>();
        Set<Long> namedThreads = new TreeSet<>();
        int starts = 0;
        try (EtlReader reader = EtlReader.open(etl)) {
            EtlRecord r;
            while ((r = reader.next()) != null) {
                if (r.guid() == null) {
                    continue;
                }
                ByteBuffer p = ByteBuffer.wrap(r.userData()).order(ByteOrder.LITTLE_ENDIAN);
                boolean rundown = r.type() == EventType.DC_START || r.type() == EventType.DC_END;
                if (r.guid().equals(JetwSchema.METHOD_CALL_CLASS) && (r.type() == EventType.START || r.type() == EventType.END)) {
                    referenced.add(p.getInt(0));
                    writingThreads.add((long) r.threadId()); // the portable backend's ThreadId is the Java thread id
                    starts += r.type() == EventType.START ? 1 : 0;
                } else if (r.guid().equals(JetwSchema.METHOD_CLASS) && rundown) {
                    named.add(p.getInt(0));
                } else if (r.guid().equals(JetwSchema.THREAD_CLASS) && rundown) {
                    namedThreads.add(p.getLong(0));
                }
            }
            assertTrue(reader.problems().isEmpty(), "reader problems: " + reader.problems());
        }
        assertFalse(referenced.isEmpty(), "events reached the file");
        assertTrue(starts < THREADS * ROUNDS * CALLS_PER_ROUND / 2,
                "the session was overloaded: " + starts + " of " + THREADS * ROUNDS * CALLS_PER_ROUND + " STARTs in the file");
        Set<Integer> unnamed = new TreeSet<>(referenced);
        unnamed.removeAll(named);
        assertEquals(new TreeSet<Integer>(), unnamed, "method ids without a name record");
        Set<Long> unnamedThreads = new TreeSet<>(writingThreads);
        unnamedThreads.removeAll(namedThreads);
        assertEquals(new TreeSet<Long>(), unnamedThreads, "threads without a name record");
    }
}
