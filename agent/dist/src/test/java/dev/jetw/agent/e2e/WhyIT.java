package dev.jetw.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.app.WhyApp;
import dev.jetw.analysis.cli.EtlTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jetw etl why} on a trace a child JVM wrote (portable backend: header thread ids are Java
 * ids; default JVM events from JFR, Java 17+) with calls slow for known reasons (WhyApp): each
 * breakdown must put the time in the right category. Lower bounds are what the program guarantees
 * (a sleep lasts at least its time); the trace has no kernel events, which the output must say.
 */
class WhyIT {

    static final String APP = WhyApp.class.getName();

    @TempDir
    Path temp;

    @Test
    void eachSlowCallIsExplainedByItsCause() throws Exception {
        Path etl = temp.resolve("why.etl");
        String options = "include=" + APP + ",exclude=" + APP + "#main;" + APP + "#contend,backend=portable,file=" + etl;
        ChildJvm child = ChildJvm.start(List.of("-javaagent:" + ChildJvm.agentJar() + "=" + options), ChildJvm.appClassPath(),
                WhyApp.class);
        assertEquals(0, child.waitForExit(), child.toString());
        assertTrue(child.stdout().contains("done"), child.toString());

        String out = why(etl);
        Map<String, Map<String, Double>> calls = table(out);
        assertTrue(out.contains("note: no kernel events in this trace"), out);

        // The sleeps: 100 ms in the traced child nap(), 100 ms in sleepRequest() itself; no JVM event explains them.
        Map<String, Double> sleep = calls.get("sleepRequest");
        assertNotNull(sleep, out);
        assertTrue(sleep.get("traced children") >= 100, out);
        assertTrue(sleep.get("self (not in a traced child)") >= 100, out);
        assertEquals(sleep.get("wall"), sleep.get("traced children") + sleep.get("self (not in a traced child)"), 0.0015, out);
        assertTrue(!sleep.containsKey("JvmContention") && !sleep.containsKey("JvmPark"), out);

        // The contended monitor: blocked about 150 ms, and that is most of the call.
        Map<String, Double> lock = calls.get("lockRequest");
        assertNotNull(lock, out);
        assertNotNull(lock.get("JvmContention"), out);
        assertTrue(lock.get("JvmContention") >= 100, out);
        assertTrue(lock.get("JvmContention") >= 0.5 * lock.get("wall"), out);

        // The forced GC: a pause (which stops every thread) inside the call.
        Map<String, Double> gc = calls.get("gcRequest");
        assertNotNull(gc, out);
        assertNotNull(gc.get("JvmGcPause"), out);
        assertTrue(gc.get("JvmGcPause") > 0 && gc.get("JvmGcPause") <= gc.get("wall"), out);
        assertTrue(out.contains("stops every thread"), out);
        assertTrue(!gc.containsKey("JvmContention"), "the contention was on another thread: " + out);
    }

    private static String why(Path etl) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = EtlTool.run(new String[] {"why", "--slowest", "10", etl.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
        return text;
    }

    /** Per call (by method name), its rows in ms, with "wall": from why's text table. */
    private static Map<String, Map<String, Double>> table(String out) {
        Map<String, Map<String, Double>> calls = new HashMap<>();
        Map<String, Double> current = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("#")) {
                String[] p = line.split(" +");
                String method = p[3].substring(APP.length() + 1, p[3].indexOf('('));
                current = new HashMap<>();
                current.put("wall", Double.parseDouble(p[1]));
                calls.put(method, current);
            } else if (current != null && line.length() > 60 && line.startsWith("  ") && !line.startsWith("  note")) {
                String name = line.substring(2, 46).trim();
                String ms = line.substring(46, 57).trim();
                if (!ms.equals("-") && !name.isEmpty()) {
                    current.put(name, Double.parseDouble(ms));
                }
            }
        }
        return calls;
    }
}
