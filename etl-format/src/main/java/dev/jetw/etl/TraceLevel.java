package dev.jetw.etl;

/** TRACE_LEVEL_* values. Enabling at level N includes every level at or below N. */
public final class TraceLevel {
    public static final int NONE = 0;
    public static final int CRITICAL = 1;
    public static final int ERROR = 2;
    public static final int WARNING = 3;
    public static final int INFORMATION = 4;
    public static final int VERBOSE = 5;

    private static final String[] NAMES = {"none", "critical", "error", "warning", "information", "verbose"};

    private TraceLevel() {
    }

    public static String name(int level) {
        return level >= 0 && level < NAMES.length ? NAMES[level] : Integer.toString(level);
    }

    /** Parses a level name (critical, error, warning, information/info, verbose) or a number 0-255; -1 if neither. */
    public static int parse(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("info")) {
            return INFORMATION;
        }
        if (t.equals("fatal")) {
            return CRITICAL;
        }
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(t)) {
                return i;
            }
        }
        try {
            int n = Integer.parseInt(t);
            return n >= 0 && n <= 255 ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
