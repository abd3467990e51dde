package dev.jetw.etw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionControllerTest {

    @TempDir
    Path dir;

    private final RecordingBackend backend = new RecordingBackend();
    private SessionConfig config;

    @BeforeEach
    void setUp() {
        config = SessionConfig.builder().sessionName("app").logFile(dir.resolve("app.etl")).build();
    }

    @Test
    void startStartsTheSessionOnceWithTheConfiguration() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        assertEquals(List.of("startSession(app)"), backend.calls);
        assertSame(config, backend.configs.get(0));
        assertSame(config, c.config());
        assertSame(backend, c.backend());
        assertEquals(1, c.lastStats().buffersWritten());
        assertFalse(c.isStopped());
    }

    @Test
    void aFailedStartPropagatesTheBackendsError() {
        backend.failNext = new EtwException("StartTraceW", Win32Error.ALREADY_EXISTS, "session app");
        EtwException e = assertThrows(EtwException.class, () -> SessionController.start(backend, config));
        assertEquals(Win32Error.ALREADY_EXISTS, e.code());
    }

    @Test
    void startRefusesNullArguments() {
        assertThrows(NullPointerException.class, () -> SessionController.start(null, config));
        assertThrows(NullPointerException.class, () -> SessionController.start(backend, null));
        assertEquals(List.of(), backend.calls);
    }

    @Test
    void queryAndFlushAddressTheSessionByNameAndReturnTheBackendsStatistics() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        SessionStats q = c.query();
        SessionStats f = c.flush();
        assertEquals(List.of("startSession(app)", "querySession(app)", "flushSession(app)"), backend.calls);
        assertEquals(2, q.buffersWritten());
        assertEquals(3, f.buffersWritten());
        assertSame(f, c.lastStats());
    }

    @Test
    void updateKeepsTheNameAndSwitchesToTheNewConfiguration() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        SessionConfig bigger = config.toBuilder().maximumBuffers(256).flushTimerSeconds(5).build();
        SessionStats s = c.update(bigger);
        assertEquals(List.of("startSession(app)", "updateSession(app)"), backend.calls);
        assertSame(bigger, backend.configs.get(1));
        assertSame(bigger, c.config());
        assertEquals(2, s.buffersWritten());
    }

    @Test
    void updateRefusesAnotherSessionNameWithoutCallingTheBackend() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        SessionConfig other = config.toBuilder().sessionName("other").build();
        ConfigException e = assertThrows(ConfigException.class, () -> c.update(other));
        assertEquals("name=other: update keeps the session name; this session is app", e.getMessage());
        assertEquals(List.of("startSession(app)"), backend.calls);
        assertSame(config, c.config());
    }

    @Test
    void aFailedUpdateKeepsTheOldConfiguration() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        backend.failNext = new EtwException("ControlTraceW", Win32Error.INVALID_PARAMETER, "UPDATE");
        assertThrows(EtwException.class, () -> c.update(config.toBuilder().maximumBuffers(200).build()));
        assertSame(config, c.config());
    }

    @Test
    void stopStopsOnceAndReturnsTheFinalStatisticsEveryTime() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        SessionStats first = c.stop();
        SessionStats second = c.stop();
        assertEquals(List.of("startSession(app)", "stopSession(app)"), backend.calls);
        assertEquals(2, first.buffersWritten());
        assertSame(first, second);
        assertTrue(c.isStopped());
    }

    @Test
    void stoppingASessionThatWasNoLongerRunningReturnsTheLastKnownStatistics() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        SessionStats queried = c.query();
        backend.stopAnswersNotRunning = true;
        assertSame(queried, c.stop());
        assertTrue(c.isStopped());
    }

    @Test
    void aFailedStopCanBeRetried() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        backend.failNext = new EtwException("ControlTraceW", Win32Error.ACCESS_DENIED, "STOP");
        assertThrows(EtwException.class, c::stop);
        assertFalse(c.isStopped());
        assertEquals(3, c.stop().buffersWritten());
        assertEquals(List.of("startSession(app)", "stopSession(app)", "stopSession(app)"), backend.calls);
    }

    @Test
    void closeStops() throws EtwException {
        try (SessionController c = SessionController.start(backend, config)) {
            assertFalse(c.isStopped());
        }
        assertEquals(List.of("startSession(app)", "stopSession(app)"), backend.calls);
    }

    @Test
    void aStoppedControllerRefusesQueryFlushAndUpdateWithoutCallingTheBackend() throws EtwException {
        SessionController c = SessionController.start(backend, config);
        c.stop();
        IllegalStateException e = assertThrows(IllegalStateException.class, c::query);
        assertEquals("cannot query session app: it was stopped; start a new SessionController", e.getMessage());
        assertThrows(IllegalStateException.class, c::flush);
        assertThrows(IllegalStateException.class, () -> c.update(config));
        assertEquals(List.of("startSession(app)", "stopSession(app)"), backend.calls);
    }
}
