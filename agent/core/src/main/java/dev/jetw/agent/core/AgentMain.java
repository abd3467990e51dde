package dev.jetw.agent.core;

import dev.jetw.agent.core.control.ControlChannel;
import dev.jetw.agent.core.options.AgentOptions;
import dev.jetw.bootstrap.OptionTokenizer;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The core's entry points, called by reflection from the agent jar's entry class inside the
 * isolated class loader, after the bootstrap jar joined the boot class path.
 *
 * <p>The attach tool loads the agent once with {@code command=listen}, which opens the {@link ControlChannel},
 * and sends attach, status and detach through that channel ({@link #control}); nothing it asks prints in the
 * application's output except a first attach that fails. An option string given to -javaagent or to the
 * Attach API by other means runs as before: none (attach), {@code command=status}, {@code command=detach} or {@code command=dump} (with
 * {@code dumpFile=PATH} or none for the default),
 * {@code out=PATH} naming a reply file. A failure is one line starting with {@code "jetw: "}; a success reply
 * never starts so.
 * Nothing here throws into the JVM: the agent stays inert and the application runs on.
 */
public final class AgentMain {

    /** The attached agent, or null. One per JVM: the isolated loader lives as long as the JVM. */
    private static Agent current;
    /** The attach options of {@link #current} without out= and command= (to tell a repeated attach from another). */
    private static List<String> currentOptions;
    /** The Instrumentation the control channel's attach requests use (the one of the first load). */
    private static Instrumentation channelInst;
    /** The failure line of a load for the attach tool (read by agent/dist's JetwCli, set there too by AgentLauncher). */
    static final String LOAD_ERROR_PROPERTY = "jetw.agent.loadError";
    /** The JVM's one control channel, once open. */
    private static ControlChannel channel;
    /** Whether a session was started in this JVM before (its first retransformation, if any, is paid: FirstRetransformNote). */
    private static boolean sessionStarted;
    /** The attach's {@link FirstRetransformNote} while its session runs (status repeats it), or null. */
    private static String firstRetransformNote;

    private AgentMain() {
    }

    /**
     * -javaagent: start the session, then open the control channel for status and detach on a thread of its own,
     * so that the application's main does not wait for it (10-30 ms in a fresh JVM: the socket, selector and
     * network classes; BENCHMARKS.md §15). No event waits for the channel: it only answers the attach tool, which
     * finds it by the system property it publishes once open (a {@code status} sent in the few milliseconds before
     * answers "no jetw agent is attached", as for a JVM without the agent).
     */
    public static void premain(String options, Instrumentation inst) {
        run(options, inst, null, Agent.Start.AT_FIRST_MATCH);
        Thread opener = dev.jetw.etw.JetwThreads.register(new Thread(new ControlOpener(inst), "jetw-control-open"));
        opener.setDaemon(true);
        opener.start();
    }

    /** The channel's handler: {@link #control} (a class, not a method reference, like the rest of premain's path). */
    private static final class Control implements ControlChannel.Handler {
        @Override
        public String handle(String command, String argument) {
            return control(command, argument);
        }
    }

    /** Opens the control channel off premain's thread ({@link #premain}). */
    private static final class ControlOpener implements Runnable {
        private final Instrumentation inst;

        ControlOpener(Instrumentation inst) {
            this.inst = inst;
        }

        @Override
        public void run() {
            Runnable hook = beforeControlOpen;
            if (hook != null) {
                hook.run();
            }
            listen(inst);
        }
    }

    /** Tests: runs on premain's opener thread before the channel opens (a seam to hold the open back), or null. */
    static volatile Runnable beforeControlOpen;

    /**
     * Attach API: {@code command=listen} (what the attach tool sends) only opens the control channel,
     * and the tool then sends its request through it; any other option string runs as at start-up.
     */
    public static void agentmain(String options, Instrumentation inst) {
        if (!isListen(options)) {
            run(options, inst, null, Agent.Start.ATTACH_RAMP);
        }
        listen(inst);
    }

    /** Opens the control channel once; a failure is one line on stderr (the tool then says it cannot reach the agent). */
    private static synchronized void listen(Instrumentation inst) {
        if (channelInst == null) {
            channelInst = inst;
        }
        if (channel != null) {
            return;
        }
        try {
            channel = ControlChannel.open(new Control());
            System.setProperty(ControlChannel.PROPERTY, channel.address());
        } catch (ControlChannel.JvmExiting e) {
            // A short program ended while premain's opener was still under way: nobody will ask, nothing to say.
        } catch (IOException | RuntimeException e) {
            String line = "jetw: control channel: cannot open a loopback socket (" + describe(e) + "); status and detach"
                    + " through the attach tool are unavailable";
            System.err.println(line);
            System.setProperty(LOAD_ERROR_PROPERTY, line); // the attach tool reads why from here
        }
    }

    private static boolean isListen(String options) {
        for (String[] kv : AgentOptions.tokenize(options == null ? "" : options)) {
            if (kv[0].equalsIgnoreCase("command") && kv[1].equals("listen")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The control commands, one case each (the control channel's handler): attach (argument: the
     * option string), status, detach, dump (argument: the file, or "" for the default). A failure reply starts with "jetw: ". Only a first attach that
     * fails prints in the application's output (it would have at start-up too); queries never do.
     */
    static String control(String command, String argument) {
        if (command.equals("attach")) {
            return attachByTool(argument);
        }
        synchronized (AgentMain.class) {
            return query(command, argument);
        }
    }

    private static String query(String command, String argument) {
        switch (command) {
            case "status":
                return status();
            case "detach":
                return detach();
            case "dump":
                return dump(argument == null || argument.isEmpty() ? null : java.nio.file.Paths.get(argument));
            default:
                return "jetw: " + command + ": not a control command; allowed: attach, status, detach, dump";
        }
    }

    /** What the options will not do as a user may expect: the session's warnings, includes that can select nothing. */
    static List<String> warnings(AgentOptions o) {
        List<String> out = new ArrayList<>(o.session.warnings());
        for (String include : dev.jetw.agent.core.methods.Selection.jdkIncludesWithoutBootstrap(o)) {
            out.add("include=" + include + " selects nothing: it names JDK classes, which are instrumented only with"
                    + " bootstrap=true (docs/agent-options.md)");
        }
        return out;
    }

    /** {@link #warnings}, and at an attach what the JVM itself will do to the application at the first retransformation. */
    private static List<String> attachWarnings(AgentOptions o) {
        List<String> out = warnings(o);
        firstRetransformNote = FirstRetransformNote.forThisJvm(sessionStarted);
        if (firstRetransformNote != null) {
            out.add(firstRetransformNote);
        }
        return out;
    }

    /**
     * The agent starts under the lock; the reply waits for its attach ramp outside it, so that status (the ramp's
     * progress) and detach are answered meanwhile.
     */
    private static String attachByTool(String options) {
        List<String> warnings;
        Agent started;
        synchronized (AgentMain.class) {
            String repeated = repeatedAttach(options);
            if (repeated != null) {
                return repeated;
            }
            try {
                AgentOptions o = AgentOptions.parse(options);
                if (o.command != null || o.out != null) {
                    throw new ConfigException(o.command != null ? "command" : "out", o.command != null ? o.command : o.out.toString(),
                            "the attach tool's options take no command= or out=");
                }
                warnings = attachWarnings(o);
                started = start(o, channelInst, null, options, Agent.Start.ATTACH_RAMP);
            } catch (Throwable t) {
                String reply = failureLine(t);
                System.err.println(reply);
                return reply;
            }
        }
        started.awaitRamp();
        StringBuilder sb;
        synchronized (AgentMain.class) {
            sb = new StringBuilder(started.startedLine());
        }
        for (String w : warnings) {
            sb.append('\n').append("jetw: warning: ").append(w);
        }
        return sb.toString();
    }

    /**
     * Runs one request given as an option string and returns the reply text (also written to {@code out=},
     * else printed). {@code backend} overrides the backend choice (tests); null chooses by the options.
     */
    static String run(String options, Instrumentation inst, EtwBackend backend) {
        return run(options, inst, backend, Agent.Start.NOW);
    }

    /** {@link #run(String, Instrumentation, EtwBackend)}; {@code when}: how the instrumentation comes up (Agent.Start). */
    private static synchronized String run(String options, Instrumentation inst, EtwBackend backend, Agent.Start when) {
        Path out = outOf(options);
        String reply;
        try {
            AgentOptions o = AgentOptions.parse(options);
            reply = execute(o, inst, backend, options, when);
        } catch (Throwable t) {
            reply = failureLine(t);
        }
        deliver(reply, out);
        return reply;
    }

    private static String failureLine(Throwable t) {
        if (t instanceof ConfigException) {
            return "jetw: option " + t.getMessage() + "; the agent stays inactive";
        }
        if (t instanceof EtwException) {
            return "jetw: session: " + t.getMessage() + "; the agent stays inactive";
        }
        return "jetw: agent: " + describe(t) + "; the agent stays inactive";
    }

    private static String execute(AgentOptions o, Instrumentation inst, EtwBackend backend, String options, Agent.Start when) throws EtwException {
        if ("status".equals(o.command)) {
            return status();
        }
        if ("dump".equals(o.command)) {
            return dump(o.dumpFile);
        }
        if ("detach".equals(o.command)) {
            return detach();
        }
        String repeated = repeatedAttach(options);
        if (repeated != null) {
            return repeated;
        }
        for (String w : when == Agent.Start.ATTACH_RAMP ? attachWarnings(o) : warnings(o)) {
            System.err.println("jetw: warning: " + w);
        }
        Agent started = start(o, inst, backend, options, when);
        started.awaitRamp();
        return started.startedLine();
    }

    private static String status() {
        if (current == null) {
            return "jetw: status: no jetw agent is attached in this JVM";
        }
        String note = firstRetransformNote;
        return current.status() + (note == null ? "" : "compiled code:       " + note + "\n");
    }

    private static String dump(Path file) {
        return current == null ? "jetw: dump: no jetw agent is attached in this JVM" : current.dump(file);
    }

    private static String detach() {
        if (current == null) {
            return "jetw: detach: no jetw agent is attached in this JVM";
        }
        Agent a = current;
        current = null;
        currentOptions = null;
        firstRetransformNote = null;
        return "jetw agent detached: " + a.stop(true);
    }

    /**
     * A second attach while a session runs: with the same options nothing changes and that is a success
     * (an idempotent attach); with other options it fails, as the session cannot change under the user.
     * Null when no session runs.
     */
    private static String repeatedAttach(String options) {
        if (current == null || current.isStopped()) {
            return null;
        }
        String session = current.options.session.sessionName();
        if (attachOptions(options).equals(currentOptions)) {
            return "jetw agent already attached with these options (session " + session + "); nothing changed";
        }
        return "jetw: attach: a jetw session is already active in this JVM (session " + session
                + ", started with other options); nothing changed: detach first to attach with other options";
    }

    /** The option entries that define a session: everything but out= and command=, in order. */
    private static List<String> attachOptions(String options) {
        List<String> entries = new ArrayList<>();
        for (String[] kv : AgentOptions.tokenize(options == null ? "" : options)) {
            if (!kv[0].equalsIgnoreCase("out") && !kv[0].equalsIgnoreCase("command")) {
                entries.add(kv[0] + "=" + kv[1]);
            }
        }
        return entries;
    }

    private static Agent start(AgentOptions o, Instrumentation inst, EtwBackend backend, String options, Agent.Start when) throws EtwException {
        if (inst == null) {
            throw new IllegalStateException("no Instrumentation (the agent must be loaded with -javaagent or the Attach API)");
        }
        if (!inst.isRetransformClassesSupported()) {
            throw new IllegalStateException("this JVM cannot retransform classes (the agent jar needs Can-Retransform-Classes: true)");
        }
        EtwBackend b = backend != null ? backend : EtwBackends.create(o.backend);
        current = Agent.start(o, inst, b, when);
        sessionStarted = true;
        currentOptions = attachOptions(options);
        return current;
    }

    /** Reply to the attach tool's file when one was named, else to stderr (a -javaagent start). */
    private static void deliver(String reply, Path out) {
        if (reply == null) {
            return;
        }
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

    /** The (first non-empty) out= option, found leniently so that even a bad option string gets its reply file. */
    private static Path outOf(String options) {
        for (String[] kv : OptionTokenizer.tokenizeLeniently(options)) {
            if (kv[0].equals("out") && !kv[1].isEmpty()) {
                try {
                    return Paths.get(kv[1]).toAbsolutePath();
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
