package dev.jetw.agent.core;

import dev.jetw.etw.EtwBackend;
import net.bytebuddy.agent.ByteBuddyAgent;

import java.lang.instrument.Instrumentation;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Attaches the core in this JVM (the surefire argLine supplies Byte Buddy's agent and the boot class path). */
public final class AgentHarness {

    private AgentHarness() {
    }

    public static Instrumentation inst() {
        return ByteBuddyAgent.install();
    }

    /** {@link AgentMain#run} for the tests of the rooms (sub-packages), which cannot call it themselves. */
    public static String run(String options, Instrumentation inst, EtwBackend backend) {
        return AgentMain.run(options, inst, backend);
    }

    /** Attaches with {@code options} over {@code backend}; fails the test unless the agent came up. */
    public static String attach(RecordingBackend backend, Path dir, String options) {
        String reply = AgentMain.run("file=" + dir.resolve("t.etl") + "," + options, inst(), backend);
        assertTrue(reply.startsWith("jetw agent attached"), reply);
        return reply;
    }

    public static String detach() {
        String reply = AgentMain.run("command=detach", inst(), null);
        assertFalse(reply.startsWith("jetw: "), reply);
        return reply;
    }

    /** Detaches if a test left the agent attached (so one failure does not cascade). */
    public static void detachQuietly() {
        if (AgentMain.current() != null) {
            AgentMain.run("command=detach", inst(), null);
        }
    }
}
