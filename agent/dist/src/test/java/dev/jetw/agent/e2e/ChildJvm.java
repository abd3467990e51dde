package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM (the JDK running the tests) with its output collected line by line, so a test can wait
 * for a line the child prints instead of sleeping. Every wait has a generous timeout and fails with
 * the child's whole output.
 */
final class ChildJvm implements AutoCloseable {

    static final long TIMEOUT_SECONDS = 120;

    private final Process process;
    private final List<String> stdout = new ArrayList<>();
    private final List<String> stderr = new ArrayList<>();
    private final Writer stdin;
    private final String description;

    private ChildJvm(Process process, String description) {
        this.process = process;
        this.description = description;
        this.stdin = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        pump(process.getInputStream(), stdout);
        pump(process.getErrorStream(), stderr);
    }

    static Path java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java");
    }

    static Path agentJar() {
        String jar = System.getProperty("jetw.agent.jar");
        if (jar == null || !Files.isRegularFile(Paths.get(jar))) {
            fail("jetw.agent.jar=" + jar + ": the end-to-end tests run after 'package' (mvn verify)");
        }
        return Paths.get(jar);
    }

    /** Test classes (the test applications) and the jetw API jar, and nothing of the agent. */
    static List<Path> appClassPath() {
        List<Path> path = new ArrayList<>();
        path.add(codeSource(ChildJvm.class));
        path.add(codeSource(dev.jetw.api.Jetw.class));
        return path;
    }

    static Path codeSource(Class<?> type) {
        try {
            return Paths.get(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            throw new IllegalStateException(type.getName(), e);
        }
    }

    static ChildJvm start(List<String> jvmOptions, List<Path> classPath, Class<?> mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(java.io.File.pathSeparator, classPath.stream().map(Path::toString).toArray(String[]::new)));
        command.add(mainClass.getName());
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).start(), String.join(" ", command));
    }

    /** {@code java -jar jetw-agent.jar args...}, run to completion. */
    static Result tool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(java().toString(), "-jar", agentJar().toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    /**
     * Waits until the attach ramp in the JVM {@code pid} is done (its status line starts with "done"; the attach
     * command replies after the ramp's first tier, docs/attach-ramp.md) and returns that line.
     */
    static String awaitRampDone(String pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        String line = "(no status yet)";
        while (System.nanoTime() < deadline) {
            Result status = tool("status", pid);
            if (status.exit() != 0) {
                throw new AssertionError("status while waiting for the attach ramp: " + status);
            }
            line = status.stdout().lines().filter(l -> l.startsWith("attach ramp:")).findFirst().orElse("(no attach ramp line)\n" + status);
            if (line.matches("attach ramp:\\s+done.*")) {
                return line;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the attach ramp was not done after " + TIMEOUT_SECONDS + " s: " + line);
    }

    /** Runs {@code command} to completion. */
    static Result run(List<String> command) throws Exception {
        try (ChildJvm child = new ChildJvm(new ProcessBuilder(command).start(), String.join(" ", command))) {
            int exit = child.waitForExit();
            return new Result(exit, child.stdout(), child.stderr());
        }
    }

    record Result(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    long pid() {
        return process.pid();
    }

    void send(String line) throws IOException {
        stdin.write(line + "\n");
        stdin.flush();
    }

    /** Waits for a stdout line matching {@code test} and returns it. */
    String awaitStdout(Predicate<String> test, String what) throws InterruptedException {
        return await(stdout, 0, test, what);
    }

    /** Waits for a matching stdout line at index {@code from} or later (see {@link #stdoutLineCount()}). */
    String awaitStdout(int from, Predicate<String> test, String what) throws InterruptedException {
        return await(stdout, from, test, what);
    }

    String awaitStderr(Predicate<String> test, String what) throws InterruptedException {
        return await(stderr, 0, test, what);
    }

    int stdoutLineCount() {
        synchronized (stdout) {
            return stdout.size();
        }
    }

    private String await(List<String> lines, int from, Predicate<String> test, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        synchronized (lines) {
            int checked = from;
            while (true) {
                for (; checked < lines.size(); checked++) {
                    if (test.test(lines.get(checked))) {
                        return lines.get(checked);
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && pumpsDone)) {
                    break;
                }
                lines.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(Math.min(left, TimeUnit.SECONDS.toNanos(1)))));
            }
        }
        fail("no line '" + what + "' from " + description + "\n" + this);
        return null;
    }

    int waitForExit() throws InterruptedException {
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("timed out after " + TIMEOUT_SECONDS + " s: " + description + "\n" + this);
        }
        for (Thread pump : pumps) {
            pump.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        return process.exitValue();
    }

    String stdout() {
        return joined(stdout);
    }

    String stderr() {
        return joined(stderr);
    }

    List<String> stderrLines() {
        synchronized (stderr) {
            return new ArrayList<>(stderr);
        }
    }

    private static String joined(List<String> lines) {
        synchronized (lines) {
            StringBuilder sb = new StringBuilder();
            for (String line : lines) {
                sb.append(line).append('\n');
            }
            return sb.toString();
        }
    }

    private final List<Thread> pumps = new ArrayList<>();
    private volatile boolean pumpsDone;

    private void pump(InputStream in, List<String> into) {
        Thread t = new Thread(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = reader.readLine()) != null; ) {
                    synchronized (into) {
                        into.add(line);
                        into.notifyAll();
                    }
                }
            } catch (IOException ignored) {
                // The process went away; what we have is all there is.
            } finally {
                synchronized (into) {
                    pumpsDone = true;
                    into.notifyAll();
                }
            }
        }, "child-output");
        t.setDaemon(true);
        t.start();
        pumps.add(t);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    @Override
    public String toString() {
        return "--- stdout\n" + stdout() + "--- stderr\n" + stderr();
    }
}
