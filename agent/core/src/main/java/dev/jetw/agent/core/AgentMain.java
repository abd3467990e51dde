package dev.jetw.agent.core;

import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.TraceFiles;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The core's entry points, called by reflection from the agent jar's entry class inside the
 * isolated class loader, after the bootstrap jar joined the boot class path.
 *
 * <p>Commands arrive as options: none (attach), {@code command=status}, {@code command=detach} or
 * {@code command=dump} (with {@code dumpFile=PATH} or none for the default);
 * {@code out=PATH} names the reply file the attach tool reads. A failure is one line starting
 * with {@code "jetw: "} (printed on stderr, and written to out); a success reply never starts so.
 * Nothing here throws into the JVM: the agent stays inert and the application runs on.
 */
public final class AgentMain {

    /** The attached agent, or null. One per JVM: the isolated loader lives as long as the JVM. */
    private static Agent current;

    private AgentMain() {
    }

    public static void premain(String options, Instrumentation inst) {
        run(options, inst, null);
    }

    public static void agentmain(String options, Instrumentation inst) {
        run(options, inst, null);
    }

    /**
     * Runs one request and returns the reply text (also written to {@code out=}, else printed).
     * {@code backend} overrides the backend choice (tests); null chooses by the options.
     */
    static synchronized String run(String options, Instrumentation inst, EtwBackend backend) {
        Path out = outOf(options);
        String reply;
        try {
            AgentOptions o = AgentOptions.parse(options);
            reply = execute(o, inst, backend);
        } catch (ConfigException e) {
            reply = "jetw: option " + e.getMessage() + "; the agent stays inactive";
        } catch (EtwException e) {
            reply = "jetw: session: " + e.getMessage() + "; the agent stays inactive";
        } catch (Throwable t) {
            reply = "jetw: agent: " + describe(t) + "; the agent stays inactive";
        }
        deliver(reply, out);
        return reply;
    }

    private static String execute(AgentOptions o, Instrumentation inst, EtwBackend backend) throws EtwException {
        if ("status".equals(o.command)) {
            return current == null ? "jetw: status: no jetw agent is attached in this JVM" : current.status();
        }
        if ("dump".equals(o.command)) {
            return current == null ? "jetw: dump: no jetw agent is attached in this JVM" : current.dump(o.dumpFile);
        }
        if ("detach".equals(o.command)) {
            if (current == null) {
                return "jetw: detach: no jetw agent is attached in this JVM";
            }
            Agent a = current;
            current = null;
            return "jetw agent detached: " + a.stop(true);
        }
        if (current != null && !current.isStopped()) {
            return "jetw agent already attached (session " + current.options.session.sessionName()
                    + "); nothing changed. Detach first to attach with other options.";
        }
        if (inst == null) {
            throw new IllegalStateException("no Instrumentation (the agent must be loaded with -javaagent or the Attach API)");
        }
        if (!inst.isRetransformClassesSupported()) {
            throw new IllegalStateException("this JVM cannot retransform classes (the agent jar needs Can-Retransform-Classes: true)");
        }
        EtwBackend b = backend != null ? backend : EtwBackends.create(o.backend);
        for (String w : o.session.warnings()) {
            System.err.println("jetw: warning: " + w);
        }
        current = Agent.start(o, inst, b);
        return current.startedLine();
    }

    /** Reply to the attach tool's file when one was named, else to stderr (a -javaagent start). */
    private static void deliver(String reply, Path out) {
        if (out != null) {
            try {
                // Never through a link, never over someone's file: the rules of the trace files (TraceFiles).
                new TraceFiles(false, TraceFiles.OWNER_ONLY)
                        .writeReply(out, (reply.endsWith("\n") ? reply : reply + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                System.err.println("jetw: out=" + out + ": cannot write the reply (" + e + ")");
            }
        }
        if (out == null || reply.startsWith("jetw: ")) {
            System.err.println(reply.endsWith("\n") ? reply.substring(0, reply.length() - 1) : reply);
        }
    }

    /** The out= option, found leniently so that even a bad option string gets its reply file. */
    private static Path outOf(String options) {
        if (options == null) {
            return null;
        }
        for (String entry : options.split(",")) {
            String e = entry.trim();
            if (e.startsWith("out=") && e.length() > 4) {
                try {
                    return Paths.get(e.substring(4).trim()).toAbsolutePath();
                } catch (RuntimeException ignored) {
                    return null;
                }
            }
        }
        return null;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isEmpty() ? t.getClass().getName() : m.replace('\n', ' ');
    }

    /** The attached agent (tests). */
    static Agent current() {
        return current;
    }
}
