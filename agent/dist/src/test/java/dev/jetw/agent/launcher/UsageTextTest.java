package dev.jetw.agent.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jetw.analysis.cli.EtlTool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The usage texts against the etl tool's command table (EtlTool.commands): the jar's, and both
 * launchers', so that a new etl command cannot be left out of one of them again; and the jar speaks of
 * the command the user typed (./jetw when the launcher started it, java -jar otherwise).
 */
class UsageTextTest {

    private static final Path REPO = Paths.get(System.getProperty("jetw.repo.dir"));

    @AfterEach
    void noLauncher() {
        System.clearProperty(JetwCli.LAUNCHER_PROPERTY);
    }

    /** The agent's attach reply names "jetw status"; the tool relays it as the command the user typed. */
    @Test
    void theAttachReplysHintNamesTheCommandTyped() {
        String line = "attach ramp: the first tier is in; the other loaded classes follow in the background (hot classes:"
                + " attachHot=skip, not traced in this attach; attachHot=defer traces them too); follow it with: jetw status 4242";
        assertEquals(line.replace("follow it with: jetw status", "follow it with: java -jar jetw-agent.jar status"),
                JetwCli.withCommandTyped(line));
        System.setProperty(JetwCli.LAUNCHER_PROPERTY, "./jetw");
        assertTrue(JetwCli.withCommandTyped(line).endsWith("; follow it with: ./jetw status 4242"), JetwCli.withCommandTyped(line));
        assertEquals("methods: 12 instrumented, jetw status", JetwCli.withCommandTyped("methods: 12 instrumented, jetw status"),
                "only the hint is rewritten");
    }

    @Test
    void theJarsUsageListsEveryEtlCommandOfTheTable() throws Exception {
        String usage = JetwCli.usageText();
        Matcher etl = Pattern.compile("(?m)^  etl <command> FILE\\.\\.\\.\\s+read \\.etl files: (.*) \\(see etl --help\\)$").matcher(usage);
        assertTrue(etl.find(), usage);
        assertEquals(EtlTool.commands(), Arrays.asList(etl.group(1).split(", ")));
        assertEquals(8, EtlTool.commands().size(), "summary dump tree methods why chrome-trace perfetto hot-methods: " + EtlTool.commands());
    }

    @Test
    void bothLaunchersListEveryEtlCommandOfTheTable() throws IOException {
        String expected = String.join("|", EtlTool.commands());
        assertEquals(expected, etlLine(REPO.resolve("jetw"), "  etl (\\S+) FILE"));
        assertEquals(expected.replace("|", "^|"), etlLine(REPO.resolve("jetw.cmd"), "echo   etl (\\S+) FILE"));
    }

    @Test
    void bothLaunchersGiveSelftestTheJarsArguments() throws IOException {
        String jar = Run.of("selftest", "--help").out();
        Matcher args = Pattern.compile("usage: .* selftest (\\[.*)").matcher(jar);
        assertTrue(args.find(), jar);
        String expected = args.group(1).trim();
        assertEquals(expected, etlLine(REPO.resolve("jetw"), "  selftest (.*)$").trim());
        assertEquals(expected.replace("|", "^|"), etlLine(REPO.resolve("jetw.cmd"), "echo   selftest (.*)$").trim());
    }

    private static String etlLine(Path launcher, String regex) throws IOException {
        Pattern p = Pattern.compile(regex);
        List<String> lines = Files.readAllLines(launcher, StandardCharsets.ISO_8859_1);
        for (String line : lines) {
            Matcher m = p.matcher(line);
            if (m.lookingAt()) {
                return m.group(1);
            }
        }
        throw new AssertionError("no line '" + regex + "' in " + launcher);
    }

    @Test
    void withoutTheLauncherItSaysJavaJar() {
        Run r = Run.of("dump");
        assertEquals(JetwCli.USAGE, r.status());
        assertTrue(r.err().startsWith("jetw: dump takes the pid and optionally a new .etl file" + System.lineSeparator()
                + "usage: java -jar jetw-agent.jar <command> [args]"), r.err());
        Run etl = Run.of("etl", "--help");
        assertTrue(etl.out().startsWith("usage: java -jar jetw-agent.jar etl <command> [options] FILE..."), etl.out());
    }

    @Test
    void underTheLauncherItSaysWhatTheUserTyped() {
        System.setProperty(JetwCli.LAUNCHER_PROPERTY, "./jetw");
        Run r = Run.of("status", "not-a-pid");
        assertEquals(JetwCli.USAGE, r.status());
        assertTrue(r.err().startsWith("jetw: pid 'not-a-pid' is not a process id (a decimal number; ./jetw list shows them)"
                + System.lineSeparator() + "usage: ./jetw <command> [args]"), r.err());
        Run etl = Run.of("etl", "summary");
        assertEquals(EtlTool.USAGE, etl.status());
        assertEquals("jetw etl: summary: no FILE given (see: ./jetw etl summary --help)", etl.err().trim());
        Run help = Run.of("etl", "--help");
        assertTrue(help.out().startsWith("usage: ./jetw etl <command> [options] FILE..."), help.out());
        for (String command : EtlTool.commands()) {
            assertTrue(help.out().contains("\n  " + command + " "), command + " in the etl usage:\n" + help.out());
        }
    }

    /**
     * {@code COMMAND --help} and {@code -h} of every command of the jar: exit 0, its usage line on stdout, nothing else done
     * (attach, detach, status and dump took "--help" for a pid, list listed the JVMs, mof printed the schema, selftest ran
     * nothing but refused it). list and mof take no other argument.
     */
    @Test
    void everyCommandOfTheJarPrintsItsHelp() {
        System.setProperty(JetwCli.LAUNCHER_PROPERTY, "./jetw");
        for (String command : Arrays.asList("attach", "detach", "status", "dump", "list", "mof", "selftest")) {
            for (String flag : Arrays.asList("--help", "-h")) {
                Run r = Run.of(command, flag);
                assertEquals(JetwCli.OK, r.status(), command + " " + flag + ": " + r.err());
                assertEquals("", r.err(), command + " " + flag);
                String[] lines = r.out().split(System.lineSeparator());
                assertEquals(2, lines.length, r.out());
                assertTrue(lines[0].equals("usage: ./jetw " + command) || lines[0].startsWith("usage: ./jetw " + command + " "), r.out());
                assertTrue(JetwCli.usageText().contains(lines[1].trim()), "the usage text's own description: " + r.out());
            }
        }
        // selftest's help names every option its parser takes (--backend was left out).
        assertTrue(Run.of("selftest", "--help").out().startsWith("usage: ./jetw selftest [--dir FOLDER] [--backend auto|windows|portable]"
                + System.lineSeparator()), Run.of("selftest", "--help").out());
        Run etl = Run.of("etl", "tree", "--help");
        assertEquals(JetwCli.OK, etl.status(), etl.err());
        assertTrue(etl.out().startsWith("usage: ./jetw etl tree "), etl.out());
        for (String command : Arrays.asList("list", "mof")) {
            Run r = Run.of(command, "extra");
            assertEquals(JetwCli.USAGE, r.status(), command);
            assertTrue(r.err().startsWith("jetw: " + command + " takes no arguments"), r.err());
            assertEquals("", r.out());
        }
    }

    /** One run of the tool, in this JVM. */
    private record Run(int status, String out, String err) {

        static Run of(String... args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = JetwCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }
}
