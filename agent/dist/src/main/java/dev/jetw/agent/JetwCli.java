package dev.jetw.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * {@code java -jar jetw-agent.jar <command>} (what {@code ./jetw attach|detach|status|list|etl|mof} runs).
 * Exit status: 0 success, 1 failure (one line {@code jetw: <what>: <why>} on stderr), 2 usage error.
 *
 * <p>attach, detach and status all load this jar into the target JVM with the Attach API; detach and
 * status pass {@code command=...}. Every call passes {@code out=<temp file>}: the agent writes its reply
 * there (a failure as the same one line it prints in the target), and the tool prints it.
 */
final class JetwCli {

    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    static final String USAGE_TEXT = String.join(System.lineSeparator(),
            "usage: java -jar jetw-agent.jar <command> [args]",
            "  attach <pid> [options]   start the agent in a running JVM (options as for -javaagent, e.g. include=com.acme.**,file=/tmp/a.etl)",
            "  detach <pid>             remove all instrumentation and stop the session the agent started",
            "  status <pid>             session, methods instrumented, events written and lost, internal errors",
            "  dump <pid> [FILE]        write what the session holds now (the ring, or a copy of the file) to a new .etl; tracing goes on",
            "  list                     JVMs on this host (pid, jetw attached or not, main class)",
            "  etl <command> FILE...    read .etl files: summary, dump, tree, chrome-trace (see etl --help)",
            "  mof                      print the MOF schema of jetw's events (mofcomp it on Windows for tracerpt/WPA)",
            "  selftest [--dir FOLDER]  trace, read back and judge a test workload on this machine; prints a verdict per step",
            "JDK 21+ warns on dynamic agent loading unless the target runs with -XX:+EnableDynamicAgentLoading.");

    private JetwCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            err.println(USAGE_TEXT);
            return USAGE;
        }
        String command = args[0];
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
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
                    return list(out);
                case "etl":
                    return etl(rest.toArray(new String[0]), out, err);
                case "mof":
                    out.print(callStatic(AgentLauncher.MOF_SCHEMA, "generate", new Class<?>[0]));
                    return OK;
                case "selftest":
                    return (Integer) callStatic(AgentLauncher.SELFTEST, "run",
                            new Class<?>[] {String[].class, PrintStream.class, PrintStream.class}, rest.toArray(new String[0]), out, err);
                case "-h":
                case "--help":
                case "help":
                    out.println(USAGE_TEXT);
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
        err.println(USAGE_TEXT);
        return USAGE;
    }

    /** attach, detach or status: load the agent into the target with a reply file, and relay the reply. */
    private static int sessionCommand(String command, List<String> args, PrintStream out, PrintStream err) throws JetwFailure {
        if (args.isEmpty()) {
            return usage(err, command + " needs a pid (./jetw list shows them)");
        }
        String pid = args.get(0);
        if (!pid.matches("[0-9]+")) {
            return usage(err, "pid '" + pid + "' is not a process id (a decimal number; ./jetw list shows them)");
        }
        Path reply = replyFile();
        try {
            String options = command.equals("attach") ? String.join(",", args.subList(1, args.size()))
                    : "command=" + command + (command.equals("dump") && args.size() > 1 ? dumpFileOption(args.get(1)) : "");
            options = (options.isEmpty() ? "" : options + ",") + "out=" + reply.toAbsolutePath();
            AttachApi attach = AttachApi.load();
            try {
                attach.loadAgent(pid, EmbeddedJars.agentJar(), options);
            } catch (JetwFailure failure) {
                throw explainMissing(attach, pid, failure);
            }
            String text = new String(Files.readAllBytes(reply), StandardCharsets.UTF_8);
            if (text.trim().isEmpty()) {
                throw new JetwFailure(command + " " + pid, "the agent wrote no reply (see the target JVM's error output)");
            }
            if (text.startsWith("jetw: ")) {
                err.print(text.endsWith("\n") ? text : text + System.lineSeparator());
                return FAILED;
            }
            out.print(text.endsWith("\n") ? text : text + System.lineSeparator());
            return OK;
        } catch (IOException e) {
            throw new JetwFailure("reply file " + reply, JetwFailure.describe(e), e);
        } finally {
            try {
                Files.deleteIfExists(reply);
            } catch (IOException ignored) {
                // A leftover empty temp file is harmless.
            }
        }
    }

    /** The dump's file, absolute against this tool's working directory (the target JVM's differs). */
    private static String dumpFileOption(String file) throws JetwFailure {
        String absolute = java.nio.file.Paths.get(file).toAbsolutePath().normalize().toString();
        if (absolute.indexOf(',') >= 0) {
            throw new JetwFailure("dump file " + absolute, "a path with ',' cannot be carried in the agent's options; choose another name");
        }
        return ",dumpFile=" + absolute;
    }

    private static Path replyFile() throws JetwFailure {
        try {
            Path reply = Files.createTempFile("jetw-reply-", ".txt");
            if (reply.toAbsolutePath().toString().indexOf(',') >= 0) {
                throw new JetwFailure("reply file " + reply, "the temp directory's path contains ',', which the agent's options cannot carry; set -Djava.io.tmpdir");
            }
            return reply;
        } catch (IOException e) {
            throw new JetwFailure("reply file", JetwFailure.describe(e), e);
        }
    }

    /** Attach failures for a pid that is no JVM at all get a message that says so. */
    private static JetwFailure explainMissing(AttachApi attach, String pid, JetwFailure failure) {
        try {
            for (AttachApi.Jvm jvm : attach.list()) {
                if (jvm.pid.equals(pid)) {
                    return failure;
                }
            }
        } catch (JetwFailure listFailed) {
            return failure;
        }
        return new JetwFailure("attach " + pid, "no JVM with pid " + pid + " that this user can attach to (./jetw list shows them); "
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

    /** "attached", "-" (not attached) or "?" (could not ask in time). */
    private static String jetwState(Future<Properties> probe, long deadline) {
        try {
            Properties properties = probe.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return properties == null ? "?" : "true".equals(properties.getProperty(AgentEntry.ACTIVE_PROPERTY)) ? "attached" : "-";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        } catch (ExecutionException | TimeoutException e) {
            return "?";
        }
    }

    private static int etl(String[] args, PrintStream out, PrintStream err) throws JetwFailure {
        Object status = callStatic(AgentLauncher.ETL_TOOL, "run", new Class<?>[] {String[].class, PrintStream.class, PrintStream.class},
                args, out, err);
        return (Integer) status;
    }

    /** Calls a static method of the agent's libraries, loaded in isolation exactly as in a target JVM. */
    private static Object callStatic(String className, String methodName, Class<?>[] types, Object... args) throws JetwFailure {
        IsolatedClassLoader loader = AgentLauncher.loaderForTool();
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
