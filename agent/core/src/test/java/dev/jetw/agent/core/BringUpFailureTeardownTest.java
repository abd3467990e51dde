package dev.jetw.agent.core;

import dev.jetw.bootstrap.Dispatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An attach whose bring-up fails, and whose undoing then meets an Error from the JVM (removeTransformer's
 * OutOfMemoryError), still stops the session and clears the Dispatcher, and the reply names the bring-up's failure,
 * not the undo's: an Error escaping the teardown skipped both and replaced the failure being reported.
 */
class BringUpFailureTeardownTest {

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    @Test
    void anErrorUndoingAFailedBringUpStillStopsTheSession() {
        RecordingBackend backend = new RecordingBackend();
        Instrumentation inst = failing(AgentHarness.inst());
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + ",include=testapp.Calls", inst, backend);

        assertTrue(reply.contains("test: addTransformer refused"), reply);
        assertFalse(reply.contains("JVMTI out of memory"), reply);
        assertFalse(backend.sessionRunning, "the session is stopped");
        assertNull(Dispatcher.handler(), "the Dispatcher no longer calls the stopped session's writer");
        assertNull(AgentMain.current());
    }

    /**
     * {@code real}, whose second addTransformer (the hand-off instrumentation's, after the method instrumentation's) throws
     * IllegalStateException, and whose removeTransformer throws OutOfMemoryError (after removing the transformer).
     */
    private static Instrumentation failing(Instrumentation real) {
        AtomicInteger adds = new AtomicInteger();
        return (Instrumentation) Proxy.newProxyInstance(Instrumentation.class.getClassLoader(), new Class<?>[] {Instrumentation.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("addTransformer") && adds.incrementAndGet() == 2) {
                        throw new IllegalStateException("test: addTransformer refused");
                    }
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("removeTransformer")) {
                        throw new OutOfMemoryError("test: JVMTI out of memory");
                    }
                    return result;
                });
    }
}
