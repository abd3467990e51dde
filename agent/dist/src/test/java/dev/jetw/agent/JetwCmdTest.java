package dev.jetw.agent;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jetw.cmd cannot run here; this reads it for the two cmd.exe mistakes that made {@code jetw.cmd etl}
 * and {@code jetw.cmd test} exit 0 whatever happened (issue 30 item 5):
 * <ul>
 *   <li>{@code %ERRORLEVEL%} on the line, or in the parenthesized block, of the command whose code it
 *       should carry: cmd expands {@code %VAR%} when it reads the line or the whole block, so it is the
 *       code from before the command ran;</li>
 *   <li>a batch file ({@code mvn} is mvn.cmd, anything {@code .cmd}/{@code .bat}) run without
 *       {@code call}: control passes to it and never comes back to the script.</li>
 * </ul>
 */
class JetwCmdTest {

    private static final Path REPO = Paths.get(System.getProperty("jetw.repo.dir"));

    /** Commands that are batch files on Windows: Maven's launcher and its wrapper. */
    private static final List<String> BATCH_COMMANDS = Arrays.asList("mvn", "mvnw", "mvnDebug");
    private static final Pattern COMMAND_START = Pattern.compile("(?:^|&&|\\|\\||&|\\(|\\))\\s*(?:@\\s*)?(\"?[^\\s&|()\"]+\"?)");

    @Test
    void theLauncherCarriesEveryExitCodeAndCallsItsBatchFiles() throws IOException {
        List<String> problems = problems(Files.readAllLines(REPO.resolve("jetw.cmd"), StandardCharsets.ISO_8859_1));
        assertEquals(new ArrayList<String>(), problems);
    }

    @Test
    void theLauncherIsCheckedOutWithCrlf() throws IOException {
        // cmd.exe's label search (goto, call :label) misreads files with LF line endings.
        List<String> attributes = Files.readAllLines(REPO.resolve(".gitattributes"), StandardCharsets.UTF_8);
        assertTrue(attributes.stream().anyMatch(l -> l.trim().matches("\\*\\.cmd\\s+.*eol=crlf.*")), attributes.toString());
    }

    /**
     * {@code jetw.cmd build X} must fail as {@code ./jetw build X} does (exit 2, on stderr), not print the usage and exit
     * 0 without building: a script would take the missing jar for a build that worked.
     */
    @Test
    void buildWithAnArgumentFailsWithTwo() throws IOException {
        List<String> lines = Files.readAllLines(REPO.resolve("jetw.cmd"), StandardCharsets.ISO_8859_1);
        int guard = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).trim().equalsIgnoreCase("if /I \"%~1\"==\"build\" if not \"%~2\"==\"\" (")) {
                guard = i;
            }
        }
        assertTrue(guard >= 0, "no block for build with an argument in jetw.cmd");
        assertTrue(lines.get(guard + 1).trim().endsWith("1>&2"), lines.get(guard + 1));
        assertEquals("exit /b 2", lines.get(guard + 2).trim());
        assertEquals(")", lines.get(guard + 3).trim());
    }

    /** The checks reject the mistakes they are for (the launcher before issue 30 had both kinds). */
    @Test
    void theChecksFireOnTheOldLauncher() {
        List<String> old = Arrays.asList(
                "if /I \"%~1\"==\"test\" ( cd /d \"%HERE%\" & mvn -B -ntp verify & exit /b %ERRORLEVEL% )",
                "if /I \"%~1\"==\"etl\" (",
                "  java %JETW_ETL_JAVA_OPTS% -jar \"%AGENT_JAR%\" %*",
                "  exit /b %ERRORLEVEL%",
                ")",
                "java -jar \"%AGENT_JAR%\" %*",
                "exit /b %ERRORLEVEL%",
                "call mvn -B verify",
                "exit /b %ERRORLEVEL%",
                "tools\\build.cmd");
        List<String> p = problems(old);
        assertEquals(4, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("line 1: %ERRORLEVEL% on the line of the command"), p.get(0));
        assertTrue(p.get(1).startsWith("line 1: mvn is a batch file"), p.get(1));
        assertTrue(p.get(2).startsWith("line 4: %ERRORLEVEL% inside the parenthesized block opened on line 2"), p.get(2));
        assertTrue(p.get(3).startsWith("line 10: tools\\build.cmd is a batch file"), p.get(3));
    }

    static List<String> problems(List<String> lines) {
        List<String> problems = new ArrayList<>();
        int depth = 0;
        int blockStart = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            String lower = line.toLowerCase(Locale.ROOT);
            int n = i + 1;
            if (lower.isEmpty() || lower.startsWith("rem ") || lower.equals("rem") || lower.startsWith("::") || lower.startsWith(":")) {
                continue;
            }
            String code = stripEcho(line);
            int at = code.toUpperCase(Locale.ROOT).indexOf("%ERRORLEVEL%");
            if (at >= 0) {
                String before = code.substring(0, at);
                if (depth > 0) {
                    problems.add("line " + n + ": %ERRORLEVEL% inside the parenthesized block opened on line " + blockStart
                            + " is expanded when the block is read, before its commands run");
                } else if (before.contains("&") || before.contains("(") || before.contains("|")) {
                    problems.add("line " + n + ": %ERRORLEVEL% on the line of the command it should report is expanded"
                            + " before that command runs; put it on the next line");
                }
            }
            Matcher m = COMMAND_START.matcher(code);
            String previous = null;
            while (m.find()) {
                String word = m.group(1).replace("\"", "");
                String name = word.toLowerCase(Locale.ROOT);
                String base = name.substring(Math.max(name.lastIndexOf('\\'), name.lastIndexOf('/')) + 1);
                boolean batch = BATCH_COMMANDS.contains(base) || base.endsWith(".cmd") || base.endsWith(".bat");
                boolean called = previous != null && previous.equals("call");
                if (batch && !called && !isCallTarget(code, m.start(1))) {
                    problems.add("line " + n + ": " + word + " is a batch file run without 'call': control never comes"
                            + " back to jetw.cmd");
                }
                previous = name;
            }
            int opens = count(code, '(');
            int closes = count(code, ')');
            if (depth == 0 && opens > closes) {
                blockStart = n;
            }
            depth = Math.max(0, depth + opens - closes);
        }
        return problems;
    }

    /** Whether the word at {@code index} follows "call" (the matcher restarts at each separator). */
    private static boolean isCallTarget(String code, int index) {
        String before = code.substring(0, index).trim().toLowerCase(Locale.ROOT);
        return before.endsWith("call") && (before.length() == 4 || !Character.isLetterOrDigit(before.charAt(before.length() - 5)));
    }

    private static String stripEcho(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        return lower.startsWith("echo ") || lower.startsWith("echo.") || lower.startsWith("@echo") ? "" : line;
    }

    private static int count(String s, char c) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            n += s.charAt(i) == c && (i == 0 || s.charAt(i - 1) != '^') ? 1 : 0;
        }
        return n;
    }
}
