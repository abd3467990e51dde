package dev.jetw.agent.launcher;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code java -jar jetw-agent.jar <command>} (what {@code ./jetw attach|detach|status|list|etl|mof} runs; the
 * launcher names itself in {@link #LAUNCHER_PROPERTY} so that what this prints speaks of the command the user typed).
 * Exit status: 0 success, 1 failure (one line {@code jetw: <what>: <why>} on stderr), 2 usage error.
 *
 * <p>attach, detach and status talk to the agent through its control channel (see {@link #sessionCommand});
 * only the first attach to a JVM loads this jar into it.
 */
public final class JetwCli {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    /** The core's control client and the property its channel publishes (dev.jetw.agent.core.control.ControlChannel). */
    static final String CONTROL_CLIENT = "dev.jetw.agent.core.control.ControlClient";
    static final String CONTROL_PROPERTY = "jetw.control";
    /** What the tool loads the agent with: open the control channel, start nothing. */
    static final String LISTEN_OPTIONS = "command=listen";

    /**
     * What the user typed to start this tool, set by the launchers ({@code ./jetw} passes its {@code $0},
     * {@code jetw.cmd} "jetw"); without it the user ran the jar itself. Usage texts and hints repeat it.
     */
    static final String LAUNCHER_PROPERTY = "jetw.launcher";

    /** "./jetw" (or however the launcher was called), else "java -jar jetw-agent.jar". */
    static String invocation() {
        String launcher = System.getProperty(LAUNCHER_PROPERTY, "");
        return launcher.isEmpty() ? "java -jar jetw-agent.jar" : launcher;
    }

    /**
     * The usage text; the etl line lists the etl tool's command table (EtlTool.commands), so the two cannot drift
     * (in a jar without the tool, the line says so: the usage is still printed).
     */
    static String usageText() {
        String etl;
        try {
            @SuppressWarnings("unchecked")
            List<String> etlCommands = (List<String>) callStatic(AgentLauncher.ETL_TOOL, "commands", new Class<?>[0]);
            etl = "read .etl files: " + String.join(", ", etlCommands) + " (see etl --help)";
        } catch (JetwFailure missing) {
            etl = "read .etl files (not available: " + missing.why() + ")";
        }
        List<String> lines = new ArrayList<>();
        lines.add("usage: " + invocation() + " <command> [args]");
        for (String[] c : commandTable(etl)) {
            String head = c[0] + (c[1].isEmpty() ? "" : " " + c[1]);
            // A head too long for its column puts the description under it, in the column.
            lines.add(head.length() <= 23 ? String.format("  %-23s  %s", head, c[2])
                    : "  " + head + System.lineSeparator() + String.format("  %-23s  %s", "", c[2]));
        }
        lines.add("JDK 21+ warns on dynamic agent loading unless the target runs with -XX:+EnableDynamicAgentLoading.");
        return String.join(System.lineSeparator(), lines);
    }

    /** The commands: name, arguments, what it does; the usage text and each command's --help are printed from these rows. */
    private static List<String[]> commandTable(String etl) {
        return Arrays.asList(
            new String[] {"attach", "<pid> [options]", "start the agent in a running JVM (options as for -javaagent, e.g. include=com.acme.**,file=/tmp/a.etl)"},
            new String[] {"detach", "<pid>", "remove all instrumentation and stop the session the agent started"},
            new String[] {"status", "<pid>", "session, methods instrumented, events written and lost, internal errors"},
            new String[] {"dump", "<pid> [FILE]", "write what the session holds now (the ring, or a copy of the file) to a new .etl; tracing goes on"},
            new String[] {"list", "", "JVMs on this host (pid, jetw attached, standby or not, main class)"},
            new String[] {"etl", "<command> FILE...", etl},
            new String[] {"mof", "", "print the MOF schema of jetw's events (mofcomp it on Windows for tracerpt/WPA)"},
            new String[] {"selftest", "[--dir FOLDER] [--backend auto|windows|portable]", "trace, read back and judge a test workload on this machine; prints a verdict per step"});
    }

    /**
     * {@code COMMAND --help} (or -h) of a command other than etl (whose tool prints its own): the command's row of
     * the usage text as a usage line and what it does; null for a command of no row.
     */
    static String commandHelp(String command) {
        for (String[] c : commandTable("")) {
            if (c[0].equals(command)) {
                return "usage: " + invocation() + " " + c[0] + (c[1].isEmpty() ? "" : " " + c[1]) + System.lineSeparator() + "  " + c[2];
            }
        }
        return null;
    }

    private JetwCli() {
    }

    /** Called by {@code dev.jetw.agent.AgentEntry.main} inside the isolated class loader. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) {
                err.println(usageText());
                return USAGE;
            }
            String command = args[0];
            List<String> rest = Arrays.asList(args).subList(1, args.length);
            if (!command.equals("etl") && (rest.contains("--help") || rest.contains("-h")) && commandHelp(command) != null) {
                out.println(commandHelp(command));
                return OK;
            }
            switch (command) {
                case "attach":
                    return sessionCommand("attach", rest, out, err);
                case "detach":
                case "status":
                    if (rest.size() != 1) {
                        return usage(err, command + " takes exactly one argument, the pid");
                    }
                    return sessionCommand(command, rest, out, err);
                case "dump":
                    if (rest.isEmpty() || rest.size() > 2) {
                        return usage(err, "dump takes the pid and optionally a new .etl file");
                    }
                    return sessionCommand(command, rest, out, err);
                case "list":
                    if (!rest.isEmpty()) {
                        return usage(err, "list takes no arguments");
                    }
                    return list(out);
                case "etl":
                    return etl(rest.toArray(new String[0]), out, err);
                case "mof":
                    if (!rest.isEmpty()) {
                        return usage(err, "mof takes no arguments");
                    }
                    out.print(callStatic(AgentLauncher.MOF_SCHEMA, "generate", new Class<?>[0]));
                    return OK;
                case "selftest":
                    return (Integer) callStatic(AgentLauncher.SELFTEST, "run",
                            new Class<?>[] {String[].class, PrintStream.class, PrintStream.class}, rest.toArray(new String[0]), out, err);
                case "-h":
                case "--help":
                case "help":
                    out.println(usageText());
                    return OK;
                default:
                    return usage(err, "unknown command '" + command + "'");
            }
        } catch (JetwFailure failure) {
            err.println(failure.line());
            return FAILED;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("jetw: " + problem);
        err.println(usageText());
        return USAGE;
    }

    /**
     * attach, detach or status: find the agent's control channel in the target's system properties (a
     * short attach that loads nothing), load the agent once if an attach needs it, then send the request
     * through the channel and relay the reply. The option string travels through the channel, so it has
     * no length limit, and no command prints in the target's output (docs/agent-dist.md).
     */
    private static int sessionCommand(String command, List<String> args, PrintStream out, PrintStream err) throws JetwFailure {
        if (args.isEmpty()) {
            return usage(err, command + " needs a pid (" + invocation() + " list shows them)");
        }
        String pid = args.get(0);
        if (!pid.matches("[0-9]+")) {
            return usage(err, "pid '" + pid + "' is not a process id (a decimal number; " + invocation() + " list shows them)");
        }
        String otherUser = ProcessOwner.otherUserReason(command, pid);
        if (otherUser != null) {
            throw new JetwFailure(command + " " + pid, otherUser);
        }
        AttachApi attach = AttachApi.load();
        String channel = controlChannel(attach, command, pid);
        if (channel == null) {
            if (!command.equals("attach")) {
                throw new JetwFailure(command, AgentLauncher.NOT_ATTACHED);
            }
            channel = loadAgent(attach, pid);
        }
        String argument = command.equals("attach") ? String.join(",", args.subList(1, args.size()))
                : command.equals("dump") && args.size() > 1 ? dumpFile(args.get(1)) : "";
        String reply;
        try {
            reply = (String) callStatic(CONTROL_CLIENT, "request", new Class<?>[] {String.class, String.class, String.class},
                    channel, command, argument);
        } catch (JetwFailure failure) {
            throw new JetwFailure(command + " " + pid, "cannot reach the agent's control channel: " + failure.why(), failure);
        }
        String owner = ProcessOwner.differenceNote(pid);
        if (reply.startsWith("jetw: ")) {
            err.println(reply);
            return FAILED;
        }
        for (String line : reply.split("\n")) {
            (line.startsWith("jetw: warning: ") ? err : out).println(withCommandTyped(line));
        }
        if (owner != null && command.equals("attach")) {
            out.println(owner);
        }
        return OK;
    }

    /** How the agent's reply names a command to run next (it cannot know which launcher the user typed). */
    static final String AGENT_COMMAND_HINT = "follow it with: jetw ";

    /** A reply line with the agent's "jetw COMMAND" hint spoken as the user typed this tool ({@link #invocation}). */
    static String withCommandTyped(String line) {
        return line.replace(AGENT_COMMAND_HINT, "follow it with: " + invocation() + " ");
    }

    /** The dump's file, absolute against this tool's working directory (the target JVM's differs). */
    private static String dumpFile(String file) {
        return java.nio.file.Paths.get(file).toAbsolutePath().normalize().toString();
    }

    /** The target's control channel address, or null when no jetw agent opened one there. */
    private static String controlChannel(AttachApi attach, String command, String pid) throws JetwFailure {
        try {
            return attach.systemPropertiesOf(pid).getProperty(CONTROL_PROPERTY);
        } catch (JetwFailure failure) {
            throw explainMissing(attach, command, pid, failure);
        }
    }

    /** Loads the agent jar into the target so that it opens its control channel; returns the channel. */
    private static String loadAgent(AttachApi attach, String pid) throws JetwFailure {
        try {
            attach.loadAgent(pid, AgentJar.location(), LISTEN_OPTIONS);
        } catch (JetwFailure failure) {
            throw explainMissing(attach, "attach", pid, failure);
        }
        Properties properties = attach.systemPropertiesOf(pid);
        String channel = properties.getProperty(CONTROL_PROPERTY);
        String loadError = properties.getProperty(AgentLauncher.LOAD_ERROR_PROPERTY);
        if (channel == null && loadError != null && loadError.startsWith("jetw: ") && loadError.indexOf(": ", 6) > 0) {
            // The agent's own line, as the target printed it.
            int colon = loadError.indexOf(": ", 6);
            throw new JetwFailure(loadError.substring(6, colon), loadError.substring(colon + 2));
        }
        if (channel == null) {
            String owner = ProcessOwner.differenceNote(pid);
            throw new JetwFailure("attach " + pid, "the agent did not open its control channel (see the target JVM's error output)"
                    + (owner == null ? "" : "; " + owner + ", so it must be able to read " + AgentJar.location()));
        }
        return channel;
    }

    /**
     * Attach failures for a pid that is no JVM at all get a message that says so, under the command the user typed
     * (status, detach and dump reach the target through the same attach, but the user did not ask for an attach).
     */
    private static JetwFailure explainMissing(AttachApi attach, String command, String pid, JetwFailure failure) {
        try {
            for (AttachApi.Jvm jvm : attach.list()) {
                if (jvm.pid.equals(pid)) {
                    return failure;
                }
            }
        } catch (JetwFailure listFailed) {
            return failure;
        }
        return new JetwFailure(command + " " + pid, "no JVM with pid " + pid + " that this user can attach to (" + invocation() + " list shows them); "
                + failure.why(), failure);
    }

    /** How long list waits, in all, for JVMs to tell whether jetw is active (a hung JVM must not hang list). */
    static final long LIST_PROBE_SECONDS = 15;

    private static int list(PrintStream out) throws JetwFailure {
        AttachApi attach = AttachApi.load();
        String self = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
        List<AttachApi.Jvm> jvms = attach.list();
        // Reading a JVM's properties needs a short attach (as jcmd does); ask all at once, each in a daemon thread.
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(8, jvms.size())), r -> {
            Thread t = new Thread(r, "jetw-list");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Properties>> probes = new ArrayList<>();
            for (AttachApi.Jvm jvm : jvms) {
                probes.add(jvm.pid.equals(self) ? null : pool.submit(() -> attach.systemProperties(jvm.pid)));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIST_PROBE_SECONDS);
            out.println(String.format("%-8s %-8s %s", "PID", "JETW", "MAIN CLASS / JAR"));
            for (int i = 0; i < jvms.size(); i++) {
                AttachApi.Jvm jvm = jvms.get(i);
                String jetw = probes.get(i) == null ? "-" : jetwState(probes.get(i), deadline);
                out.println(String.format("%-8s %-8s %s", jvm.pid, jetw, jvm.displayName.isEmpty() ? "(unknown)" : jvm.displayName));
            }
        } finally {
            pool.shutdownNow();
        }
        return OK;
    }

    /** "attached", "standby" (started with -javaagent:jetw-agent.jar=standby, not attached), "-" (neither) or "?" (could not ask in time). */
    private static String jetwState(Future<Properties> probe, long deadline) {
        try {
            Properties properties = probe.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (properties == null) {
                return "?";
            }
            return "true".equals(properties.getProperty(AgentLauncher.ACTIVE_PROPERTY)) ? "attached"
                    : properties.getProperty(AgentLauncher.STANDBY_PROPERTY) != null ? "standby" : "-";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        } catch (ExecutionException | TimeoutException e) {
            return "?";
        }
    }

    private static int etl(String[] args, PrintStream out, PrintStream err) throws JetwFailure {
        Object status = callStatic(AgentLauncher.ETL_TOOL, "run",
                new Class<?>[] {String.class, String[].class, PrintStream.class, PrintStream.class}, invocation(), args, out, err);
        return (Integer) status;
    }

    /**
     * Calls a static method of the agent's libraries by name, in this class's own loader: the isolated
     * class loader, which for the tool also serves the bootstrap classes (a tool has no Instrumentation).
     */
    private static Object callStatic(String className, String methodName, Class<?>[] types, Object... args) throws JetwFailure {
        ClassLoader loader = JetwCli.class.getClassLoader();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Method method = Class.forName(className, true, loader).getMethod(methodName, types);
            return method.invoke(null, args);
        } catch (InvocationTargetException e) {
            throw new JetwFailure(className.substring(className.lastIndexOf('.') + 1), JetwFailure.describe(e.getCause()), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new JetwFailure(className, "not in the agent jar: " + JetwFailure.describe(e), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
