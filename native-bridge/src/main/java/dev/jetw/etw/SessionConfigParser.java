package dev.jetw.etw;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the session part of jetw's option syntax, {@code key=value,key=value}, in the style of
 * JFR's {@code -XX:StartFlightRecording=}. Keys are case-insensitive. A list key (mode, kernel)
 * takes values joined by {@code +}, or continued by the following comma-separated tokens that have
 * no {@code =}: {@code kernel=process,thread,cswitch,file=x.etl}.
 *
 * <p>The agent shares the string with keys of its own: it splits it with its own tokenizer
 * ({@code dev.jetw.bootstrap.OptionTokenizer}, the same rules as {@link #tokenize(String, Set)}, which this
 * library cannot use: applications put native-bridge on their class path, and must not get the agent's
 * boot-class-path jar with it), routes each entry with {@link #isSessionKey(String)} and hands session keys to
 * {@link #apply(SessionConfig.Builder, String, String)}. Ranges and mode combinations are checked
 * by {@link SessionConfigValidator} when the builder is built, so both entry points give the same
 * messages. Keys, defaults and messages: docs/configuration.md.
 */
public final class SessionConfigParser {

    public static final String NAME = "name";
    public static final String FILE = "file";
    public static final String BUFFER_SIZE = "bufferSize";
    public static final String MIN_BUFFERS = "minBuffers";
    public static final String MAX_BUFFERS = "maxBuffers";
    public static final String MAX_FILE_SIZE = "maxFileSize";
    public static final String MODE = "mode";
    public static final String FLUSH_TIMER = "flushTimer";
    public static final String KERNEL = "kernel";
    public static final String CLOCK = "clock";
    public static final String ORPHAN = "orphan";
    public static final String REAL_TIME_WITHOUT_CONSUMER = "realTimeWithoutConsumer";
    public static final String OVERWRITE = "overwrite";
    public static final String FILE_PERMISSIONS = "filePermissions";

    /** Joins the items of a list value; also what {@link #tokenize} joins continued items with. */
    public static final String LIST_SEPARATOR = "+";

    private static final List<String> KEYS = Collections.unmodifiableList(Arrays.asList(
            NAME, FILE, BUFFER_SIZE, MIN_BUFFERS, MAX_BUFFERS, MAX_FILE_SIZE, MODE, FLUSH_TIMER, KERNEL,
            CLOCK, ORPHAN, REAL_TIME_WITHOUT_CONSUMER, OVERWRITE, FILE_PERMISSIONS));

    private static final Set<String> LIST_KEYS =
            Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(MODE, KERNEL)));

    /** A size: digits and an optional unit k/m/g (with or without a trailing b). */
    /**
     * The value patterns, compiled at the first value that needs one: not in every JVM the agent starts in, where a
     * first regex costs ~10 ms of premain (BENCHMARKS.md §15) and the defaults need none.
     */
    private static final class Patterns {
        static final Pattern SIZE = Pattern.compile("(\\d{1,12})\\s*(?:([kmg])b?)?", Pattern.CASE_INSENSITIVE);
        static final Pattern WHOLE = Pattern.compile("\\d{1,10}");
        static final Pattern SECONDS = Pattern.compile("(\\d{1,10})\\s*s?", Pattern.CASE_INSENSITIVE);
    }

    private SessionConfigParser() {
    }

    /** The session keys in their canonical spelling, in documentation order. */
    public static List<String> sessionKeys() {
        return KEYS;
    }

    /** The session keys whose values are lists (canonical spelling). */
    public static Set<String> listKeys() {
        return LIST_KEYS;
    }

    /** True if {@code key} (any case, surrounding blanks ignored) is a session key. */
    public static boolean isSessionKey(String key) {
        return canonicalKey(key) != null;
    }

    /** The canonical spelling of a session key, or null if {@code key} is not one. */
    public static String canonicalKey(String key) {
        if (key == null) {
            return null;
        }
        String k = key.trim();
        for (String known : KEYS) {
            if (known.equalsIgnoreCase(k)) {
                return known;
            }
        }
        return null;
    }

    /**
     * Parses {@code options} (null or blank: all defaults) into a builder; only session keys are
     * allowed, each at most once. Throws {@link ConfigException} for an unknown key, a repeated key
     * or a malformed value; ranges and combinations are checked by {@link SessionConfig.Builder#build()}.
     */
    public static SessionConfig.Builder parse(String options) {
        SessionConfig.Builder b = SessionConfig.builder();
        Map<String, String> seen = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : tokenize(options)) {
            String key = canonicalKey(e.getKey());
            if (key == null) {
                throw unknownKey(e.getKey(), e.getValue());
            }
            String first = seen.put(key, e.getValue());
            if (first != null) {
                throw new ConfigException(e.getKey(), e.getValue(),
                        "given twice (first " + key + "=" + first + "); give each key once");
            }
            apply(b, key, e.getValue());
        }
        return b;
    }

    /** {@link #tokenize(String, Set)} with the session list keys (mode, kernel). */
    public static List<Map.Entry<String, String>> tokenize(String options) {
        return tokenize(options, LIST_KEYS);
    }

    /**
     * Splits {@code options} at commas into (key, value) pairs in order, keys and values trimmed,
     * keys as written. A token without {@code =} that follows a key in {@code listKeys} (compared
     * case-insensitively) continues that key's list: its items come back joined with {@code +}.
     * Empty tokens (a trailing comma) are skipped. Repeated keys are returned as they are.
     *
     * @throws ConfigException for a token without {@code =} that does not continue a list, or {@code =value} without a key
     */
    public static List<Map.Entry<String, String>> tokenize(String options, Set<String> listKeys) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        if (options == null) {
            return out;
        }
        String listKey = null;   // the key whose list a bare token continues, or null
        StringBuilder listValue = null;
        for (String raw : options.split(",", -1)) {
            String token = raw.trim();
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq < 0) {
                if (listKey == null) {
                    throw new ConfigException(token, "(no value)", "expected key=value; a bare value may only"
                            + " continue a list key (" + String.join(", ", listKeys) + ")");
                }
                listValue.append(LIST_SEPARATOR).append(token);
                continue;
            }
            if (listKey != null) {
                out.add(entry(listKey, listValue.toString()));
                listKey = null;
                listValue = null;
            }
            String key = token.substring(0, eq).trim();
            String value = token.substring(eq + 1).trim();
            if (key.isEmpty()) {
                throw new ConfigException("", value, "expected key=value; the key is missing");
            }
            if (containsIgnoreCase(listKeys, key)) {
                listKey = key;
                listValue = new StringBuilder(value);
            } else {
                out.add(entry(key, value));
            }
        }
        if (listKey != null) {
            out.add(entry(listKey, listValue.toString()));
        }
        return out;
    }

    /**
     * Sets one session key on {@code b}. List values replace the builder's list (so {@code mode=circular}
     * replaces the default sequential); items are separated by {@code +}.
     *
     * @throws ConfigException for an unknown key or a malformed value
     */
    public static void apply(SessionConfig.Builder b, String key, String value) {
        String k = canonicalKey(key);
        if (k == null) {
            throw unknownKey(key, value);
        }
        String v = value == null ? "" : value.trim();
        switch (k) {
            case NAME:
                b.sessionName(v);
                break;
            case FILE:
                b.logFile(parsePath(key, v));
                break;
            case BUFFER_SIZE:
                b.bufferSizeKb(parseSize(key, v, 1, SessionConfigValidator.BUFFER_SIZE_ALLOWED + ", written as 64, 64k or 1m"));
                break;
            case MIN_BUFFERS:
                b.minimumBuffers(parseWhole(key, v, SessionConfigValidator.MIN_BUFFERS_ALLOWED));
                break;
            case MAX_BUFFERS:
                b.maximumBuffers(parseWhole(key, v, "a whole number of buffers, at least minBuffers"));
                break;
            case MAX_FILE_SIZE:
                b.maximumFileSizeMb(parseSize(key, v, 1024, SessionConfigValidator.MAX_FILE_SIZE_ALLOWED + ", written as 100, 100m or 2g"));
                break;
            case MODE:
                b.modes(parseModes(key, v));
                break;
            case FLUSH_TIMER:
                b.flushTimerSeconds(parseSeconds(key, v));
                break;
            case KERNEL:
                b.kernelFlags(parseKernelFlags(key, v));
                // Users write kernel=process,thread,... and expect kernel events; on Windows 8+ that
                // takes a system-logger session (the backend uses the NT Kernel Logger before).
                b.kernelOptionImpliesSystemLogger = true;
                break;
            case CLOCK:
                b.clock(parseClock(key, v));
                break;
            case ORPHAN:
                b.orphanPolicy(parseOrphan(key, v));
                break;
            case REAL_TIME_WITHOUT_CONSUMER:
                b.realTimeWithoutConsumer(parseBoolean(key, v));
                break;
            case OVERWRITE:
                b.overwrite(parseBoolean(key, v));
                break;
            case FILE_PERMISSIONS:
                b.filePermissions(v);
                break;
            default:
                throw new AssertionError(k);
        }
    }

    /**
     * The options string that {@link #parse(String)} turns back into an equal configuration: every key
     * but an unset file, overwrite and filePermissions at their defaults, an empty kernel list and an empty mode set (which ETW treats as sequential).
     *
     * @throws ConfigException if the session name or file contains a comma, which the syntax cannot carry
     */
    public static String toOptions(SessionConfig c) {
        StringBuilder sb = new StringBuilder();
        append(sb, NAME, noComma(NAME, c.sessionName()));
        if (c.logFile() != null) {
            append(sb, FILE, noComma(FILE, c.logFile().toString()));
        }
        append(sb, BUFFER_SIZE, String.valueOf(c.bufferSizeKb()));
        append(sb, MIN_BUFFERS, String.valueOf(c.minimumBuffers()));
        append(sb, MAX_BUFFERS, String.valueOf(c.maximumBuffers()));
        append(sb, MAX_FILE_SIZE, String.valueOf(c.maximumFileSizeMb()));
        if (!c.modes().isEmpty()) {
            append(sb, MODE, modeList(c.modes()));
        }
        append(sb, FLUSH_TIMER, String.valueOf(c.flushTimerSeconds()));
        if (!c.kernelFlags().isEmpty()) {
            append(sb, KERNEL, kernelList(c.kernelFlags()));
        }
        append(sb, CLOCK, c.clock().optionName());
        append(sb, ORPHAN, c.orphanPolicy().optionName());
        append(sb, REAL_TIME_WITHOUT_CONSUMER, String.valueOf(c.realTimeWithoutConsumer()));
        if (c.overwrite()) {
            append(sb, OVERWRITE, "true");
        }
        if (!c.filePermissions().equals(TraceFiles.OWNER_ONLY)) {
            append(sb, FILE_PERMISSIONS, c.filePermissions());
        }
        return sb.toString();
    }

    /** Option names joined with {@code +}, in enum order: how messages and {@link #toOptions} show a mode set. */
    static String modeList(Set<LogFileMode> modes) {
        StringBuilder sb = new StringBuilder();
        for (LogFileMode m : modes) {
            sb.append(sb.length() == 0 ? "" : LIST_SEPARATOR).append(m.optionName());
        }
        return sb.toString();
    }

    static String kernelList(Set<KernelFlag> flags) {
        StringBuilder sb = new StringBuilder();
        for (KernelFlag f : flags) {
            sb.append(sb.length() == 0 ? "" : LIST_SEPARATOR).append(f.optionName());
        }
        return sb.toString();
    }

    // ---- values -------------------------------------------------------------------------------

    private static Path parsePath(String key, String v) {
        try {
            return Paths.get(v);
        } catch (InvalidPathException e) {
            throw new ConfigException(key, v, "allowed a log-file path (" + e.getReason() + ")");
        }
    }

    /**
     * A size in the key's unit: {@code unitKb} is 1 for KB, 1024 for MB. A suffix k, m or g (optionally
     * followed by b) converts; the result must be a whole number of the key's unit and fit an int.
     */
    private static int parseSize(String key, String v, long unitKb, String allowed) {
        Matcher m = Patterns.SIZE.matcher(v);
        if (!m.matches()) {
            throw new ConfigException(key, v, allowed);
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2);
        long kb;
        if (unit == null) {
            kb = n * unitKb;
        } else {
            switch (Character.toLowerCase(unit.charAt(0))) {
                case 'k': kb = n; break;
                case 'm': kb = n * 1024L; break;
                default: kb = n * 1024L * 1024L; break;
            }
        }
        if (kb % unitKb != 0) {
            throw new ConfigException(key, v, allowed + " (a whole number of " + (unitKb == 1 ? "KB" : "MB") + ")");
        }
        long result = kb / unitKb;
        if (result > Integer.MAX_VALUE) {
            throw new ConfigException(key, v, allowed);
        }
        return (int) result;
    }

    private static int parseWhole(String key, String v, String allowed) {
        if (!Patterns.WHOLE.matcher(v).matches() || Long.parseLong(v) > Integer.MAX_VALUE) {
            throw new ConfigException(key, v, "allowed " + allowed);
        }
        return Integer.parseInt(v);
    }

    private static int parseSeconds(String key, String v) {
        Matcher m = Patterns.SECONDS.matcher(v);
        if (!m.matches() || Long.parseLong(m.group(1)) > Integer.MAX_VALUE) {
            throw new ConfigException(key, v, SessionConfigValidator.FLUSH_TIMER_ALLOWED + ", written as 1 or 1s");
        }
        return Integer.parseInt(m.group(1));
    }

    private static Set<LogFileMode> parseModes(String key, String v) {
        Set<LogFileMode> modes = EnumSet.noneOf(LogFileMode.class);
        for (String item : items(key, v, allowedModes())) {
            LogFileMode m = LogFileMode.byOptionName(item);
            if (m == null) {
                throw new ConfigException(key, v, "unknown mode '" + item + "'; allowed " + allowedModes());
            }
            modes.add(m);
        }
        return modes;
    }

    private static Set<KernelFlag> parseKernelFlags(String key, String v) {
        Set<KernelFlag> flags = EnumSet.noneOf(KernelFlag.class);
        for (String item : items(key, v, allowedKernelFlags())) {
            KernelFlag f = KernelFlag.byOptionName(item);
            if (f == null) {
                throw new ConfigException(key, v, "unknown kernel flag '" + item + "'; allowed " + allowedKernelFlags());
            }
            flags.add(f);
        }
        return flags;
    }

    /** The {@code +}-separated items of a list value; none may be empty. */
    private static List<String> items(String key, String v, String allowed) {
        List<String> items = new ArrayList<>();
        for (String item : v.split(Pattern.quote(LIST_SEPARATOR), -1)) {
            String t = item.trim();
            if (t.isEmpty()) {
                throw new ConfigException(key, v, "an empty list item; allowed one or more of " + allowed
                        + ", joined by + or continued with commas");
            }
            items.add(t);
        }
        return items;
    }

    private static ClockType parseClock(String key, String v) {
        ClockType c = ClockType.byOptionName(v);
        if (c == null) {
            throw new ConfigException(key, v, SessionConfigValidator.CLOCK_ALLOWED);
        }
        return c;
    }

    private static OrphanPolicy parseOrphan(String key, String v) {
        for (OrphanPolicy p : OrphanPolicy.values()) {
            if (p.optionName().equalsIgnoreCase(v)) {
                return p;
            }
        }
        throw new ConfigException(key, v, SessionConfigValidator.ORPHAN_ALLOWED);
    }

    private static boolean parseBoolean(String key, String v) {
        if ("true".equalsIgnoreCase(v)) {
            return true;
        }
        if ("false".equalsIgnoreCase(v)) {
            return false;
        }
        throw new ConfigException(key, v, "allowed true or false");
    }

    // ---- helpers ------------------------------------------------------------------------------

    private static String allowedModes() {
        StringBuilder sb = new StringBuilder();
        for (LogFileMode m : LogFileMode.values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(m.optionName());
        }
        return sb.toString();
    }

    private static String allowedKernelFlags() {
        StringBuilder sb = new StringBuilder();
        for (KernelFlag f : KernelFlag.values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(f.optionName());
        }
        return sb.toString();
    }

    private static ConfigException unknownKey(String key, String value) {
        String suggestion = closestKey(key);
        return new ConfigException(key, value, "unknown key"
                + (suggestion == null ? "" : " (did you mean " + suggestion + "?)")
                + "; allowed keys: " + String.join(", ", KEYS));
    }

    /** The session key within two edits of {@code key} (case-insensitive), for "did you mean". */
    private static String closestKey(String key) {
        if (key == null) {
            return null;
        }
        String k = key.trim().toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = 3;
        for (String known : KEYS) {
            int d = editDistance(k, known.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = known;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static boolean containsIgnoreCase(Set<String> keys, String key) {
        for (String k : keys) {
            if (k.equalsIgnoreCase(key)) {
                return true;
            }
        }
        return false;
    }

    private static Map.Entry<String, String> entry(String key, String value) {
        return new AbstractMap.SimpleImmutableEntry<>(key, value);
    }

    private static void append(StringBuilder sb, String key, String value) {
        sb.append(sb.length() == 0 ? "" : ",").append(key).append('=').append(value);
    }

    private static String noComma(String key, String value) {
        if (value.indexOf(',') >= 0) {
            throw new ConfigException(key, value, "a comma cannot be written in the key=value option syntax");
        }
        return value;
    }
}
