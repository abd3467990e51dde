package dev.jetw.analysis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * chrome-trace's JSON read back the way its viewers read it, written from the Trace Event Format
 * document and from reading speedscope 1.25's importer (npm package {@code speedscope},
 * {@code dist/release/speedscope-*.js}; not its code), with the checks that fail on what they misread:
 * <ul>
 *   <li>Perfetto / chrome://tracing: per track (pid, tid), "B" and "E" events in file order form a stack
 *       (an "E" closes the innermost open slice, with its name), time never goes back on a track, no slice
 *       is left open; "E" args are merged into the slice; complete events ("X") of one track never
 *       partly overlap;</li>
 *   <li>speedscope: a frame is keyed by the "B" event's name plus, when it has args, " " and the args'
 *       JSON; per track it sorts B and E by time (B first at a tie only when the two keys are equal, else
 *       E first) and closes the top frame on each E, which must have the top frame's name, and warns
 *       ("Tried to end ... Ending ... instead") when the E's key is not the top frame's (an E with other
 *       args than its B).</li>
 * </ul>
 * speedscope's own importer reads the exports too, where .ci/run installed it (ViewerChecksTest).
 */
final class ChromeTraceJson {

    /** A slice as a viewer shows it: times in µs after the session start, args of B and E merged. */
    static final class Slice {
        final long pid;
        final long tid;
        final String name;
        final String cat;
        final double ts;
        final double dur;
        final Map<String, Object> args;

        Slice(long pid, long tid, String name, String cat, double ts, double dur, Map<String, Object> args) {
            this.pid = pid;
            this.tid = tid;
            this.name = name;
            this.cat = cat;
            this.ts = ts;
            this.dur = dur;
            this.args = args;
        }

        @Override
        public String toString() {
            return name + " ts=" + ts + " dur=" + dur;
        }
    }

    final List<Map<String, Object>> events;
    final List<Slice> slices = new ArrayList<>();
    final List<Map<String, Object>> instants = new ArrayList<>();
    /** thread_name metadata: tid -> name (pid ignored: the fixtures have one process). */
    final Map<Long, String> threadNames = new TreeMap<>();
    /** speedscope's frame keys, per category of the B events. */
    final Map<String, Set<String>> frameKeys = new TreeMap<>();

    @SuppressWarnings("unchecked")
    private ChromeTraceJson(String json) {
        events = (List<Map<String, Object>>) MiniJson.object(json).get("traceEvents");
        Map<String, Deque<Map<String, Object>>> open = new LinkedHashMap<>();
        Map<String, Double> last = new LinkedHashMap<>();
        Map<String, List<double[]>> complete = new LinkedHashMap<>();
        for (Map<String, Object> e : events) {
            String ph = (String) e.get("ph");
            String track = e.get("pid") + "/" + e.get("tid");
            switch (ph) {
                case "B":
                case "E": {
                    double ts = num(e.get("ts"));
                    Double before = last.put(track, ts);
                    assertTrue(before == null || ts >= before, "track " + track + " goes back in time at " + e);
                    Deque<Map<String, Object>> stack = open.computeIfAbsent(track, k -> new ArrayDeque<>());
                    if (ph.equals("B")) {
                        stack.push(e);
                        frameKeys.computeIfAbsent((String) e.get("cat"), k -> new LinkedHashSet<>()).add(frameKey(e));
                    } else {
                        assertTrue(!stack.isEmpty(), "an E with no open slice: " + e);
                        Map<String, Object> b = stack.pop();
                        assertEquals(b.get("name"), e.get("name"), "an E closes the innermost slice, by name");
                        Map<String, Object> args = new LinkedHashMap<>(args(b));
                        args.putAll(args(e));
                        slices.add(new Slice(lng(e.get("pid")), lng(e.get("tid")), (String) b.get("name"),
                                (String) b.get("cat"), num(b.get("ts")), ts - num(b.get("ts")), args));
                    }
                    break;
                }
                case "X": {
                    double from = num(e.get("ts"));
                    double to = from + num(e.get("dur"));
                    for (double[] o : complete.computeIfAbsent(track, k -> new ArrayList<>())) {
                        boolean nested = (from >= o[0] && to <= o[1]) || (o[0] >= from && o[1] <= to);
                        assertTrue(nested || to <= o[0] || from >= o[1], "complete events overlap partly on " + track + ": " + e);
                    }
                    complete.get(track).add(new double[] {from, to});
                    slices.add(new Slice(lng(e.get("pid")), lng(e.get("tid")), (String) e.get("name"), (String) e.get("cat"),
                            from, to - from, args(e)));
                    break;
                }
                case "i":
                    instants.add(e);
                    break;
                case "M":
                    if ("thread_name".equals(e.get("name"))) {
                        threadNames.put(lng(e.get("tid")), (String) args(e).get("name"));
                    }
                    break;
                case "s":
                case "f":
                    break;
                default:
                    fail("unexpected phase " + ph + ": " + e);
            }
        }
        open.forEach((track, stack) -> assertTrue(stack.isEmpty(), "slices left open on " + track + ": " + stack));
        speedscope();
    }

    static ChromeTraceJson read(Path file) throws IOException {
        return new ChromeTraceJson(Files.readString(file));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> args(Map<String, Object> e) {
        Object a = e.get("args");
        return a == null ? Map.of() : (Map<String, Object>) a;
    }

    /** speedscope's key: the name, then " " and the args' JSON when the event has args. */
    private static String frameKey(Map<String, Object> e) {
        return e.containsKey("args") ? e.get("name") + " " + e.get("args") : (String) e.get("name");
    }

    /** speedscope's pass over each track: B and E queues by time, a tie resolved by the keys, each E closing the top frame. */
    private void speedscope() {
        Map<String, List<Map<String, Object>>> begins = new LinkedHashMap<>();
        Map<String, List<Map<String, Object>>> ends = new LinkedHashMap<>();
        for (Map<String, Object> e : events) {
            String ph = (String) e.get("ph");
            if (ph.equals("B") || ph.equals("E")) {
                String track = e.get("pid") + "/" + e.get("tid");
                (ph.equals("B") ? begins : ends).computeIfAbsent(track, k -> new ArrayList<>()).add(e);
                (ph.equals("B") ? ends : begins).computeIfAbsent(track, k -> new ArrayList<>());
            }
        }
        for (String track : begins.keySet()) {
            List<Map<String, Object>> b = new ArrayList<>(begins.get(track));
            List<Map<String, Object>> e = new ArrayList<>(ends.get(track));
            b.sort((x, y) -> Double.compare(num(x.get("ts")), num(y.get("ts"))));
            e.sort((x, y) -> Double.compare(num(x.get("ts")), num(y.get("ts"))));
            Deque<Map<String, Object>> stack = new ArrayDeque<>();
            while (!b.isEmpty() || !e.isEmpty()) {
                boolean begin;
                if (e.isEmpty()) {
                    begin = true;
                } else if (b.isEmpty()) {
                    begin = false;
                } else {
                    double tb = num(b.get(0).get("ts"));
                    double te = num(e.get(0).get("ts"));
                    begin = tb < te || (tb == te && frameKey(b.get(0)).equals(frameKey(e.get(0))));
                }
                if (begin) {
                    stack.push(b.remove(0));
                } else {
                    Map<String, Object> end = e.remove(0);
                    assertTrue(!stack.isEmpty() && Objects.equals(stack.peek().get("name"), end.get("name")),
                            "speedscope would not close a frame on " + track + " at " + end + "; open: " + stack.peek());
                    assertEquals(frameKey(stack.peek()), frameKey(end), "speedscope warns: an E whose key is not its B's on " + track);
                    stack.pop();
                }
            }
        }
    }

    /** The slices of track {@code tid}, as "name ts=.. dur=..", in the order they end. */
    List<String> on(long tid) {
        List<String> out = new ArrayList<>();
        for (Slice s : slices) {
            if (s.tid == tid) {
                out.add(s.toString());
            }
        }
        return out;
    }

    /** The tid of the track named {@code name}. */
    long track(String name) {
        for (Map.Entry<Long, String> t : threadNames.entrySet()) {
            if (t.getValue().equals(name)) {
                return t.getKey();
            }
        }
        throw new AssertionError("no track " + name + " in " + threadNames);
    }

    static double num(Object o) {
        return ((BigDecimal) o).doubleValue();
    }

    static long lng(Object o) {
        return ((BigDecimal) o).longValue();
    }
}
