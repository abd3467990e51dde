package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.StartupApp;
import dev.jetw.etl.EventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up with -javaagent (issue 31): until a class the options may select loads, premain has loaded no Byte Buddy
 * class and not started JFR; the first class that matches (by an include rule, or by {@code @Traced} alone) brings
 * them up and is itself instrumented. The class-loading log of the child JVM ({@code -Xlog:class+load}) is the probe.
 */
class StartupIT {

    private static final String APP = StartupApp.class.getName();
    /** The first class of the launcher after premain returned (it loads the main class); premain's own end is no class. */
    private static final String PREMAIN_END = "sun.launcher.LauncherHelper";
    /**
     * What premain used to load for nothing a blink needs (BENCHMARKS.md §15): SecureRandom's providers (the file
     * name's suffix), the locale data of the time zone's display names (the header), a first regex and Formatter (options).
     */
    private static final List<String> NOT_IN_PREMAIN = List.of("java.security.SecureRandom", "sun.security.provider.",
            "sun.util.locale.provider.TimeZoneNameUtility", "sun.util.cldr.", "java.util.regex.", "java.util.Formatter");

    @TempDir
    Path temp;

    @Test
    void nothingMatchedLoadsNoByteBuddyAndNoJfr() throws Exception {
        Run run = run("include=zzz.nothing.**", "plain");

        assertEquals("startup 0\n", run.child.stdout(), run.child.toString());
        assertTrue(run.classLog.stream().anyMatch(l -> l.contains(" " + APP + " ")), "the probe sees the application's classes");
        assertEquals(List.of(), run.loaded("net.bytebuddy."), "Byte Buddy loaded with nothing to trace");
        assertEquals(List.of(), run.loaded("jdk.jfr."), "JFR started with nothing to trace");
        assertTrue(run.child.stderr().contains("from the first class that may be selected (none has loaded yet)"), run.child.toString());
        int from = run.indexOf("dev.jetw.agent.AgentEntry");
        int to = run.indexOf(PREMAIN_END);
        assertTrue(from >= 0 && to > from, "the probe sees premain's start and end");
        for (String prefix : NOT_IN_PREMAIN) {
            assertEquals(List.of(), run.loaded(prefix).stream().filter(l -> run.classLog.indexOf(l) > from && run.classLog.indexOf(l) < to)
                    .toList(), prefix + " loaded during premain");
        }
    }

    @Test
    void firstClassMatchedByNameIsInstrumentedAsItLoads() throws Exception {
        Run run = run("include=" + APP, "plain");

        assertEquals("startup 0\n", run.child.stdout(), run.child.toString());
        assertTrue(run.indexOf(PREMAIN_END) >= 0, "the probe sees premain's end");
        // A class's log line follows its transformation: Byte Buddy's classes, loaded to transform it, come first.
        assertTrue(run.indexOf("net.bytebuddy.") > run.indexOf(PREMAIN_END), "Byte Buddy comes up after premain, not in it");
        TraceFile trace = TraceFile.read(run.etl);
        int main = trace.methodId(APP, "main");
        assertEquals(1, trace.count(EventType.START, main), "the class that brought the instrumentation up has its advice");
        assertEquals(1, trace.count(EventType.END, main));
    }

    /**
     * An ordinary class (Java 7+, class path) is woven by the direct path (docs/weaving.md), with the default options:
     * Byte Buddy's {@code AgentBuilder}, its type pool, method graphs and {@code Advice} never come up — the hand-off
     * calls go into the JDK's executors by ASM too — and the class is traced as before, its task handed to a pool
     * thread linked to the call that submitted it.
     */
    @Test
    void classMatchedByNameIsWovenWithoutByteBuddysAgentBuilder() throws Exception {
        Run run = run("include=" + APP, "handoff");

        assertEquals("startup 42\n", run.child.stdout(), run.child.toString());
        assertTrue(run.indexOf("net.bytebuddy.jar.asm.ClassReader") > run.indexOf(PREMAIN_END), "ASM reads the class after premain");
        for (String machinery : List.of("net.bytebuddy.agent.builder.AgentBuilder$Default", "net.bytebuddy.pool.TypePool$Default ",
                "net.bytebuddy.dynamic.scaffold.MethodGraph$Compiler$Default ", "net.bytebuddy.asm.Advice ")) {
            assertEquals(List.of(), run.loaded(machinery), machinery + " came up for an ordinary class");
        }
        TraceFile trace = TraceFile.read(run.etl);
        int main = trace.methodId(APP, "main");
        assertEquals(1, trace.count(EventType.START, main), "the class is woven");
        assertEquals(1, trace.count(EventType.END, main));
        // The task's call is under a DEQUEUE on its pool thread (the lambda's body may be traced between them), whose
        // parent is the submitting call.
        java.util.Map<Integer, TraceFile.Call> byInstance = new java.util.HashMap<>();
        trace.calls.stream().filter(c -> c.type() == EventType.START || c.type() == EventType.DEQUEUE).forEach(c -> byInstance.put(c.instanceId(), c));
        TraceFile.Call dequeue = trace.calls.stream().filter(c -> c.type() == EventType.START
                && c.methodId() == trace.methodId(APP, "onPoolThread")).findFirst().orElseThrow();
        while (dequeue != null && dequeue.type() != EventType.DEQUEUE) {
            dequeue = byInstance.get(dequeue.parentInstanceId());
        }
        assertTrue(dequeue != null, "the task is not linked: no DEQUEUE above it");
        TraceFile.Call submitter = byInstance.get(dequeue.parentInstanceId());
        assertTrue(submitter != null && submitter.type() == EventType.START, "the DEQUEUE has a submitting call");
        assertEquals(trace.methodId(APP, "handOff"), submitter.methodId(), "linked to the call that submitted it");
    }

    @Test
    void classSelectedOnlyByAnnotationBringsTheInstrumentationUp() throws Exception {
        Run run = run("include=zzz.nothing.**", "traced");

        assertEquals("startup 42\n", run.child.stdout(), run.child.toString());
        String annotated = StartupApp.Annotated.class.getName();
        assertTrue(run.indexOf("net.bytebuddy.") > run.indexOf(APP), "Byte Buddy comes up after the main class, which nothing selects");
        TraceFile trace = TraceFile.read(run.etl);
        assertEquals(1, trace.count(EventType.START, trace.methodId(annotated, "work")));
    }

    private Run run(String options, String mode) throws Exception {
        Path etl = temp.resolve(mode + options.hashCode() + ".etl");
        Path log = temp.resolve(mode + options.hashCode() + ".classes.txt");
        ChildJvm child = ChildJvm.start(List.of("-Xlog:class+load=info:file=" + log,
                "-javaagent:" + ChildJvm.agentJar() + "=" + options + ",backend=portable,file=" + etl), ChildJvm.appClassPath(),
                StartupApp.class, mode);
        assertEquals(0, child.waitForExit(), child.toString());
        return new Run(child, etl, Files.readAllLines(log));
    }

    private record Run(ChildJvm child, Path etl, List<String> classLog) {
        /** Lines of classes loaded whose name starts with {@code prefix}. */
        List<String> loaded(String prefix) {
            return classLog.stream().filter(l -> l.contains(" " + prefix)).toList();
        }

        /** The line number of the first class loaded whose name starts with {@code prefix}, or -1. */
        int indexOf(String prefix) {
            for (int i = 0; i < classLog.size(); i++) {
                if (classLog.get(i).contains(" " + prefix)) {
                    return i;
                }
            }
            return -1;
        }
    }
}
