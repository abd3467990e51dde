package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.etl.JetwSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** java -jar jetw-agent.jar: usage, mof, etl, and attach failures. */
class CliIT {

    @Test
    void noArgumentsPrintsUsageAndExits2() throws Exception {
        ChildJvm.Result r = ChildJvm.tool();
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.stderr().startsWith("usage: java -jar jetw-agent.jar <command> [args]"), r.toString());
        for (String command : List.of("attach", "detach", "status", "list", "etl", "mof")) {
            assertTrue(r.stderr().contains("\n  " + command + " "), command + " in usage:\n" + r);
        }
    }

    /** The ./jetw launcher names itself to the jar, whose usage texts then say ./jetw, as the user typed. */
    @Test
    void underTheLauncherTheUsageSaysDotSlashJetw() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(System.getProperty("os.name").startsWith("Windows"), "./jetw is a bash script");
        Path repo = Paths.get(System.getProperty("jetw.repo.dir"));
        assertTrue(Files.isRegularFile(repo.resolve("agent/dist/target/jetw-agent.jar")), "the launcher's jar is built");
        Process p = new ProcessBuilder("./jetw", "etl", "--help").directory(repo.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.startsWith("usage: ./jetw etl <command> [options] FILE..."), out);
        Process dump = new ProcessBuilder("./jetw", "dump").directory(repo.toFile()).redirectErrorStream(true).start();
        String usage = new String(dump.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(2, dump.waitFor(), usage);
        assertTrue(usage.contains("\nusage: ./jetw <command> [args]\n"), usage);
    }

    @Test
    void unknownCommandSaysSoAndExits2() throws Exception {
        ChildJvm.Result r = ChildJvm.tool("frobnicate");
        assertEquals(2, r.exit(), r.toString());
        assertEquals("jetw: unknown command 'frobnicate'", r.stderr().lines().findFirst().orElse(""));
    }

    /** Every command that takes a pid names itself, not "attach", when the pid is no JVM (status said "attach PID"). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"attach", "status", "detach", "dump"})
    void aPidThatIsNoJvmFailsWithOneLineNamingTheCommand(String command) throws Exception {
        long gone = deadPid();
        ChildJvm.Result r = command.equals("attach") ? ChildJvm.tool(command, Long.toString(gone), "include=x.**")
                : ChildJvm.tool(command, Long.toString(gone));
        assertEquals(1, r.exit(), r.toString());
        List<String> lines = r.stderr().lines().toList();
        assertEquals(1, lines.size(), r.toString());
        assertTrue(lines.get(0).startsWith("jetw: " + command + " " + gone + ": no JVM with pid " + gone), r.toString());
    }

    @Test
    void aPidThatIsNotANumberIsAUsageError() throws Exception {
        ChildJvm.Result r = ChildJvm.tool("status", "abc");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.stderr().startsWith("jetw: pid 'abc' is not a process id"), r.toString());
    }

    @Test
    void mofPrintsTheSchemaWithTheEventClassGuids() throws Exception {
        ChildJvm.Result r = ChildJvm.tool("mof");
        assertEquals(0, r.exit(), r.toString());
        String mof = r.stdout().toLowerCase(Locale.ROOT);
        assertTrue(mof.contains(JetwSchema.METHOD_CALL_CLASS.toString()), r.toString());
        assertTrue(mof.contains(JetwSchema.METHOD_CLASS.toString()), r.toString());
        assertTrue(mof.contains(JetwSchema.THREAD_CLASS.toString()), r.toString());
    }

    @Test
    void etlReadsAFileWithTheEmbeddedReader() throws Exception {
        Path sample = Paths.get(System.getProperty("jetw.samples.dir"), "primitive-types.etl");
        assertTrue(Files.isRegularFile(sample), sample.toString());
        ChildJvm.Result r = ChildJvm.tool("etl", "summary", sample.toString());
        assertEquals(0, r.exit(), r.toString());
        assertTrue(!r.stdout().isBlank(), r.toString());
        ChildJvm.Result missing = ChildJvm.tool("etl", "summary", sample.resolveSibling("no-such.etl").toString());
        assertTrue(missing.exit() != 0, missing.toString());
    }

    /** The pid of a process that has already exited (pids are not reused that fast). */
    private static long deadPid() throws Exception {
        Process p = new ProcessBuilder(ChildJvm.java().toString(), "-version").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        return p.pid();
    }
}
