package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static dev.jetw.analysis.cli.EtlToolTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * --thread and --from/--to on every command, on {@link JetwTraceFixture} (thread 11: calls at 1-10 ms
 * and 20 ms.. unfinished; thread 12: a call 3-15.25 ms and a checkpoint at 16 ms); and the progress
 * line: never when stderr is not a terminal or with --quiet.
 */
class FiltersAndProgressTest {

    @TempDir
    Path tmp;

    private Path file() throws IOException {
        Path f = tmp.resolve("jetw.etl");
        Files.write(f, JetwTraceFixture.build());
        return f;
    }

    @Test
    void dumpKeepsTheEventsOfTheThreadInTheWindow() throws IOException {
        Path f = file();
        List<String> all = run("dump", f.toString()).lines();
        List<String> t12 = run("dump", "--thread", "12", f.toString()).lines();
        assertEquals(all.stream().filter(l -> l.contains(" tid 12 ")).count(), t12.size());
        assertEquals(4, t12.size(), "rundown, START, END, checkpoint of thread 12");
        List<String> window = run("dump", "--from", "2", "--to", "6", f.toString()).lines();
        // 2.0 START query, 2.5 worker-1 rundown, 3.0 START query (12), 5.0 END query; 6.0 is outside [2, 6)
        assertEquals(4, window.size(), String.join("\n", window));
        for (String l : window) {
            double ms = Double.parseDouble(l.substring(l.indexOf(" +") + 2, l.indexOf("ms ")));
            assertTrue(ms >= 2 && ms < 6, l);
        }
    }

    @Test
    void summaryCountsOnlyTheFilteredEventsAndDoesNotCallAWindowUnbalanced() throws IOException {
        Path f = file();
        Map<String, Object> s = MiniJson.object(run("summary", "--json", "--thread", "12", f.toString()).out().trim());
        assertEquals(BigDecimal.valueOf(4), s.get("events"));
        EtlToolTest.Run w = run("summary", "--from", "19", f.toString());
        assertTrue(w.out().contains("events:      3 (not counting the logfile header, window [19.0 ms, end))"), w.out());
        assertFalse(w.err().contains("unbalanced"), "a window cuts calls: " + w.err());
    }

    @Test
    void treeKeepsTopLevelCallsOfTheThreadOverlappingTheWindow() throws IOException {
        Path f = file();
        String head = "== " + f + " (session jetw)\n";
        assertEquals(head + String.join("\n", "thread 11 \"main\" (pid 4242)",
                "  (unfinished)  com.example.Shop.handle(Ljava/lang/String;)V  @+20.000 ms",
                "    (unfinished)  com.example.Db.query()I  @+21.000 ms", ""), run("tree", "--from", "19", f.toString()).out());
        // [11, 12) overlaps only worker-1's query (3..15.25)
        assertEquals(head + String.join("\n", "thread 12 \"worker-1\" (pid 4242)",
                "  12.250 ms  com.example.Db.query()I  @+3.000 ms", ""),
                run("tree", "--from", "11", "--to", "12", f.toString()).out());
        assertTrue(run("tree", "--slowest", "--to", "2", f.toString()).out()
                .contains("slowest top-level call: 9.000 ms\nthread 11"));
    }

    @Test
    void chromeTraceAndMethodsFollowTheFilters() throws IOException {
        Path f = file();
        Path out = tmp.resolve("t.json");
        assertEquals(0, run("chrome-trace", "--thread", "12", "-o", out.toString(), f.toString()).status());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) MiniJson.object(Files.readString(out)).get("traceEvents");
        assertEquals(1, ChromeTraceJson.read(out).slices.size());
        assertTrue(events.stream().filter(e -> !"process_name".equals(e.get("name")))
                .allMatch(e -> BigDecimal.valueOf(12).equals(e.get("tid"))), events.toString());
        assertEquals(0, run("chrome-trace", "--from", "19", "-o", out.toString(), f.toString()).status());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> late = (List<Map<String, Object>>) MiniJson.object(Files.readString(out)).get("traceEvents");
        assertEquals(2, ChromeTraceJson.read(out).slices.size(), "the unfinished handle and query: " + late);

        EtlToolTest.Run m = run("methods", "--thread", "12", "--from", "1", "--to", "4", f.toString());
        assertTrue(m.out().contains("1 finished calls of 1 methods, thread 12"), m.out());
    }

    @Test
    void everyCommandTakesTheFilterOptionsAndRejectsBadValues() throws IOException {
        Path f = file();
        for (String cmd : EtlTool.COMMANDS) {
            if (cmd.equals("hot-methods")) {
                continue; // below: it lists every decision, and refuses the filters
            }
            EtlToolTest.Run r = run(cmd, "--quiet", "--thread", "11", "--from", "0", "--to", "100", f.toString(),
                    tmp.resolve("x-" + cmd).toString().replace("x-perfetto", "x.pftrace"));
            if (!cmd.equals("perfetto")) {
                r = run(cmd, "--quiet", "--thread", "11", "--from", "0", "--to", "100", f.toString());
            }
            assertEquals(0, r.status(), cmd + ": " + r.err());
            assertFalse(r.err().contains("\r"), cmd + ": no progress line when stderr is not a terminal");
            assertEquals(EtlTool.USAGE, run(cmd, "--from", "5", "--to", "5", f.toString()).status(), cmd);
            assertEquals(EtlTool.USAGE, run(cmd, "--thread", "x", f.toString()).status(), cmd);
        }
    }

    /**
     * hot-methods refuses --thread, --from and --to (it took them and listed every decision anyway, while its help said
     * "one thread"): a list for hotMethods= holds the whole run's decisions. --quiet it takes, as every command.
     */
    @Test
    void hotMethodsRefusesTheFiltersItWouldNotApply() throws IOException {
        Path f = file();
        for (String[] filter : new String[][] {{"--thread", "11"}, {"--from", "0"}, {"--to", "100"}}) {
            EtlToolTest.Run r = run("hot-methods", filter[0], filter[1], f.toString());
            assertEquals(EtlTool.USAGE, r.status(), filter[0]);
            assertEquals("", r.out(), filter[0]);
            assertEquals("jetw etl: unknown option '" + filter[0] + "' for hot-methods (see: jetw etl hot-methods --help)", r.err().trim());
        }
        assertEquals(0, run("hot-methods", "--quiet", f.toString()).status());
    }

    /** Reads the fixture through {@code p} as a command would. */
    private void feed(Progress p, Path f) throws IOException {
        try (EtlReader r = EtlReader.open(f)) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                for (int i = 0; i < 5000; i++) {
                    p.record(r, 1, 1); // the progress checks its clock every 4096 records
                }
            }
        }
        p.done();
    }

    @Test
    void progressShowsOnlyOnATerminalWithoutQuietAndOnlyAfterTwoSeconds() throws IOException {
        Path f = file();
        AtomicLong clock = new AtomicLong();
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(seen, true, StandardCharsets.UTF_8);

        Progress fast = Progress.create(err, false, true, clock::get, "tree x");
        feed(fast, f); // the clock does not move: short work
        assertEquals("", seen.toString(StandardCharsets.UTF_8));

        clock.set(0);
        Progress slow = Progress.create(err, false, true, () -> clock.addAndGet(100_000_000L), "tree x");
        feed(slow, f);
        String line = seen.toString(StandardCharsets.UTF_8);
        assertTrue(line.startsWith("\rjetw etl: tree x: ") && line.endsWith(System.lineSeparator()), line);
        assertTrue(line.contains("(pass 1 of 1)"), line);

        seen.reset();
        feed(Progress.create(err, true, true, () -> clock.addAndGet(100_000_000L), "q"), f);
        feed(Progress.create(err, false, false, () -> clock.addAndGet(100_000_000L), "pipe"), f);
        assertEquals("", seen.toString(StandardCharsets.UTF_8), "--quiet, or stderr not a terminal: nothing");
        assertFalse(Progress.forCommand(err, new CommandOptions(), "t").enabled(), "System.console() is null under the test runner");
    }
}
