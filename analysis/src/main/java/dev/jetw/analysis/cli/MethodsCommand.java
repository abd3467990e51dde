package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;
import dev.jetw.analysis.stats.CallStatistics;
import dev.jetw.analysis.stats.MethodStats;
import dev.jetw.analysis.stats.TracingStarts;
import dev.jetw.etl.EventType;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * {@code methods [--json] [--sort KEY] [--top N] [--thread TID] [--from MS] [--to MS] FILE...}: per
 * method, its finished calls, total and self time, mean, p50/p90/p99 (within 1 %) and max, and the
 * calls that ended by an exception, in one streaming pass ({@link CallStatistics}). A call counts
 * when its thread matches and it started inside the window (milliseconds after the session start). A method
 * whose tracing began well after the session start (its Method DC_START: the attach ramp, a class loaded late) says
 * from when ({@link TracingStarts}): its counts cover only the time since.
 */
final class MethodsCommand {

    /** The sort keys, all descending. */
    static final List<String> SORT_KEYS = java.util.Arrays.asList("total", "self", "calls", "mean", "p99", "max", "exceptions");
    /** Text output lists this many methods unless --top says otherwise; JSON lists all. */
    static final int DEFAULT_TEXT_TOP = 40;

    private MethodsCommand() {
    }

    static int run(List<Path> files, CommandOptions o, PrintStream out, PrintStream err) {
        int status = EtlTool.OK;
        for (Path f : files) {
            status = EtlTool.worse(status, EtlFileRun.run(f, err, reader -> {
                TimeWindow window = o.window(reader.header().startTime());
                CallStatistics stats = new CallStatistics((tid, start) -> o.threadMatches(tid) && window.contains(start));
                JetwNames names = new JetwNames();
                ClassesLeftAlone leftAlone = new ClassesLeftAlone();
                TracingStarts starts = new TracingStarts(reader.header().startTime());
                Progress progress = Progress.forCommand(err, o, "methods " + f);
                for (EtlRecord r = reader.next(); r != null; r = reader.next()) {
                    progress.record(reader, 1, 1);
                    JetwEvent e = JetwEvent.decode(r);
                    names.accept(r, e);
                    if (e == null || leftAlone.accept(e)) {
                        continue;
                    }
                    noteTracingStart(starts, r, e);
                    if (e.kind == JetwEvent.Kind.CALL_START) {
                        stats.start(r.processId(), r.threadId(), r.instanceId(), r.parentInstanceId(), e.methodId,
                                r.fileTime());
                    } else if (e.kind == JetwEvent.Kind.CALL_END) {
                        stats.end(r.processId(), r.instanceId(), r.parentInstanceId(), e.methodId, r.fileTime(),
                                e.text);
                    }
                }
                progress.done();
                List<MethodStats> list = new ArrayList<>(stats.methods());
                list.sort(order(o.sort).thenComparingInt(MethodStats::methodId));
                int top = o.top != null ? o.top : o.json ? Integer.MAX_VALUE : DEFAULT_TEXT_TOP;
                if (o.json) {
                    out.println(json(f, reader.header().loggerName(), stats, list, top, names, starts, window.from, leftAlone));
                } else {
                    out.print(text(f, reader.header().loggerName(), stats, list, top, names, o, starts, window.from, leftAlone));
                }
            }));
        }
        return status;
    }

    /** The agent's events tell when each method's tracing began: its DC_STARTs against its calls (TracingStarts). */
    private static void noteTracingStart(TracingStarts starts, EtlRecord r, JetwEvent e) {
        if (e.kind == JetwEvent.Kind.METHOD && r.type() == EventType.DC_START) {
            starts.rundown(e.methodId, r.fileTime());
        } else if (e.kind == JetwEvent.Kind.CALL_START || e.kind == JetwEvent.Kind.CALL_END) {
            starts.call(e.methodId, r.fileTime());
        } else if (e.kind != JetwEvent.Kind.RUNTIME) {
            starts.event(r.fileTime()); // runtime events carry the JVM's own start times, which may precede the session
        }
    }

    /** " (traced from +12.3 s)" for a method whose tracing began late (counted from {@code from}), else "". */
    private static String tracedFromNote(TracingStarts starts, long from, int methodId) {
        long late = starts.beganLate(methodId, from);
        return late == TracingStarts.UNKNOWN ? ""
                : String.format(Locale.ROOT, "  (traced from +%.1f s)", (late - starts.sessionStart()) / 10_000_000.0);
    }

    static Comparator<MethodStats> order(String key) {
        switch (key) {
            case "self": return Comparator.comparingLong(MethodStats::self).reversed();
            case "calls": return Comparator.comparingLong(MethodStats::calls).reversed();
            case "mean": return Comparator.comparingLong(MethodStats::mean).reversed();
            case "p99": return Comparator.comparingLong((MethodStats m) -> m.quantile(0.99)).reversed();
            case "max": return Comparator.comparingLong(MethodStats::max).reversed();
            case "exceptions": return Comparator.comparingLong(MethodStats::exceptions).reversed();
            default: return Comparator.comparingLong(MethodStats::total).reversed();
        }
    }

    private static String text(Path f, String session, CallStatistics stats, List<MethodStats> list, int top,
                               JetwNames names, CommandOptions o, TracingStarts starts, long from,
                               ClassesLeftAlone leftAlone) {
        StringBuilder s = new StringBuilder();
        s.append("== ").append(f).append(" (session ").append(session).append("): ").append(stats.calls())
                .append(" finished calls of ").append(list.size()).append(" methods");
        if (o.thread != null) {
            s.append(", thread ").append(o.thread);
        }
        if (o.fromMs != null || o.toMs != null) {
            s.append(", started in [").append(o.fromMs == null ? "start" : o.fromMs + " ms").append(", ")
                    .append(o.toMs == null ? "end" : o.toMs + " ms").append(')');
        }
        s.append(", sorted by ").append(o.sort).append('\n');
        if (list.isEmpty()) {
            s.append("(no finished jetw calls)\n");
        } else {
            s.append(String.format(Locale.ROOT, "%9s %11s %11s %9s %9s %9s %9s %9s %6s  %s%n", "calls", "total ms",
                    "self ms", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "exc", "method"));
            boolean late = false;
            for (int i = 0; i < Math.min(top, list.size()); i++) {
                MethodStats m = list.get(i);
                String note = tracedFromNote(starts, from, m.methodId());
                late |= !note.isEmpty();
                s.append(String.format(Locale.ROOT, "%9d %11s %11s %9s %9s %9s %9s %9s %6d  %s%s%n", m.calls(),
                        Text.millis(m.total()), Text.millis(m.self()), Text.millis(m.mean()),
                        Text.millis(m.quantile(0.5)), Text.millis(m.quantile(0.9)), Text.millis(m.quantile(0.99)),
                        Text.millis(m.max()), m.exceptions(), Text.safe(names.method(m.methodId())), note));
            }
            if (list.size() > top) {
                s.append("(").append(list.size() - top).append(" more methods; --top N shows more)\n");
            }
            if (late) {
                s.append("traced from +T s: the method's tracing began T s after the session start (its class was"
                        + " instrumented then: by the attach ramp, or when it loaded); its calls before are not in the"
                        + " trace. After an attach, the classes the application was running then are not in it at all,"
                        + " unless attached with attachHot=defer or now" + (leftAlone.isEmpty() ? "" : " (listed below)") + "\n");
            }
        }
        if (!leftAlone.isEmpty()) {
            leftAlone.countLine(s, "");
            leftAlone.list(s);
        }
        if (stats.halfSeen() > 0) {
            s.append("not counted: ").append(stats.halfSeen())
                    .append(" calls with only a START (running at stop, or END lost) or only an END (START lost)\n");
        }
        return s.toString();
    }

    private static String json(Path f, String session, CallStatistics stats, List<MethodStats> list, int top,
                               JetwNames names, TracingStarts starts, long from, ClassesLeftAlone leftAlone) {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("file").value(f.toString()).name("session").value(session);
        w.name("calls").value(stats.calls()).name("halfSeenCalls").value(stats.halfSeen());
        w.name("quantiles").value("log-bucket histogram, within 1 %");
        w.name("methods").beginArray();
        for (int i = 0; i < Math.min(top, list.size()); i++) {
            MethodStats m = list.get(i);
            w.beginObject().name("method").value(names.method(m.methodId())).name("id").value(m.methodId())
                    .name("calls").value(m.calls()).name("exceptions").value(m.exceptions())
                    .name("totalMs").value(m.total() / 10_000.0, 4).name("selfMs").value(m.self() / 10_000.0, 4)
                    .name("meanMs").value(m.mean() / 10_000.0, 4).name("p50Ms").value(m.quantile(0.5) / 10_000.0, 4)
                    .name("p90Ms").value(m.quantile(0.9) / 10_000.0, 4)
                    .name("p99Ms").value(m.quantile(0.99) / 10_000.0, 4).name("maxMs").value(m.max() / 10_000.0, 4);
            // When its tracing began (ms after the session start; null: the trace does not say), and whether late.
            long began = starts.began(m.methodId());
            w.name("tracedFromMs").value(began == TracingStarts.UNKNOWN ? Double.NaN : (began - starts.sessionStart()) / 10_000.0, 1)
                    .name("tracedLate").value(starts.beganLate(m.methodId(), from) != TracingStarts.UNKNOWN)
                    .endObject();
        }
        w.endArray();
        leftAlone.json(w);
        w.endObject();
        return w.toString();
    }
}
