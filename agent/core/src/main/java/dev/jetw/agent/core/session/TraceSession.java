package dev.jetw.agent.core.session;

import dev.jetw.etl.JetwSchema;
import dev.jetw.etw.ClassicProvider;
import dev.jetw.etw.EtwBackend;
import dev.jetw.etw.EtwException;
import dev.jetw.etw.SessionConfig;
import dev.jetw.etw.SessionStats;

/**
 * The ETW session the agent starts and owns, with jetw's classic provider registered and enabled
 * in it at the configured level. Stopping disables the provider first, so no write races the stop.
 */
public final class TraceSession {

    public final EtwBackend backend;
    public final SessionConfig config;
    public final ClassicProvider provider;

    private TraceSession(EtwBackend backend, SessionConfig config, ClassicProvider provider) {
        this.backend = backend;
        this.config = config;
        this.provider = provider;
    }

    public static TraceSession start(EtwBackend backend, SessionConfig config, int enableLevel) throws EtwException {
        ClassicProvider provider = ClassicProvider.register(backend, JetwSchema.CONTROL_GUID, JetwSchema.EVENT_CLASSES);
        try {
            backend.startSession(config);
            try {
                backend.enableProvider(config.sessionName(), JetwSchema.CONTROL_GUID, enableLevel, 0);
            } catch (EtwException e) {
                backend.stopSession(config.sessionName());
                throw e;
            }
        } catch (EtwException | RuntimeException e) {
            provider.close();
            throw e;
        }
        return new TraceSession(backend, config, provider);
    }

    /** The session's statistics now; null when it cannot be queried. */
    public SessionStats query() {
        try {
            return backend.querySession(config.sessionName());
        } catch (EtwException | RuntimeException e) {
            return null;
        }
    }

    /** Disables the provider, stops the session and unregisters; returns the final statistics (null if unknown). */
    public SessionStats stop() throws EtwException {
        EtwException failure = null;
        try {
            backend.disableProvider(config.sessionName(), JetwSchema.CONTROL_GUID);
        } catch (EtwException e) {
            failure = e;
        }
        provider.onDisable();
        SessionStats stats = null;
        try {
            backend.flushSession(config.sessionName());
        } catch (EtwException | RuntimeException e) {
            // the stop below still writes what is buffered
        }
        try {
            stats = backend.stopSession(config.sessionName());
        } catch (EtwException e) {
            failure = failure == null ? e : failure;
        }
        try {
            provider.close();
        } catch (EtwException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw failure;
        }
        return stats;
    }

    /** The log file as the session reports it, else as configured. */
    public String file() {
        if (config.logFile() != null) {
            return config.logFile().toString();
        }
        return config.has(dev.jetw.etw.LogFileMode.BUFFERING) ? "(none: in-memory ring, written by ./jetw dump)" : "(none: real-time)";
    }
}
