package dev.jetw.agent.core.options;

import dev.jetw.etl.JvmEventSchema;
import dev.jetw.etw.ConfigException;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code jvm=} and {@code jvmThreshold=} options: which runtime event families go into the
 * session and the shortest duration worth an event. Why the default is what it is: docs/jvm-events.md.
 */
final class JvmFamilies {

    static final String KEY = "jvm";
    static final String THRESHOLD_KEY = "jvmThreshold";
    /**
     * Events that are rare, or written only when something was slow (threshold): cheap enough to leave
     * on. jit, classload, exception and thread grow with what the application does, not with trouble.
     */
    static final String DEFAULT = "gc,safepoint,contention,park,io";
    /** As JFR's own "default" settings (default.jfc) for monitor, park and I/O events. */
    static final long DEFAULT_THRESHOLD_NANOS = 20_000_000L;

    private static final String ALLOWED = "allowed: all, none, or a list of " + String.join(", ", JvmEventSchema.FAMILIES)
            + " (separated by ',' '+' or ';')";
    /** Compiled at the first jvmThreshold=: a first regex costs ~10 ms of premain (BENCHMARKS.md §15), and the default needs none. */
    private static final class Duration {
        static final Pattern PATTERN = Pattern.compile("(\\d{1,9})\\s*(ns|us|ms|s)?", Pattern.CASE_INSENSITIVE);
    }

    private JvmFamilies() {
    }

    /** The selected families in JvmEventSchema.FAMILIES order. */
    static Set<String> parse(String key, String value) {
        Set<String> named = new LinkedHashSet<>();
        List<String> items = items(value);
        for (String item : items) {
            String f = item.trim().toLowerCase(Locale.ROOT);
            if (f.isEmpty()) {
                continue;
            }
            if (f.equals("all")) {
                named.addAll(JvmEventSchema.FAMILIES);
            } else if (f.equals("none")) {
                if (items.size() > 1) {
                    throw new ConfigException(key, value, "none cannot be combined with families; " + ALLOWED);
                }
            } else if (JvmEventSchema.FAMILIES.contains(f)) {
                named.add(f);
            } else {
                throw new ConfigException(key, value, "unknown family '" + item.trim() + "'; " + ALLOWED);
            }
        }
        if (named.isEmpty() && !value.trim().equalsIgnoreCase("none")) {
            throw new ConfigException(key, value, ALLOWED);
        }
        Set<String> ordered = new LinkedHashSet<>();
        for (String f : JvmEventSchema.FAMILIES) {
            if (named.contains(f)) {
                ordered.add(f);
            }
        }
        return ordered;
    }

    /**
     * The items of a list separated by ',' '+' or ';', as {@code String.split("[,+;]")} gives them (trailing empty
     * items dropped), by a char test instead of a regex.
     */
    static List<String> items(String value) {
        List<String> items = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= value.length(); i++) {
            if (i == value.length() || value.charAt(i) == ',' || value.charAt(i) == '+' || value.charAt(i) == ';') {
                items.add(value.substring(from, i));
                from = i + 1;
            }
        }
        while (!items.isEmpty() && items.get(items.size() - 1).isEmpty()) {
            items.remove(items.size() - 1);
        }
        return items;
    }

    /** {@code 20ms}, {@code 500us}, {@code 1s}, {@code 0}: nanoseconds (a bare number is milliseconds). */
    static long parseThreshold(String key, String value) {
        Matcher m = Duration.PATTERN.matcher(value.trim());
        if (!m.matches()) {
            throw new ConfigException(key, value, "allowed: a duration such as 0, 500us, 20ms, 1s (a bare number is milliseconds)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2).toLowerCase(Locale.ROOT);
        switch (unit) {
            case "ns":
                return n;
            case "us":
                return n * 1_000L;
            case "ms":
                return n * 1_000_000L;
            default:
                return n * 1_000_000_000L;
        }
    }
}
