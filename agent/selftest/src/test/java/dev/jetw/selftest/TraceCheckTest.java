package dev.jetw.selftest;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionController;
import dev.jetw.etl.TraceLevel;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read-back check finds each kind of difference between what was written and what the file holds. */
class TraceCheckTest {

    @TempDir
    Path dir;

    private Path etl;
    private List<WrittenThread> written;
    private long start;
    private long end;
    private final int pid = Integer.parseInt(ManagementFactory.getRuntimeMXBean().getName().split("@")[0]);

    @BeforeEach
    void writeATrace() throws Exception {
        EtwBackend backend = EtwBackends.create("portable");
        etl = dir.resolve("t.etl");
        SessionConfig cfg = SessionConfig.parse("name=jetw-tracecheck-test,file=" + etl);
        try (SessionController session = SessionController.start(backend, cfg);
             ClassicProvider provider = ClassicProvider.register(backend, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES)) {
            backend.enableProvider(cfg.sessionName(), JetwSchema.CONTROL_GUID, TraceLevel.VERBOSE, 0);
            start = System.currentTimeMillis();
            written = CallWorkload.write(provider, ThreadIds.forBackend("portable"), 2, 3);
            session.stop();
            end = System.currentTimeMillis();
        }
    }

    private List<String> problems() throws Exception {
        return TraceCheck.compare(etl, written, pid, start, end).problems;
    }

    @Test
    void theTraceAsWrittenHasNoProblem() throws Exception {
        assertEquals(Collections.emptyList(), problems());
        assertEquals(2 * 3 * CallWorkload.EVENTS_PER_CALL, written.get(0).events.size() + written.get(1).events.size());
    }

    @Test
    void aMissingEventIsCounted() throws Exception {
        written.get(1).events.remove(4);
        List<String> p = problems();
        assertTrue(p.contains("the file holds 30 MethodCall events, 29 were written"), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains(": 15 records in the file, 14 written")), p.toString());
    }

    @Test
    void aWrongLevelIsNamed() throws Exception {
        ExpectedEvent e = written.get(0).events.get(0);
        written.get(0).events.set(0, new ExpectedEvent(e.type, TraceLevel.WARNING, e.instanceId, e.parentInstanceId, e.payload));
        List<String> p = problems();
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("event 0 (in time-stamp order): level 4 != 3"), p.get(0));
    }

    @Test
    void eventsOutOfTimeOrderAreFound() throws Exception {
        // The first and the last event of a thread are many writes apart, so their time stamps differ;
        // events with equal time stamps may come in either order (see TraceCheck.timeOrder).
        List<ExpectedEvent> events = written.get(0).events;
        Collections.swap(events, 0, events.size() - 1);
        List<String> p = problems();
        assertTrue(p.stream().anyMatch(s -> s.contains("event 0 (in time-stamp order): type START != END")), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains("event 14 (in time-stamp order): type END != START")), p.toString());
    }

    @Test
    void aWrongParentOrPayloadIsNamed() throws Exception {
        ExpectedEvent e = written.get(1).events.get(2);
        written.get(1).events.set(2, new ExpectedEvent(e.type, e.level, e.instanceId, e.parentInstanceId + 1, CallWorkload.u32(7)));
        List<String> p = problems();
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("parent instance id " + e.parentInstanceId + " != " + (e.parentInstanceId + 1)), p.get(0));
        assertTrue(p.get(0).contains("payload "), p.get(0));
    }

    @Test
    void aThreadIdNoWriterHasIsFound() throws Exception {
        WrittenThread w = written.get(0);
        WrittenThread other = new WrittenThread(w.name, w.threadId + 1000);
        other.events.addAll(w.events);
        written.set(0, other);
        List<String> p = problems();
        assertTrue(p.contains("15 records carry thread id " + w.threadId + ", which no writer thread has"), p.toString());
    }

    @Test
    void aWrongProcessIdAndTimeWindowAreFound() throws Exception {
        List<String> p = TraceCheck.compare(etl, written, pid + 1, start + 3_600_000, end + 3_600_000).problems;
        assertTrue(p.get(0).contains("has process id " + pid + ", expected " + (pid + 1)), p.toString());
        assertTrue(p.stream().anyMatch(s -> s.contains(", outside the writes (")), p.toString());
    }

    @Test
    void aRepeatedInstanceIdIsFound() throws Exception {
        List<ExpectedEvent> events = written.get(0).events;
        ExpectedEvent first = events.get(0);
        int repeatAt = CallWorkload.EVENTS_PER_CALL; // the next call's outer START
        ExpectedEvent e = events.get(repeatAt);
        events.set(repeatAt, new ExpectedEvent(e.type, e.level, first.instanceId, e.parentInstanceId, e.payload));
        List<String> p = problems();
        assertTrue(p.contains("instance id " + first.instanceId + " was handed out twice (CreateTraceInstanceId must not repeat)"), p.toString());
    }

    @Test
    void moreThanTwentyProblemsAreCountedNotListed() throws Exception {
        for (WrittenThread w : written) {
            List<ExpectedEvent> shifted = new ArrayList<>();
            for (ExpectedEvent e : w.events) {
                shifted.add(new ExpectedEvent(e.type, e.level + 1, e.instanceId, e.parentInstanceId, e.payload));
            }
            w.events.clear();
            w.events.addAll(shifted);
        }
        List<String> p = problems();
        assertEquals(TraceCheck.MAX_LISTED + 1, p.size());
        assertEquals("... and 10 more mismatches", p.get(TraceCheck.MAX_LISTED));
    }

    @Test
    void theCallerTimeSpacingCheckFailsOnOrdinaryWrites() throws Exception {
        // Events stamped at the time of the write are far closer than 1 ms apart.
        List<String> facts = new ArrayList<>();
        List<String> p = CallerTimeWorkload.spacing(etl, facts);
        assertTrue(p.size() >= 20, p.toString());
        assertTrue(p.get(0).startsWith("caller-set time stamps 0 and 1 are "), p.get(0));
        assertTrue(facts.get(0).startsWith("gaps between caller-set time stamps in the file, in 100 ns units: ["), facts.get(0));
    }
}
