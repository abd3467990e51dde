package dev.jetw.agent.core;

import dev.jetw.bootstrap.Dispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Calls;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A detach whose class restoring throws an Error (the JVM's OutOfMemoryError or InternalError, which no reset catches on
 * its way out) still does the rest of its duties: the session is stopped and the Dispatcher cleared, and the reply says
 * what failed. The detach has already forgotten the agent, so an Error escaping there left the session running for good.
 * The same for the teardown of a failed bring-up: an Error undoing one part neither skips the others nor replaces the
 * failure reported.
 */
class DetachAfterResetErrorTest {

    @TempDir
    Path dir;

    /** Set: the JVM's removeTransformer throws (after removing the transformer, so nothing stays registered). */
    private volatile boolean failing;
    /** Set: the JVM's second addTransformer (the hand-off instrumentation's, after the method instrumentation's) throws. */
    private volatile boolean failingSecondAdd;

    @AfterEach
    void detachLeftovers() {
        failing = false;
        failingSecondAdd = false;
        AgentHarness.detachQuietly();
    }

    @Test
    void anErrorWhileRestoringStillStopsTheSession() {
        RecordingBackend backend = new RecordingBackend();
        Instrumentation inst = failingRemoval(AgentHarness.inst());
        String attached = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Calls", inst, backend);
        assertTrue(attached.startsWith("jetw agent attached"), attached);
        assertEquals(116, new Calls().run());
        assertTrue(backend.sessionRunning);

        failing = true;
        String reply = AgentMain.run("command=detach", inst, null);

        assertTrue(reply.startsWith("jetw agent detached: "), reply);
        assertTrue(reply.contains("restoring classes failed: java.lang.OutOfMemoryError: test: JVMTI out of memory"), reply);
        assertFalse(backend.sessionRunning, "the session is stopped");
        assertNull(Dispatcher.handler(), "the Dispatcher no longer calls the stopped session's writer");
        assertNull(AgentMain.current());
    }

    @Test
    void anErrorUndoingAFailedBringUpStillStopsTheSession() {
        RecordingBackend backend = new RecordingBackend();
        failing = true;
        failingSecondAdd = true;
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Calls", failingRemoval(AgentHarness.inst()), backend);

        assertTrue(reply.contains("test: addTransformer refused"), reply);
        assertFalse(reply.contains("JVMTI out of memory"), "the undo's error does not replace the bring-up's: " + reply);
        assertFalse(backend.sessionRunning, "the session is stopped");
        assertNull(Dispatcher.handler(), "the Dispatcher no longer calls the stopped session's writer");
        assertNull(AgentMain.current());
    }

    /**
     * {@code real}, whose removeTransformer throws OutOfMemoryError while {@link #failing} (as a JVMTI out of memory), and
     * whose second addTransformer throws IllegalStateException while {@link #failingSecondAdd}.
     */
    private Instrumentation failingRemoval(Instrumentation real) {
        AtomicInteger adds = new AtomicInteger();
        return (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(), new Class<?>[] {Instrumentation.class},
                (proxy, method, args) -> {
                    if (failingSecondAdd && method.getName().equals("addTransformer") && adds.incrementAndGet() == 2) {
                        throw new IllegalStateException("test: addTransformer refused");
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (failing && method.getName().equals("removeTransformer")) {
                        throw new OutOfMemoryError("test: JVMTI out of memory");
                    }
                    return result;
                });
    }
}
