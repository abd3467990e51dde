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
}
