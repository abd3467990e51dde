package dev.jetw.agent.core.options;

import dev.jetw.etw.ConfigException;

import java.util.Locale;

/**
 * Durations in options ({@code threshold=1ms}, {@code include=org.h2.**@500us}): a decimal number
 * and a unit (ns, us, ms, s); a bare {@code 0} means "no threshold". Kept in nanoseconds.
 */
public final class Durations {

    /** The longest threshold accepted: an hour, far beyond any useful one, and safe from overflow. */
    static final long MAX_NANOS = 3_600_000_000_000L;

    private static final String[] UNITS = {"ns", "us", "ms", "s"};
    private static final long[] NANOS = {1L, 1_000L, 1_000_000L, 1_000_000_000L};

    private Durations() {
    }

    /** True when {@code text} ends with a duration unit (so an {@code @}-suffix is a threshold, not a level). */
    static boolean looksLikeDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return t.equals("0") || unitIndex(t) >= 0 && t.length() > UNITS[unitIndex(t)].length()
                && Character.isDigit(t.charAt(0));
    }

    /** Parses a duration; the error names {@code key} and {@code item} (the whole rule for a per-rule threshold). */
    static long parseNanos(String key, String item, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0")) {
            return 0L;
        }
        int u = unitIndex(t);
        if (u >= 0) {
            try {
                double v = Double.parseDouble(t.substring(0, t.length() - UNITS[u].length()));
                double nanos = v * NANOS[u];
                if (v >= 0 && nanos <= MAX_NANOS) {
                    return Math.round(nanos);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new ConfigException(key, item, "allowed: a duration such as 0, 500us, 1ms, 2.5ms or 1s (units ns, us, ms, s; at most 1 hour)");
    }

    /** "1ms", "500us", "0": the shortest exact form, for messages and docs. */
    public static String format(long nanos) {
        if (nanos == 0) {
            return "0";
        }
        for (int i = NANOS.length - 1; i >= 0; i--) {
            if (nanos % NANOS[i] == 0) {
                return nanos / NANOS[i] + UNITS[i];
            }
        }
        return nanos + "ns";
    }

    private static int unitIndex(String t) {
        // Longest suffix first: "ms", "us", "ns" before "s".
        for (int i = 0; i < 3; i++) {
            if (t.endsWith(UNITS[i])) {
                return i;
            }
        }
        return t.endsWith("s") ? 3 : -1;
    }
}
