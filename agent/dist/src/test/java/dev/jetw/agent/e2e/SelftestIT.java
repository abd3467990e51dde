package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** {@code ./jetw selftest} end to end: the launcher script, the jar, the portable scenario, the report. */
class SelftestIT {

    @TempDir
    Path dir;

    @Test
    @DisabledOnOs(value = OS.WINDOWS, disabledReason = "the portable scenario of ./jetw; on Windows jetw.cmd selftest runs the ETW one (WindowsProofTest)")
    void theScriptRunsThePortableScenarioAndWritesTheReport() throws Exception {
        Path script = Paths.get(System.getProperty("jetw.repo.dir"), "jetw");
        // The script runs agent/dist/target/jetw-agent.jar, the jar under test; it must exist, else the script would build one.
        assertEquals(script.resolveSibling("agent/dist/target/jetw-agent.jar").toRealPath(), ChildJvm.agentJar().toRealPath());
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), "selftest", "--dir", dir.toString());
        pb.environment().put("PATH", ChildJvm.java().getParent() + java.io.File.pathSeparator + System.getenv("PATH"));
        Path stdout = dir.resolve("stdout.txt");
        Process p = pb.redirectOutput(stdout.toFile()).redirectError(dir.resolve("stderr.txt").toFile()).start();
        assertTrue(p.waitFor(ChildJvm.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS), "selftest finished");
        String out = Files.readString(stdout);
        String all = out + "--- stderr\n" + Files.readString(dir.resolve("stderr.txt"));
        assertEquals(0, p.exitValue(), all);

        List<String> lines = out.lines().toList();
        assertTrue(lines.get(0).startsWith("jetw selftest: backend portable on "), all);
        assertEquals("jetw selftest: files in " + dir.toAbsolutePath(), lines.get(1), all);
        List<String> verdicts = lines.stream().filter(l -> l.startsWith("[")).toList();
        String[] steps = {"file-trace", "caller-time", "orphan-fail", "orphan-reuse", "orphan-restart", "buffering", "dump",
                "foreign-enable", "kernel", "tracerpt", "ffm", "not-elevated"};
        assertEquals(steps.length, verdicts.size(), all);
        for (int i = 0; i < steps.length; i++) {
            String verdict = i < 8 ? "PASS" : "SKIP";
            assertTrue(verdicts.get(i).matches("\\[" + verdict + "\\] +" + steps[i] + " +\\S.*"), verdicts.get(i));
        }
        assertTrue(lines.contains("jetw selftest: PASSED: 8 passed, 0 failed, 4 skipped"), all);
        Path trace = dir.toAbsolutePath().resolve("file-trace.etl");
        assertTrue(lines.contains("trace:  " + trace), all);
        Path report = dir.toAbsolutePath().resolve("selftest-report.txt");
        assertTrue(lines.contains("report: " + report + "   (attach it and the trace to a bug report)"), all);

        String text = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
        assertTrue(text.contains("verdict: PASSED: 8 passed, 0 failed, 4 skipped"), text);
        for (String v : verdicts) {
            assertTrue(text.contains(v), v + " in the report");
        }
        // The trace the user is pointed at reads back with the jar's own reader.
        ChildJvm.Result summary = ChildJvm.tool("etl", "summary", trace.toString());
        assertEquals(0, summary.exit(), summary.toString());
        assertTrue(summary.stdout().contains("500"), summary.toString());
    }

    @Test
    void usageListsSelftestAndABadArgumentExits2() throws Exception {
        ChildJvm.Result usage = ChildJvm.tool();
        assertTrue(usage.stderr().contains("\n  selftest "), usage.toString());
        ChildJvm.Result bad = ChildJvm.tool("selftest", "--bogus");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.stderr().startsWith("jetw: selftest: unknown or incomplete argument '--bogus'"), bad.toString());
    }
}
