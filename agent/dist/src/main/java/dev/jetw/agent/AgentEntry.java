package dev.jetw.agent;

import java.lang.instrument.Instrumentation;

/**
 * The entry class named by the manifest: Premain-Class (-javaagent), Agent-Class (dynamic attach) and
 * Main-Class (the command-line tool). It is the only part of the agent the application class loader
 * sees besides a few helpers; the agent itself lives in {@link IsolatedClassLoader}.
 *
 * <p>No entry point throws into the JVM: a failure prints one line {@code jetw: <what>: <why>} and the
 * agent stays inert while the application runs on.
 */
public final class AgentEntry {

    /** System property the core sets to "true" while a session is active ("./jetw list" shows it). */
    public static final String ACTIVE_PROPERTY = "jetw.agent.active";

    private AgentEntry() {
    }

    public static void premain(String options, Instrumentation inst) {
        AgentLauncher.launch("premain", options, inst);
    }

    public static void agentmain(String options, Instrumentation inst) {
        AgentLauncher.launch("agentmain", options, inst);
    }

    public static void main(String[] args) {
        int status;
        try {
            status = JetwCli.run(args, System.out, System.err);
        } catch (Throwable t) {
            System.err.println(JetwFailure.line("tool", JetwFailure.describe(t)));
            status = 1;
        }
        System.out.flush();
        // Exit explicitly: the Attach API may leave non-daemon threads behind, and the status must reach the shell.
        System.exit(status);
    }
}
