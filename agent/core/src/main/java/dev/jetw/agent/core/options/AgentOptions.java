package dev.jetw.agent.core.options;

import dev.jetw.bootstrap.OptionTokenizer;
import dev.jetw.etw.BackendLimits;
import dev.jetw.etw.ConfigException;
import dev.jetw.etw.EtwBackends;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.ProcessId;
import dev.jetw.etw.SessionConfigParser;
import dev.jetw.etw.UnpredictableBytes;
import dev.jetw.etl.TraceLevel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The agent's option string, parsed and validated: {@code key=value} pairs separated by commas,
 * the same at start-up ({@code -javaagent:jetw-agent.jar=OPTIONS}) and at attach. Every option
 * and its default: docs/agent-options.md. A bad option raises a {@link ConfigException} whose
 * message is the one line the agent prints.
 */
public final class AgentOptions {

    static final int DEFAULT_MAX_METHODS = 5000;
    /** {@code uninstrumentRate=}: classes per second the excluded-method remover retransforms at most. */
    static final int DEFAULT_UNINSTRUMENT_RATE = 200;

    public final SessionConfig session;
    public final List<Rule> rules;
    public final List<MethodPattern> excludes;
    public final int level;
    public final int exceptionLevel;
    public final int enableLevel;
    public final String backend;
    public final int maxMethods;
    public final boolean bootstrap;
    public final boolean verbose;
    /**
     * Calls shorter than this are not written, for rules without their own threshold; 0 writes every call;
     * -1 when {@code threshold=} is not given: every call, except that adaptive exclusion may give a hot method one.
     */
    public final long thresholdNanos;
    /** Hot, always-short methods stop emitting (AdaptiveExclusion); on unless adaptive=false. */
    public final boolean adaptive;
    /** Cross-thread links: tasks handed to another thread from a traced call carry it (docs/cross-thread.md); on unless propagate=false. */
    public final boolean propagate;
    /** {@code trivial=skip} (default): trivial methods of whole-class include rules are not instrumented (TrivialMethods). */
    public final boolean skipTrivial;
    /** Classes per second retransformed to remove the advice of excluded methods; 0: the advice stays. */
    public final int uninstrumentRate;
    /** {@code hotMethods=FILE}: an earlier trace's adaptive decisions, applied as methods are instrumented; null if not given. */
    public final HotMethods hotMethods;
    /** {@code attachHot=}: what the attach ramp does with the classes hot at attach (AttachHot); skip unless given. */
    public final AttachHot attachHot;
    /** null (attach), "status", "detach" or "dump". */
    public final String command;
    /** command=dump: the new file to write; null for the default next to the session's file. */
    public final Path dumpFile;
    /** Buffering mode: write the ring to the log file when the JVM exits (false: only ./jetw dump writes it). */
    public final boolean dumpOnExit;
    /** Where dumps go by default: the configured log file (also when dumpOnExit=false keeps it from the session). */
    public final Path logFile;
    /** Where a command writes its report; null to print it. */
    public final Path out;
    /** The JVM runtime event families ({@code jvm=}), in JvmEventSchema.FAMILIES order; empty for {@code jvm=none}. */
    public final Set<String> jvmFamilies;
    /** {@code jvmThreshold=}: shortest contention, park, I/O, compilation or safepoint written, in ns. */
    public final long jvmThresholdNanos;

    private AgentOptions(Parser p, SessionConfig configured) {
        this.dumpOnExit = p.dumpOnExit;
        this.logFile = configured.logFile();
        // dumpOnExit=false: the ring has no log file, so the stop at exit writes nothing.
        this.session = !p.dumpOnExit && configured.has(dev.jetw.etw.LogFileMode.BUFFERING)
                ? configured.toBuilder().logFile(null).build() : configured;
        this.dumpFile = p.dumpFile;
        List<Rule> resolved = new ArrayList<>();
        for (Rule r : p.rules) {
            resolved.add(r.resolved(p.level, p.thresholdNanos));
        }
        this.rules = Collections.unmodifiableList(resolved);
        this.excludes = Collections.unmodifiableList(p.excludes);
        this.level = p.level;
        this.exceptionLevel = p.exceptionLevel;
        this.enableLevel = p.enableLevel;
        this.backend = p.backend;
        this.maxMethods = p.maxMethods;
        this.bootstrap = p.bootstrap;
        this.verbose = p.verbose;
        this.thresholdNanos = p.thresholdNanos;
        this.adaptive = p.adaptive;
        this.propagate = p.propagate;
        this.hotMethods = p.hotMethods;
        this.attachHot = p.attachHot;
        this.uninstrumentRate = p.uninstrumentRate;
        if (hotMethods != null && !adaptive) {
            throw new ConfigException(HotMethods.KEY, hotMethods.path(), "continues an earlier run's adaptive exclusion and needs adaptive=true"
                    + " (given adaptive=false); allowed: leave out one of the two");
        }
        this.skipTrivial = p.skipTrivial;
        this.command = p.command;
        this.out = p.out;
        this.jvmFamilies = Collections.unmodifiableSet(p.jvm);
        this.jvmThresholdNanos = p.jvmThresholdNanos;
    }

    /**
     * Parses {@code key=value,...}; {@code config=PATH} entries come first, the string's own override them.
     * Within the string, and within the file, a key given twice is an error, except the list keys
     * include, exclude and annotation, whose entries add up.
     */
    public static AgentOptions parse(String options) {
        List<String[]> pairs = tokenize(options);
        rejectRepeatedKeys(pairs);
        Parser p = new Parser();
        for (String[] kv : pairs) {
            if (kv[0].equalsIgnoreCase("preset")) {
                p.preset(kv[1]); // first: every other option, in a config file too, overrides what the preset picks
            }
        }
        for (String[] kv : pairs) {
            if (kv[0].equalsIgnoreCase("config")) {
                applyConfigFile(p, kv[1]);
            }
        }
        for (String[] kv : pairs) {
            p.apply(kv[0], kv[1]);
        }
        p.session.backendLimits(limitsFor(p.backend));
        SessionConfig session = p.session.build();
        return new AgentOptions(p, session);
    }

    /** The limits of the backend {@code backend} (windows, portable, auto) chooses, so validation says what it will accept. */
    static BackendLimits limitsFor(String backend) {
        boolean portable = backend.equals("portable") || (backend.equals("auto") && !EtwBackends.isWindows());
        return portable ? BackendLimits.portable(Runtime.getRuntime().maxMemory()) : BackendLimits.ETW;
    }

    private static final List<String> LIST_KEYS = Arrays.asList("include", "exclude", "annotation");

    private static void rejectRepeatedKeys(List<String[]> pairs) {
        Map<String, String> seen = new HashMap<>();
        for (String[] kv : pairs) {
            String key = keyName(kv[0]);
            if (LIST_KEYS.contains(key)) {
                continue;
            }
            String first = seen.putIfAbsent(key.toLowerCase(Locale.ROOT), kv[1]);
            if (first != null) {
                throw new ConfigException(kv[0], kv[1], "given twice (first " + key + "=" + first + "); give each option once"
                        + " (only include, exclude and annotation may repeat: their entries add up)");
            }
        }
    }

    /** The canonical name of an agent or session key, or the key as written when it is neither. */
    private static String keyName(String key) {
        String agent = Parser.canonical(key);
        if (Arrays.asList(Parser.AGENT_KEYS).contains(agent)) {
            return agent;
        }
        String session = SessionConfigParser.canonicalKey(key);
        return session != null ? session : key;
    }

    /** Largest config file read; a config file is a few lines, anything far larger was named by mistake. */
    static final long MAX_CONFIG_BYTES = 1024 * 1024;

    /**
     * Applies a config file's key=value lines. Its content is never echoed in a message (config= may name
     * a file that is not a config file at all, e.g. /etc/passwd): a problem names the line number and,
     * for a known key, the key and what it allows.
     */
    private static void applyConfigFile(Parser p, String path) {
        Path file = Paths.get(path).toAbsolutePath();
        List<String> lines;
        try {
            if (!Files.isRegularFile(file)) {
                throw new ConfigException("config", path, "not a readable regular file (" + file + "); allowed: a file of key=value lines");
            }
            if (Files.size(file) > MAX_CONFIG_BYTES) {
                throw new ConfigException("config", path, "larger than " + MAX_CONFIG_BYTES / 1024 + " KB; allowed: a file of key=value lines");
            }
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("config", path, "cannot read " + file + " (" + e.getClass().getSimpleName()
                    + (e instanceof java.nio.charset.CharacterCodingException ? ": not UTF-8 text" : "")
                    + "); allowed: a readable file of key=value lines");
        }
        List<String[]> entries = new ArrayList<>();
        for (int n = 1; n <= lines.size(); n++) {
            String l = lines.get(n - 1).trim();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            try {
                for (String[] kv : tokenize(l)) {
                    entries.add(new String[] {kv[0], kv[1], Integer.toString(n)});
                }
            } catch (ConfigException e) {
                throw hidden(path, e, Integer.toString(n));
            }
        }
        try {
            rejectRepeatedKeys(entries);
        } catch (ConfigException e) {
            throw hidden(path, e, lineOf(entries, e.key()));
        }
        for (String[] kv : entries) {
            if (kv[0].equalsIgnoreCase("config")) {
                throw new ConfigException("config", path, "line " + kv[2] + ": a config file cannot name another config file");
            }
            try {
                p.apply(kv[0], kv[1]);
            } catch (ConfigException e) {
                throw hidden(path, e, kv[2]);
            }
        }
    }

    private static String lineOf(List<String[]> entries, String key) {
        String line = "?";
        for (String[] kv : entries) {
            if (kv[0].equals(key)) {
                line = kv[2]; // the last one: the repetition
            }
        }
        return line;
    }

    /** A config-file problem without the file's content: the key when it is one of ours, and what it allows. */
    private static ConfigException hidden(String path, ConfigException e, String line) {
        String key = e.key() == null ? "" : keyName(e.key());
        boolean known = Arrays.asList(Parser.AGENT_KEYS).contains(key) || SessionConfigParser.canonicalKey(key) != null;
        String prefix = e.key() + "=" + e.value() + ": ";
        String allowed = e.getMessage() != null && e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : "";
        if (!known || allowed.isEmpty() || (e.value() != null && !e.value().isEmpty() && allowed.contains(e.value()))) {
            return new ConfigException("config", path, "line " + line + " is not a valid jetw option (content not shown);"
                    + " allowed: key=value lines of the options in docs/agent-options.md");
        }
        return new ConfigException("config", path, "line " + line + ": option " + key + " (value not shown): " + allowed);
    }

    /**
     * Splits {@code a=1,b=2} with the agent's one tokenizer ({@link OptionTokenizer}), so that a list key
     * (the session's mode and kernel, and jvm) continues over bare tokens ({@code kernel=process,thread});
     * blank entries are ignored. A token that is not key=value is a ConfigException.
     */
    public static List<String[]> tokenize(String text) {
        Set<String> listKeys = new LinkedHashSet<>(SessionConfigParser.listKeys());
        listKeys.add(JvmFamilies.KEY);
        try {
            return OptionTokenizer.tokenize(text, listKeys);
        } catch (OptionTokenizer.Malformed m) {
            if (m.key.equalsIgnoreCase(STANDBY)) {
                throw standbyNotAlone(m.value);
            }
            throw new ConfigException(m.key, m.value, m.reason);
        }
    }

    /**
     * {@code standby}: the whole option string of a start-up that waits for a later attach. The entry class
     * ({@code dev.jetw.agent.AgentEntry}, agent/dist) takes it alone before the core is loaded, so it reaches the
     * options only where it is wrong: with a value, with other options, or given to {@code jetw attach}.
     */
    public static final String STANDBY = "standby";

    static ConfigException standbyNotAlone(String value) {
        return new ConfigException(STANDBY, value, "allowed only alone and at start-up, as -javaagent:jetw-agent.jar=standby"
                + " (the JVM then waits for jetw attach PID OPTIONS, which gives the tracing options)");
    }

    /**
     * {@code ./jetw-<pid>-<8 random hex digits>.etl}: the suffix makes the name unpredictable, so that nobody
     * can prepare that path (a link, a file) in a shared writable working directory before the JVM writes it
     * (the file is then created exclusively, owner-only: TraceFiles). Its 32 bits come from the kernel's random
     * device ({@link UnpredictableBytes}), not from a SecureRandom whose set-up cost premain ~15 ms.
     */
    static Path defaultLogFile() {
        String suffix = UnpredictableBytes.hex(4);
        return Paths.get("jetw-" + ProcessId.current() + "-" + suffix + ".etl").toAbsolutePath().normalize();
    }

    /** Accumulates options in order; later scalar values override earlier ones, lists grow. */
    private static final class Parser {
        final SessionConfig.Builder session = SessionConfig.builder()
                .sessionName("jetw-" + ProcessId.current())
                .logFile(defaultLogFile());
        final List<Rule> rules = new ArrayList<>();
        final List<MethodPattern> excludes = new ArrayList<>();
        int level = TraceLevel.INFORMATION;
        int exceptionLevel = TraceLevel.ERROR;
        int enableLevel = TraceLevel.VERBOSE;
        String backend = "auto";
        int maxMethods = DEFAULT_MAX_METHODS;
        boolean bootstrap;
        boolean verbose;
        /** -1 until {@code threshold=} is given. */
        long thresholdNanos = -1L;
        boolean adaptive = true;
        boolean propagate = true;
        int uninstrumentRate = DEFAULT_UNINSTRUMENT_RATE;
        HotMethods hotMethods;
        AttachHot attachHot = AttachHot.SKIP;
        boolean skipTrivial = true;
        String command;
        Path out;
        Path dumpFile;
        boolean dumpOnExit = true;

        /**
         * preset=always-on: the in-memory ring for leaving jetw on in production (docs/agent-options.md):
         * mode=buffering, 64 KB buffers, a 64-buffer ring (4 MB), written at exit (dumpOnExit=true) and
         * on demand by ./jetw dump.
         */
        void preset(String value) {
            if (!value.equalsIgnoreCase("always-on")) {
                throw new ConfigException("preset", value, "allowed: always-on");
            }
            SessionKeys.apply(session, "mode", "buffering");
            SessionKeys.apply(session, "bufferSize", "64k");
            SessionKeys.apply(session, "minBuffers", "64");
            SessionKeys.apply(session, "maxBuffers", "64");
        }
        Set<String> jvm = JvmFamilies.parse(JvmFamilies.KEY, JvmFamilies.DEFAULT);
        long jvmThresholdNanos = JvmFamilies.DEFAULT_THRESHOLD_NANOS;

        void apply(String rawKey, String value) {
            String key = canonical(rawKey);
            switch (key) {
                case "include":
                    for (String item : list(key, value)) {
                        int at = item.indexOf('@');
                        String pattern = at < 0 ? item : item.substring(0, at);
                        RuleSuffix s = RuleSuffix.parse(key, item, at);
                        rules.add(Rule.include(MethodPattern.parse(key, pattern), s.level, s.thresholdNanos));
                    }
                    return;
                case "exclude":
                    for (String item : list(key, value)) {
                        if (item.indexOf('@') >= 0) {
                            throw new ConfigException(key, item, "an exclude takes no @level; allowed: a package, class or class#method glob");
                        }
                        excludes.add(MethodPattern.parse(key, item));
                    }
                    return;
                case "annotation":
                    for (String item : list(key, value)) {
                        int at = item.indexOf('@');
                        String name = at < 0 ? item : item.substring(0, at);
                        if (!isBinaryName(name)) {
                            throw new ConfigException(key, item, "allowed: a fully qualified annotation name, optionally @level "
                                    + "and/or @threshold (com.acme.Timed@verbose@1ms)");
                        }
                        RuleSuffix s = RuleSuffix.parse(key, item, at);
                        rules.add(Rule.annotation(name, s.level, s.thresholdNanos));
                    }
                    return;
                case "level":
                    level = level(key, value);
                    return;
                case "exceptionLevel":
                    exceptionLevel = level(key, value);
                    return;
                case "enableLevel":
                    enableLevel = level(key, value);
                    return;
                case "backend":
                    String b = value.toLowerCase(Locale.ROOT);
                    if (!b.equals("windows") && !b.equals("portable") && !b.equals("auto")) {
                        throw new ConfigException(key, value, "allowed: windows, portable, auto");
                    }
                    backend = b;
                    return;
                case "config":
                    return; // read before everything else
                case "maxMethods":
                    try {
                        maxMethods = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        maxMethods = 0;
                    }
                    if (maxMethods <= 0 || maxMethods > 1_000_000) {
                        throw new ConfigException(key, value, "allowed: a whole number from 1 to 1000000");
                    }
                    return;
                case "bootstrap":
                    bootstrap = bool(key, value);
                    return;
                case "verbose":
                    verbose = bool(key, value);
                    return;
                case "threshold":
                    thresholdNanos = Durations.parseNanos(key, value, value);
                    return;
                case "adaptive":
                    adaptive = bool(key, value);
                    return;
                case "propagate":
                    propagate = bool(key, value);
                    return;
                case "trivial":
                    if (!value.equalsIgnoreCase("skip") && !value.equalsIgnoreCase("trace")) {
                        throw new ConfigException(key, value, "allowed: skip (getters, setters and other trivial methods are not instrumented), trace");
                    }
                    skipTrivial = value.equalsIgnoreCase("skip");
                    return;
                case "uninstrumentRate":
                    try {
                        uninstrumentRate = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        uninstrumentRate = -1;
                    }
                    if (uninstrumentRate < 0 || uninstrumentRate > 1000) {
                        throw new ConfigException(key, value, "allowed: a whole number of classes per second from 0 (keep the advice) to 1000");
                    }
                    return;
                case HotMethods.KEY:
                    hotMethods = HotMethods.read(value);
                    return;
                case AttachHot.KEY:
                    attachHot = AttachHot.parse(key, value);
                    return;
                case "command":
                    if (!value.equals("status") && !value.equals("detach") && !value.equals("attach") && !value.equals("dump")) {
                        throw new ConfigException(key, value, "allowed: attach, status, detach, dump");
                    }
                    command = value.equals("attach") ? null : value;
                    return;
                case "out":
                    out = Paths.get(value).toAbsolutePath();
                    return;
                case "dumpFile":
                    if (value.isEmpty()) {
                        throw new ConfigException(key, value, "allowed: the path of a new .etl file");
                    }
                    dumpFile = Paths.get(value).toAbsolutePath().normalize();
                    return;
                case "dumpOnExit":
                    dumpOnExit = bool(key, value);
                    return;
                case "preset":
                    return; // applied before everything else
                case STANDBY:
                    throw standbyNotAlone(value);
                case JvmFamilies.KEY:
                    jvm = JvmFamilies.parse(key, value);
                    return;
                case JvmFamilies.THRESHOLD_KEY:
                    jvmThresholdNanos = JvmFamilies.parseThreshold(key, value);
                    return;
                default:
                    if (!SessionKeys.apply(session, key, value)) {
                        throw new ConfigException(key, value, "unknown option; allowed: include, exclude, annotation, level, exceptionLevel, "
                                + "enableLevel, backend, config, maxMethods, bootstrap, verbose, threshold, adaptive, propagate, trivial, uninstrumentRate, hotMethods, attachHot, preset, dumpOnExit, jvm, jvmThreshold, and the session keys (docs/agent-options.md)");
                    }
            }
        }

        static final String[] AGENT_KEYS = {"include", "exclude", "annotation", "level", "exceptionLevel", "enableLevel",
            "backend", "config", "maxMethods", "bootstrap", "verbose", "threshold", "adaptive", "propagate", "trivial", "uninstrumentRate", HotMethods.KEY, AttachHot.KEY, "command", "out", "dumpFile", "dumpOnExit", "preset", JvmFamilies.KEY, JvmFamilies.THRESHOLD_KEY, STANDBY};

        /** Agent keys are case-insensitive, like the session keys. */
        static String canonical(String key) {
            for (String k : AGENT_KEYS) {
                if (k.equalsIgnoreCase(key)) {
                    return k;
                }
            }
            return key;
        }

        private static List<String> list(String key, String value) {
            List<String> items = new ArrayList<>();
            for (String s : value.split(";")) {
                if (!s.trim().isEmpty()) {
                    items.add(s.trim());
                }
            }
            if (items.isEmpty()) {
                throw new ConfigException(key, value, "allowed: one or more patterns separated by ';'");
            }
            return items;
        }

        static int level(String key, String value) {
            int l = TraceLevel.parse(value);
            if (l < 1 || l > 255) {
                throw new ConfigException(key, value, "allowed: critical, error, warning, information, verbose or 1-255");
            }
            return l;
        }

        private static boolean bool(String key, String value) {
            if (value.equalsIgnoreCase("true")) {
                return true;
            }
            if (value.equalsIgnoreCase("false")) {
                return false;
            }
            throw new ConfigException(key, value, "allowed: true, false");
        }

        private static boolean isBinaryName(String name) {
            if (name.isEmpty() || name.startsWith(".") || name.endsWith(".") || name.contains("..")) {
                return false;
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (!Character.isJavaIdentifierPart(c) && c != '.' && c != '$') {
                    return false;
                }
            }
            return true;
        }
    }
}
