package dev.jetw.bench.real;

import dev.jetw.etl.EtlReader;
import dev.jetw.etl.EtlRecord;
import dev.jetw.etl.EventType;
import dev.jetw.etl.JetwSchema;
import dev.jetw.etl.TimestampConverter;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a trace's method calls come from, by what adaptive exclusion did to their method (BENCHMARKS.md §27): every
 * written call (a START and its END) is put in its method's order of exits, the order the agent counts them in, and
 * counted by the method's fate (the MethodExclusion events: hot-short, hot-threshold then hot-fast, hot-threshold, kept,
 * never decided) and by when it was written: in the method's first window of observed calls, in a later window (before
 * the first decision), or after it (a threshold's slow calls, a kept method's calls). Calls of 2 us and 1 ms or more
 * are counted apart: those are the calls a change to the observation must not lose.
 *
 * <p>usage: {@code java -cp benchmarks.jar dev.jetw.bench.real.WindowEvents [--window N] [--top N] FILE.etl}
 */
public final class WindowEvents {

    /** Fates, in the order they are printed. */
    static final String[] FATES = {"hot-short", "hot-fast", "hot-threshold", "kept", "undecided"};
    static final String[] PHASES = {"window 1", "windows 2+", "after decision"};

    private WindowEvents() {
    }

    public static void main(String[] args) throws Exception {
        int window = 256;
        int top = 15;
        String file = null;
        String everyCall = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--compare")) {
                compare(args[i + 1], args[i + 2], top);
                return;
            } else if (args[i].equals("--simulate")) {
                simulate = new int[] {Integer.parseInt(args[++i]), Integer.parseInt(args[++i])};
            } else if (args[i].equals("--every-call")) {
                everyCall = args[++i];
            } else if (args[i].equals("--window")) {
                window = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--top")) {
                top = Integer.parseInt(args[++i]);
            } else {
                file = args[i];
            }
        }
        if (file == null) {
            System.err.println("usage: WindowEvents [--window N] [--top N] [--every-call ALL.etl] FILE.etl");
            System.exit(2);
        }
        Map<String, Method> methods = report(file, window, top);
        if (everyCall != null) {
            callsMade(everyCall, methods);
        }
    }

    /**
     * The calls the job made, by the fate of their method in the first trace: counted from a trace of the same job
     * with every call written ({@code adaptive=false}), methods matched by name (ids differ between runs).
     */
    static void callsMade(String file, Map<String, Method> byName) throws Exception {
        Map<Integer, Long> starts = new HashMap<>();
        Map<Integer, String> names = new HashMap<>();
        try (EtlReader r = EtlReader.open(Paths.get(file))) {
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                if (e.guid() == null) {
                    continue;
                }
                ByteBuffer p = ByteBuffer.wrap(e.userData()).order(ByteOrder.LITTLE_ENDIAN);
                if (e.guid().equals(JetwSchema.METHOD_CALL_CLASS) && e.type() == EventType.START) {
                    starts.merge(p.getInt(0), 1L, Long::sum);
                } else if (e.guid().equals(JetwSchema.METHOD_CLASS) && e.type() == EventType.DC_START) {
                    int id = p.getInt(0);
                    p.position(4);
                    names.put(id, utf16z(p) + "." + utf16z(p) + utf16z(p));
                }
            }
        }
        Map<String, long[]> byFate = new HashMap<>(); // {methods, calls}
        for (Map.Entry<Integer, Long> e : starts.entrySet()) {
            Method m = byName.get(names.get(e.getKey()));
            String fate = m == null ? "not called in the first trace" : m.fate;
            long[] t = byFate.computeIfAbsent(fate, k -> new long[2]);
            t[0]++;
            t[1] += e.getValue();
        }
        System.out.printf("%s: calls the job made (STARTs), by the method's fate in the first trace%n", file);
        for (Map.Entry<String, long[]> e : byFate.entrySet()) {
            System.out.printf("%-30s %6d methods %,12d calls%n", e.getKey(), e.getValue()[0], e.getValue()[1]);
        }
    }

    private static final class Method {
        String name = "?";
        /** Raw time of the first decision that ended its observation (hot-short, hot-threshold), or MAX. */
        long decidedAt = Long.MAX_VALUE;
        String fate = "undecided";
        long[] calls = new long[PHASES.length];
        long[] slow = new long[PHASES.length];
        long[] verySlow = new long[PHASES.length];
        int exits;
        int maxCallsObserved;
        /** Durations in ns of the written calls, in exit order. */
        double[] durations = new double[16];
    }

    /**
     * What a second trace of the same job no longer writes: per method (by name), the calls of 2 us and of 1 ms or more
     * written in {@code base} and in {@code other}; the sum over methods of what {@code other} writes fewer of (the calls
     * lost, if the runs timed alike) and more of. Two traces of the same jar give the noise of this count.
     */
    static void compare(String base, String other, int top) throws Exception {
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(new java.io.ByteArrayOutputStream()));
        Map<String, Method> a;
        Map<String, Method> b;
        try {
            a = report(base, 256, 0);
            b = report(other, 256, 0);
        } finally {
            System.setOut(out);
        }
        long[] fewer = new long[2];
        long[] more = new long[2];
        long[] totalA = new long[2];
        long[] totalB = new long[2];
        List<Object[]> deficits = new ArrayList<>();
        java.util.Set<String> names = new java.util.HashSet<>(a.keySet());
        names.addAll(b.keySet());
        for (String name : names) {
            long[] ca = slowCounts(a.get(name));
            long[] cb = slowCounts(b.get(name));
            for (int k = 0; k < 2; k++) {
                totalA[k] += ca[k];
                totalB[k] += cb[k];
                fewer[k] += Math.max(0, ca[k] - cb[k]);
                more[k] += Math.max(0, cb[k] - ca[k]);
            }
            if (ca[0] > cb[0]) {
                deficits.add(new Object[] {ca[0] - cb[0], name, ca[0], cb[0], a.containsKey(name) ? a.get(name).fate : "-",
                        b.containsKey(name) ? b.get(name).fate : "-"});
            }
        }
        System.out.printf("%s -> %s%n  calls >= 2 us: %,d -> %,d; by method %,d fewer, %,d more%n"
                        + "  calls >= 1 ms: %,d -> %,d; by method %,d fewer, %,d more%n",
                base, other, totalA[0], totalB[0], fewer[0], more[0], totalA[1], totalB[1], fewer[1], more[1]);
        // The calls lost by a different decision: methods the second trace excluded (hot-short, hot-fast) and the first
        // did not; what the first wrote of them after as many calls as the second wrote before its decision.
        long[] lost = new long[3];
        List<String> lostNames = new ArrayList<>();
        for (String name : names) {
            Method ma = a.get(name);
            Method mb = b.get(name);
            if (ma == null || mb == null || !excluded(mb) || excluded(ma)) {
                continue;
            }
            lost[0]++;
            for (int i = mb.exits; i < ma.exits; i++) {
                if (ma.durations[i] >= 2_000) {
                    lost[1]++;
                }
                if (ma.durations[i] >= 1_000_000) {
                    lost[2]++;
                }
            }
            lostNames.add(ma.fate + " -> " + mb.fate + " " + name);
        }
        System.out.printf("  excluded only in the second: %d methods; the first wrote of them later %,d calls >= 2 us, %,d >= 1 ms%n",
                lost[0], lost[1], lost[2]);
        for (int i = 0; i < Math.min(top, lostNames.size()); i++) {
            System.out.println("    " + lostNames.get(i));
        }
        deficits.sort((x, y) -> Long.compare((Long) y[0], (Long) x[0]));
        for (int i = 0; i < Math.min(top, deficits.size()); i++) {
            Object[] d = deficits.get(i);
            System.out.printf("  %,7d fewer >= 2 us (%d -> %d, %s -> %s) %s%n", d[0], d[2], d[3], d[4], d[5], d[1]);
        }
    }

    private static boolean excluded(Method m) {
        return m.fate.equals("hot-short") || m.fate.equals("hot-fast");
    }

    private static long[] slowCounts(Method m) {
        if (m == null) {
            return new long[2];
        }
        long slow = 0;
        long verySlow = 0;
        for (int i = 0; i < PHASES.length; i++) {
            slow += m.slow[i];
            verySlow += m.verySlow[i];
        }
        return new long[] {slow, verySlow};
    }

    /** How long the first calls are: of each fate's written calls by their index (1-16, 17-64, 65-256, 257-1024), those of 2 us or more. */
    static void firstCalls(Map<String, Method> methods) {
        int[] bounds = {0, 16, 64, 256, 1024};
        System.out.println("calls >= 2 us / calls written, by the call's index in its method (1-16, 17-64, 65-256, 257-1024)");
        for (String fate : FATES) {
            StringBuilder line = new StringBuilder(String.format("%-13s", fate));
            for (int k = 1; k < bounds.length; k++) {
                long n = 0;
                long slow = 0;
                for (Method m : methods.values()) {
                    if (!m.fate.equals(fate)) {
                        continue;
                    }
                    for (int i = bounds[k - 1]; i < Math.min(bounds[k], m.exits); i++) {
                        n++;
                        if (m.durations[i] >= 2_000) {
                            slow++;
                        }
                    }
                }
                line.append(String.format("  %,d/%,d", slow, n));
            }
            System.out.println(line);
        }
    }

    static int[] simulate;

    /**
     * A first-order what-if of an early decision: a method whose first {@code n} written calls have at most
     * {@code allowed} of 2 us or more is excluded at its n-th call; what the trace holds after it is what the rule
     * would not write (the effect on the callers, whose durations hold their callees' tracing, is not modelled).
     */
    static void simulate(Map<String, Method> methods, int n, int allowed) {
        Map<String, long[]> byFate = new HashMap<>(); // {methods, calls after, >=2us after, >=1ms after}
        for (Method m : methods.values()) {
            if (m.exits < n) {
                continue;
            }
            int slow = 0;
            for (int i = 0; i < n; i++) {
                if (m.durations[i] >= 2_000) {
                    slow++;
                }
            }
            if (slow > allowed) {
                continue;
            }
            long[] t = byFate.computeIfAbsent(m.fate, k -> new long[4]);
            t[0]++;
            for (int i = n; i < m.exits; i++) {
                t[1]++;
                if (m.durations[i] >= 2_000) {
                    t[2]++;
                }
                if (m.durations[i] >= 1_000_000) {
                    t[3]++;
                }
            }
        }
        System.out.printf("what-if: excluded after %d calls with at most %d of them >= 2 us; by the base fate: methods, calls no longer written, of them >= 2 us, >= 1 ms%n",
                n, allowed);
        for (Map.Entry<String, long[]> e : byFate.entrySet()) {
            long[] t = e.getValue();
            System.out.printf("%-14s %6d %,10d %,9d %,7d%n", e.getKey(), t[0], t[1], t[2], t[3]);
        }
    }

    static Map<String, Method> report(String file, int window, int top) throws Exception {
        List<long[]> ends = new ArrayList<>(); // {endRaw, methodId, startRaw}
        Map<Integer, Method> methods = new HashMap<>();
        Map<Integer, long[]> open = new HashMap<>();
        long records = 0;
        long callEvents = 0;
        long unpaired = 0;
        TimestampConverter time;
        try (EtlReader r = EtlReader.open(Paths.get(file))) {
            time = r.timestamps();
            for (EtlRecord e = r.next(); e != null; e = r.next()) {
                records++;
                if (e.guid() == null) {
                    continue;
                }
                ByteBuffer p = ByteBuffer.wrap(e.userData()).order(ByteOrder.LITTLE_ENDIAN);
                if (e.guid().equals(JetwSchema.METHOD_CALL_CLASS)) {
                    if (e.type() == EventType.START) {
                        callEvents++;
                        open.put(e.instanceId(), new long[] {p.getInt(0), e.rawTimestamp()});
                    } else if (e.type() == EventType.END) {
                        callEvents++;
                        long[] s = open.remove(e.instanceId());
                        if (s == null) {
                            unpaired++;
                        } else {
                            ends.add(new long[] {e.rawTimestamp(), s[0], s[1]});
                        }
                    }
                } else if (e.guid().equals(JetwSchema.METHOD_CLASS) && e.type() == EventType.DC_START) {
                    int id = p.getInt(0);
                    p.position(4);
                    String cls = utf16z(p);
                    String name = utf16z(p);
                    methods.computeIfAbsent(id, k -> new Method()).name = cls + "." + name + utf16z(p);
                } else if (e.guid().equals(JetwSchema.METHOD_EXCLUSION_CLASS)) {
                    int id = p.getInt(0);
                    int observed = p.getInt(4);
                    p.position(20);
                    String reason = utf16z(p);
                    if (id == 0) {
                        continue;
                    }
                    Method m = methods.computeIfAbsent(id, k -> new Method());
                    m.maxCallsObserved = Math.max(m.maxCallsObserved, observed);
                    if (reason.startsWith(JetwSchema.EXCLUSION_HOT_SHORT)) {
                        m.fate = "hot-short";
                    } else if (reason.startsWith(JetwSchema.EXCLUSION_HOT_FAST)) {
                        m.fate = "hot-fast";
                    } else if (reason.startsWith(JetwSchema.EXCLUSION_HOT_THRESHOLD)) {
                        if (!m.fate.equals("hot-fast")) {
                            m.fate = "hot-threshold";
                        }
                    } else {
                        m.fate = reason;
                    }
                    if (!reason.startsWith(JetwSchema.EXCLUSION_HOT_FAST)) {
                        m.decidedAt = Math.min(m.decidedAt, e.rawTimestamp());
                    }
                }
            }
        }
        ends.sort((a, b) -> Long.compare(a[0], b[0]));
        double nanosPerTick = 1e9 * (time.secondsSinceStart(1_000_000_000L) - time.secondsSinceStart(0)) / 1_000_000_000L;
        for (long[] c : ends) {
            Method m = methods.computeIfAbsent((int) c[1], k -> new Method());
            int k = m.exits++;
            double nanos = (c[0] - c[2]) * nanosPerTick;
            if (k == m.durations.length) {
                m.durations = Arrays.copyOf(m.durations, 2 * k);
            }
            m.durations[k] = nanos;
            int phase = c[0] > m.decidedAt ? 2 : k < window ? 0 : 1;
            m.calls[phase]++;
            if (nanos >= 2_000) {
                m.slow[phase]++;
            }
            if (nanos >= 1_000_000) {
                m.verySlow[phase]++;
            }
        }
        for (Method m : methods.values()) {
            if (m.fate.equals("undecided") && m.exits >= 4 * window) {
                m.fate = "kept";
            }
        }
        System.out.printf("%s: %,d records, %,d call events (START/END), %,d calls paired, %,d ENDs unpaired, %d methods named%n",
                file, records, callEvents, ends.size(), unpaired, methods.size());
        System.out.println("fate          phase            methods       calls   calls>=2us  calls>=1ms");
        long[] total = new long[3];
        for (String fate : FATES) {
            for (int ph = 0; ph < PHASES.length; ph++) {
                long n = 0;
                long calls = 0;
                long slow = 0;
                long verySlow = 0;
                for (Method m : methods.values()) {
                    if (m.fate.equals(fate) && m.calls[ph] > 0) {
                        n++;
                        calls += m.calls[ph];
                        slow += m.slow[ph];
                        verySlow += m.verySlow[ph];
                    }
                }
                total[0] += calls;
                total[1] += slow;
                total[2] += verySlow;
                System.out.printf("%-13s %-15s %8d %,11d %,12d %,11d%n", fate, PHASES[ph], n, calls, slow, verySlow);
            }
        }
        System.out.printf("%-13s %-15s %8s %,11d %,12d %,11d%n", "all", "", "", total[0], total[1], total[2]);
        Map<String, Integer> fates = new java.util.TreeMap<>();
        for (Method m : methods.values()) {
            if (m.exits > 0 || !m.fate.equals("undecided")) {
                fates.merge(m.fate, 1, Integer::sum);
            }
        }
        System.out.println("methods by fate (called or decided): " + fates);
        Method[] byCalls = methods.values().toArray(new Method[0]);
        Arrays.sort(byCalls, (a, b) -> Integer.compare(b.exits, a.exits));
        System.out.println("top methods by calls written: calls (window 1 / windows 2+ / after), >=2us, fate, method");
        for (int i = 0; i < Math.min(top, byCalls.length); i++) {
            Method m = byCalls[i];
            System.out.printf("%,9d (%d/%d/%d) %d  %s  %s%n", m.exits, m.calls[0], m.calls[1], m.calls[2],
                    m.slow[0] + m.slow[1] + m.slow[2], m.fate, m.name);
        }
        Map<String, Method> byName = new HashMap<>();
        for (Method m : methods.values()) {
            byName.put(m.name, m);
        }
        if (simulate != null) {
            simulate(byName, simulate[0], simulate[1]);
        }
        firstCalls(byName);
        return byName;
    }

    private static String utf16z(ByteBuffer p) {
        StringBuilder s = new StringBuilder();
        while (p.remaining() >= 2) {
            char c = p.getChar();
            if (c == 0) {
                break;
            }
            s.append(c);
        }
        return s.toString();
    }
}
