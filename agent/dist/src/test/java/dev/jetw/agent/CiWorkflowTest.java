package dev.jetw.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * .github/workflows/ci.yml cannot run here; this checks that it is well-formed YAML (MiniYaml, strict)
 * and has the shape issue 18 asks for: a Linux job doing what .ci/run does, Windows jobs on x64 JDK 17
 * and 21 running the README's test command and the tests tagged windows, a 32-bit JDK 8 job.
 */
class CiWorkflowTest {

    private static final Path WORKFLOW = Paths.get(System.getProperty("jetw.repo.dir"), ".github", "workflows", "ci.yml");

    @Test
    @SuppressWarnings("unchecked")
    void theWorkflowParsesAndHasTheJobsOfIssue18() throws Exception {
        Map<String, Object> root = (Map<String, Object>) MiniYaml.parse(new String(Files.readAllBytes(WORKFLOW), "UTF-8"));
        assertEquals(Arrays.asList("name", "on", "jobs"), new ArrayList<>(root.keySet()));
        Map<String, Object> jobs = (Map<String, Object>) root.get("jobs");
        assertEquals(Arrays.asList("linux", "windows", "windows-x86"), new ArrayList<>(jobs.keySet()));

        Map<String, Object> linux = (Map<String, Object>) jobs.get("linux");
        assertEquals("ubuntu-latest", linux.get("runs-on"));
        assertTrue(runs(linux).contains("./jetw test"), runs(linux).toString());

        Map<String, Object> windows = (Map<String, Object>) jobs.get("windows");
        assertEquals("windows-latest", windows.get("runs-on"));
        Map<String, Object> matrix = (Map<String, Object>) ((Map<String, Object>) windows.get("strategy")).get("matrix");
        assertEquals(Arrays.asList("17", "21", "25"), matrix.get("java"), "25: a JDK with FFM, for the selftest's ffm step");
        List<String> windowsRuns = runs(windows);
        assertTrue(windowsRuns.contains("jetw.cmd test"), windowsRuns.toString());
        // The tests tagged windows live in agent/selftest (WindowsProofTest) and below: -pl agent/core never ran them.
        assertTrue(windowsRuns.stream().anyMatch(r -> r.contains("-Dgroups=windows") && r.contains("-Djetw.windows.requireElevated=true")
                && r.contains("-pl agent/selftest -am")), windowsRuns.toString());
        assertTrue(windowsRuns.stream().anyMatch(r -> r.startsWith("jetw.cmd selftest")), windowsRuns.toString());

        // Issue 30 item 7: a failed test step must not keep the jar from being packaged and the selftest from running.
        List<Map<String, Object>> windowsSteps = steps(windows);
        int test = indexOfRun(windowsSteps, "jetw.cmd test");
        int pack = indexOfRun(windowsSteps, "mvn -B -ntp -o -DskipTests package");
        int selftest = indexOfRunStartingWith(windowsSteps, "jetw.cmd selftest");
        assertTrue(test < pack && pack < selftest, "test, then package, then selftest: " + windowsRuns);
        for (int i = test + 1; i <= selftest; i++) {
            assertEquals("always()", windowsSteps.get(i).get("if"), "runs after a failed step: " + windowsSteps.get(i));
        }
        String selftestName = String.valueOf(windowsSteps.get(selftest).get("name"));
        for (String step : Arrays.asList("dump with kernel flags", "foreign enable", "ffm")) {
            assertTrue(selftestName.contains(step), "the selftest step names its " + step + " step: " + selftestName);
        }

        Map<String, Object> x86 = (Map<String, Object>) jobs.get("windows-x86");
        List<Map<String, Object>> setups = new ArrayList<>();
        for (Map<String, Object> step : steps(x86)) {
            if (String.valueOf(step.get("uses")).startsWith("actions/setup-java@")) {
                setups.add((Map<String, Object>) step.get("with"));
            }
        }
        assertEquals("8", setups.get(0).get("java-version"));
        assertEquals("x86", setups.get(0).get("architecture"));
        assertTrue(runs(x86).stream().anyMatch(r -> r.contains("%JAVA_HOME_8_X86%") && r.contains(" selftest ")), runs(x86).toString());

        for (Object job : jobs.values()) {
            for (Map<String, Object> step : steps((Map<String, Object>) job)) {
                assertTrue(step.containsKey("uses") ^ step.containsKey("run"), "a step either uses an action or runs a command: " + step);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> steps(Map<String, Object> job) {
        return (List<Map<String, Object>>) (List<?>) job.get("steps");
    }

    private static int indexOfRun(List<Map<String, Object>> steps, String run) {
        for (int i = 0; i < steps.size(); i++) {
            if (run.equals(String.valueOf(steps.get(i).get("run")).trim())) {
                return i;
            }
        }
        throw new AssertionError("no step runs '" + run + "'");
    }

    private static int indexOfRunStartingWith(List<Map<String, Object>> steps, String prefix) {
        for (int i = 0; i < steps.size(); i++) {
            if (String.valueOf(steps.get(i).get("run")).trim().startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no step runs '" + prefix + "...'");
    }

    private static List<String> runs(Map<String, Object> job) {
        List<String> runs = new ArrayList<>();
        for (Map<String, Object> step : steps(job)) {
            if (step.containsKey("run")) {
                runs.add(String.valueOf(step.get("run")).trim());
            }
        }
        return runs;
    }

    @Test
    void theReaderTakesTheSubsetTheWorkflowUses() {
        Object doc = MiniYaml.parse("# c\na: 1 # trailing\nb:\n  - x\n  - k: 'q''s'\n    l: \"d\"\n  -\n    m: [1, 2]\nc: |\n  line # kept\n  two\nd:\n- e\n");
        assertEquals("{a=1, b=[x, {k=q's, l=d}, {m=[1, 2]}], c=line # kept\ntwo\n, d=[e]}", doc.toString());
    }

    @Test
    void malformedYamlIsRejectedWithItsLine() {
        String[][] bad = {
                {"a: 1\n\tb: 2\n", "line 2: tab in indentation"},
                {"a: 1\na: 2\n", "line 2: duplicate key 'a'"},
                {"a:\n  b: 1\n   c: 2\n", "line 3: unexpected indentation"},
                {"a: 'open\n", "line 1: unclosed quote"},
                {"a: b: c\n", "line 1: ': ' inside a plain scalar"},
                {"a: [1, 2\n", "line 1: unclosed flow sequence"},
                {"just text\n", "line 1: expected 'key: value'"},
                {"  a: 1\n", "line 1: the document must start at column 0"},
                {"a:\n  - x\n  y: 1\n", "line 3: "},
        };
        for (String[] c : bad) {
            MiniYaml.YamlException e = assertThrows(MiniYaml.YamlException.class, () -> MiniYaml.parse(c[0]), c[0]);
            assertTrue(e.getMessage().startsWith(c[1]), c[0] + " -> " + e.getMessage());
        }
    }
}
