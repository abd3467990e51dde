package dev.jetw.agent.core;

import dev.jetw.etw.ConfigException;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionConfigParser;
import dev.jetw.etw.TraceLevel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
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
final class AgentOptions {

    static final int DEFAULT_MAX_METHODS = 5000;

    final SessionConfig session;
    final List<Rule> rules;
    final List<MethodPattern> excludes;
    final int level;
    final int exceptionLevel;
    final int enableLevel;
    final String backend;
    final int maxMethods;
    final boolean bootstrap;
    final boolean verbose;
    /** null (attach), "status" or "detach". */
    final String command;
    /** Where a command writes its report; null to print it. */
    final Path out;
    /** The JVM runtime event families ({@code jvm=}), in JvmEventSchema.FAMILIES order; empty for {@code jvm=none}. */
    final Set<String> jvmFamilies;
    /** {@code jvmThreshold=}: shortest contention, park, I/O, compilation or safepoint written, in ns. */
    final long jvmThresholdNanos;

    private AgentOptions(Parser p, SessionConfig session) {
        this.session = session;
        List<Rule> resolved = new ArrayList<>();
        for (Rule r : p.rules) {
            int lvl = r.level < 0 ? p.level : r.level;
            resolved.add(r.pattern != null ? Rule.include(r.pattern, lvl) : Rule.annotation(r.annotation, lvl));
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
        this.command = p.command;
        this.out = p.out;
        this.jvmFamilies = Collections.unmodifiableSet(p.jvm);
        this.jvmThresholdNanos = p.jvmThresholdNanos;
    }

    /** Parses {@code key=value,...}; {@code config=PATH} entries come first, the string's own override them. */
    static AgentOptions parse(String options) {
        List<String[]> pairs = tokenize(options);
        List<String[]> all = new ArrayList<>();
        for (String[] kv : pairs) {
            if (kv[0].equalsIgnoreCase("config")) {
                all.addAll(readConfigFile(kv[1]));
            }
        }
        all.addAll(pairs);
        Parser p = new Parser();
        for (String[] kv : all) {
            p.apply(kv[0], kv[1]);
        }
        SessionConfig session = p.session.build();
        return new AgentOptions(p, session);
    }

    /**
     * Splits {@code a=1,b=2} with the session parser's tokenizer, so that a session list key
     * continues over bare tokens ({@code kernel=process,thread}); blank entries are ignored.
     */
    static List<String[]> tokenize(String text) {
        List<String[]> out = new ArrayList<>();
        Set<String> listKeys = new LinkedHashSet<>(SessionConfigParser.listKeys());
        listKeys.add(JvmFamilies.KEY);
        for (Map.Entry<String, String> e : SessionConfigParser.tokenize(text, listKeys)) {
            out.add(new String[] {e.getKey(), e.getValue()});
        }
        return out;
    }

    private static List<String[]> readConfigFile(String path) {
        Path file = Paths.get(path).toAbsolutePath();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("config", path, "cannot read " + file + " (" + e + "); allowed: a readable file of key=value lines");
        }
        List<String[]> out = new ArrayList<>();
        for (String line : lines) {
            String l = line.trim();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            for (String[] kv : tokenize(l)) {
                if (kv[0].equalsIgnoreCase("config")) {
                    throw new ConfigException("config", kv[1], "a config file cannot name another config file (" + file + ")");
                }
                out.add(kv);
            }
        }
        return out;
    }

    /** Accumulates options in order; later scalar values override earlier ones, lists grow. */
    private static final class Parser {
        final SessionConfig.Builder session = SessionConfig.builder()
                .sessionName("jetw-" + Pid.current())
                .logFile(Paths.get("jetw-" + Pid.current() + ".etl").toAbsolutePath().normalize());
        final List<Rule> rules = new ArrayList<>();
        final List<MethodPattern> excludes = new ArrayList<>();
        int level = TraceLevel.INFORMATION;
        int exceptionLevel = TraceLevel.ERROR;
        int enableLevel = TraceLevel.VERBOSE;
        String backend = "auto";
        int maxMethods = DEFAULT_MAX_METHODS;
        boolean bootstrap;
        boolean verbose;
        String command;
        Path out;
        Set<String> jvm = JvmFamilies.parse(JvmFamilies.KEY, JvmFamilies.DEFAULT);
        long jvmThresholdNanos = JvmFamilies.DEFAULT_THRESHOLD_NANOS;

        void apply(String rawKey, String value) {
            String key = canonical(rawKey);
            switch (key) {
                case "include":
                    for (String item : list(key, value)) {
                        int at = item.lastIndexOf('@');
                        String pattern = at < 0 ? item : item.substring(0, at);
                        int lvl = at < 0 ? -1 : ruleLevel(key, item, at);
                        rules.add(Rule.include(MethodPattern.parse(key, pattern), lvl));
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
                        int at = item.lastIndexOf('@');
                        String name = at < 0 ? item : item.substring(0, at);
                        if (!isBinaryName(name)) {
                            throw new ConfigException(key, item, "allowed: a fully qualified annotation name, optionally @level (com.acme.Timed@verbose)");
                        }
                        rules.add(Rule.annotation(name, at < 0 ? -1 : ruleLevel(key, item, at)));
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
                case "command":
                    if (!value.equals("status") && !value.equals("detach") && !value.equals("attach")) {
                        throw new ConfigException(key, value, "allowed: attach, status, detach");
                    }
                    command = value.equals("attach") ? null : value;
                    return;
                case "out":
                    out = Paths.get(value).toAbsolutePath();
                    return;
                case JvmFamilies.KEY:
                    jvm = JvmFamilies.parse(key, value);
                    return;
                case JvmFamilies.THRESHOLD_KEY:
                    jvmThresholdNanos = JvmFamilies.parseThreshold(key, value);
                    return;
                default:
                    if (!SessionKeys.apply(session, key, value)) {
                        throw new ConfigException(key, value, "unknown option; allowed: include, exclude, annotation, level, exceptionLevel, "
                                + "enableLevel, backend, config, maxMethods, bootstrap, verbose, jvm, jvmThreshold, and the session keys (docs/agent-options.md)");
                    }
            }
        }

        private static final String[] AGENT_KEYS = {"include", "exclude", "annotation", "level", "exceptionLevel", "enableLevel",
            "backend", "config", "maxMethods", "bootstrap", "verbose", "command", "out", JvmFamilies.KEY, JvmFamilies.THRESHOLD_KEY};

        /** Agent keys are case-insensitive, like the session keys. */
        private static String canonical(String key) {
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

        private static int level(String key, String value) {
            int l = TraceLevel.parse(value);
            if (l < 1 || l > 255) {
                throw new ConfigException(key, value, "allowed: critical, error, warning, information, verbose or 1-255");
            }
            return l;
        }

        /** The @level of a rule; an error names the whole rule. */
        private static int ruleLevel(String key, String item, int at) {
            int l = TraceLevel.parse(item.substring(at + 1));
            if (l < 1 || l > 255) {
                throw new ConfigException(key, item, "allowed: critical, error, warning, information, verbose or 1-255 after '@'");
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
