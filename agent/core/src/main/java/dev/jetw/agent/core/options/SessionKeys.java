package dev.jetw.agent.core.options;

import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionConfigParser;

import java.nio.file.Paths;

/**
 * The one place that hands session keys (name, file, buffers, mode, kernel, ...) to
 * native-bridge's SessionConfigParser, so the agent accepts exactly the keys, values and
 * messages of docs/configuration.md.
 */
final class SessionKeys {

    private SessionKeys() {
    }

    /** Applies {@code key=value} to the builder; false when {@code key} is not a session key. */
    static boolean apply(SessionConfig.Builder b, String key, String value) {
        String canonical = SessionConfigParser.canonicalKey(key);
        if (canonical == null) {
            return false;
        }
        SessionConfigParser.apply(b, key, value);
        if (canonical.equals(SessionConfigParser.FILE) && !value.trim().isEmpty()) {
            // (An empty file= stays empty, so that its error shows what was typed, not the working directory.)
            // The agent prints and reports the file it writes: absolute, against the JVM's working directory.
            b.logFile(Paths.get(value.trim()).toAbsolutePath().normalize());
        }
        return true;
    }
}
