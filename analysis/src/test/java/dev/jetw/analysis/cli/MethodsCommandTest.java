package dev.jetw.analysis.cli;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code methods} on {@link JetwTraceFixture}, whose buffers are not in time order (an END before its
 * START, a child after its parent): the figures below are worked out by hand from the fixture's table.
 */
class MethodsCommandTest {

    @TempDir
    Path tmp;

    private String[] run(String... args) throws IOException {
        Path f = tmp.resolve("t.etl");
        Files.write(f, JetwTraceFixture.build());
        String[] all = new String[args.length + 1];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = f.toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[]{Integer.toString(status), out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8)};
    }

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> byMethod(String json) {
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(json.trim());
        Map<String, Map<String, Object>> out = new java.util.TreeMap<>();
        for (Object o : (List<Object>) root.get("methods")) {
            Map<String, Object> m = (Map<String, Object>) o;
            out.put((String) m.get("method"), m);
        }
        return out;
    }

    private static double d(Map<String, Object> m, String key) {
        return ((BigDecimal) m.get(key)).doubleValue();
    }

    @Test
    void totalsSelfTimesQuantilesAndExceptionsPerMethod() throws IOException {
        String[] r = run("methods", "--json");
        assertEquals("0", r[0], r[2]);
        Map<String, Map<String, Object>> m = byMethod(r[1]);
        Map<String, Object> handle = m.get("com.example.Shop.handle(Ljava/lang/String;)V");
        Map<String, Object> query = m.get("com.example.Db.query()I");
        Map<String, Object> render = m.get("com.example.Shop.render()V");
        assertEquals(3, m.size(), m.keySet().toString());
        assertEquals(1, d(handle, "calls"));
        assertEquals(9.0, d(handle, "totalMs"), 1e-9);
        assertEquals(5.5, d(handle, "selfMs"), 1e-9, "9 ms less query 3 ms and render 0.5 ms, read after it");
        assertEquals(2, d(query, "calls"));
        assertEquals(15.25, d(query, "totalMs"), 1e-9);
        assertEquals(15.25, d(query, "selfMs"), 1e-9);
        assertEquals(12.25, d(query, "maxMs"), 1e-9);
        assertEquals(3.0, d(query, "p50Ms"), 3.0 * 0.011, "within 1 %");
        assertEquals(12.25, d(query, "p99Ms"), 12.25 * 0.011);
        assertEquals(1, d(render, "exceptions"));
        assertEquals(0, d(handle, "exceptions"));
        assertTrue(r[1].contains("\"halfSeenCalls\":2"), "handle #4 and query #5 never ended: " + r[1]);
    }

    @Test
    void threadAndWindowFiltersSelectByTheCallsStart() throws IOException {
        Map<String, Map<String, Object>> t12 = byMethod(run("methods", "--json", "--thread", "12")[1]);
        assertEquals(List.of("com.example.Db.query()I"), List.copyOf(t12.keySet()));
        assertEquals(12.25, d(t12.get("com.example.Db.query()I"), "totalMs"), 1e-9);

        Map<String, Map<String, Object>> window = byMethod(run("methods", "--json", "--from", "2", "--to", "8")[1]);
        assertEquals(2, window.size(), "handle started at 1 ms, outside: " + window.keySet());
        assertEquals(2, d(window.get("com.example.Db.query()I"), "calls"));
    }

    @Test
    void textIsSortedAndBadOptionsAreUsageErrors() throws IOException {
        String[] r = run("methods", "--sort", "calls", "--top", "1");
        assertEquals("0", r[0], r[2]);
        assertTrue(r[1].contains("com.example.Db.query()I"), r[1]);
        assertTrue(r[1].contains("(2 more methods; --top N shows more)"), r[1]);
        assertEquals("2", run("methods", "--sort", "fastest")[0]);
        assertEquals("2", run("methods", "--top", "0")[0]);
        assertEquals("2", run("methods", "--from", "5", "--to", "5")[0]);
        assertTrue(run("methods", "--sort", "fastest")[2].contains("allowed total, self, calls"));
    }

    /**
     * An attach ramp: "Early" instrumented at 0.1 ms and called then; "Late" instrumented at 12.3 s (its DC_START) and
     * called from then on; "Rare" instrumented at 0.1 ms but first called at 13 s (called rarely, not traced late);
     * "Dumped" called at 1 s whose only DC_START comes at 20 s (a dump's second rundown: when its tracing began is
     * unknown). Only "Late" says it was traced from +12.3 s.
     */
    private Path rampTrace() throws IOException {
        dev.jetw.etl.EtlFixtureBuilder b = new dev.jetw.etl.EtlFixtureBuilder();
        b.loggerName = "jetw";
        b.newBuffer();
        int inst = 1;
        Object[][] methods = {{1, "Early", 0.1, 1.0}, {2, "Late", 12_300.0, 12_400.0}, {3, "Rare", 0.1, 13_000.0},
                {4, "Dumped", 20_000.0, 1_000.0}};
        for (Object[] m : methods) {
            int id = (Integer) m[0];
            b.record(dev.jetw.etl.EtlFixtureBuilder.full(true, dev.jetw.etl.EventType.DC_START, 0, 0, 11, JetwTraceFixture.PID,
                    JetwTraceFixture.ts(b, (Double) m[2]), dev.jetw.etl.JetwSchema.METHOD_CLASS,
                    dev.jetw.etl.EtlFixtureBuilder.concat(dev.jetw.etl.EtlFixtureBuilder.u32(id),
                            dev.jetw.etl.EtlFixtureBuilder.utf16z("com.example." + m[1]),
                            dev.jetw.etl.EtlFixtureBuilder.utf16z("run"), dev.jetw.etl.EtlFixtureBuilder.utf16z("()V"))));
            double at = (Double) m[3];
            for (int call = 0; call < 2; call++, inst++, at += 10) {
                b.record(JetwTraceFixture.call(b, dev.jetw.etl.EventType.START, 11, at, inst, 0, dev.jetw.etl.EtlFixtureBuilder.u32(id)));
                b.record(JetwTraceFixture.call(b, dev.jetw.etl.EventType.END, 11, at + 1, inst, 0,
                        JetwTraceFixture.end(id, "")));
            }
        }
        Path f = tmp.resolve("ramp.etl");
        Files.write(f, b.build());
        return f;
    }

    private static String[] runOn(Path f, String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = f.toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[]{Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void aMethodInstrumentedLateSaysFromWhenItWasTracedInTextAndJson() throws IOException {
        Path f = rampTrace();
        String[] text = runOn(f, "methods");
        assertEquals("0", text[0], text[2]);
        List<String> lines = text[1].lines().toList();
        assertTrue(lines.stream().anyMatch(l -> l.endsWith("com.example.Late.run()V  (traced from +12.3 s)")), text[1]);
        for (String other : List.of("Early", "Rare", "Dumped")) {
            assertTrue(lines.stream().anyMatch(l -> l.endsWith("com.example." + other + ".run()V")), other + ": " + text[1]);
        }
        assertTrue(text[1].contains("traced from +T s: the method's tracing began T s after the session start"), text[1]);
        assertTrue(text[1].contains("After an attach, the classes the application was running then are not in it at all, unless attached"
                + " with attachHot=defer"), "the default attachHot=skip leaves them out: the note says how to get them\n" + text[1]);

        Map<String, Map<String, Object>> json = byMethod(runOn(f, "methods", "--json")[1]);
        assertEquals(Boolean.TRUE, json.get("com.example.Late.run()V").get("tracedLate"));
        assertEquals(12_300.0, d(json.get("com.example.Late.run()V"), "tracedFromMs"), 1e-9);
        assertEquals(Boolean.FALSE, json.get("com.example.Rare.run()V").get("tracedLate"));
        assertEquals(0.1, d(json.get("com.example.Rare.run()V"), "tracedFromMs"), 1e-9);
        assertEquals(Boolean.FALSE, json.get("com.example.Dumped.run()V").get("tracedLate"));
        assertEquals(null, json.get("com.example.Dumped.run()V").get("tracedFromMs"), "a call before its only DC_START");

        // Counted from a window that starts after the late start, nothing began late within it.
        String[] window = runOn(f, "methods", "--from", "12350");
        assertTrue(window[1].lines().anyMatch(l -> l.endsWith("com.example.Late.run()V")), window[1]);
        assertTrue(!window[1].contains("traced from"), window[1]);
    }
}
