package dev.jetw.agent.core;

import dev.jetw.etw.ConfigException;
import dev.jetw.etw.SessionConfig;

import java.nio.file.Paths;

/**
 * The one place that hands session keys (name, file, buffers, ...) to native-bridge's
 * SessionConfig. TEMPORARY: until SessionConfigParser publishes {@code isSessionKey} and
 * {@code apply(builder, key, value)} this knows only the keys below; then it delegates.
 */
final class SessionKeys {

    private SessionKeys() {
    }

    /** Applies {@code key=value} to the builder; false when {@code key} is not a session key. */
    static boolean apply(SessionConfig.Builder b, String key, String value) {
        switch (key) {
            case "name":
                b.sessionName(value);
                return true;
            case "file":
                b.logFile(Paths.get(value).toAbsolutePath().normalize());
                return true;
            case "bufferSize":
                b.bufferSizeKb(positive(key, value));
                return true;
            case "minBuffers":
                b.minimumBuffers(positive(key, value));
                return true;
            case "maxBuffers":
                b.maximumBuffers(positive(key, value));
                return true;
            case "flushTimer":
                b.flushTimerSeconds(positive(key, value));
                return true;
            default:
                return false;
        }
    }

    private static int positive(String key, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ConfigException(key, value, "allowed: a positive whole number");
    }
}
