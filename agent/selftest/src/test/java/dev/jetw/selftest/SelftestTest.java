package dev.jetw.selftest;

import dev.jetw.etw.EtwBackends;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code jetw selftest} on the portable backend: verdict lines, the summary, the trace and the report. */
class SelftestTest {

    @TempDir
    Path dir;

    @Test
    void portableRunPrintsAVerdictPerStepAndWritesTheReport() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Selftest.run(EtwBackends.create("portable"), dir, Boolean.FALSE,
                new PrintStream(out, true, "UTF-8"), new PrintStream(err, true, "UTF-8"));
        String text = out.toString("UTF-8");
        assertEquals(0, status, text + err.toString("UTF-8"));
        List<String> verdicts = new ArrayList<>();
        for (String line : text.split("\\R")) {
            if (line.startsWith("[")) {
                verdicts.add(line);
            }
        }
        assertEquals(12, verdicts.size(), text);
        String[] passing = {"file-trace", "caller-time", "orphan-fail", "orphan-reuse", "orphan-restart", "buffering", "dump",
                "foreign-enable"};
        for (int i = 0; i < passing.length; i++) {
            assertTrue(verdicts.get(i).matches("\\[PASS\\] +" + passing[i] + " +\\S.*"), verdicts.get(i));
        }
        assertTrue(verdicts.get(0).contains("500 events from 4 threads read back exactly"), verdicts.get(0));
        assertTrue(verdicts.get(8).matches("\\[SKIP\\] +kernel +the portable backend records no Windows kernel events.*"), verdicts.get(8));
        assertTrue(verdicts.get(9).matches("\\[SKIP\\] +tracerpt +tracerpt and mofcomp are Windows tools.*"), verdicts.get(9));
        assertTrue(verdicts.get(10).matches("\\[SKIP\\] +ffm +the FFM crossing is the Windows binding's.*"), verdicts.get(10));
        assertTrue(verdicts.get(11).matches("\\[SKIP\\] +not-elevated +the portable backend has no privileges.*"), verdicts.get(11));
        assertTrue(text.contains("jetw selftest: PASSED: 8 passed, 0 failed, 4 skipped"), text);
        assertTrue(text.contains("trace:  " + dir.resolve("file-trace.etl")), text);
        Path report = dir.resolve(Selftest.REPORT_FILE);
        assertTrue(text.contains("report: " + report), text);

        String written = new String(Files.readAllBytes(report), StandardCharsets.UTF_8);
        assertTrue(written.contains("environment: backend portable on "), written);
        assertTrue(written.contains("verdict: PASSED: 8 passed, 0 failed, 4 skipped"), written);
        for (String v : verdicts) {
            assertTrue(written.contains(v), v);
        }
        assertTrue(written.contains("MethodCall events by type {CHECKPOINT=100, END=200, START=200}, by level {error=48, information=152, verbose=300}"),
                written);
        assertTrue(Files.size(dir.resolve("file-trace.etl")) > 0);
    }

    @Test
    void aBadArgumentIsAUsageError() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Selftest.run(new String[] {"--frobnicate"}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, "UTF-8"));
        assertEquals(2, status);
        assertTrue(err.toString("UTF-8").contains("jetw: selftest: unknown or incomplete argument '--frobnicate'"), err.toString("UTF-8"));
    }
}
