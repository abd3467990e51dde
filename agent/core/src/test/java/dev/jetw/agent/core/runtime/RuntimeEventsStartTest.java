package dev.jetw.agent.core.runtime;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionController;
import dev.jetw.etl.TraceLevel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 31: premain never waits for JFR. JFR's start is held up here through the test seam (as a slow
 * JFR start on a busy machine would be) and the structure is asserted, not a timing: the start returns
 * while JFR's start is still blocked, that start runs on the agent's own daemon thread, and a stop
 * during it neither waits for it nor loses the fact silently.
 */
class RuntimeEventsStartTest {

    @TempDir
    Path dir;

    @AfterEach
    void resetSeams() {
        RuntimeEvents.beforeJfrStart = () -> { };
        RuntimeEvents.starterHook = t -> { };
        System.clearProperty(RuntimeEvents.RUNNING_PROPERTY);
    }

    @Test
    void startReturnsWhileJfrIsStillStartingOnADaemonThread() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<Thread> starter = new AtomicReference<>();
        RuntimeEvents.starterHook = starter::set;
        RuntimeEvents.beforeJfrStart = () -> {
            ranOn.set(Thread.currentThread());
            try {
                release.await(); // JFR's start does not end until the test says so
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        try (SessionController session = SessionController.start(backend(), SessionConfig.parse("name=rt-start,file=" + dir.resolve("a.etl")))) {
            Thread caller = Thread.currentThread();
            // Blocking here would hang: the time-out is only the guard against that, not a measurement.
            RuntimeEvents r = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> RuntimeEvents.start(provider("rt-start"), new LinkedHashSet<>(List.of("gc", "park")), 0));
            if (RuntimeEvents.javaFeatureVersion() < RuntimeEvents.JFR_MIN_JAVA) {
                return; // no JFR: the GC notifications start on the caller's thread, as before
            }
            Thread t = starter.get();
            assertEquals(RuntimeEvents.STARTER_THREAD, t.getName());
            assertTrue(t.isDaemon(), "the starter never keeps the JVM alive");
            assertNotSame(caller, t);
            assertEquals("gc,park (JFR)", r.describe());
            assertTrue(r.status().contains("JFR still starting"), r.status());
            assertNull(r.problem());
            assertEquals("gc,park (JFR), starting on a background thread (events before it records are not seen)", r.startLine());
            assertNull(System.getProperty(RuntimeEvents.RUNNING_PROPERTY));

            // Stopping during the start does not wait for it, and says that no runtime events were recorded.
            String note = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> r.stop());
            assertTrue(note != null && note.contains("before JFR's stream had started"), String.valueOf(note));
            release.countDown();
            assertTrue(r.awaitStarted(60_000));
            t.join(60_000);
            assertEquals(t, ranOn.get(), "JFR's start ran on the starter thread");
            assertEquals("none", r.describe(), "nothing runs after the stop");
            // Not even tried: at a JVM's exit a JFR start after the stop raced with the JVM's death (HotSpot's
            // "too early" lines on the application's stdout). Here JFR's part cannot load, so a try would be a problem.
            assertNull(r.problem(), "no JFR start was tried after the stop");
        } finally {
            release.countDown();
        }
    }

    @Test
    void aFailedJfrStartFallsBackOnTheStarterThreadAndSaysSo() throws Exception {
        // The core's tests have no agent/jfr on their class path: JFR's part cannot load, so the gc family comes
        // from the GC notifications, decided on the starter thread.
        try (SessionController session = SessionController.start(backend(), SessionConfig.parse("name=rt-fail,file=" + dir.resolve("b.etl")))) {
            RuntimeEvents r = RuntimeEvents.start(provider("rt-fail"), new LinkedHashSet<>(List.of("gc", "park")), 0);
            assertTrue(r.awaitStarted(60_000));
            if (RuntimeEvents.javaFeatureVersion() >= RuntimeEvents.JFR_MIN_JAVA) {
                assertEquals("failed", System.getProperty(RuntimeEvents.RUNNING_PROPERTY));
            }
            assertEquals("gc (GC notifications)", r.describe());
            assertTrue(r.problem() != null && r.problem().contains("no park events"), r.problem());
            assertTrue(r.status().contains(r.problem()), r.status());
            // Once the start has ended, the start line names the source it gave and what failed, not "starting".
            assertEquals("gc (GC notifications)\n" + r.problem(), r.startLine());
            assertNull(r.stop());
        }
    }

    private EtwBackend etw;

    private EtwBackend backend() {
        etw = EtwBackends.create("portable");
        return etw;
    }

    private ClassicProvider provider(String session) throws Exception {
        ClassicProvider p = ClassicProvider.register(etw, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        etw.enableProvider(session, JetwSchema.CONTROL_GUID, TraceLevel.VERBOSE, 0);
        return p;
    }
}
