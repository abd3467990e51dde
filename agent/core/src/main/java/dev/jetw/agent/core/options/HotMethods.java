package dev.jetw.agent.core.options;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ConfigException;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions an earlier trace's adaptive exclusion made (option {@code hotMethods=FILE}, a file that
 * {@code jetw etl hot-methods TRACE} writes): one line per method, {@code REASON CLASS.METHOD(DESCRIPTOR)}, the
 * reason {@code hot-short} or {@code hot-fast} (the method is registered, named and charged to the budget as
 * usual, but gets no advice) or {@code hot-threshold=DURATION} (it starts with that threshold, as if found hot
 * in its first window). Why: the agent's one-off cost on a whole library is the JIT compiling the advice of
 * methods it later excludes and compiling them again once the advice is gone (BENCHMARKS.md §7); a method
 * known to be hot and short from the start costs neither. {@code #} starts a comment line.
 */
public final class HotMethods {

    static final String KEY = "hotMethods";
    /** Largest file read: two lines of ~150 bytes for each of a million methods is far less. */
    static final long MAX_BYTES = 64L * 1024 * 1024;

    /** One method's decision: its reason as the earlier trace gave it, and the threshold (0 for an exclusion). */
    public static final class Decision {
        public final String reason;
        public final long thresholdNanos;

        public Decision(String reason, long thresholdNanos) {
            this.reason = reason;
            this.thresholdNanos = thresholdNanos;
        }

        public boolean excludes() {
            return thresholdNanos == 0;
        }
    }

    private final String path;
    private final Map<String, Decision> byMethod;

    private HotMethods(String path, Map<String, Decision> byMethod) {
        this.path = path;
        this.byMethod = byMethod;
    }

    /** Reads the file; a problem is one ConfigException naming the option, the line and what is allowed. */
    static HotMethods read(String path) {
        Path file = Paths.get(path).toAbsolutePath();
        List<String> lines;
        try {
            if (!Files.isRegularFile(file)) {
                throw new ConfigException(KEY, path, "not a readable regular file (" + file + "); allowed: a file written by 'jetw etl hot-methods'");
            }
            if (Files.size(file) > MAX_BYTES) {
                throw new ConfigException(KEY, path, "larger than " + MAX_BYTES / (1024 * 1024) + " MB; allowed: a file written by 'jetw etl hot-methods'");
            }
            lines = Arrays.asList(text(Files.readAllBytes(file)).split("\r\n|\r|\n", -1));
        } catch (IOException e) {
            throw new ConfigException(KEY, path, "cannot read " + file + " (" + e.getClass().getSimpleName()
                    + (e instanceof CharacterCodingException ? ": not UTF-8 text, nor UTF-16 with a byte-order mark" : "") + "); allowed: a file written by 'jetw etl hot-methods'");
        }
        Map<String, Decision> m = new HashMap<>();
        for (int n = 1; n <= lines.size(); n++) {
            String l = lines.get(n - 1).trim();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int space = l.indexOf(' ');
            String method = space < 0 ? "" : l.substring(space + 1).trim();
            Decision d = space < 0 ? null : decision(l.substring(0, space));
            // CLASS.METHOD(DESCRIPTOR): the registry's key, so the lookup at instrumentation is one hash probe.
            if (d == null || method.indexOf('(') < 2 || method.lastIndexOf('.', method.indexOf('(')) < 1 || method.indexOf(' ') >= 0) {
                // The content is not echoed: hotMethods= may name a file that is no such list.
                throw new ConfigException(KEY, path, "line " + n + " is not 'REASON CLASS.METHOD(DESCRIPTOR)' with REASON "
                        + JetwSchema.EXCLUSION_HOT_SHORT + ", " + JetwSchema.EXCLUSION_HOT_FAST + " or "
                        + JetwSchema.EXCLUSION_HOT_THRESHOLD + "DURATION; allowed: a file written by 'jetw etl hot-methods'");
            }
            Decision before = m.get(method);
            if (before == null || !before.excludes()) {
                m.put(method, d); // an exclusion wins over a threshold, as in the run that decided both
            }
        }
        return new HotMethods(path, Collections.unmodifiableMap(m));
    }

    /**
     * The file's text: UTF-8, or UTF-16 when it starts with a byte-order mark (Windows PowerShell 5's {@code >}
     * writes UTF-16LE with one; {@code jetw etl hot-methods -o FILE} writes UTF-8); a UTF-8 byte-order mark is skipped.
     */
    static String text(byte[] bytes) throws CharacterCodingException {
        java.nio.charset.Charset charset = StandardCharsets.UTF_8;
        int skip = 0;
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE) {
            charset = StandardCharsets.UTF_16LE;
            skip = 2;
        } else if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF) {
            charset = StandardCharsets.UTF_16BE;
            skip = 2;
        } else if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            skip = 3;
        }
        String text = charset.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                .decode(java.nio.ByteBuffer.wrap(bytes, skip, bytes.length - skip)).toString();
        if (text.indexOf('\u0000') >= 0) {
            throw new CharacterCodingException(); // UTF-16 without a byte-order mark decodes as UTF-8 full of NULs
        }
        return text;
    }

    private static Decision decision(String reason) {
        if (reason.equals(JetwSchema.EXCLUSION_HOT_SHORT) || reason.equals(JetwSchema.EXCLUSION_HOT_FAST)) {
            return new Decision(reason, 0L);
        }
        if (reason.startsWith(JetwSchema.EXCLUSION_HOT_THRESHOLD)) {
            try {
                long t = Durations.parseNanos(KEY, reason, reason.substring(JetwSchema.EXCLUSION_HOT_THRESHOLD.length()));
                return t > 0 ? new Decision(reason, t) : null;
            } catch (ConfigException e) {
                return null;
            }
        }
        return null;
    }

    /** The decision for {@code className.methodName descriptor}, or null. */
    public Decision of(String className, String methodName, String descriptor) {
        return byMethod.get(className + '.' + methodName + descriptor);
    }

    public int size() {
        return byMethod.size();
    }

    public String path() {
        return path;
    }
}
