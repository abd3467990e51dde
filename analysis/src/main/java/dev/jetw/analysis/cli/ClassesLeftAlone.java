package dev.jetw.analysis.cli;

import dev.jetw.etl.JetwSchema;

import java.util.Map;
import java.util.TreeMap;

/**
 * The classes an attach with {@code attachHot=skip} left alone (MethodExclusion records naming no method, reason
 * "left alone at attach (attachHot=skip): CLASS (WHY)"; docs/attach-ramp.md): none of their methods is traced in that
 * attach. {@code summary} counts them in one line, {@code methods} lists them, so that a user looking for one of their
 * methods learns why it is absent.
 */
final class ClassesLeftAlone {

    /** Class name to why it was hot at attach; a class named by two attaches of one trace once. */
    private final Map<String, String> whyByClass = new TreeMap<>();

    /** True when {@code e} is such a record (then it is taken here, not listed as an excluded method). */
    boolean accept(JetwEvent e) {
        if (e == null || e.kind != JetwEvent.Kind.EXCLUSION || e.methodId != 0
                || !e.text.startsWith(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH)) {
            return false;
        }
        String rest = e.text.substring(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH.length());
        int open = rest.indexOf(" (");
        if (open < 0 || !rest.endsWith(")")) {
            whyByClass.put(rest, ""); // a cut record: its class, without why
        } else {
            whyByClass.put(rest.substring(0, open), rest.substring(open + 2, rest.length() - 1));
        }
        return true;
    }

    boolean isEmpty() {
        return whyByClass.isEmpty();
    }

    /**
     * "left alone at attach (attachHot=skip): N classes, not traced in that attach (A on a running stack, B compiled, ...);
     * jetw etl methods lists them" and a newline; nothing when there is none.
     */
    void countLine(StringBuilder s, String indent) {
        if (whyByClass.isEmpty()) {
            return;
        }
        Map<String, Integer> byWhy = new TreeMap<>();
        for (String why : whyByClass.values()) {
            byWhy.merge(why.isEmpty() ? "why not recorded" : why, 1, Integer::sum);
        }
        s.append(indent).append(JetwSchema.EXCLUSION_LEFT_ALONE_AT_ATTACH).append(whyByClass.size())
                .append(" classes, not traced in that attach (");
        String sep = "";
        for (String why : JetwSchema.LEFT_ALONE_WHY) {
            Integer n = byWhy.remove(why);
            if (n != null) {
                s.append(sep).append(n).append(' ').append(why);
                sep = ", ";
            }
        }
        for (Map.Entry<String, Integer> other : byWhy.entrySet()) {
            s.append(sep).append(other.getValue()).append(' ').append(other.getKey());
            sep = ", ";
        }
        s.append("); jetw etl methods lists them; attachHot=defer traces them\n");
    }

    /** One line per class, "  CLASS  (WHY)", in name order. */
    void list(StringBuilder s) {
        for (Map.Entry<String, String> e : whyByClass.entrySet()) {
            s.append("  ").append(e.getKey()).append("  (").append(e.getValue().isEmpty() ? "why not recorded" : e.getValue()).append(")\n");
        }
    }

    /** {@code "classesLeftAloneAtAttach": [{"class": C, "why": W}, ...]}, in name order. */
    void json(JsonWriter w) {
        w.name("classesLeftAloneAtAttach").beginArray();
        for (Map.Entry<String, String> e : whyByClass.entrySet()) {
            w.beginObject();
            w.field("class", e.getKey());
            w.field("why", e.getValue());
            w.endObject();
        }
        w.endArray();
    }
}
