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

    void accept(EtlRecord r) {
        JetwEvent e = JetwEvent.decode(r);
        names.accept(r, e);
        if (e != null && e.kind == JetwEvent.Kind.EXCLUSION) {
            exclusions.add(e);
        }
    }

    /** "excluded methods:" and one line per exclusion; nothing when there is none. */
    void text(StringBuilder s) {
        if (exclusions.isEmpty()) {
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
    }

    /** {@code "excludedMethods": [{methodId, method, reason, callsObserved, longCalls, shortNanos}, ...]}. */
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
    }
}
