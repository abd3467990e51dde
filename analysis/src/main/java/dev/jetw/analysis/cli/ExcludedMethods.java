package dev.jetw.analysis.cli;

import dev.jetw.etl.EtlRecord;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code summary} section listing the methods the agent stopped tracing while attached
 * (MethodExclusion events), by name and why, so that a user can trust what is absent.
 */
final class ExcludedMethods {

    private final JetwNames names = new JetwNames();
    private final List<JetwEvent> exclusions = new ArrayList<>();
    /** The records of classes an attach left alone: counted in one line, not one line each (hundreds on a library). */
    private final ClassesLeftAlone leftAlone = new ClassesLeftAlone();

    void accept(EtlRecord r) {
        JetwEvent e = JetwEvent.decode(r);
        names.accept(r, e);
        if (e != null && e.kind == JetwEvent.Kind.EXCLUSION && !leftAlone.accept(e)) {
            exclusions.add(e);
        }
    }

    /** "excluded methods:" and one line per exclusion; nothing when there is none. */
    void text(StringBuilder s) {
        if (exclusions.isEmpty() && leftAlone.isEmpty()) {
            return;
        }
        s.append("excluded methods (hot-short, hot-fast: no events after this point; hot-threshold=T: only its calls of at least T"
                + " after it):\n");
        for (JetwEvent e : exclusions) {
            if (e.methodId == 0) {
                s.append("  ").append(e.text).append('\n'); // a count of methods, not one method
            } else {
                s.append(String.format(Locale.ROOT, "  %s  %s\n", names.method(e.methodId), e.exclusionText()));
            }
        }
        leftAlone.countLine(s, "  ");
    }

    /**
     * {@code "excludedMethods": [{methodId, method, reason, callsObserved, longCalls, shortNanos}, ...]} and
     * {@code "classesLeftAloneAtAttach": [{class, why}, ...]}.
     */
    void json(JsonWriter w) {
        w.name("excludedMethods").beginArray();
        for (JetwEvent e : exclusions) {
            w.beginObject();
            w.field("methodId", e.methodId);
            w.field("method", e.methodId == 0 ? "" : names.method(e.methodId));
            w.field("reason", e.text);
            w.field("callsObserved", e.exclusionCounts[0]);
            w.field("longCalls", e.exclusionCounts[1]);
            w.field("shortNanos", e.exclusionCounts[2]);
            w.endObject();
        }
        w.endArray();
        leftAlone.json(w);
    }
}
