package dev.jetw.agent.core;

import net.bytebuddy.agent.ByteBuddyAgent;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Attaches the core in this JVM (the surefire argLine supplies Byte Buddy's agent and the boot class path). */
final class AgentHarness {

    private AgentHarness() {
    }

    static Instrumentation inst() {
        return ByteBuddyAgent.install();
    }

    /** Attaches with {@code options} over {@code backend}; fails the test unless the agent came up. */
    static String attach(RecordingBackend backend, Path dir, String options) {
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + "," + options, inst(), backend);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        return reply;
    }

    static String detach() {
        String reply = AgentMain.run("command=detach", inst(), null);
        assertFalse(reply.startsWith("jetw: "), reply);
        return reply;
    }

    /** Detaches if a test left the agent attached (so one failure does not cascade). */
    static void detachQuietly() {
        if (AgentMain.current() != null) {
            AgentMain.run("command=detach", inst(), null);
        }
    }
}
