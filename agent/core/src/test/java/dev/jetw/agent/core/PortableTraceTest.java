package dev.jetw.agent.core;

import dev.jetw.api.Jetw;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import testapp.Calls;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent over the real portable backend, read back from the .etl file with the project's
 * reader: attached in this JVM, and started with -javaagent in a child JVM (premain, shutdown hook).
 */
class PortableTraceTest {

    private static final String C = "testapp.Calls.";
    private static final List<String> RUN_TREE = Arrays.asList(
            C + "run",
            C + "run>" + C + "middle",
            C + "run>" + C + "middle>" + C + "leaf",
            C + "run>" + C + "middle>" + C + "leaf",
            C + "run>" + C + "middle",
            C + "run>" + C + "middle>" + C + "leaf",
            C + "run>" + C + "middle>" + C + "leaf",
            C + "run>" + C + "safeFail",
            C + "run>" + C + "safeFail>" + C + "fail");

    @TempDir
    Path dir;

    @AfterEach
    void detachLeftovers() {
        AgentHarness.detachQuietly();
    }

    @Test
    void attachedTraceReadsBackFromTheEtlFile() throws Exception {
        Path etl = dir.resolve("attached.etl");
        String reply = AgentMain.run("backend=portable,file=" + etl + ",include=testapp.Calls", AgentHarness.inst(), null);
        assertTrue(reply.startsWith("jetw agent attached: session jetw-"), reply);
        assertTrue(reply.contains("backend portable, file " + etl), reply);
        Thread other = new Thread(() -> new Calls().run(), "other");
        other.start();
        other.join();
        assertEquals(116, new Calls().run());
        String detached = AgentHarness.detach();

        TraceModel t = TraceModel.of(etl);
        assertEquals(RUN_TREE, t.paths(Thread.currentThread().getId()));
        assertEquals(RUN_TREE, t.paths(other.getId()));
        assertEquals("java.lang.IllegalStateException", t.callsOf(C + "fail").get(0).exception);
        assertEquals(2, t.callsOf(C + "fail").get(0).endLevel);
        assertEquals("", t.callsOf(C + "leaf").get(0).exception, "a normal return");
        // START: u32 methodId (4 bytes); END of a normal return: methodId + "" as UTF-16Z (6 bytes), both
        // written as one word (writeSmall): exactly those bytes reach the file, no pad or stale byte.
        for (TraceModel.Ev e : t.events) {
            if (e.classIndex == dev.jetw.etl.JetwSchema.METHOD_CALL_INDEX && e.type == dev.jetw.etl.EventType.START) {
                assertEquals(4, e.payload.length, "START payload");
            }
        }
        long normalEnds = t.events.stream().filter(e -> e.classIndex == dev.jetw.etl.JetwSchema.METHOD_CALL_INDEX
                && e.type == dev.jetw.etl.EventType.END && e.payload.length == 6
                && e.payload[4] == 0 && e.payload[5] == 0).count();
        assertEquals(t.events.stream().filter(e -> e.classIndex == dev.jetw.etl.JetwSchema.METHOD_CALL_INDEX
                && e.type == dev.jetw.etl.EventType.END).count() - 2, normalEnds, "every END but the two throwing fail() calls");
        assertEquals(Arrays.asList("in-middle-1@4"), t.callsOf(C + "middle").get(0).checkpoints);
        assertEquals(Arrays.asList("other"), t.threadStarts.get(other.getId()));
        List<String> methods = Arrays.asList(C + "fail", C + "leaf", C + "middle", C + "run", C + "safeFail");
        assertEquals(methods, sortedWithPrefix(C, t.methodStarts.values()));
        assertEquals(methods, sortedWithPrefix(C, t.methodEnds.values()));
        assertTrue(detached.contains(" 0 dropped, 0 lost of " + t.events.size() + " emitted"), detached);
        assertTrue(detached.startsWith("jetw agent detached: " + t.events.size() + " events written"), detached + " vs " + t.events.size());
    }

    @Test
    void javaagentStartupTracesTheApplicationAndTheShutdownHookSummarises() throws Exception {
        Path etl = dir.resolve("premain.etl");
        // jvm=none: the core's tests have no JFR part on their class path (it is in agent/jfr), so the default
        // families would add the "JFR streaming failed" line this test does not expect.
        Child child = runChild("backend=portable,file=" + etl + ",include=testapp.Calls,jvm=none");
        assertEquals(0, child.exit, child.toString());
        assertEquals(Arrays.asList("result 116"), child.stdout, child.toString());
        assertEquals(2, child.stderr.size(), child.toString());
        assertTrue(child.stderr.get(0).startsWith("jetw agent attached: session jetw-"), child.toString());
        assertTrue(child.stderr.get(0).contains("file " + etl), child.toString());
        String summary = child.stderr.get(1);
        assertTrue(summary.matches("jetw: [0-9]+ events written, 0 dropped, 0 lost of [0-9]+ emitted, 5 methods, file " + java.util.regex.Pattern.quote(etl.toString())),
                summary);

        TraceModel t = TraceModel.of(etl);
        assertEquals(summary, "jetw: " + t.events.size() + " events written, 0 dropped, 0 lost of " + t.events.size()
                + " emitted, 5 methods, file " + etl);
        int trees = 0;
        for (Long thread : t.threadStarts.keySet()) {
            List<String> paths = t.paths(thread);
            if (!paths.isEmpty()) {
                assertEquals(RUN_TREE, paths, "thread " + t.threadStarts.get(thread));
                trees++;
            }
        }
        assertEquals(2, trees, "main and second each ran the tree");
        assertEquals(Arrays.asList(C + "fail", C + "leaf", C + "middle", C + "run", C + "safeFail"),
                sortedWithPrefix(C, t.methodEnds.values()), "the shutdown hook wrote the rundown end");
    }

    @Test
    void javaagentWithABadOptionPrintsOneLineAndTheApplicationRuns() throws Exception {
        Child child = runChild("backend=portable,file=" + dir.resolve("bad.etl") + ",include=testapp.Calls,exceptionLevel=sometimes");
        assertEquals(0, child.exit, child.toString());
        assertEquals(Arrays.asList("result 116"), child.stdout, child.toString());
        assertEquals(Arrays.asList("jetw: option exceptionLevel=sometimes: allowed: critical, error, warning, information, "
                + "verbose or 1-255; the agent stays inactive"), child.stderr);
        assertTrue(!Files.exists(dir.resolve("bad.etl")), "no session was started");
    }

    /** An include of JDK classes without bootstrap=true selects nothing: one warning line says so (it said nothing). */
    @Test
    void anIncludeOfJdkClassesWithoutBootstrapIsWarnedAbout() throws Exception {
        Child child = runChild("backend=portable,file=" + dir.resolve("jdk.etl") + ",include=java.util.**;testapp.Calls");
        assertEquals(0, child.exit, child.toString());
        assertEquals(Arrays.asList("result 116"), child.stdout, child.toString());
        assertEquals("jetw: warning: include=java.util.** selects nothing: it names JDK classes, which are instrumented only"
                + " with bootstrap=true (docs/agent-options.md)", child.stderr.get(0), child.toString());
        assertEquals(1, child.stderr.stream().filter(l -> l.startsWith("jetw: warning:")).count(), "testapp.Calls is no JDK class: " + child);
    }

    private static List<String> sortedWithPrefix(String prefix, java.util.Collection<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.startsWith(prefix)) {
                out.add(n);
            }
        }
        out.sort(null);
        return out;
    }

    /** A finished child JVM. */
    static final class Child {
        int exit;
        List<String> stdout;
        List<String> stderr;

        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr:\n" + String.join("\n", stderr);
        }
    }

    /**
     * Runs testapp.Main in a child JVM with -javaagent pointing at a jar built here: a manifest
     * naming AgentMain as Premain-Class, the core and its libraries on the class path, and the
     * bootstrap jar on the boot class path (what the real agent jar arranges).
     */
    private Child runChild(String options) throws Exception {
        Path agentJar = dir.resolve("premain-agent.jar");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(new Attributes.Name("Premain-Class"), AgentMain.class.getName());
        mf.getMainAttributes().put(new Attributes.Name("Can-Retransform-Classes"), "true");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(agentJar), mf)) {
            // manifest only
        }
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String bootstrap = System.getProperty("jetw.bootstrap.jar");
        assertTrue(bootstrap != null && Files.exists(Paths.get(bootstrap)), "jetw.bootstrap.jar=" + bootstrap);
        List<String> cmd = new ArrayList<>(Arrays.asList(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-Xbootclasspath/a:" + bootstrap,
                "-javaagent:" + agentJar + "=" + options,
                "-cp", classPath,
                "testapp.Main"));
        Path stdout = dir.resolve("stdout.txt");
        Path stderr = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM finished within 120 s");
        Child c = new Child();
        c.exit = p.exitValue();
        c.stdout = Files.readAllLines(stdout, StandardCharsets.UTF_8);
        // The JVM's own "WARNING: ..." lines (e.g. JDK 24+ on Byte Buddy's use of sun.misc.Unsafe) are not
        // the agent's output; the agent's lines are what these tests count.
        c.stderr = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(stderr, StandardCharsets.UTF_8)) {
            if (!line.startsWith("WARNING: ")) {
                c.stderr.add(line);
            }
        }
        return c;
    }

    @Test
    void theApiJarIsANoOpWithoutTheAgent() {
        // Nothing attached here: the API's own bytes run.
        assertTrue(!Jetw.isActive());
        Jetw.checkpoint("nobody listens");
        Jetw.checkpoint("nobody listens", Jetw.ERROR);
    }
}
