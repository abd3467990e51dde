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

    /**
     * {@code ./jetw COMMAND --help} for every command of the launcher but test and demo (mvn's and demo.sh's own help),
     * and for every etl command: exit 0 and the command's usage line. attach, status, ... took "--help" for a pid (exit 2),
     * list listed, mof printed the schema, build built, and every etl command called it an unknown option (exit 2).
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"build", "attach", "detach", "status", "dump", "list", "mof", "selftest",
            "etl summary", "etl dump", "etl tree", "etl methods", "etl why", "etl chrome-trace", "etl perfetto", "etl hot-methods"})
    void everyCommandOfTheLauncherPrintsItsHelp(String command, @org.junit.jupiter.api.io.TempDir Path bin) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(System.getProperty("os.name").startsWith("Windows"), "./jetw is a bash script");
        Path repo = Paths.get(System.getProperty("jetw.repo.dir"));
        // An mvn that fails first on the PATH: a help that ran a build (build --help did: an install into ~/.m2) fails here instead.
        Path mvn = Files.writeString(bin.resolve("mvn"), "#!/bin/sh\necho 'mvn ran' >&2\nexit 97\n");
        assertTrue(mvn.toFile().setExecutable(true));
        for (String flag : List.of("--help", "-h")) {
            List<String> args = new java.util.ArrayList<>(List.of("./jetw"));
            args.addAll(List.of(command.split(" ")));
            args.add(flag);
            ProcessBuilder pb = new ProcessBuilder(args).directory(repo.toFile());
            pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), args + ": " + out + err);
            assertEquals("", err, args.toString());
            String first = out.lines().findFirst().orElse("");
            assertTrue(first.equals("usage: ./jetw " + command) || first.startsWith("usage: ./jetw " + command + " "), args + ":\n" + out);
        }
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
